package gitsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/gitsync/gitjob"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
)

// An export writes what the space changed since its last sync with the
// repository, and nothing else (docs/workers.md, Git Sync):
//
//   - A page keeps the file it came from (or was last written to) unless
//     it moved (another parent) or was renamed (another slug); a new or
//     moved page gets <path>.md, its slug path from the root
//     (<path>/README.md with child pages), as DEVELOPERS.md decides.
//   - A page whose content and metadata did not change is written back as
//     it was, byte for byte; only the relative links in it whose targets
//     moved are rewritten. A page whose body changed keeps its original
//     frontmatter and title lines when its metadata did not change.
//   - SUMMARY.md is rewritten only when the tree's order, nesting, titles
//     or files changed, and then only where they changed: the change from
//     the last sync's rendering to the current one is merged into the
//     branch's file (content.Merge3Theirs).
//   - A file is deleted only when the space wrote or imported it (the
//     state's Synced list) and it is no longer the space's; every other
//     file of the branch stays.
//   - Nothing changed, nothing committed. An export to a branch that does
//     not exist starts from the branch the space synced with (else the
//     repository's default branch).
func (s *Service) runExport(ctx context.Context, j queue.Job, p payload, r *remote) error {
	sp, err := s.readSpace(ctx, p.SpaceID)
	if apperr.Is(err, apperr.NotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	target, err := r.fetch(ctx, p.Ref)
	if err != nil {
		return s.fail(ctx, p, j, fmt.Errorf("fetch %s: %w", p.Ref, gitError(err)))
	}
	st, _, err := s.state(ctx, p.SpaceID)
	if err != nil {
		return err
	}
	if target.commit != nil {
		in, err := s.intent(ctx, p.SpaceID, j.ID, target.commit.Hash.String())
		if err != nil {
			return err
		}
		if in != nil {
			// An earlier delivery pushed this commit and was stopped
			// before its outcome was written: its outcome, not a layout
			// made now (the branch holds the new files already, which
			// the space does not own yet: they would take other names).
			return s.concludePush(ctx, p, j, *in)
		}
	}
	if p.Auto {
		if st, err = s.settleConflict(ctx, p, st); errors.Is(err, errWaiting) {
			return s.waitConflict(ctx, p, j, *st.Conflict)
		} else if err != nil {
			return err
		}
	}
	base := target
	if target.commit == nil {
		// A new branch starts from the one the space synced with, else
		// from the default branch.
		from := ""
		if st.LastURL == p.URL && st.LastRef != "" && st.LastRef != p.Ref {
			from = st.LastRef
		}
		if base, err = r.fetch(ctx, from); err == nil && base.commit == nil && from != "" {
			base, err = r.fetch(ctx, "")
		}
		if err != nil {
			return s.fail(ctx, p, j, fmt.Errorf("fetch the branch to start %s from: %w", p.Ref, gitError(err)))
		}
		if base.commit == nil && base.branches > 0 {
			// Never a commit without a parent in a repository that has
			// history: it would share nothing with its other branches.
			return s.fail(ctx, p, j, fmt.Errorf("%w: the repository names no default branch to start %s from; export to an existing branch first",
				errNoRef, p.Ref))
		}
	}
	if err := s.stage(ctx, p, j, "content_process"); err != nil {
		return err
	}
	dir := p.ProjectDir
	if p.LastDir && st.LastURL == p.URL && st.Dir != "" {
		dir = projectDirOf(base, st.Dir)
	}
	revision := sp.Revision
	if p.Revision != "" {
		revision = p.Revision // a merge's export: that merge's revision
	}
	moved := target.commit != nil && st.LastCommit != "" && st.LastURL == p.URL && st.LastRef == p.Ref && st.LastCommit != target.commit.Hash.String()
	if p.Auto && moved {
		if revision == st.LastRevision {
			// Only the branch changed: nothing to export (its commits
			// are imported on their own).
			return s.conclude(ctx, p, j, func(op *model.GitOperation) { op.State, op.Error = model.GitSuccess, "" }, nil)
		}
		// Both changed: never over the branch's commits.
		return s.proposeConflict(ctx, j, p, st, target, dir)
	}
	w := &writer{st: base.st, made: map[plumbing.Hash]bool{}}
	lay, err := s.layoutSpace(ctx, sp, revision, st, p.URL, dir, base, w)
	if err != nil {
		return err
	}
	rev, files, owned, l := lay.rev, lay.files, lay.owned, lay.l
	tree, err := w.tree(files)
	if err != nil {
		return fmt.Errorf("write the tree: %w", err)
	}
	old := plumbing.ZeroHash
	done := func(commit string) error {
		return s.conclude(ctx, p, j, func(op *model.GitOperation) {
			op.State, op.Error, op.Commit, op.Revision = model.GitSuccess, "", commit, rev.ID
		}, &synced{commit: commit, revision: rev.ID, files: owned, dir: l.dir, pushed: commit != old.String(), tree: tree.String()})
	}
	if target.commit != nil {
		old = target.commit.Hash
		if target.commit.TreeHash == tree {
			// The branch holds this content already (nothing changed, or
			// this export was pushed by an earlier delivery): no commit.
			return done(old.String())
		}
		if !p.Force && st.LastCommit != "" && st.LastURL == p.URL && st.LastRef == p.Ref && st.LastCommit != old.String() {
			return s.fail(ctx, p, j, fmt.Errorf("%w: %s has commits the space has not imported (it is at %s, the space last synced with %s); import them first, or export with force",
				errNotFastForward, p.Ref, short(old.String()), short(st.LastCommit)))
		}
	}
	hash, err := s.newCommit(w, base, tree, p.CommitMessage, p.Author)
	if err != nil {
		return err
	}
	if err := s.stage(ctx, p, j, "finalize"); err != nil {
		return err
	}
	in := pushIntent{Commit: hash.String(), Revision: rev.ID, Files: owned, Dir: l.dir, Tree: tree.String()}
	if err := s.keepIntent(ctx, p.SpaceID, j.ID, in); err != nil {
		return err
	}
	if err := r.push(ctx, w, p.Ref, old, hash); err != nil {
		in, now, lerr := s.landed(ctx, r, p.Ref, p.SpaceID, j.ID)
		switch {
		case lerr != nil:
			return lerr
		case in != nil:
			return s.concludePush(ctx, p, j, *in)
		case now != nil && now.commit != nil && now.commit.Hash != old:
			// The branch moved between the fetch and the push (someone
			// else's commits): a conflict like one found at the fetch.
			s.dropIntent(ctx, p.SpaceID, j.ID)
			if p.Auto && st.LastCommit != "" && st.LastURL == p.URL && st.LastRef == p.Ref {
				return s.proposeConflict(ctx, j, p, st, now, dir)
			}
			return s.fail(ctx, p, j, fmt.Errorf("%w: %s moved while the export pushed (it is at %s now, the export was made on %s); import its commits first, or export with force",
				errNotFastForward, p.Ref, short(now.commit.Hash.String()), short(old.String())))
		}
		return s.fail(ctx, p, j, fmt.Errorf("push %s: %w", p.Ref, gitError(err)))
	}
	s.d.Logger.InfoContext(ctx, "Git export", "space", p.SpaceID, "job", j.ID, "url", fetch.Redact(p.URL), "ref", p.Ref,
		"commit", hash.String(), "revision", rev.ID)
	return s.concludePush(ctx, p, j, in)
}

// pushIntent is what an export is about to push, kept before it pushes
// (each push of the job, in a blob named by the job): the commit, and the
// outcome it concludes with (a site's: each space's, by id).
type pushIntent struct {
	Commit   string                `json:"commit,omitempty"`
	Revision string                `json:"revision,omitempty"`
	Files    []model.SyncedFile    `json:"files,omitempty"`
	Dir      string                `json:"dir,omitempty"`
	Tree     string                `json:"tree,omitempty"`
	Spaces   map[string]pushIntent `json:"spaces,omitempty"`
}

// intentKey names the blob of a job's push intents, by the space's id
// ("site-" and the site's id for a site's job).
func intentKey(owner, jobID string) string { return "spaces/" + owner + "/git-pushes/" + jobID }

// intents reads a job's push intents (none: nil).
func (s *Service) intents(ctx context.Context, owner, jobID string) ([]pushIntent, error) {
	raw, err := s.d.Blobs.Get(ctx, intentKey(owner, jobID))
	if errors.Is(err, blob.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the export's pushes: %w", err)
	}
	var list []pushIntent
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("read the export's pushes: %w", err)
	}
	return list, nil
}

