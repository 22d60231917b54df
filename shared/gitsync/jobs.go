package gitsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Handle runs a git-import or git-export job. Git failures (an unreachable
// or refused repository, a missing ref, a non-fast-forward push) conclude
// the job with the failure recorded on the space; only storage failures
// are returned, and the job retried.
func (s *Service) Handle(ctx context.Context, j queue.Job) error {
	var p payload
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return fmt.Errorf("decode %s job: %w", j.Kind, err)
	}
	if _, err := s.readSpace(ctx, p.SpaceID); apperr.Is(err, apperr.NotFound) {
		s.d.Logger.InfoContext(ctx, "Git job of a space that is gone: dropped", "space", p.SpaceID, "job", j.ID, "kind", j.Kind)
		return nil
	} else if err != nil {
		return err
	}
	st, _, err := s.state(ctx, p.SpaceID)
	if err != nil {
		return err
	}
	if slices.Contains(st.Done, j.ID) {
		return nil // delivered again: done already
	}
	if !p.Force && p.Timestamp != nil && st.LastTimestamp != nil && p.Timestamp.Before(*st.LastTimestamp) {
		s.d.Logger.InfoContext(ctx, "Git job older than the last applied: skipped", "space", p.SpaceID, "job", j.ID, "kind", j.Kind)
		return s.conclude(ctx, p, j, func(op *model.GitOperation) {
			op.State, op.Error = model.GitFailure, "skipped: older than the last import or export applied to the space"
		}, false, "")
	}
	user, password, err := s.unseal(ctx, p.Auth)
	if err != nil {
		return s.fail(ctx, p, j, err)
	}
	r, err := newRemote(fetch.NewWithTimeout(s.d.FetchAllowPrivate, s.Timeout).HTTP(), p.URL, user, password)
	if err != nil {
		return s.fail(ctx, p, j, err)
	}
	switch j.Kind {
	case ImportKind:
		return s.runImport(ctx, j, p, r)
	case ExportKind:
		return s.runExport(ctx, j, p, r)
	}
	return fmt.Errorf("unknown Git job kind %q", j.Kind)
}

// errDone: another delivery of the job concluded it meanwhile.
var errDone = errors.New("job already concluded")

// conclude records a job's outcome: the operation (when it is still the
// space's latest), the job among the concluded ones, and, when applied,
// its timestamp and commit.
func (s *Service) conclude(ctx context.Context, p payload, j queue.Job, outcome func(*model.GitOperation), applied bool, commit string) error {
	_, err := s.updateState(ctx, p.SpaceID, func(st *model.GitSync) error {
		if slices.Contains(st.Done, j.ID) {
			return errDone
		}
		finish(st, p, j, s.d.Clock(), outcome, applied, commit)
		return nil
	})
	if errors.Is(err, errDone) {
		return nil
	}
	return err
}

// finish applies a job's outcome to a state.
func finish(st *model.GitSync, p payload, j queue.Job, now time.Time, outcome func(*model.GitOperation), applied bool, commit string) {
	st.Done = append(st.Done, j.ID)
	if len(st.Done) > doneKept {
		st.Done = st.Done[len(st.Done)-doneKept:]
	}
	if applied {
		if p.Timestamp != nil && (st.LastTimestamp == nil || p.Timestamp.After(*st.LastTimestamp)) {
			ts := *p.Timestamp
			st.LastTimestamp = &ts
		}
		if commit != "" {
			st.LastCommit, st.LastURL, st.LastRef = commit, p.URL, p.Ref
		}
	}
	if st.Operation == nil || st.Operation.JobID == j.ID {
		direction := model.GitImport
		if j.Kind == ExportKind {
			direction = model.GitExport
		}
		op := st.Operation
		if op == nil {
			op = &model.GitOperation{JobID: j.ID, Direction: direction, StartedAt: now}
		}
		op.UpdatedAt, op.Stage = now, "finalize"
		outcome(op)
		if op.State == model.GitSuccess {
			op.CompletedAt = &now
		}
		st.Operation = op
	}
}

