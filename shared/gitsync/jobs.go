package gitsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/gitsync/gitjob"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
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
	if p.Preview != 0 {
		// A pull request's preview: never the space's head, no lease.
		return s.runPreview(ctx, j, p)
	}
	if err := s.acquire(ctx, p.SpaceID, j.ID); err != nil {
		return err // a site job works on the space: retried later
	}
	if !p.Force && p.Timestamp != nil && st.LastTimestamp != nil && p.Timestamp.Before(*st.LastTimestamp) {
		s.d.Logger.InfoContext(ctx, "Git job older than the last applied: skipped", "space", p.SpaceID, "job", j.ID, "kind", j.Kind)
		return s.conclude(ctx, p, j, func(op *model.GitOperation) {
			op.State, op.Error = model.GitFailure, "skipped: older than the last import or export applied to the space"
		}, nil)
	}
	r, err := s.openRemote(ctx, p.URL, p.Auth)
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
func (s *Service) conclude(ctx context.Context, p payload, j queue.Job, outcome func(*model.GitOperation), applied *synced) error {
	if applied != nil && applied.commit != "" && applied.list == "" {
		// The list's blob before the record naming it (gitstate).
		list, err := gitstate.PutSynced(ctx, s.d.Blobs, p.SpaceID, applied.files)
		if err != nil {
			return err
		}
		applied.list = list
	}
	_, err := s.updateState(ctx, p.SpaceID, func(st *model.GitSync) error {
		if slices.Contains(st.Done, j.ID) {
			return errDone
		}
		finish(st, p, j, s.d.Clock(), outcome, applied)
		return nil
	})
	if errors.Is(err, errDone) {
		return nil
	}
	if err == nil {
		s.completed(ctx, p, j, outcome, applied)
	}
	return err
}

// completed tells the events of a concluded job's outcome.
func (s *Service) completed(ctx context.Context, p payload, j queue.Job, outcome func(*model.GitOperation), applied *synced) {
	if s.events == nil {
		return
	}
	sp, err := s.readSpace(ctx, p.SpaceID)
	if err != nil {
		return // gone meanwhile: nobody to tell
	}
	var op model.GitOperation
	outcome(&op)
	direction := model.GitImport
	if j.Kind == ExportKind {
		direction = model.GitExport
	}
	revision, commit := op.Revision, op.Commit
	if applied != nil {
		revision, commit = applied.revision, applied.commit
	}
	f := map[string]any{"spaceId": p.SpaceID, "state": op.State, "direction": direction, "revisionId": revision, "commitId": commit}
	if op.Error != "" {
		f["error"] = op.Error
	}
	s.events.Emit(ctx, model.Event{Type: "space_gitsync_completed", OrgID: sp.OrgID, Fields: f})
}

// synced is what an applied job leaves the repository and the space
// holding: the commit, the space's revision in it, the files the space
// owns there (files, or list: the blob of them, gitstate.PutSynced).
type synced struct {
	commit, revision string
	files            []model.SyncedFile
	list             string
	// dir is the docs' root the files are relative to.
	dir string
	// imported: the redirects are the ones the import read (an export
	// leaves the state's).
	imported  bool
	redirects map[string]string
	// pushed: an export pushed commit (kept among the state's Pushed).
	pushed bool
	// tree is commit's tree ("": not known, no later push is compared
	// with it).
	tree string
}

// pushedKept is how many commits pushed a space remembers.
const pushedKept = 50