// keepIntent adds a push to a job's intents (a delivery before may have
// pushed another commit, whose push may land yet).
func (s *Service) keepIntent(ctx context.Context, owner, jobID string, in pushIntent) error {
	list, err := s.intents(ctx, owner, jobID)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(append(list, in))
	if err != nil {
		return err
	}
	if err := s.d.Blobs.Put(ctx, intentKey(owner, jobID), raw, "application/json"); err != nil {
		return fmt.Errorf("keep the export's push: %w", err)
	}
	return nil
}

// intent is the job's intent of commit (nil: the job never meant to push
// it).
func (s *Service) intent(ctx context.Context, owner, jobID, commit string) (*pushIntent, error) {
	list, err := s.intents(ctx, owner, jobID)
	if err != nil {
		return nil, err
	}
	for i := range list {
		if list[i].Commit == commit {
			return &list[i], nil
		}
	}
	return nil, nil
}

// landed explains a push that failed (refused as non-fast-forward, or
// its ref not locked): did the branch move since the job fetched it by an
// earlier delivery's push of the job, still under way at the fetch (its
// process was killed, the server went on)? It answers that push's
// intent, or nil and the branch as it is now (someone else's commits;
// nil: another failure, the push's stands).
func (s *Service) landed(ctx context.Context, r *remote, ref, owner, jobID string) (*pushIntent, *snapshot, error) {
	now, err := r.fetch(ctx, ref)
	if err != nil || now.commit == nil {
		return nil, nil, nil // the push's failure stands
	}
	in, err := s.intent(ctx, owner, jobID, now.commit.Hash.String())
	return in, now, err
}