// fail concludes a job with an error (scrubbed of credentials by the caller).
func (s *Service) fail(ctx context.Context, p payload, j queue.Job, cause error) error {
	s.d.Logger.WarnContext(ctx, "Git job failed", "space", p.SpaceID, "job", j.ID, "kind", j.Kind,
		"url", fetch.Redact(p.URL), "ref", p.Ref, "err", cause.Error())
	return s.conclude(ctx, p, j, func(op *model.GitOperation) {
		op.State, op.Error = model.GitFailure, cause.Error()
	}, false, "")
}

// stage records the stage an operation reached.
func (s *Service) stage(ctx context.Context, p payload, j queue.Job, stage string) error {
	_, err := s.updateState(ctx, p.SpaceID, func(st *model.GitSync) error {
		if st.Operation != nil && st.Operation.JobID == j.ID {
			st.Operation.Stage, st.Operation.UpdatedAt = stage, s.d.Clock()
		}
		return nil
	})
	return err
}

// gitError explains a failure of the exchange with the repository.
func gitError(err error) error {
	switch {
	case fetch.Refused(err):
		return errors.New("the repository's address is not public")
	case errors.Is(err, context.DeadlineExceeded):
		return errors.New("the repository did not answer in time")
	}
	return err
}

func (s *Service) runImport(ctx context.Context, j queue.Job, p payload, r *remote) error {
	snap, err := r.fetch(ctx, p.Ref)
	if err != nil {
		return s.fail(ctx, p, j, fmt.Errorf("fetch %s: %w", p.Ref, gitError(err)))
	}
	if snap.commit == nil {
		return s.fail(ctx, p, j, fmt.Errorf("fetch %s: %w", p.Ref, errNoRef))
	}
	if err := s.stage(ctx, p, j, "content_process"); err != nil {
		return err
	}
	commit := snap.commit.Hash.String()
	gitCommit := &model.GitCommit{OID: commit, Message: strings.TrimRight(snap.commit.Message, "\n"),
		CreatedByGitBook: isOurs(snap.commit), Ref: p.Ref}
	if p.RepoCommitURL != "" {
		gitCommit.URL = strings.TrimRight(p.RepoCommitURL, "/") + "/" + commit
	}
	files, err := s.readProject(snap, p.ProjectDir)
	if err != nil {
		return s.fail(ctx, p, j, err)
	}
	files.treeURL, files.dir = p.RepoTreeURL, p.ProjectDir
	var revision string
	rev, _, err := s.crs.LandOnSpace(ctx, p.SpaceID, p.Standalone, func(ctx context.Context, base model.Revision, head *content.Index) (model.Revision, []store.Op, error) {
		st, v, err := s.state(ctx, p.SpaceID)
		if err != nil {
			return model.Revision{}, nil, err
		}
		if slices.Contains(st.Done, j.ID) {
			return model.Revision{}, nil, errDone
		}
		ix, err := s.build(ctx, p.SpaceID, files, head, nil)
		if err != nil {
			return model.Revision{}, nil, err
		}
		rev, err := s.content.Repo.NewRevision(ctx, p.SpaceID, content.RevisionEdits, []string{base.ID}, ix)
		if err != nil {
			return model.Revision{}, nil, err
		}
		rev.Git = gitCommit
		revision = rev.ID
		finish(&st, p, j, s.d.Clock(), func(op *model.GitOperation) {
			op.State, op.Error, op.Commit, op.Revision = model.GitSuccess, "", commit, revision
		}, true, commit)
		return rev, []store.Op{stateOp(st, v)}, nil
	})
	switch {
	case errors.Is(err, errDone):
		return nil
	case apperr.Is(err, apperr.Invalid):
		return s.fail(ctx, p, j, err)
	case apperr.Is(err, apperr.NotFound):
		s.d.Logger.InfoContext(ctx, "Git import into a space that is gone", "space", p.SpaceID, "job", j.ID)
		return nil
	case err != nil:
		return err
	}
	s.d.Logger.InfoContext(ctx, "Git import", "space", p.SpaceID, "job", j.ID, "url", fetch.Redact(p.URL), "ref", p.Ref,
		"commit", commit, "revision", rev.ID, "standalone", p.Standalone)
	return nil
}

