// Package gitstate is the typed store of a space's Git Sync state (the
// gitsync family's record), without Git: package gitsync reads and writes
// the state through it, and the reader links it to show "Edit on GitHub"
// and "Edit on GitLab" links (docs/reader.md) without linking go-git
// (docs/functions.md).
//
// The state holds no credential: repository URLs are kept without them
// (gitsync seals credentials in job payloads only).
package gitstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Get reads a space's state and its version; a space without one answers
// an empty state of that space and version 0.
func Get(ctx context.Context, s store.Store, spaceID string) (model.GitSync, int64, error) {
	return get(ctx, s, keys.GitSync(spaceID), model.GitSync{SpaceID: spaceID}, "Git Sync state")
}

// PreviewOf reads a space's preview of pull request number (false: none).
func PreviewOf(ctx context.Context, s store.Store, spaceID string, number int) (model.GitPreview, bool, error) {
	st, _, err := Get(ctx, s, spaceID)
	if err != nil {
		return model.GitPreview{}, false, err
	}
	p, ok := st.Previews[strconv.Itoa(number)]
	return p, ok, nil
}

// WriteOp writes a state read at version v (0: a new state), guarded by
// that version.
func WriteOp(st model.GitSync, v int64) store.Op {
	return writeOp(keys.GitSync(st.SpaceID), st, v)
}

// get reads the state at k and its version; none answers empty and 0.
func get[T any](ctx context.Context, s store.Store, k keys.Key, empty T, what string) (T, int64, error) {
	st, v, err := records.Get[T](ctx, s, k)
	if errors.Is(err, store.ErrNotFound) {
		return empty, 0, nil
	}
	if err != nil {
		return st, 0, fmt.Errorf("read %s: %w", what, err)
	}
	return st, v, nil
}

// writeOp writes st at k, read at version v (0: new), guarded by v.
func writeOp(k keys.Key, st any, v int64) store.Op {
	it := records.Item(k, st, v+1)
	if v == 0 {
		return store.Put(it, store.IfNotExists)
	}
	return store.PutIfVersion(it, v)
}

// Editor makes the edit URLs of a synced space's pages: the repository and
// branch it last synced with (an import or an export that succeeded),
// when they are a github.com or gitlab.com repository over https.
type Editor struct {
	// Provider is the provider's name as shown: "GitHub" or "GitLab".
	Provider string
	// base is the edit URL of the repository's branch, with "/".
	base string
	// dir is the docs' root in the repository ("" the top).
	dir string
	// files are the files the space owns there, by page id (shared by
	// the Editors of one list: never written).
	files map[string]string
}

// NewEditor answers the Editor of a state whose synced files are at hand
// (inline, as states written before SyncedList hold them); Editors.Of
// reads them from the state's blob. ok is false as Editors.Of says.
func NewEditor(st model.GitSync) (Editor, bool) {
	e, ok := newEditor(st)
	if ok {
		e.files = pageFiles(st.Synced)
	}
	return e, ok
}

// newEditor answers the Editor of a state without its files.
func newEditor(st model.GitSync) (Editor, bool) {
	if st.LastCommit == "" || st.LastURL == "" {
		return Editor{}, false
	}
	branch, ok := strings.CutPrefix(st.LastRef, "refs/heads/")
	if !ok || branch == "" {
		return Editor{}, false
	}
	provider, repo, ok := repository(st.LastURL)
	if !ok {
		return Editor{}, false
	}
	e := Editor{Provider: provider, dir: strings.Trim(st.Dir, "/")}
	switch provider {
	case "GitHub":
		e.base = "https://github.com/" + repo + "/edit/" + escape(branch) + "/"
	case "GitLab":
		e.base = "https://gitlab.com/" + repo + "/-/edit/" + escape(branch) + "/"
	}
	return e, true
}

// URL is the edit URL of a page: the file the space last synced it with
// (imported from or exported to), else file, the page's file as the page
// knows it (the one it was imported from, or where an export writes a new
// page), both relative to the docs' root. "" when there is neither.
func (e Editor) URL(pageID, file string) string {
	if f, ok := e.files[pageID]; ok {
		file = f
	}
	file = strings.TrimPrefix(path.Clean("/"+file), "/")
	if file == "" || e.base == "" {
		return ""
	}
	return e.base + escape(path.Join(e.dir, file))
}

// segment is a safe owner, group or repository name.
var segment = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// repository answers the provider and the repository path ("owner/repo",
// "group/sub/repo") of an https github.com or gitlab.com URL, without
// credentials, query or ".git".
func repository(raw string) (provider, repo string, ok bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Port() != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", "", false
	}
	parts := strings.Split(strings.TrimSuffix(strings.Trim(u.Path, "/"), ".git"), "/")
	for _, p := range parts {
		if !segment.MatchString(p) || p == "." || p == ".." {
			return "", "", false
		}
	}
	switch strings.ToLower(u.Hostname()) {
	case "github.com":
		if len(parts) != 2 {
			return "", "", false
		}
		return "GitHub", strings.Join(parts, "/"), true
	case "gitlab.com":
		if len(parts) < 2 || slices.Contains(parts, "-") {
			return "", "", false
		}
		return "GitLab", strings.Join(parts, "/"), true
	}
	return "", "", false
}

// escape escapes each segment of a slash-separated path.
func escape(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// GetSite reads a site's Git Sync state and its version; a site without
// one answers an empty state of that site and version 0.
func GetSite(ctx context.Context, s store.Store, siteID string) (model.SiteGitSync, int64, error) {
	return get(ctx, s, keys.SiteGitSync(siteID), model.SiteGitSync{SiteID: siteID}, "site Git Sync state")
}

// WriteSiteOp writes a site's state read at version v (0: a new state),
// guarded by that version.
func WriteSiteOp(st model.SiteGitSync, v int64) store.Op {
	return writeOp(keys.SiteGitSync(st.SiteID), st, v)
}

// polledRef is an item of the polled spaces' partition.
type polledRef struct {
	SpaceID string `json:"spaceId"`
}

// SetPolled lists a space among those whose branch the poll fallback
// looks at (polled), or takes it off.
func SetPolled(ctx context.Context, s store.Store, spaceID string, polled bool) error {
	k := keys.GitPolled(spaceID)
	op := store.Delete(k.PK, k.SK, store.Always)
	if polled {
		op = store.Put(records.Item(k, polledRef{spaceID}, 1), store.Always)
	}
	if err := s.Write(ctx, op); err != nil {
		return fmt.Errorf("write the polled spaces: %w", err)
	}
	return nil
}

// PolledSpaces lists the spaces whose branch the poll fallback looks at.
func PolledSpaces(ctx context.Context, s store.Store) ([]string, error) {
	items, err := store.QueryAll(ctx, s, store.Query{PK: keys.GitPollSpaces(), Limit: store.MaxQueryLimit})
	if err != nil {
		return nil, fmt.Errorf("list the polled spaces: %w", err)
	}
	var out []string
	for _, it := range items {
		var r polledRef
		if json.Unmarshal(it.Data, &r) == nil && r.SpaceID != "" {
			out = append(out, r.SpaceID)
		}
	}
	return out, nil
}