// concludePush concludes an export that pushed in.Commit, then drops its
// intent (a failure to drop it is only logged: a blob left behind).
func (s *Service) concludePush(ctx context.Context, p payload, j queue.Job, in pushIntent) error {
	err := s.conclude(ctx, p, j, func(op *model.GitOperation) {
		op.State, op.Error, op.Commit, op.Revision = model.GitSuccess, "", in.Commit, in.Revision
	}, &synced{commit: in.Commit, revision: in.Revision, files: in.Files, dir: in.Dir, pushed: true, tree: in.Tree})
	if err != nil {
		return err
	}
	s.dropIntent(ctx, p.SpaceID, j.ID)
	return nil
}

// dropIntent deletes a concluded job's push intent; a failure is only
// logged (a blob left behind).
func (s *Service) dropIntent(ctx context.Context, owner, jobID string) {
	if err := s.d.Blobs.Delete(ctx, intentKey(owner, jobID)); err != nil && !errors.Is(err, blob.ErrNotFound) {
		s.d.Logger.WarnContext(ctx, "Git export: push intent not deleted", "owner", owner, "job", jobID, "err", err.Error())
	}
}

// newCommit writes the commit of tree over base's (none when base holds
// that tree already: a new branch where nothing changed).
// Its author is author (nil: Galley), its committer Galley.
func (s *Service) newCommit(w *writer, base *snapshot, tree plumbing.Hash, message string, author *gitjob.Person) (plumbing.Hash, error) {
	if base.commit != nil && base.commit.TreeHash == tree {
		return base.commit.Hash, nil
	}
	sig := commitAuthor
	sig.When = s.d.Clock()
	by := sig
	if author != nil && author.Email != "" {
		by.Name, by.Email = author.Name, author.Email
	}
	c := &object.Commit{Author: by, Committer: sig, Message: message, TreeHash: tree}
	if base.commit != nil {
		c.ParentHashes = []plumbing.Hash{base.commit.Hash}
	}
	hash, err := w.encode(c)
	if err != nil {
		return hash, fmt.Errorf("write the commit: %w", err)
	}
	return hash, nil
}

// spaceLayout is a space's export laid over a tree: the revision written,
// the tree's files after, the files the space owns there, the layout of
// its project directory.
type spaceLayout struct {
	rev   model.Revision
	files map[string]entry
	owned []model.SyncedFile
	l     projectLayout
}

