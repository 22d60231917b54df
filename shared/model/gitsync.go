package model

import (
	"encoding/json"
	"time"
)

// Git Sync operation states and directions (the reference's
// GitSyncOperationState, GitSyncOperationDirection).
const (
	GitRunning = "running"
	GitFailure = "failure"
	GitSuccess = "success"

	GitImport = "import"
	GitExport = "export"

	// Directions of automatic sync (GitSync.Direction; "" none).
	SyncBoth       = "both"
	SyncGitToSpace = "git-to-galley"
	SyncSpaceToGit = "galley-to-git"
)

// GitSync is a space's Git Sync state: the provider details shown by
// GET .../git/info, what orders its imports and exports, and its last
// operation. It never holds credentials: URLs are kept without them.
type GitSync struct {
	SpaceID string `json:"spaceId"`
	// Provider and TreeURL are the gitInfo of the last request that gave them.
	Provider string `json:"provider,omitempty"`
	TreeURL  string `json:"treeURL,omitempty"`
	// URL is the repository of the last request, without credentials.
	URL       string    `json:"url"`
	Ref       string    `json:"ref"`
	UpdatedAt time.Time `json:"updatedAt"`
	// LastTimestamp is the latest timestamp of the jobs applied; older
	// jobs are skipped unless forced.
	LastTimestamp *time.Time `json:"lastTimestamp,omitempty"`
	// LastCommit is the commit the space last imported from or exported
	// to LastURL's LastRef.
	LastCommit string `json:"lastCommit,omitempty"`
	// LastTree is LastCommit's tree ("" unknown): a pushed commit with
	// the same tree changes nothing the space holds.
	LastTree string `json:"lastTree,omitempty"`
	LastURL  string `json:"lastURL,omitempty"`
	LastRef  string `json:"lastRef,omitempty"`
	// Dir is the docs' root in LastCommit, relative to the repository
	// ("" the top): the project directory, moved by its .gitbook.yaml's
	// root. Synced paths are relative to it.
	Dir string `json:"dir,omitempty"`
	// LastRevision is the space's revision LastCommit holds (imported or
	// exported); the synced files are the files of the project directory
	// the space owns in LastCommit, each with its blob and what it holds.
	// An export compares the space with LastRevision and writes only what
	// changed; it never deletes a file that is not among the synced ones.
	LastRevision string `json:"lastRevision,omitempty"`
	// SyncedList names the content-addressed blob holding the synced
	// files (gitstate.SyncedKey; "" none): a list of 50,000 files does
	// not fit in a DynamoDB item (400 KB). Synced is the list as states
	// written before it moved out of the record hold it inline: read
	// (gitstate.SyncedOf), and moved into a blob by the next sync.
	SyncedList string       `json:"syncedList,omitempty"`
	Synced     []SyncedFile `json:"synced,omitempty"`
	// Redirects are the last import's .gitbook.yaml redirects: old paths
	// (relative to the space's root) to page ids.
	Redirects map[string]string `json:"redirects,omitempty"`
	// Done are the ids of the latest jobs concluded (a job delivered again
	// is skipped).
	Done      []string      `json:"done,omitempty"`
	Operation *GitOperation `json:"operation,omitempty"`
	// Lease is held by the job working on the space's Git Sync (a space
	// job, or a site job's part for this space) until it concludes or
	// Until passes; another job finding it held waits (it is retried).
	Lease *GitLease `json:"lease,omitempty"`

	// Direction is the automatic sync: "both", "git-to-galley",
	// "galley-to-git" ("": none; imports and exports only on request).
	Direction string `json:"direction,omitempty"`
	// CommitTemplate is the message of the commits a merge exports
	// ("": gitjob.DefaultTemplate); placeholders in docs/workers.md.
	CommitTemplate string `json:"commitMessageTemplate,omitempty"`
	// Auth are the credentials of the repository AuthURL (without
	// credentials), sealed as in job payloads (never in clear): those of
	// the sync settings when they name a repository, else of the last
	// request to URL that gave some. Automatic jobs (exports on merge,
	// webhooks' and polls' imports, previews) use them; AuthFor answers
	// them for a repository. States written before the two fields became
	// one kept them as sealedAuth and syncAuth (read by UnmarshalJSON).
	Auth    string `json:"auth,omitempty"`
	AuthURL string `json:"authURL,omitempty"`
	// Pushed are the latest commits exports pushed (newest last): the
	// import a push of Galley's own triggers is recognised by them.
	Pushed []string `json:"pushed,omitempty"`
	// Conflict is set while the branch and the space both changed since
	// the last sync: the branch's commit waits in a change request and
	// automatic exports wait for it (docs/workers.md, "Conflicts").
	Conflict *GitConflict `json:"conflict,omitempty"`

	// Sync settings (PUT .../git/settings, issue 26 items 1, 2, 6).
	// SyncURL (without credentials), SyncRef (refs/heads/<branch>) and
	// SyncDir (the project directory, "" the top) are the synced branch.
	SyncURL string `json:"syncURL,omitempty"`
	SyncRef string `json:"syncRef,omitempty"`
	SyncDir string `json:"syncDir,omitempty"`
	// The repository's credentials are Auth (its AuthURL is SyncURL).
	// Priority is the side the first sync takes: "git" (import) or
	// "gitbook" (export), GitBook's GitSyncInstallationPriority.
	Priority string `json:"priority,omitempty"`
	// Paused stops automatic syncs (webhooks are answered, nothing runs).
	Paused bool `json:"paused,omitempty"`
	// WebhookSecret is the push webhooks' secret, sealed; never answered.
	WebhookSecret string `json:"webhookSecret,omitempty"`
	// PollSeconds is the poll fallback's interval (0: off); LastPoll when
	// the poll last looked at the branch.
	PollSeconds int        `json:"pollSeconds,omitempty"`
	LastPoll    *time.Time `json:"lastPoll,omitempty"`
	// Deliveries are the webhook deliveries received lately (the
	// redelivery of one is answered without running anything again);
	// entries older than GitDeliveryTTL are dropped on each write.
	Deliveries []GitDelivery `json:"deliveries,omitempty"`
	// LastImport and LastExport are the last concluded sync of each
	// direction; Pending the jobs queued and not concluded yet.
	LastImport *GitSyncRun  `json:"lastImport,omitempty"`
	LastExport *GitSyncRun  `json:"lastExport,omitempty"`
	Pending    []GitPending `json:"pending,omitempty"`
	// Previews are the pull requests' previews (issue 26 item 5), by the
	// pull request's number: each a revision of the space that is not its
	// head, served by the reader to the organization's members only.
	Previews map[string]GitPreview `json:"previews,omitempty"`
}