// finish applies a job's outcome to a state; applied is nil for a job
// that changed nothing. Its files are in its list's blob already (written
// by the caller: conclude, the import's landing).
func finish(st *model.GitSync, p payload, j queue.Job, now time.Time, outcome func(*model.GitOperation), applied *synced) {
	st.Done = append(st.Done, j.ID)
	if len(st.Done) > doneKept {
		st.Done = st.Done[len(st.Done)-doneKept:]
	}
	if st.Lease != nil && st.Lease.JobID == j.ID {
		st.Lease = nil
	}
	if applied != nil {
		if p.Timestamp != nil && (st.LastTimestamp == nil || p.Timestamp.After(*st.LastTimestamp)) {
			ts := *p.Timestamp
			st.LastTimestamp = &ts
		}
		if applied.commit != "" {
			st.LastCommit, st.LastURL, st.LastRef, st.LastTree = applied.commit, p.URL, p.Ref, applied.tree
			st.LastRevision, st.SyncedList, st.Synced, st.Dir = applied.revision, applied.list, nil, applied.dir
			if applied.imported {
				st.Redirects = applied.redirects
			}
			if applied.pushed {
				st.Pushed = append(st.Pushed, applied.commit)
				if len(st.Pushed) > pushedKept {
					st.Pushed = st.Pushed[len(st.Pushed)-pushedKept:]
				}
			}
			// The space and the branch agree again (an import, a forced
			// export): no conflict waits.
			st.Conflict = nil
		}
	}
	direction := model.GitImport
	if j.Kind == ExportKind {
		direction = model.GitExport
	}
	latest := st.Operation == nil || st.Operation.JobID == j.ID
	op := st.Operation
	if !latest || op == nil {
		op = &model.GitOperation{JobID: j.ID, Direction: direction, StartedAt: now}
	}
	op.UpdatedAt, op.Stage = now, "finalize"
	outcome(op)
	if op.State == model.GitSuccess {
		op.CompletedAt = &now
	}
	if latest {
		st.Operation = op
	}
	recordRun(st, p, j, direction, now, op, applied)
}

// recordRun notes a concluded job in the sync status: the last run of its
// direction, and no longer pending.
func recordRun(st *model.GitSync, p payload, j queue.Job, direction string, now time.Time, op *model.GitOperation, applied *synced) {
	st.Pending = slices.DeleteFunc(st.Pending, func(q model.GitPending) bool { return q.JobID == j.ID })
	run := &model.GitSyncRun{JobID: j.ID, At: now, State: op.State, Error: op.Error, Code: op.Code, Trigger: p.Trigger, Commit: op.Commit}
	if run.Commit == "" && applied != nil {
		run.Commit = applied.commit
	}
	if op.State == model.GitFailure && run.Code == "" {
		run.Code = model.GitErrOther
	}
	if direction == model.GitExport {
		st.LastExport = run
	} else {
		st.LastImport = run
	}
}

// fail concludes a job with an error (scrubbed of credentials by the caller).
func (s *Service) fail(ctx context.Context, p payload, j queue.Job, cause error) error {
	s.d.Logger.WarnContext(ctx, "Git job failed", "space", p.SpaceID, "job", j.ID, "kind", j.Kind,
		"url", fetch.Redact(p.URL), "ref", p.Ref, "err", cause.Error())
	code := failureCode(cause)
	if retry, err := s.retryLater(ctx, p, j, code, cause); retry || err != nil {
		if err == nil {
			err = fmt.Errorf("%w: %s", errRetry, cause.Error())
		}
		return err
	}
	return s.conclude(ctx, p, j, func(op *model.GitOperation) {
		op.State, op.Error, op.Code = model.GitFailure, cause.Error(), code
	}, nil)
}

// transientAttempts is how many runs of an automatic job (a webhook's or
// the poll's) an unreachable repository fails before the job concludes as
// failed: the queue delivers a job 5 times (maxReceiveCount, localqueue's
// DefaultMaxAttempts), with its backoff between them.
const transientAttempts = 5

// errRetry: the job failed for a passing reason and is left to the queue.
var errRetry = errors.New("the repository is unreachable for now; the job is retried")