// layoutSpace writes a space's head revision over base's files (blobs
// with w) into its project directory dir, as the export rules above say;
// st is the space's Git Sync state and url the repository (the files the
// space synced with another repository are not its own in this one).
func (s *Service) layoutSpace(ctx context.Context, sp model.Space, revision string, st model.GitSync, url, dir string, base *snapshot, w *writer) (spaceLayout, error) {
	rev, ix, err := s.content.Repo.Load(ctx, sp.ID, revision)
	if err != nil {
		return spaceLayout{}, err
	}
	var last *content.Index
	if st.LastRevision != "" {
		if _, lix, err := s.content.Repo.Load(ctx, sp.ID, st.LastRevision); err == nil {
			last = lix
		} else if !apperr.Is(err, apperr.NotFound) {
			return spaceLayout{}, err
		}
	}
	var prior []model.SyncedFile
	if st.LastURL == url {
		// paths and blobs of this repository only
		if prior, err = gitstate.SyncedOf(ctx, s.d.Blobs, st); err != nil {
			return spaceLayout{}, err
		}
	}
	l := layoutOf(base, dir)
	e := &exporter{s: s, spaceID: sp.ID, ix: ix, last: last, base: base, prefix: projectPrefix(l.dir), summary: l.summary, w: w}
	files, owned, err := e.run(ctx, prior)
	if err != nil {
		return spaceLayout{}, err
	}
	return spaceLayout{rev: rev, files: files, owned: owned, l: l}, nil
}

func projectPrefix(dir string) string {
	if dir == "" {
		return ""
	}
	return dir + "/"
}

// exporter writes one revision over a branch's tree.
type exporter struct {
	s       *Service
	spaceID string
	ix      *content.Index
	// last is the space's revision at its last sync (nil: none).
	last   *content.Index
	base   *snapshot
	prefix string
	// summary is the table of contents' file (SUMMARY.md unless
	// .gitbook.yaml names another).
	summary string
	w       *writer

	pages, files map[string]string // id -> path in the project directory
	// oldPages, oldFiles, oldPaths: the last sync's files (this
	// repository's), by page, file and path.
	oldPages, oldFiles map[string]model.SyncedFile
	oldPaths           map[string]model.SyncedFile
	// rcs: where the reusable contents go (includes.go).
	rcs reusableLayout
}

// ours tells whether the branch still holds a synced file as the space
// left it.
func (e *exporter) ours(f model.SyncedFile) bool {
	b, ok := e.base.files[e.prefix+f.Path]
	return ok && b.hash.String() == f.OID
}

// run lays the revision out and writes its files over the base tree; it
// answers the tree's files and the files the space owns in it.
func (e *exporter) run(ctx context.Context, synced []model.SyncedFile) (map[string]entry, []model.SyncedFile, error) {
	e.oldPages, e.oldFiles, e.oldPaths = map[string]model.SyncedFile{}, map[string]model.SyncedFile{}, map[string]model.SyncedFile{}
	for _, f := range synced {
		switch {
		case f.Page != "":
			e.oldPages[f.Page] = f
		case f.File != "":
			e.oldFiles[f.File] = f
		}
		e.oldPaths[f.Path] = f
	}
	e.layout()
	e.layoutReusable(synced)
	out := map[string]entry{}
	for p, en := range e.base.files {
		out[p] = en
	}
	var owned []model.SyncedFile
	written := map[string]bool{}
	put := func(rel string, h plumbing.Hash, f model.SyncedFile) {
		out[e.prefix+rel] = entry{mode: filemode.Regular, hash: h}
		f.Path, f.OID = rel, h.String()
		owned = append(owned, f)
		written[rel] = true
	}
	for _, f := range e.ix.Files() {
		rel, ok := e.files[f.ID]
		if !ok {
			continue
		}
		if old, ok := e.oldFiles[f.ID]; ok && old.Path == rel && e.ours(old) {
			put(rel, plumbing.NewHash(old.OID), old)
			continue
		}
		data, err := e.s.content.Repo.FileBytes(ctx, e.spaceID, f.Blob)
		if err != nil {
			return nil, nil, fmt.Errorf("read file %s: %w", f.ID, err)
		}
		h, err := e.w.blob(data)
		if err != nil {
			return nil, nil, err
		}
		put(rel, h, model.SyncedFile{File: f.ID})
	}
	var err error
	e.ix.Walk(func(p *content.Page, _ int) bool {
		rel, ok := e.pages[p.ID]
		if !ok {
			return true
		}
		var h plumbing.Hash
		if h, err = e.page(ctx, p, rel); err != nil {
			return false
		}
		put(rel, h, model.SyncedFile{Page: p.ID})
		return true
	})
	if err != nil {
		return nil, nil, err
	}
	if err := e.writeReusable(ctx, put); err != nil {
		return nil, nil, err
	}
	summary := renderSummary(e.ix, e.pages)
	old, hadSummary := e.oldPaths[e.summary]
	last := ""
	if e.last != nil && len(synced) > 0 {
		last = renderSummary(e.last, e.lastPaths())
	}
	switch {
	case last != "" && last == summary && (!hadSummary || e.ours(old)):
		// The tree did not change: SUMMARY.md stays as it is (or absent).
		if hadSummary {
			owned = append(owned, old)
			written[e.summary] = true
		}
	default:
		if last != "" && hadSummary && e.ours(old) {
			// The branch's file as the space left it: the tree's
			// changes are merged into it, so that what it holds beyond
			// Galley's rendering stays (its separators, anchor entries,
			// navigation labels, link texts, spacing).
			data, err := e.base.blob(plumbing.NewHash(old.OID))
			if err != nil {
				return nil, nil, fmt.Errorf("read %s: %w", old.Path, err)
			}
			summary = content.Merge3Theirs(last, string(data), summary)
		}
		h, err := e.w.blob([]byte(summary))
		if err != nil {
			return nil, nil, err
		}
		put(e.summary, h, model.SyncedFile{})
	}
	// Files the space wrote or imported and no longer has.
	for _, f := range synced {
		if !written[f.Path] && e.ours(f) {
			delete(out, e.prefix+f.Path)
		}
	}
	return out, owned, nil
}

