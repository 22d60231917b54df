// Package gitsync is Git Sync: a space imported from, and exported to, a
// branch of a Git repository over smart HTTP, by background jobs.
//
// Decisions (docs/workers.md has the whole story):
//   - POST .../git/import and .../git/export check the request and the
//     caller's rights (edit on the space), record the request on the
//     space's Git Sync state, enqueue a job (git-import, git-export) in the
//     space's group of the FIFO Git queue, and answer 204. GET .../git/info
//     answers the provider details and the last operation (404 before any).
//   - Credentials embedded in the URL are used for the fetch and the push
//     only: the job carries the URL without them and the credentials
//     sealed (AES-GCM, a key derived from the installation's secret), so
//     that queue messages, dead-letter queues and local job files do not
//     show them; records, answers and logs hold the URL without them;
//     errors of the Git exchange are scrubbed of them.
//   - Jobs are ordered by `timestamp`: a job older than the latest one
//     applied to the space is skipped unless forced; a job already
//     concluded (a redelivered message) is skipped.
//   - Import clones the ref shallowly, maps the project directory to pages
//     and files (layout.go) and writes one revision with the commit's Git
//     metadata, as the space's head unless standalone.
//   - Sync settings (settings.go) make the space keep itself in sync: a
//     push webhook of any host (webhook.go; its signature with the space's
//     secret is its authorization) or the poll fallback (poll.go) queues
//     an import of the synced branch; git/info shows the last sync of each
//     direction, failures in plain words and the jobs pending.
//   - Export writes the space's head into the project directory on top of
//     the branch and pushes one commit with the request's message. When
//     the branch moved since the space last synced with it, the export
//     fails (non-fast-forward) and changes nothing, unless forced.
//   - A space synced both ways or Galley to Git exports each merge and
//     direct edit on its own (gitjob.Exports, told by the change requests
//     family): one commit per merge, authored by the user who merged. Its
//     own pushes are recorded, and the import they trigger is skipped.
//     When the branch and the space both changed, an automatic job never
//     pushes over the branch nor replaces the space: the branch's commit
//     becomes a change request (conflict.go), and exports wait for it.
package gitsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/gitsync/gitjob"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/store"
)

// Job kinds.
const (
	ImportKind = gitjob.ImportKind
	ExportKind = gitjob.ExportKind
)

// Kinds are the job kinds of Git Sync.
func Kinds() []string {
	return []string{ImportKind, ExportKind, SiteImportKind, SiteExportKind, PollKind}
}

// Bounds of a repository an import reads (Git's and the API's zip
// import's: one Project). 50,000 pages: issue 29's largest space, which
// the Git worker imports in well under its Lambda's 15 minutes and
// within its memory (docs/workers.md, "Figures").
const (
	MaxPages = 50_000
	MaxFiles = 50_000
	// MaxMarkdownBytes bounds one markdown file.
	MaxMarkdownBytes = 1 << 20
	// MaxAssetBytes bounds one file (an image, a download) an import
	// takes; larger files stay in the repository, untouched.
	MaxAssetBytes = 100 << 20
)

// doneKept is how many concluded job ids a space remembers.
const doneKept = 50

// Service runs Git Sync.
type Service struct {
	d       *deps.Deps
	content *content.Service
	crs     ChangeRequests
	sites   Sites
	// structure and spaces: site-wide Git Sync (site.go).
	structure SiteStructure
	spaces    Spaces
	// events are told of each space job's outcome; nil: nobody.
	events Events
	audit  Recorder
	// Timeout bounds each exchange with the repository (a fetch, a push);
	// the Git worker has 5 minutes.
	Timeout time.Duration
}

// ChangeRequests is what Git Sync asks of the change requests family
// (changerequests.Service): an import landed on a space; a conflict's
// commit proposed as a change request, and that request read.
type ChangeRequests interface {
	LandOnSpace(ctx context.Context, spaceID string, standalone bool, build changerequests.Builder) (model.Revision, model.Space, error)
	Propose(ctx context.Context, spaceID, base, subject, userID string, build changerequests.Builder) (model.ChangeRequest, error)
	Record(ctx context.Context, spaceID, ref string) (model.ChangeRequest, int64, error)
	LandOnRequest(ctx context.Context, spaceID, ref, userID string, build changerequests.Builder) (model.Revision, model.ChangeRequest, error)
}