// AuthFor answers the sealed credentials the state keeps for the
// repository url (without credentials; "": none).
func (g GitSync) AuthFor(url string) string {
	if url == "" || url != g.AuthURL {
		return ""
	}
	return g.Auth
}

// UnmarshalJSON reads a state, also one written before its two credential
// fields became Auth: syncAuth (the settings' credentials, for SyncURL)
// else sealedAuth (the last request's, for URL) becomes Auth. They are
// written back as Auth on the state's next write.
func (g *GitSync) UnmarshalJSON(b []byte) error {
	type plain GitSync // no methods: no recursion
	var v struct {
		plain
		SealedAuth string `json:"sealedAuth"`
		SyncAuth   string `json:"syncAuth"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*g = GitSync(v.plain)
	switch {
	case g.Auth != "":
	case v.SyncAuth != "" && g.SyncURL != "":
		g.Auth, g.AuthURL = v.SyncAuth, g.SyncURL
	case v.SealedAuth != "":
		g.Auth, g.AuthURL = v.SealedAuth, g.URL
	}
	return nil
}

// GitPreview is a pull request's preview: Revision is the space's
// revision (never its head) holding Commit, the head of the pull
// request's Branch (refs/heads/<branch>), imported at UpdatedAt ("" until
// the first import concludes). Pending is the job importing the head the
// host announced last, while it runs (a job finding another there drops
// its result).
type GitPreview struct {
	Number    int       `json:"number"`
	Revision  string    `json:"revision,omitempty"`
	Commit    string    `json:"commit,omitempty"`
	Branch    string    `json:"branch"`
	Pending   string    `json:"pending,omitempty"`
	UpdatedAt time.Time `json:"updatedAt"`
	// Error and Code are the last import's failure, in plain words and
	// its kind (GitErr*), until an import succeeds.
	Error string `json:"error,omitempty"`
	Code  string `json:"code,omitempty"`
}

// GitConflict is a space whose branch and content both changed since
// their last sync: the branch's commit, imported as a change request
// against the space's revision at the last sync.
type GitConflict struct {
	// Commit is the branch's commit imported into ChangeRequest (its id)
	// as Revision; the files (the blob FilesList names, as
	// GitSync.SyncedList; Files inline in conflicts recorded before) and
	// Dir are what the space owns in Commit (adopted as the last sync
	// when the request is merged).
	Commit        string       `json:"commit"`
	ChangeRequest string       `json:"changeRequest"`
	Number        int          `json:"number,omitempty"`
	Revision      string       `json:"revision"`
	FilesList     string       `json:"filesList,omitempty"`
	Files         []SyncedFile `json:"files,omitempty"`
	Dir           string       `json:"dir,omitempty"`
	Since         time.Time    `json:"since"`
}

// GitDeliveryTTL is how long a webhook delivery's id is remembered.
const GitDeliveryTTL = 72 * time.Hour

// GitDelivery is a webhook delivery received.
type GitDelivery struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`
}

// GitSyncRun is a concluded import or export: when, the commit, its state
// and, when it failed, the reason in plain words and its kind (Galley's
// GitErr* codes).
type GitSyncRun struct {
	JobID   string    `json:"jobId"`
	At      time.Time `json:"at"`
	Commit  string    `json:"commit,omitempty"`
	State   string    `json:"state"`
	Error   string    `json:"error,omitempty"`
	Code    string    `json:"code,omitempty"`
	Trigger string    `json:"trigger,omitempty"`
}

// GitPending is a Git job queued and not concluded.
type GitPending struct {
	JobID      string    `json:"jobId"`
	Direction  string    `json:"direction"`
	Trigger    string    `json:"trigger,omitempty"`
	EnqueuedAt time.Time `json:"enqueuedAt"`
	// Attempts counts the runs that failed for a passing reason (the
	// repository unreachable) and were left to the queue to retry.
	Attempts int `json:"attempts,omitempty"`
	// Kind, Group and Payload are the job as queued (queue.Job's; its
	// credentials sealed, as in the message), kept so that it can be
	// handed out again; Until is its lease: set when it is queued and
	// when a worker starts it. Past Until without an outcome (its worker
	// was killed and its message went to the dead-letter queue, or the
	// message was never sent), a read of the state queues the job again
	// (HandedOut counts how often), and after GitMaxHandOuts concludes it
	// failed (GitErrInterrupted) (docs/faults.md, "Git jobs' lease").
	Kind      string          `json:"kind,omitempty"`
	Group     string          `json:"group,omitempty"`
	Payload   json.RawMessage `json:"payload,omitempty"`
	Until     time.Time       `json:"until,omitzero"`
	HandedOut int             `json:"handedOut,omitempty"`
}

// Kinds of Git Sync failures shown in the sync status.
const (
	GitErrAuth        = "authentication-failed"
	GitErrBranch      = "branch-missing"
	GitErrConflict    = "conflict"
	GitErrUnreachable = "unreachable"
	GitErrOther       = "error"
	// GitErrInterrupted: the job's worker stopped (killed, timed out)
	// without concluding it, GitMaxHandOuts times after its lease expired.
	GitErrInterrupted = "interrupted"
)

// GitMaxHandOuts is how many times a Git job whose lease expired is
// queued again before it is concluded failed (GitErrInterrupted).
const GitMaxHandOuts = 3

// GitLease is a job's hold on a space's Git Sync.
type GitLease = JobLease

// GitOperation is the state of a Git Sync import or export.
type GitOperation struct {
	JobID       string     `json:"jobId"`
	Direction   string     `json:"direction"`
	State       string     `json:"state"`
	Stage       string     `json:"stage"`
	StartedAt   time.Time  `json:"startedAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
	CompletedAt *time.Time `json:"completedAt,omitempty"`
	Error       string     `json:"error,omitempty"`
	// Commit is the commit imported or exported.
	Commit string `json:"commit,omitempty"`
	// Revision is the revision an import made.
	Revision string `json:"revision,omitempty"`
	// Code is the kind of failure (GitErr*), Trigger what started the job
	// ("" a request of the API, "webhook", "poll", "settings").
	Code    string `json:"code,omitempty"`
	Trigger string `json:"trigger,omitempty"`
}

// SyncedFile is a file of a project directory a space owns: a page's
// markdown (Page), a file (File), a reusable content's markdown
// (Reusable), the space's variables (Variables), or the table of contents
// (none of them).
type SyncedFile struct {
	Path      string `json:"p"`
	OID       string `json:"o"`
	Page      string `json:"pg,omitempty"`
	File      string `json:"f,omitempty"`
	Reusable  string `json:"rc,omitempty"`
	Variables bool   `json:"v,omitempty"`
}