// commitAuthor signs the commits exports make.
var commitAuthor = object.Signature{Name: "Galley", Email: "galley@noreply.invalid"}

// isOurs reports whether an export made a commit.
func isOurs(c *object.Commit) bool { return c.Author.Email == commitAuthor.Email }

func (s *Service) runExport(ctx context.Context, j queue.Job, p payload, r *remote) error {
	sp, err := s.readSpace(ctx, p.SpaceID)
	if apperr.Is(err, apperr.NotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	rev, ix, err := s.content.Repo.Load(ctx, p.SpaceID, sp.Revision)
	if err != nil {
		return err
	}
	snap, err := r.fetch(ctx, p.Ref)
	if err != nil {
		return s.fail(ctx, p, j, fmt.Errorf("fetch %s: %w", p.Ref, gitError(err)))
	}
	if err := s.stage(ctx, p, j, "content_process"); err != nil {
		return err
	}
	st, _, err := s.state(ctx, p.SpaceID)
	if err != nil {
		return err
	}
	w := &writer{st: snap.st, made: map[plumbing.Hash]bool{}}
	files, err := s.render(ctx, w, p.SpaceID, ix, snap.files, p.ProjectDir)
	if err != nil {
		return err
	}
	tree, err := w.tree(files)
	if err != nil {
		return fmt.Errorf("write the tree: %w", err)
	}
	old := plumbing.ZeroHash
	if snap.commit != nil {
		old = snap.commit.Hash
		if snap.commit.TreeHash == tree {
			// The branch holds this content already (nothing changed, or
			// this export was pushed by an earlier delivery): no empty
			// commit.
			return s.conclude(ctx, p, j, func(op *model.GitOperation) {
				op.State, op.Error, op.Commit = model.GitSuccess, "", old.String()
			}, true, old.String())
		}
		if !p.Force && st.LastCommit != "" && st.LastURL == p.URL && st.LastRef == p.Ref && st.LastCommit != old.String() {
			return s.fail(ctx, p, j, fmt.Errorf("%w: %s has commits the space has not imported (it is at %s, the space last synced with %s); import them first, or export with force",
				errNotFastForward, p.Ref, short(old.String()), short(st.LastCommit)))
		}
	}
	now := s.d.Clock()
	sig := commitAuthor
	sig.When = now
	c := &object.Commit{Author: sig, Committer: sig, Message: p.CommitMessage, TreeHash: tree}
	if !old.IsZero() {
		c.ParentHashes = []plumbing.Hash{old}
	}
	hash, err := w.commit(c)
	if err != nil {
		return fmt.Errorf("write the commit: %w", err)
	}
	if err := s.stage(ctx, p, j, "finalize"); err != nil {
		return err
	}
	if err := r.push(ctx, w, p.Ref, old, hash); err != nil {
		return s.fail(ctx, p, j, fmt.Errorf("push %s: %w", p.Ref, gitError(err)))
	}
	s.d.Logger.InfoContext(ctx, "Git export", "space", p.SpaceID, "job", j.ID, "url", fetch.Redact(p.URL), "ref", p.Ref,
		"commit", hash.String(), "revision", rev.ID)
	return s.conclude(ctx, p, j, func(op *model.GitOperation) {
		op.State, op.Error, op.Commit, op.Revision = model.GitSuccess, "", hash.String(), rev.ID
	}, true, hash.String())
}

func short(h string) string { return h[:min(len(h), 12)] }

// readSpace reads a live space without rights (jobs act for the caller
// who was allowed to start them).
func (s *Service) readSpace(ctx context.Context, spaceID string) (model.Space, error) {
	sp, _, err := spaces.ReadLive(ctx, s.d.Store, spaceID)
	if err != nil {
		return sp, err
	}
	return sp, nil
}

// repoFile is a file of a project.
type repoFile struct {
	path string // relative to the project directory
	// hash is the Git blob's id; zero outside Git (no Git metadata).
	hash plumbing.Hash
	data []byte
}

// Project is a folder of markdown files and other files: a repository's
// project directory, a zip archive, a wiki.
type Project struct {
	markdown map[string]repoFile
	files    map[string]repoFile
	summary  string
	hasSum   bool
	// flatTitles: a wiki (Home first).
	flatTitles bool
	// treeURL and dir: links to other files of a repository become
	// treeURL/dir/<path> (repoTreeURL).
	treeURL, dir string
}

// NewProject returns an empty project.
func NewProject() *Project {
	return &Project{markdown: map[string]repoFile{}, files: map[string]repoFile{}}
}

// Add adds a file (markdown by its .md extension; SUMMARY.md at the top
// is the table of contents). It refuses more than MaxPages pages or
// MaxFiles files.
func (pr *Project) Add(rel string, data []byte) error {
	return pr.add(repoFile{path: rel, data: data})
}

// Pages is the number of markdown files.
func (pr *Project) Pages() int { return len(pr.markdown) }

// Wiki marks a wiki: its Home.md is its first page (pages without a
// heading take their titles from their file names, as everywhere), and
// its _Sidebar.md, _Footer.md and other _ files are not pages.
func (pr *Project) Wiki() {
	pr.flatTitles = true
	for name := range pr.markdown {
		if strings.HasPrefix(path.Base(name), "_") {
			delete(pr.markdown, name)
		}
	}
}

func (pr *Project) add(f repoFile) error {
	isMD := strings.EqualFold(path.Ext(f.path), ".md")
	switch {
	case f.path == summaryFile:
		pr.summary, pr.hasSum = string(f.data), true
	case isMD:
		if len(pr.markdown) >= MaxPages {
			return fmt.Errorf("more than %d pages", MaxPages)
		}
		if len(f.data) > MaxMarkdownBytes {
			return fmt.Errorf("%s: more than %d bytes", f.path, MaxMarkdownBytes)
		}
		pr.markdown[f.path] = f
	case len(f.data) <= content.MaxFileBytes:
		if len(pr.files) >= MaxFiles {
			return fmt.Errorf("more than %d files", MaxFiles)
		}
		pr.files[f.path] = f
	}
	return nil
}

// readProject reads the project directory of a snapshot: markdown files
// and other files (hidden files and folders left out, but for
// .gitbook/assets).
func (s *Service) readProject(snap *snapshot, dir string) (*Project, error) {
	pr := NewProject()
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	for full, e := range snap.files {
		if e.mode == filemode.Submodule || e.mode == filemode.Symlink || !strings.HasPrefix(full, prefix) {
			continue
		}
		rel := strings.TrimPrefix(full, prefix)
		if hidden(rel) {
			continue
		}
		data, err := snap.blob(e.hash)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", full, err)
		}
		if err := pr.add(repoFile{path: rel, hash: e.hash, data: data}); err != nil {
			return nil, fmt.Errorf("the project: %w", err)
		}
	}
	return pr, nil
}