// lastPaths are the files of the last sync's pages.
func (e *exporter) lastPaths() map[string]string {
	out := map[string]string{}
	for id, f := range e.oldPages {
		out[id] = f.Path
	}
	if len(out) == 0 {
		// No sync with this repository: where the pages would be now.
		for id, rel := range e.pages {
			if e.last.Page(id) != nil {
				out[id] = rel
			}
		}
	}
	return out
}

// moved tells whether a page has another parent or slug than at the last
// sync (always false without one).
func (e *exporter) moved(p *content.Page) bool {
	if e.last == nil {
		return false
	}
	lp := e.last.Page(p.ID)
	return lp == nil || lp.Parent != p.Parent || lp.Slug != p.Slug
}

// layout gives each document page and file its path.
func (e *exporter) layout() {
	e.pages, e.files = map[string]string{}, map[string]string{}
	// taken: paths given to a page or file, and the files of the branch
	// the space does not own (never overwritten by a new path).
	taken := map[string]bool{}
	for full := range e.base.files {
		rel, ok := strings.CutPrefix(full, e.prefix)
		if _, synced := e.oldPaths[rel]; ok && !synced {
			taken[rel] = true
		}
	}
	claimed := map[string]bool{}
	// Pages that stay where they are.
	e.ix.Walk(func(p *content.Page, _ int) bool {
		if p.Type != content.TypeDocument || e.moved(p) {
			return true
		}
		rel := ""
		if f, ok := e.oldPages[p.ID]; ok {
			rel = f.Path
		} else if p.Git != nil && p.Git.Path != "" && len(e.oldPages) == 0 {
			rel = p.Git.Path // imported, and not synced with this repository since
		}
		if rel != "" && !claimed[rel] {
			e.pages[p.ID], taken[rel], claimed[rel] = rel, true, true
		}
		return true
	})
	// Files where they were, else in .gitbook/assets.
	for _, f := range e.ix.Files() {
		rel := ""
		if old, ok := e.oldFiles[f.ID]; ok {
			rel = old.Path
		} else if f.Git != nil && f.Git.Path != "" && !strings.EqualFold(path.Ext(f.Git.Path), ".md") {
			rel = f.Git.Path
		}
		if rel == "" || claimed[rel] {
			name := f.Name
			if name == "" {
				name = f.ID
			}
			rel = unique(path.Join(assetsDir, name), taken)
		}
		e.files[f.ID], taken[rel], claimed[rel] = rel, true, true
	}
	// New and moved pages, parents first.
	e.ix.Walk(func(p *content.Page, _ int) bool {
		if p.Type != content.TypeDocument {
			return true
		}
		if _, ok := e.pages[p.ID]; ok {
			return true
		}
		// The convention (DEVELOPERS.md): the page's slug path.
		rel := e.ix.Path(p.ID) + ".md"
		if hasDocuments(e.ix, p.ID) {
			rel = e.ix.Path(p.ID) + "/README.md"
		}
		rel = unique(rel, taken)
		e.pages[p.ID], taken[rel] = rel, true
		return true
	})
}

// hasDocuments tells whether a page has child pages with files.
func hasDocuments(ix *content.Index, id string) bool {
	for _, c := range ix.Children(id) {
		if p := ix.Page(c); p != nil && p.Type != content.TypeLink {
			return true
		}
	}
	return false
}