// Sites is what Git Sync asks of the sites family (sites.Service): the
// redirects an imported repository declares.
type Sites interface {
	SyncGitRedirects(ctx context.Context, orgID, spaceID string, redirects map[string]string) error
}

// Needs are the other families' services Git Sync uses.
type Needs struct {
	Content        *content.Service
	ChangeRequests ChangeRequests
	Sites          Sites
	// SiteStructure and Spaces serve site-wide Git Sync (site.go).
	SiteStructure SiteStructure
	Spaces        Spaces
	// Audit records the settings' changes in the organization's audit log.
	Audit Recorder
	// Events are told of each space import's and export's outcome (the
	// webhooks family's emitter; nil: nobody).
	Events Events
}

// Recorder records the changes of a space's Git Sync settings in its
// organization's audit log (package audit; the process's root gives it).
// Op is the event's write for the change's own transaction.
type Recorder interface {
	Op(ctx context.Context, ch model.AuditChange) store.Op
}

// Events is told of what Git Sync did once it is written:
// space_gitsync_completed (GitBook's event, state success or failure;
// docs/webhooks.md).
type Events interface {
	Emit(ctx context.Context, e model.Event)
}

// New returns the Git Sync service.
func New(d *deps.Deps, n Needs) *Service {
	return &Service{d: d, content: n.Content, crs: n.ChangeRequests, sites: n.Sites, structure: n.SiteStructure, spaces: n.Spaces,
		events: n.Events, audit: n.Audit, Timeout: 4 * time.Minute}
}

// Request is an import or export request.
type Request struct {
	// URL may embed basic-auth credentials.
	URL, Ref                               string
	RepoTreeURL, RepoCommitURL, ProjectDir string
	Timestamp                              *time.Time
	Force, Standalone                      bool
	CommitMessage                          string
	Provider, ProviderURL                  string
}

// payload is a job's input (gitjob.Payload: merges queue exports without
// linking Git).
type payload = gitjob.Payload

var refPattern = regexp.MustCompile(`^refs/heads/[^\s~^:?*\[\\]+$`)

// validRef reports whether ref is a branch ref: refs/heads/<branch>.
func validRef(ref string) bool {
	return refPattern.MatchString(ref) && !strings.Contains(ref, "..") && !strings.Contains(ref, "//") &&
		!strings.HasSuffix(ref, "/") && !strings.HasSuffix(ref, ".lock") && !strings.HasSuffix(ref, ".")
}

// check validates a request and splits its URL from its credentials.
func (r Request) check(export bool) (clean, user, password, dir string, err error) {
	u, perr := url.Parse(r.URL)
	if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", "", "", apperr.Field("url", "must be an http or https URL of a Git repository")
	}
	clean, user, password, _ = fetch.Credentials(r.URL)
	if !validRef(r.Ref) {
		return "", "", "", "", apperr.Field("ref", "must be a branch ref: refs/heads/<branch>")
	}
	if export && strings.TrimSpace(r.CommitMessage) == "" {
		return "", "", "", "", apperr.Field("commitMessage", "must not be empty")
	}
	if top := strings.Trim(r.ProjectDir, "/"); top != "" && top != "." {
		// "/" and "." name the top (an export's default is the last
		// sync's directory).
		if dir = cleanRel(top); dir == "" {
			return "", "", "", "", apperr.Field("repoProjectDirectory", "must be a folder inside the repository")
		}
	}
	for field, v := range map[string]string{"repoTreeURL": r.RepoTreeURL, "repoCommitURL": r.RepoCommitURL, "gitInfo.url": r.ProviderURL} {
		if v == "" {
			continue
		}
		if pu, err := url.Parse(v); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.User != nil {
			return "", "", "", "", apperr.Field(field, "must be an http or https URL without credentials")
		}
	}
	return clean, user, password, dir, nil
}

// Import starts importing a repository into a space.
func (s *Service) Import(ctx context.Context, spaceID string, r Request) error {
	return s.start(ctx, spaceID, ImportKind, r)
}

