package model

import "time"

// Git Sync operation states and directions (the reference's
// GitSyncOperationState, GitSyncOperationDirection).
const (
	GitRunning = "running"
	GitFailure = "failure"
	GitSuccess = "success"

	GitImport = "import"
	GitExport = "export"
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
	LastURL    string `json:"lastURL,omitempty"`
	LastRef    string `json:"lastRef,omitempty"`
	// Dir is the docs' root in LastCommit, relative to the repository
	// ("" the top): the project directory, moved by its .gitbook.yaml's
	// root. Synced paths are relative to it.
	Dir string `json:"dir,omitempty"`
	// LastRevision is the space's revision LastCommit holds (imported or
	// exported); Synced the files of the project directory the space owns
	// in LastCommit, each with its blob and what it holds. An export
	// compares the space with LastRevision and writes only what changed;
	// it never deletes a file that is not in Synced.
	LastRevision string       `json:"lastRevision,omitempty"`
	Synced       []SyncedFile `json:"synced,omitempty"`
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
}

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