// retryLater decides whether an automatic job that failed for a passing
// reason (code unreachable) is left to the queue to retry (with its
// backoff): before its last attempt, with a queue to retry it. The status
// shows the failure and the attempts meanwhile; the space's lease is
// given back. Jobs asked for through the API conclude at once, as before.
func (s *Service) retryLater(ctx context.Context, p payload, j queue.Job, code string, cause error) (bool, error) {
	if p.Trigger == "" || code != model.GitErrUnreachable || s.d.Queue == nil {
		return false, nil
	}
	retry := false
	_, err := s.updateState(ctx, p.SpaceID, func(st *model.GitSync) error {
		retry = false
		i := slices.IndexFunc(st.Pending, func(q model.GitPending) bool { return q.JobID == j.ID })
		if i < 0 || st.Pending[i].Attempts+1 >= transientAttempts {
			return nil
		}
		retry = true
		st.Pending[i].Attempts++
		// The queue delivers it again after its visibility timeout: no
		// read is to hand it out meanwhile (lease.go).
		st.Pending[i].Until = s.d.Clock().Add(retryLease)
		if st.Lease != nil && st.Lease.JobID == j.ID {
			st.Lease = nil
		}
		now := s.d.Clock()
		run := &model.GitSyncRun{JobID: j.ID, At: now, State: model.GitFailure, Error: cause.Error(), Code: code, Trigger: p.Trigger}
		if j.Kind == ExportKind {
			st.LastExport = run
		} else {
			st.LastImport = run
		}
		return nil
	})
	if err == nil && retry {
		s.d.Logger.WarnContext(ctx, "Git job: repository unreachable, left to the queue to retry", "space", p.SpaceID, "job", j.ID)
	}
	return retry, err
}