// Export starts exporting a space to a repository.
func (s *Service) Export(ctx context.Context, spaceID string, r Request) error {
	r.Standalone = false
	return s.start(ctx, spaceID, ExportKind, r)
}

func (s *Service) start(ctx context.Context, spaceID, kind string, r Request) error {
	if _, _, err := s.content.Space(ctx, spaceID, access.EditContent); err != nil {
		return err
	}
	clean, user, password, dir, err := r.check(kind == ExportKind)
	if err != nil {
		return err
	}
	p := payload{SpaceID: spaceID, URL: clean, Ref: r.Ref, RepoTreeURL: r.RepoTreeURL, RepoCommitURL: r.RepoCommitURL,
		ProjectDir: dir, Timestamp: r.Timestamp, Force: r.Force, Standalone: r.Standalone, CommitMessage: r.CommitMessage,
		LastDir: kind == ExportKind && r.ProjectDir == ""}
	job, op, err := s.newJob(ctx, kind, spaceID, kind == ExportKind, user, password, &p.Auth, &p)
	if err != nil {
		return err
	}
	_, err = s.updateState(ctx, spaceID, func(st *model.GitSync) error {
		if st.SyncURL == "" || st.SyncURL == clean {
			// The request's credentials (sealed) are the repository's
			// now; a request to another repository without any drops
			// them. The sync settings' repository keeps its own when a
			// request is about another one.
			if p.Auth != "" || clean != st.AuthURL {
				st.Auth, st.AuthURL = p.Auth, clean
			}
		}
		st.URL, st.Ref, st.UpdatedAt = clean, r.Ref, op.StartedAt
		if r.Provider != "" {
			st.Provider = r.Provider
		}
		if r.ProviderURL != "" {
			st.TreeURL = r.ProviderURL
		} else if r.RepoTreeURL != "" && st.TreeURL == "" {
			st.TreeURL = r.RepoTreeURL
		}
		st.Operation = &op
		addPending(st, job, op, "")
		return nil
	})
	if err != nil {
		return err
	}
	return s.dispatch(ctx, job, s.Handle)
}

// pendingKept bounds the pending jobs a state lists.
const pendingKept = 50

// addPending lists a queued job in the sync status, with its lease.
func addPending(st *model.GitSync, job queue.Job, op model.GitOperation, trigger string) {
	st.Pending = append(st.Pending, pendingOf(job, op, trigger))
	if len(st.Pending) > pendingKept {
		st.Pending = st.Pending[len(st.Pending)-pendingKept:]
	}
}

// newJob makes the queue job of a Git operation (kind, in the queue's
// group) and the running operation it starts. The credentials, when
// given, are sealed into the payload (at *auth) before it is written.
func (s *Service) newJob(ctx context.Context, kind, group string, export bool, user, password string, auth *string, payload any) (queue.Job, model.GitOperation, error) {
	if user != "" || password != "" {
		sealed, err := s.seal(ctx, user+"\x00"+password)
		if err != nil {
			return queue.Job{}, model.GitOperation{}, err
		}
		*auth = sealed
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return queue.Job{}, model.GitOperation{}, err
	}
	now := s.d.Clock()
	job := queue.Job{ID: ids.New(now), Kind: kind, Group: group, Payload: raw}
	direction := model.GitImport
	if export {
		direction = model.GitExport
	}
	return job, model.GitOperation{JobID: job.ID, Direction: direction, State: model.GitRunning, Stage: "repo_fetch", StartedAt: now, UpdatedAt: now}, nil
}

// dispatch queues a job for the Git worker, or runs it at once with
// handle when the service has no queue (tests, one-process tools).
func (s *Service) dispatch(ctx context.Context, job queue.Job, handle func(context.Context, queue.Job) error) error {
	if s.d.Queue == nil {
		return handle(ctx, job)
	}
	if err := s.d.Queue.Enqueue(ctx, job); err != nil {
		return fmt.Errorf("enqueue Git job: %w", err)
	}
	return nil
}

