package content

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Revision types (the reference's Revision variants Galley makes).
const (
	RevisionEdits  = "edits"
	RevisionMerge  = "merge"
	RevisionUpdate = "update"
)

// Repo reads and writes revisions, their trees and documents.
type Repo struct {
	d *deps.Deps
	// manifests are the tree index manifests this process read last.
	manifests *recent[indexManifest]
	// unwritten are the indexes this process built but could not write
	// (treeindex.go): its next reads of those trees use them.
	unwritten *recent[*unwrittenIndex]
	// trees are the trees this process decoded or wrote last (Tree).
	trees *recent[*Tree]
}

// keptTreePages bounds the trees Repo keeps decoded, by their pages: a
// decoded page weighs about 500 bytes (its struct about 280, measured: 13.4
// MiB for 50,000; its strings the rest), so about 25 MB (one 50,000-page
// tree, or ten of 5,000). An edit decodes its base tree and encodes the
// new one: at 5,000 pages decoding was about 60% of an edit's CPU
// (docs/content.md, "Cost"); the next edit's base is usually the tree the
// last one wrote, kept here.
const keptTreePages = 50_000

// NewRepo returns the revision storage of d.
func NewRepo(d *deps.Deps) *Repo {
	return &Repo{d: d, manifests: newRecent[indexManifest](manifestCacheSize), unwritten: newRecent[*unwrittenIndex](builtCacheSize),
		trees: newRecent[*Tree](keptTreePages)}
}

// Blob keys: content-addressed, per space (so a space's blobs can be
// removed with it). Trees are gzipped JSON; documents and files raw.
func treeKey(spaceID, hash string) string { return "spaces/" + spaceID + "/trees/" + hash }
func documentKey(spaceID, hash string) string {
	return "spaces/" + spaceID + "/documents/" + hash
}
func fileKey(spaceID, hash string) string { return "spaces/" + spaceID + "/files/" + hash }

// Hash is the content hash naming documents, trees and files.
func Hash(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// Revision reads a revision record.
func (r *Repo) Revision(ctx context.Context, spaceID, revisionID string) (model.Revision, error) {
	rev, _, err := records.Get[model.Revision](ctx, r.d.Store, keys.Revision(spaceID, revisionID))
	if errors.Is(err, store.ErrNotFound) {
		return rev, apperr.NotFoundf("revision %s not found", revisionID)
	}
	if err != nil {
		return rev, fmt.Errorf("read revision: %w", err)
	}
	return rev, nil
}

// Tree reads a revision's tree (one blob read; none for empty content,
// nor for a tree this process decoded or wrote lately: a tree is
// content-addressed and never changes, and the caller gets a copy of the
// kept one, which it may change).
func (r *Repo) Tree(ctx context.Context, rev model.Revision) (*Tree, error) {
	if rev.Tree == "" {
		return &Tree{Pages: []Page{}, Files: []File{}}, nil
	}
	key := treeKey(rev.SpaceID, rev.Tree)
	if t, ok := r.trees.get(key); ok {
		return t.Clone(), nil
	}
	t, err := r.decodeTree(ctx, rev)
	if err != nil {
		return nil, err
	}
	r.keepTree(key, t)
	return t, nil
}

// keepTree keeps a copy of t, the tree stored under key.
func (r *Repo) keepTree(key string, t *Tree) {
	if n := max(1, len(t.Pages)); n <= keptTreePages {
		r.trees.putWeighed(key, t.Clone(), n)
	}
}

// decodeTree reads and decodes a revision's tree from the blob store.
func (r *Repo) decodeTree(ctx context.Context, rev model.Revision) (*Tree, error) {
	raw, err := r.d.Blobs.Get(ctx, treeKey(rev.SpaceID, rev.Tree))
	if err != nil {
		return nil, fmt.Errorf("read tree of revision %s: %w", rev.ID, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("read tree of revision %s: %w", rev.ID, err)
	}
	var t Tree
	if err := json.NewDecoder(zr).Decode(&t); err != nil {
		return nil, fmt.Errorf("decode tree of revision %s: %w", rev.ID, err)
	}
	if t.Pages == nil {
		t.Pages = []Page{}
	}
	if t.Files == nil {
		t.Files = []File{}
	}
	return &t, nil
}

// Load reads a revision and indexes its tree.
func (r *Repo) Load(ctx context.Context, spaceID, revisionID string) (model.Revision, *Index, error) {
	rev, err := r.Revision(ctx, spaceID, revisionID)
	if err != nil {
		return rev, nil, err
	}
	t, err := r.Tree(ctx, rev)
	if err != nil {
		return rev, nil, err
	}
	return rev, NewIndex(t), nil
}

// PutTree stores a tree and returns its key (its hash; "" for empty content).
func (r *Repo) PutTree(ctx context.Context, spaceID string, t *Tree) (string, error) {
	if len(t.Pages) == 0 && len(t.Files) == 0 && len(t.ReusableContents) == 0 && len(t.Variables) == 0 {
		return "", nil
	}
	raw, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	hash := Hash(raw)
	gz, err := blob.Gzip(raw)
	if err != nil {
		return "", err
	}
	if err := r.d.Blobs.Put(ctx, treeKey(spaceID, hash), gz, "application/gzip"); err != nil {
		return "", fmt.Errorf("write tree: %w", err)
	}
	r.keepTree(treeKey(spaceID, hash), t)
	return hash, nil
}

// Document reads a page body by its hash ("" is the empty body).
func (r *Repo) Document(ctx context.Context, spaceID, hash string) (string, error) {
	if hash == "" {
		return "", nil
	}
	raw, err := r.d.Blobs.Get(ctx, documentKey(spaceID, hash))
	if err != nil {
		return "", fmt.Errorf("read document %s: %w", hash, err)
	}
	return string(raw), nil
}

// PutDocument stores a page body and returns its hash ("" for an empty
// body). Storing a body that exists rewrites the same bytes.
func (r *Repo) PutDocument(ctx context.Context, spaceID, body string) (string, error) {
	if body == "" {
		return "", nil
	}
	hash := Hash([]byte(body))
	if err := r.d.Blobs.Put(ctx, documentKey(spaceID, hash), []byte(body), "text/markdown; charset=utf-8"); err != nil {
		return "", fmt.Errorf("write document: %w", err)
	}
	return hash, nil
}

// PutFileBytes stores a file's bytes and returns their hash.
func (r *Repo) PutFileBytes(ctx context.Context, spaceID string, data []byte, contentType string) (string, error) {
	hash := Hash(data)
	if err := r.d.Blobs.Put(ctx, fileKey(spaceID, hash), data, contentType); err != nil {
		return "", fmt.Errorf("write file: %w", err)
	}
	return hash, nil
}

// FileBytes reads a file's bytes by their hash.
func (r *Repo) FileBytes(ctx context.Context, spaceID, hash string) ([]byte, error) {
	data, err := r.d.Blobs.Get(ctx, fileKey(spaceID, hash))
	if errors.Is(err, blob.ErrNotFound) {
		return nil, apperr.NotFoundf("file not found")
	}
	return data, err
}

// NewRevision stores ix's tree and returns a new revision of it, not yet
// written: its item goes into the caller's transaction (see Put).
func (r *Repo) NewRevision(ctx context.Context, spaceID, typ string, parents []string, ix *Index) (model.Revision, error) {
	key, err := r.PutTree(ctx, spaceID, ix.Tree())
	if err != nil {
		return model.Revision{}, err
	}
	return model.Revision{ID: ids.New(r.d.Clock()), SpaceID: spaceID, Parents: parents, Type: typ,
		CreatedAt: r.d.Clock(), Tree: key}, nil
}

// Put is the operation writing a new revision's item; revisions are never
// rewritten.
func Put(rev model.Revision) store.Op {
	return store.Put(records.Item(keys.Revision(rev.SpaceID, rev.ID), rev, 1), store.IfNotExists)
}