// hidden reports whether a path is in a hidden folder or a hidden file
// (dotfiles), .gitbook/assets excepted.
func hidden(rel string) bool {
	if strings.HasPrefix(rel, assetsDir+"/") {
		return false
	}
	for _, seg := range strings.Split(rel, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// AddProject adds a project's pages after the top-level pages of ix, and
// its files, storing their bodies and bytes; it returns the number of
// pages added (content imports).
func (s *Service) AddProject(ctx context.Context, spaceID string, pr *Project, ix *content.Index) (int, error) {
	before := ix.Len()
	_, err := s.build(ctx, spaceID, pr, nil, ix)
	return ix.Len() - before, err
}

// build makes the page tree of a project: a new tree keeping the ids of
// the head's pages and files found at the same paths (Git imports), or
// pages added to into (content imports); it stores the bodies and file
// bytes.
func (s *Service) build(ctx context.Context, spaceID string, pr *Project, head, into *content.Index) (*content.Index, error) {
	now := s.d.Clock()
	if head == nil {
		head = content.NewIndex(&content.Tree{})
	}
	// Ids of the head's pages by file path (and groups by slug), and files
	// by path.
	pageIDs := map[string]string{}
	head.Walk(func(p *content.Page, _ int) bool {
		switch p.Type {
		case content.TypeGroup:
			pageIDs["group:"+p.Slug] = p.ID
		case content.TypeDocument:
			pageIDs[head.GitPath(p.ID)] = p.ID
		}
		return true
	})
	fileIDs := map[string]string{}
	for _, f := range head.Files() {
		key := path.Join(assetsDir, f.Name)
		if f.Git != nil && f.Git.Path != "" {
			key = f.Git.Path
		}
		fileIDs[key] = f.ID
	}
	ix := into
	if ix == nil {
		ix = content.NewIndex(&content.Tree{})
	}
	// Files first: pages point at them. Only the files the markdown points
	// at, and those of .gitbook/assets, are the space's: a repository's
	// other files (its code, say) are not. With a repoTreeURL, links to
	// files other than images and assets go to the provider's site.
	referenced := map[string]bool{}
	for rel, f := range pr.markdown {
		rewriteLinks(string(f.data), func(target string) string {
			if !isExternal(target) {
				t, _, _ := strings.Cut(target, "#")
				if u, err := urlUnescape(t); err == nil {
					t = u
				}
				if r := cleanRel(path.Join(path.Dir(rel), t)); r != "" {
					referenced[r] = true
				}
			}
			return target
		})
	}
	filesByPath := map[string]string{}
	for rel, f := range pr.files {
		asset := strings.HasPrefix(rel, assetsDir+"/")
		if !referenced[rel] && !asset {
			continue
		}
		if pr.treeURL != "" && !asset && !isImage(rel) {
			continue // linked on the provider's site (repoTreeURL)
		}
		id := fileIDs[rel]
		if id == "" {
			id = ids.New(now)
		}
		ct, w, h := content.DescribeFile(path.Base(rel), f.data)
		blob, err := s.content.Repo.PutFileBytes(ctx, spaceID, f.data, ct)
		if err != nil {
			return nil, err
		}
		file := content.File{ID: id, Name: path.Base(rel), ContentType: ct, Size: int64(len(f.data)), Width: w, Height: h, Blob: blob}
		if !f.hash.IsZero() {
			file.Git = &content.GitBlob{OID: f.hash.String(), Path: rel}
		}
		ix.PutFile(file)
		filesByPath[rel] = id
	}
	var nodes []*node
	if pr.hasSum {
		nodes = parseSummary(pr.summary)
	} else {
		md := make([]string, 0, len(pr.markdown))
		for rel := range pr.markdown {
			md = append(md, rel)
		}
		nodes = treeNodes(md)
		if pr.flatTitles {
			// A wiki starts at its Home page.
			for i, n := range nodes {
				if strings.EqualFold(n.file, "Home.md") {
					nodes = append(append([]*node{n}, nodes[:i]...), nodes[i+1:]...)
					break
				}
			}
		}
	}
	type placed struct {
		id   string
		file string
		body string
	}
	var pages []placed
	byFile := map[string]string{} // repository path -> page id
	used := map[string]bool{}
	var place func(nodes []*node, parent, parentPath string) error
	place = func(nodes []*node, parent, parentPath string) error {
		for _, n := range nodes {
			if len(pages) >= MaxPages {
				return fmt.Errorf("the project has more than %d pages", MaxPages)
			}
			p := content.Page{Parent: parent, Type: n.kind, Title: n.title, CreatedAt: now, UpdatedAt: now}
			var body string
			switch n.kind {
			case content.TypeLink:
				p.Target = &content.Ref{Kind: "url", URL: n.url}
				if p.Title == "" {
					p.Title = n.url
				}
			case content.TypeDocument:
				if n.file != "" {
					f, ok := pr.markdown[n.file]
					if !ok || used[n.file] {
						continue // listed but missing, or listed twice
					}
					used[n.file] = true
					a := parsePage(string(f.data))
					if a.title != "" {
						p.Title = a.title
					}
					a.front.Apply(&p)
					body = a.body
					if !f.hash.IsZero() {
						p.Git = &content.GitBlob{OID: f.hash.String(), Path: n.file}
					}
				}
				if p.Title == "" {
					p.Title = titleFromName(firstNonEmpty(n.file, n.dir))
				}
			}
			if p.Type != content.TypeLink {
				base := slugOf(n)
				if n.kind == content.TypeGroup && len(n.children) > 0 && n.children[0].file != "" {
					if d := path.Dir(n.children[0].file); d != "." {
						base = content.Slugify(strings.Split(d, "/")[0])
					}
				}
				if base == "" {
					base = content.Slugify(p.Title)
				}
				p.Slug = ix.UniqueSlug(parent, base, "")
			}
			myPath := p.Slug
			if parentPath != "" {
				myPath = parentPath + "/" + p.Slug
			}
			switch p.Type {
			case content.TypeGroup:
				p.ID = pageIDs["group:"+p.Slug]
			case content.TypeDocument:
				// Matched later by its final path; provisional id for now.
			}
			if p.ID == "" {
				p.ID = ids.New(now)
			}
			p.Pos = ix.PosAt(parent, -1, "")
			ix.Put(p)
			if n.file != "" {
				byFile[n.file] = p.ID
			}
			pages = append(pages, placed{id: p.ID, file: n.file, body: body})
			if p.Type != content.TypeLink {
				if err := place(n.children, p.ID, myPath); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := place(nodes, "", ""); err != nil {
		return nil, err
	}
	// Keep the ids the head gave the pages at the same paths: rebuild the
	// index with them (paths are final now). Pages added to an index keep
	// theirs.
	final := ix
	if into == nil {
		final = content.NewIndex(&content.Tree{Files: ix.Files()})
	}
	rename := map[string]string{}
	taken := map[string]bool{}
	ix.Walk(func(p *content.Page, _ int) bool {
		if p.Type == content.TypeDocument {
			if old, ok := pageIDs[ix.GitPath(p.ID)]; ok && !taken[old] {
				rename[p.ID] = old
				taken[old] = true
			}
		}
		return true
	})
	newID := func(id string) string {
		if r, ok := rename[id]; ok {
			return r
		}
		return id
	}
	// Bodies: links to other pages become relative paths between their
	// files as Galley writes them, links to files /files/<fileId>.
	for _, pl := range pages {
		p := *ix.Page(pl.id)
		if pl.body != "" && pl.file != "" {
			from := ix.GitPath(pl.id)
			body := rewriteLinks(pl.body, func(target string) string {
				if isExternal(target) {
					return target
				}
				t, anchor, _ := strings.Cut(target, "#")
				if u, err := urlUnescape(t); err == nil {
					t = u
				}
				resolved := cleanRel(path.Join(path.Dir(pl.file), t))
				if id, ok := filesByPath[resolved]; ok {
					return "/files/" + id
				}
				if id, ok := byFile[resolved]; ok {
					out := relPath(from, ix.GitPath(id))
					if anchor != "" {
						out += "#" + anchor
					}
					return out
				}
				if pr.treeURL != "" && resolved != "" {
					// Another file of the repository: on the provider's site.
					out := strings.TrimRight(pr.treeURL, "/") + "/" + path.Join(pr.dir, resolved)
					if anchor != "" {
						out += "#" + anchor
					}
					return out
				}
				return target
			})
			hash, err := s.content.Repo.PutDocument(ctx, spaceID, body)
			if err != nil {
				return nil, err
			}
			p.Document = hash
		}
		p.ID = newID(p.ID)
		p.Parent = newID(p.Parent)
		final.Put(p)
	}
	return final, nil
}

func firstNonEmpty(a ...string) string {
	for _, s := range a {
		if s != "" {
			return s
		}
	}
	return ""
}

// render writes a revision into the project directory of a flattened
// tree: the directory's markdown files and .gitbook/assets are replaced by
// the pages, SUMMARY.md and the files; everything else is kept.
func (s *Service) render(ctx context.Context, w *writer, spaceID string, ix *content.Index, base map[string]entry, dir string) (map[string]entry, error) {
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	out := map[string]entry{}
	for p, e := range base {
		rel, in := strings.CutPrefix(p, prefix)
		if in && (strings.EqualFold(path.Ext(rel), ".md") || strings.HasPrefix(rel, assetsDir+"/")) {
			continue
		}
		out[p] = e
	}
	put := func(rel string, data []byte) error {
		h, err := w.blob(data)
		if err != nil {
			return err
		}
		out[prefix+rel] = entry{mode: filemode.Regular, hash: h}
		return nil
	}
	// Files: where an import found them, else in .gitbook/assets.
	filePaths := map[string]string{}
	names := map[string]bool{}
	for _, f := range ix.Files() {
		rel := ""
		if f.Git != nil && f.Git.Path != "" && !strings.EqualFold(path.Ext(f.Git.Path), ".md") {
			rel = f.Git.Path
		} else {
			rel = path.Join(assetsDir, f.Name)
			if names[rel] || f.Name == "" {
				rel = path.Join(assetsDir, f.ID+"-"+f.Name)
			}
		}
		names[rel] = true
		data, err := s.content.Repo.FileBytes(ctx, spaceID, f.Blob)
		if err != nil {
			return nil, fmt.Errorf("read file %s: %w", f.ID, err)
		}
		if err := put(rel, data); err != nil {
			return nil, err
		}
		filePaths[f.ID] = rel
	}
	var err error
	ix.Walk(func(p *content.Page, _ int) bool {
		if err != nil || p.Type != content.TypeDocument {
			return err == nil
		}
		var body string
		if body, err = s.content.Repo.Document(ctx, spaceID, p.Document); err != nil {
			return false
		}
		file := ix.GitPath(p.ID)
		body = rewriteLinks(body, func(target string) string {
			id, ok := strings.CutPrefix(target, "/files/")
			if !ok {
				return target
			}
			if rel, ok := filePaths[id]; ok {
				return relPath(file, rel)
			}
			return target
		})
		err = put(file, []byte(content.RenderMarkdown(p, body, content.FrontMetadata)))
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	if err := put(summaryFile, []byte(renderSummary(ix))); err != nil {
		return nil, err
	}
	return out, nil
}

// ReadRepository reads the default branch (ref "") or a branch of the
// repository at rawURL into a project, without Git metadata (content
// imports of wikis). Credentials in the URL are used for the fetch only.
func (s *Service) ReadRepository(ctx context.Context, rawURL, ref string) (*Project, error) {
	clean, user, password, err := fetch.Credentials(rawURL)
	if err != nil {
		return nil, err
	}
	r, err := newRemote(fetch.NewWithTimeout(s.d.FetchAllowPrivate, s.Timeout).HTTP(), clean, user, password)
	if err != nil {
		return nil, err
	}
	snap, err := r.fetch(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("fetch the repository: %w", gitError(err))
	}
	if snap.commit == nil {
		return nil, fmt.Errorf("fetch the repository: %w", errNoRef)
	}
	pr, err := s.readProject(snap, "")
	if err != nil {
		return nil, err
	}
	for k, f := range pr.markdown {
		f.hash = plumbing.ZeroHash
		pr.markdown[k] = f
	}
	for k, f := range pr.files {
		f.hash = plumbing.ZeroHash
		pr.files[k] = f
	}
	return pr, nil
}

// isImage tells image files by their extension.
func isImage(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".bmp", ".ico":
		return true
	}
	return false
}