// Info returns a space's Git Sync state (NotFound before any request),
// after handing out again its jobs whose lease expired (lease.go).
func (s *Service) Info(ctx context.Context, spaceID string) (model.GitSync, error) {
	if _, _, err := s.content.Space(ctx, spaceID, access.ReadContent); err != nil {
		return model.GitSync{}, err
	}
	st, v, err := gitstate.Get(ctx, s.d.Store, spaceID)
	if err != nil {
		return st, err
	}
	if v == 0 {
		return st, apperr.NotFoundf("no Git provider is set up on space %s", spaceID)
	}
	return s.revive(ctx, st), nil
}

// Redirects are the space's redirects from its repository's .gitbook.yaml
// (as last imported): old paths, relative to the space's root, to page
// ids; empty when it has none. The caller needs the read level.
func (s *Service) Redirects(ctx context.Context, spaceID string) (map[string]string, error) {
	if _, _, err := s.content.Space(ctx, spaceID, access.ReadContent); err != nil {
		return nil, err
	}
	st, _, err := s.state(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	return st.Redirects, nil
}

// state reads a space's Git Sync state and its version (0: none yet).
func (s *Service) state(ctx context.Context, spaceID string) (model.GitSync, int64, error) {
	return gitstate.Get(ctx, s.d.Store, spaceID)
}

// stateOp writes a state read at version v (0: new).
func stateOp(st model.GitSync, v int64) store.Op {
	return gitstate.WriteOp(st, v)
}

// updateState changes a space's state with fn, guarded by its version.
func (s *Service) updateState(ctx context.Context, spaceID string, fn func(*model.GitSync) error) (model.GitSync, error) {
	return s.updateStateOps(ctx, spaceID, func(st *model.GitSync) ([]store.Op, error) { return nil, fn(st) })
}

// updateStateOps is updateState with fn's extra operations written in the
// state's transaction (a settings change's audit event).
func (s *Service) updateStateOps(ctx context.Context, spaceID string, fn func(*model.GitSync) ([]store.Op, error)) (model.GitSync, error) {
	var st model.GitSync
	var fnErr error // fn's own errors are answered with the state read
	err := store.Retry(ctx, func() error {
		var v int64
		var err error
		if st, v, err = s.state(ctx, spaceID); err != nil {
			return err
		}
		var extra []store.Op
		if extra, fnErr = fn(&st); fnErr != nil {
			return nil
		}
		if err := s.d.Store.Write(ctx, append([]store.Op{stateOp(st, v)}, extra...)...); err != nil {
			return fmt.Errorf("write Git Sync state: %w", err)
		}
		return nil
	})
	switch {
	case fnErr != nil:
		return st, fnErr
	case errors.Is(err, store.ErrContention):
		return model.GitSync{}, apperr.Conflictf("too many concurrent Git Sync changes; try again")
	case err != nil:
		return st, err
	}
	return st, nil
}

// Job credentials and the repository webhook's secret are sealed with
// the installation's secret (secret.Instance.Seal) for this purpose and
// associated data, so that the values sealed before Seal moved to package
// secret read as they did (TestSealedBeforeTheMoveStillOpen).
const (
	sealPurpose = "galley job credentials v1"
	sealAD      = "git"
)

// seal encrypts a secret for a job payload.
func (s *Service) seal(ctx context.Context, secret string) (string, error) {
	return s.d.Secret.Seal(ctx, sealPurpose, sealAD, secret)
}

// unseal decrypts a job's credentials.
func (s *Service) unseal(ctx context.Context, sealed string) (user, password string, err error) {
	if sealed == "" {
		return "", "", nil
	}
	plain, err := s.d.Secret.Open(ctx, sealPurpose, sealAD, sealed)
	if err != nil {
		return "", "", fmt.Errorf("credentials: %w", err)
	}
	user, password, _ = strings.Cut(plain, "\x00")
	return user, password, nil
}

func urlUnescape(s string) (string, error) { return url.PathUnescape(s) }

// Handlers are the Git worker's job handlers, by kind, on s.
func (s *Service) Handlers() map[string]queue.Handler {
	return map[string]queue.Handler{ImportKind: s.Handle, ExportKind: s.Handle, PollKind: s.HandlePoll, SiteImportKind: s.HandleSite, SiteExportKind: s.HandleSite}
}