// failureCode is the kind of a job's failure, for the sync status.
func failureCode(err error) string {
	switch {
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed):
		return model.GitErrAuth
	case errors.Is(err, errNoRef), errors.Is(err, transport.ErrEmptyRemoteRepository):
		return model.GitErrBranch
	case errors.Is(err, errNotFastForward):
		return model.GitErrConflict
	case fetch.Refused(err), errors.Is(err, context.DeadlineExceeded), errors.Is(err, transport.ErrRepositoryNotFound):
		return model.GitErrUnreachable
	}
	var fe *fetch.Error
	var ne net.Error
	if errors.As(err, &fe) || errors.As(err, &ne) {
		return model.GitErrUnreachable
	}
	return model.GitErrOther
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
	commit := snap.commit.Hash.String()
	st, _, err := s.state(ctx, p.SpaceID)
	if err != nil {
		return err
	}
	sameBranch := st.LastURL == p.URL && st.LastRef == p.Ref && st.LastCommit != ""
	if p.Auto && sameBranch && commit == st.LastCommit {
		// A push's import of the last sync's commit (Galley's own push,
		// or a push delivered again): the space holds it; importing it
		// again would make a revision of what the space has, or undo its
		// newer edits. (An import asked through the API imports.)
		s.d.Logger.InfoContext(ctx, "Git import of the last synced commit: skipped", "space", p.SpaceID, "job", j.ID, "commit", commit,
			"ours", slices.Contains(st.Pushed, commit))
		return s.conclude(ctx, p, j, func(op *model.GitOperation) {
			op.State, op.Error, op.Commit = model.GitSuccess, "", commit
		}, nil)
	}
	if tree := snap.commit.TreeHash.String(); p.Auto && !p.Standalone && sameBranch && tree == st.LastTree {
		// A push of a commit with the last sync's tree (an empty commit,
		// a merge that changed no file): the space holds it already; the
		// commit becomes the last synced one, and no revision is made.
		s.d.Logger.InfoContext(ctx, "Git import of an unchanged tree: no revision", "space", p.SpaceID, "job", j.ID, "commit", commit)
		return s.conclude(ctx, p, j, func(op *model.GitOperation) {
			op.State, op.Error, op.Commit = model.GitSuccess, "", commit
		}, &synced{commit: commit, revision: st.LastRevision, files: st.Synced, list: st.SyncedList, dir: st.Dir, tree: tree})
	}
	if p.Auto && !p.Standalone && sameBranch && commit != st.LastCommit {
		if sp, err := s.readSpace(ctx, p.SpaceID); err == nil && sp.Revision != st.LastRevision && st.LastRevision != "" {
			// Both changed since the last sync: the commit waits in a
			// change request, the space's edits stay.
			return s.proposeConflict(ctx, j, p, st, snap, p.ProjectDir)
		}
	}
	if err := s.stage(ctx, p, j, "content_process"); err != nil {
		return err
	}
	gitCommit := &model.GitCommit{OID: commit, Message: strings.TrimRight(snap.commit.Message, "\n"),
		CreatedByGitBook: isOurs(snap.commit), Ref: p.Ref}
	if p.RepoCommitURL != "" {
		gitCommit.URL = strings.TrimRight(p.RepoCommitURL, "/") + "/" + commit
	}
	layout := layoutOf(snap, p.ProjectDir)
	files, err := s.readProject(snap, layout)
	if err != nil {
		return s.fail(ctx, p, j, err)
	}
	files.treeURL = p.RepoTreeURL
	var revision string
	var redirects map[string]string // .gitbook.yaml's, resolved to pages
	rev, _, err := s.crs.LandOnSpace(ctx, p.SpaceID, p.Standalone, func(ctx context.Context, base model.Revision, head *content.Index) (model.Revision, []store.Op, error) {
		st, v, err := s.state(ctx, p.SpaceID)
		if err != nil {
			return model.Revision{}, nil, err
		}
		if slices.Contains(st.Done, j.ID) {
			return model.Revision{}, nil, errDone
		}
		b, err := s.build(ctx, p.SpaceID, files, head, nil)
		if err != nil {
			return model.Revision{}, nil, err
		}
		redirects = b.redirectsOf(layout.redirects)
		rev, err := s.content.Repo.NewRevision(ctx, p.SpaceID, content.RevisionEdits, []string{base.ID}, b.ix)
		if err != nil {
			return model.Revision{}, nil, err
		}
		rev.Git = gitCommit
		revision = rev.ID
		list, err := gitstate.PutSynced(ctx, s.d.Blobs, p.SpaceID, b.synced) // before the record naming it
		if err != nil {
			return model.Revision{}, nil, err
		}
		finish(&st, p, j, s.d.Clock(), func(op *model.GitOperation) {
			op.State, op.Error, op.Commit, op.Revision = model.GitSuccess, "", commit, revision
		}, &synced{commit: commit, revision: revision, list: list, dir: layout.dir, redirects: redirects, imported: true,
			tree: snap.commit.TreeHash.String()})
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
	s.completed(ctx, p, j, func(op *model.GitOperation) { op.State = model.GitSuccess }, &synced{commit: commit, revision: rev.ID})
	if !p.Standalone {
		// The repository's redirects become its sites' redirects (the
		// import stands whatever happens to them: they follow the next one).
		if sp, err := s.readSpace(ctx, p.SpaceID); err == nil {
			if err := s.sites.SyncGitRedirects(ctx, sp.OrgID, p.SpaceID, redirects); err != nil {
				s.d.Logger.WarnContext(ctx, "Git import: site redirects", "space", p.SpaceID, "err", err.Error())
			}
		}
	}
	return nil
}

// commitAuthor signs the commits exports make.
var commitAuthor = object.Signature{Name: "Galley", Email: gitjob.CommitterEmail}

// isOurs reports whether an export made a commit (Galley commits it; its
// author is Galley or the user who merged).
func isOurs(c *object.Commit) bool { return c.Committer.Email == commitAuthor.Email }

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
	// size and load: a file other than markdown is read only when the
	// space takes it (load; nil when data holds it).
	size int64
	load func() ([]byte, error)
}

