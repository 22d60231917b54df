package gitstate

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
)

// The synced files of a space (model.GitSync.SyncedList, a conflict's
// FilesList) are kept in a blob named by the hash of the list, not in the
// state's record: about 100 bytes a file, the list of a 5,000-page space
// already outgrows a DynamoDB item (400 KB). The blob is written before
// the record that names it, so that a crash between the two leaves at
// worst a blob nobody names; a list is never rewritten in place (its name
// is its content), so readers may cache it by name (Editors).

// SyncedKey names the blob of a space's list of synced files by its hash.
func SyncedKey(spaceID, hash string) string { return "spaces/" + spaceID + "/git-synced/" + hash }

// PutSynced stores a list of synced files (gzipped JSON) and answers its
// hash, the name for SyncedList ("" for an empty list, nothing written).
func PutSynced(ctx context.Context, blobs blob.Store, spaceID string, files []model.SyncedFile) (string, error) {
	if len(files) == 0 {
		return "", nil
	}
	raw, err := json.Marshal(files)
	if err != nil {
		return "", err
	}
	hash := content.Hash(raw)
	gz, err := blob.Gzip(raw)
	if err != nil {
		return "", err
	}
	if err := blobs.Put(ctx, SyncedKey(spaceID, hash), gz, "application/gzip"); err != nil {
		return "", fmt.Errorf("write the synced files: %w", err)
	}
	return hash, nil
}

// ReadSynced reads the list of synced files named hash ("": none).
func ReadSynced(ctx context.Context, blobs blob.Store, spaceID, hash string) ([]model.SyncedFile, error) {
	if hash == "" {
		return nil, nil
	}
	raw, err := blobs.Get(ctx, SyncedKey(spaceID, hash))
	if err != nil {
		return nil, fmt.Errorf("read the synced files %s: %w", hash, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("read the synced files %s: %w", hash, err)
	}
	var files []model.SyncedFile
	if err := json.NewDecoder(zr).Decode(&files); err != nil {
		return nil, fmt.Errorf("decode the synced files %s: %w", hash, err)
	}
	return files, nil
}

// SyncedOf answers a state's synced files: its blob's, else the list a
// state written before the blob holds inline.
func SyncedOf(ctx context.Context, blobs blob.Store, st model.GitSync) ([]model.SyncedFile, error) {
	if st.SyncedList != "" {
		return ReadSynced(ctx, blobs, st.SpaceID, st.SyncedList)
	}
	return st.Synced, nil
}

// Editors answers the Editor of a space (EditorOf) for the reader's
// pages, keeping the page-to-file maps of the lists read lately by their
// blob's name (a list never changes under its name), bounded by the files
// they hold in all.
type Editors struct {
	store store.Store
	blobs blob.Store
	max   int // files held in all

	mu    sync.Mutex
	held  int
	maps  map[string]map[string]string // by "<space>/<hash>"
	order []string                     // insertion order, for eviction
}

// NewEditors returns Editors over a store and its blob store, caching at
// most maxFiles files' paths in all (a list larger than that is read on
// each call, not kept).
func NewEditors(s store.Store, blobs blob.Store, maxFiles int) *Editors {
	return &Editors{store: s, blobs: blobs, max: maxFiles, maps: map[string]map[string]string{}}
}

// Of reads a space's state and answers its Editor; ok is false when the
// space never synced, or synced with a repository that is not an https
// github.com or gitlab.com one.
func (es *Editors) Of(ctx context.Context, spaceID string) (Editor, bool, error) {
	st, _, err := Get(ctx, es.store, spaceID)
	if err != nil {
		return Editor{}, false, err
	}
	e, ok := newEditor(st)
	if !ok {
		return Editor{}, false, nil
	}
	if st.SyncedList == "" {
		e.files = pageFiles(st.Synced)
		return e, true, nil
	}
	key := spaceID + "/" + st.SyncedList
	es.mu.Lock()
	m, hit := es.maps[key]
	es.mu.Unlock()
	if hit {
		e.files = m
		return e, true, nil
	}
	files, err := ReadSynced(ctx, es.blobs, spaceID, st.SyncedList)
	if err != nil {
		return Editor{}, false, err
	}
	e.files = pageFiles(files)
	es.keep(key, e.files)
	return e, true, nil
}

// keep caches a map, dropping the oldest ones past the bound.
func (es *Editors) keep(key string, m map[string]string) {
	if len(m) > es.max {
		return
	}
	es.mu.Lock()
	defer es.mu.Unlock()
	if _, ok := es.maps[key]; ok {
		return
	}
	for es.held+len(m) > es.max && len(es.order) > 0 {
		old := es.order[0]
		es.order = es.order[1:]
		es.held -= len(es.maps[old])
		delete(es.maps, old)
	}
	es.maps[key] = m
	es.order = append(es.order, key)
	es.held += len(m)
}

// pageFiles maps page ids to their synced files.
func pageFiles(files []model.SyncedFile) map[string]string {
	m := make(map[string]string, len(files))
	for _, f := range files {
		if f.Page != "" {
			m[f.Page] = f.Path
		}
	}
	return m
}
