// Package fsblob implements the blob-store port on a local directory: the
// blob store of local mode. Each object is one file whose path below the
// directory is its key, so the store can be inspected and backed up with
// ordinary tools.
package fsblob

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/galleydocs/galley/shared/blob"
)

// tempPattern names files being written. '~' is not allowed in keys, so a
// temporary file can never be mistaken for, or collide with, an object.
const tempPattern = ".~put-*"

// Store is the filesystem adapter.
type Store struct {
	dir string
}

var _ blob.Store = (*Store)(nil)

// New returns a store keeping its objects below dir, which is created if
// needed.
func New(dir string) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("fsblob: resolve %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("fsblob: create %s: %w", abs, err)
	}
	return &Store{dir: abs}, nil
}

// path maps a validated key to its file. ValidateKey has excluded every key
// that could resolve outside dir.
func (s *Store) path(key string) string {
	return filepath.Join(s.dir, filepath.FromSlash(key))
}

// Put implements blob.Store. The data goes to a temporary file in the target
// directory that is renamed over the key, so a reader sees the old object or
// the new one, never a partial write, even if the process dies midway. The
// content type is not kept: Get does not return it.
func (s *Store) Put(ctx context.Context, key string, data []byte, contentType string) error {
	if err := blob.ValidateKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	p := s.path(key)
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	f, err := os.CreateTemp(dir, tempPattern)
	if err != nil {
		return fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	tmp := f.Name()
	// Sync before the rename: otherwise a crash can leave the new name
	// pointing at a file whose data never reached the disk.
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("fsblob: put %s: %w", key, err)
	}
	// Make the rename itself durable; failing to sync the directory does not
	// undo the write, so it is not reported.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// Get implements blob.Store.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	if err := blob.ValidateKey(key); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fsblob: get %s: %w", key, err)
	}
	data, err := os.ReadFile(s.path(key))
	if err != nil {
		if absent(err) {
			return nil, fmt.Errorf("fsblob: get %s: %w", key, blob.ErrNotFound)
		}
		return nil, fmt.Errorf("fsblob: get %s: %w", key, err)
	}
	return data, nil
}

// Delete implements blob.Store.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := blob.ValidateKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("fsblob: delete %s: %w", key, err)
	}
	p := s.path(key)
	// A directory at the key is the parent of other objects, not an object:
	// removing it is removing a missing object.
	if fi, err := os.Lstat(p); err != nil || fi.IsDir() {
		if err != nil && !absent(err) {
			return fmt.Errorf("fsblob: delete %s: %w", key, err)
		}
		return nil
	}
	if err := os.Remove(p); err != nil && !absent(err) {
		return fmt.Errorf("fsblob: delete %s: %w", key, err)
	}
	return nil
}

// absent reports whether err means there is no object at the path: nothing
// there, a file where a parent directory would be ("a" for key "a/b"), or a
// directory where the file would be ("a" when only "a/b" exists).
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EISDIR)
}