// bytes reads the file's content.
func (f repoFile) bytes() ([]byte, error) {
	if f.load != nil {
		return f.load()
	}
	return f.data, nil
}

// Project is a folder of markdown files and other files: a repository's
// project directory, a zip archive, a wiki.
type Project struct {
	markdown map[string]repoFile
	files    map[string]repoFile
	summary  string
	hasSum   bool
	// summaryHash is SUMMARY.md's blob (Git only).
	summaryHash plumbing.Hash
	// summaryPath and readme name the table of contents and the first
	// page when .gitbook.yaml renames them ("": SUMMARY.md, README.md).
	summaryPath, readme string
	// flatTitles: a wiki (Home first).
	flatTitles bool
	// treeURL and dir: links to other files of a repository become
	// treeURL/dir/<path> (repoTreeURL).
	treeURL, dir string
	// includes are the reusable contents' files, vars the space's
	// variables file (includes.go).
	includes map[string]repoFile
	vars     *repoFile
}

// summaryName is the table of contents' file.
func (pr *Project) summaryName() string {
	if pr.summaryPath != "" {
		return pr.summaryPath
	}
	return summaryFile
}

// NewProject returns an empty project.
func NewProject() *Project {
	return &Project{markdown: map[string]repoFile{}, files: map[string]repoFile{}}
}

// Add adds a file (markdown by its .md extension; SUMMARY.md at the top
// is the table of contents). It refuses more than MaxPages pages or
// MaxFiles files.
func (pr *Project) Add(rel string, data []byte) error {
	return pr.add(repoFile{path: rel, data: data, size: int64(len(data))})
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
	case f.path == pr.summaryName():
		data, err := f.bytes()
		if err != nil {
			return err
		}
		pr.summary, pr.hasSum, pr.summaryHash = string(data), true, f.hash
	case isMD:
		if len(pr.markdown) >= MaxPages {
			return fmt.Errorf("more than %d pages", MaxPages)
		}
		if f.size > MaxMarkdownBytes {
			return fmt.Errorf("%s: more than %d bytes", f.path, MaxMarkdownBytes)
		}
		data, err := f.bytes()
		if err != nil {
			return err
		}
		f.data, f.load = data, nil
		pr.markdown[f.path] = f
	case f.size <= MaxAssetBytes:
		if len(pr.files) >= MaxFiles {
			return fmt.Errorf("more than %d files", MaxFiles)
		}
		pr.files[f.path] = f
	}
	return nil
}

// readProject reads the project directory of a snapshot: markdown files
// and other files (hidden files and folders left out, but for
// .gitbook/assets, and .gitbook/includes and .gitbook/vars.yaml, read as
// reusable contents and variables).
func (s *Service) readProject(snap *snapshot, l projectLayout) (*Project, error) {
	pr := NewProject()
	pr.dir, pr.readme = l.dir, l.readme
	if l.summary != summaryFile {
		pr.summaryPath = l.summary
	}
	prefix := projectPrefix(l.dir)
	for full, e := range snap.files {
		if e.mode == filemode.Submodule || e.mode == filemode.Symlink || !strings.HasPrefix(full, prefix) {
			continue
		}
		rel := strings.TrimPrefix(full, prefix)
		size, err := snap.size(e.hash)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", full, err)
		}
		h := e.hash
		load := func() ([]byte, error) {
			data, err := snap.blob(h)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", full, err)
			}
			return data, nil
		}
		if hidden(rel) {
			// Reusable contents and variables are read; other hidden
			// files stay the repository's.
			if err := pr.readExtra(rel, e.hash, size, load); err != nil {
				return nil, err
			}
			continue
		}
		if err := pr.add(repoFile{path: rel, hash: e.hash, size: size, load: load}); err != nil {
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

func firstNonEmpty(a ...string) string {
	for _, s := range a {
		if s != "" {
			return s
		}
	}
	return ""
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
	pr, err := s.readProject(snap, layoutOf(snap, ""))
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