// unique is rel, or rel with -2, -3... before its extension (or on its
// folder, for a README.md) when taken.
func unique(rel string, taken map[string]bool) string {
	if !taken[rel] {
		return rel
	}
	for i := 2; ; i++ {
		var c string
		if strings.EqualFold(path.Base(rel), "README.md") && path.Dir(rel) != "." {
			c = path.Dir(rel) + "-" + strconv.Itoa(i) + "/" + path.Base(rel)
		} else {
			ext := path.Ext(rel)
			c = strings.TrimSuffix(rel, ext) + "-" + strconv.Itoa(i) + ext
		}
		if !taken[c] {
			return c
		}
	}
}

// page writes a page's file at rel and answers its blob.
func (e *exporter) page(ctx context.Context, p *content.Page, rel string) (plumbing.Hash, error) {
	old, hasOld := e.oldPages[p.ID]
	var src string
	if hasOld && e.ours(old) {
		data, err := e.base.blob(plumbing.NewHash(old.OID))
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("read %s: %w", old.Path, err)
		}
		src = string(data)
	} else {
		hasOld = false
	}
	var lp *content.Page
	if e.last != nil {
		lp = e.last.Page(p.ID)
	}
	sameMeta := lp != nil && metaText(lp) == metaText(p)
	if hasOld && sameMeta && lp.Document == p.Document {
		text := e.includes(e.relink(src, old.Path, rel), p.ID, old.Path, rel)
		if text == src {
			return plumbing.NewHash(old.OID), nil
		}
		return e.w.blob([]byte(text))
	}
	body, err := e.s.content.Repo.Document(ctx, e.spaceID, p.Document)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	body = e.includes(e.links(body, rel), p.ID, "", rel)
	var text string
	if hasOld && sameMeta {
		text = splice(src, body)
	} else {
		text = content.RenderMarkdown(p, body, content.FrontMetadata)
	}
	return e.w.blob([]byte(text))
}

// metaText is what a page's file says besides its body.
func metaText(p *content.Page) string { return content.RenderMarkdown(p, "", content.FrontMetadata) }

// links writes a stored body's links for the file at rel: /pages/<id> and
// /files/<id> become relative paths.
func (e *exporter) links(body, rel string) string {
	return document.RewriteLinks(body, func(target string) string {
		t, anchor, _ := strings.Cut(target, "#")
		var to string
		if id, ok := strings.CutPrefix(t, "/pages/"); ok {
			to = e.pages[id]
		} else if id, ok := strings.CutPrefix(t, "/files/"); ok {
			to = e.files[id]
		}
		if to == "" {
			return target
		}
		out := document.RelativePath(rel, to)
		if anchor != "" {
			out += "#" + anchor
		}
		return out
	})
}

// relink rewrites the relative links of a page's source that no longer
// reach their target from the page's new file (its targets moved, or it
// did); every other link keeps its text.
func (e *exporter) relink(src, from, to string) string {
	return document.RewriteLinks(src, func(target string) string {
		if isExternal(target) {
			return target
		}
		t, anchor, _ := strings.Cut(target, "#")
		u, err := urlUnescape(t)
		if err != nil {
			return target
		}
		was := cleanRel(path.Join(path.Dir(from), u))
		if was == "" {
			return target
		}
		now := was // a file the space does not own stays where it is
		if f, ok := e.oldPaths[was]; ok {
			now = e.pathOf(f, was)
		} else if f, ok := e.oldPaths[path.Join(was, "README.md")]; ok && f.Page != "" {
			if now = e.pathOf(f, was); now != was {
				now = path.Dir(now) // a folder link stays a folder link
			}
		}
		if cleanRel(path.Join(path.Dir(to), u)) == now {
			return target
		}
		out := document.RelativePath(to, now)
		if anchor != "" {
			out += "#" + anchor
		}
		return out
	})
}

// pathOf is where the page or file a synced file held is now (was when
// it is gone).
func (e *exporter) pathOf(f model.SyncedFile, was string) string {
	if f.Page != "" {
		if rel, ok := e.pages[f.Page]; ok {
			return rel
		}
	}
	if f.File != "" {
		if rel, ok := e.files[f.File]; ok {
			return rel
		}
	}
	return was
}

// splice puts a new body under a page source's frontmatter and title.
func splice(src, body string) string {
	head := strings.TrimRight(src[:document.Split(src).Body], "\n")
	if body == "" {
		return head + "\n"
	}
	return head + "\n\n" + body
}
