// Package gitjob is what starts Git Sync's jobs without linking Git: the
// jobs' payload, and the export a merge or a direct edit of a synced
// space queues (Exports, told by the change requests family through the
// composition root). Package gitsync runs the jobs.
package gitjob

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/users"
)

// Job kinds of a space's Git Sync.
const (
	ImportKind = "git-import"
	ExportKind = "git-export"
)

// LeaseTTL is how long a queued Git job may go without concluding before a
// read hands it out again (model.GitPending.Until): longer than the Git
// worker runs (5 minutes), shorter than its queue's visibility timeout
// (30 minutes), after which SQS itself delivers an unfinished job again.
const LeaseTTL = 10 * time.Minute

// Payload is a space job's input. It holds no credential in clear.
type Payload struct {
	SpaceID       string     `json:"spaceId"`
	URL           string     `json:"url"`
	Auth          string     `json:"auth,omitempty"`
	Ref           string     `json:"ref"`
	RepoTreeURL   string     `json:"repoTreeURL,omitempty"`
	RepoCommitURL string     `json:"repoCommitURL,omitempty"`
	ProjectDir    string     `json:"projectDir,omitempty"`
	Timestamp     *time.Time `json:"timestamp,omitempty"`
	Force         bool       `json:"force,omitempty"`
	Standalone    bool       `json:"standalone,omitempty"`
	CommitMessage string     `json:"commitMessage,omitempty"`
	// LastDir: the export's request named no project directory, so it is
	// the one of the space's last sync with the same repository
	// (projectDirOf), else the top. Site exports name theirs.
	LastDir bool `json:"lastDir,omitempty"`
	// Auto: the job was not requested through the API but made by a merge,
	// an edit or a push; conflicts become a change request
	// (docs/workers.md, "Conflicts") instead of a failure.
	Auto bool `json:"auto,omitempty"`
	// Revision is the space's revision an automatic export writes (the
	// merge's): one commit per merge. "" the space's head.
	Revision string `json:"revision,omitempty"`
	// Author is the commit's author ("": Galley); UserID who made the
	// merge or edit (the creator of a conflict's change request).
	Author *Person `json:"author,omitempty"`
	UserID string  `json:"userId,omitempty"`
	// Trigger is what started the job: "" a request of the API,
	// "webhook", "poll", "settings" (the first sync), "merge".
	Trigger string `json:"trigger,omitempty"`
	// Preview, when set, makes the import a pull request's preview: Ref
	// (the pull request's branch) is imported as a revision that is not
	// the space's head and recorded as the state's preview of Preview
	// (the pull request's number); Commit is the head the host named.
	Preview int    `json:"preview,omitempty"`
	Commit  string `json:"commit,omitempty"`
}

// Person is a commit's author.
type Person struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// DefaultTemplate is the message of a merge's commit when the space sets
// none: GitBook's, with Galley's prefix.
const DefaultTemplate = "GALLEY-{change_request_number}: {change_request_subject}"

// Message is the commit message of a landing by user under template
// ("" DefaultTemplate). Placeholders (GitBook's first two):
// {change_request_number}, {change_request_subject} ("No subject" when
// it has none), {user_name}, {user_email}. A direct edit (no change
// request) gets "Edit in Galley by <name>" ("Edit in Galley" when no
// user made it).
func Message(template string, l changerequests.Landing, user Person) string {
	if l.ChangeRequest == nil {
		if l.UserID == "" {
			return "Edit in Galley"
		}
		return "Edit in Galley by " + user.Name
	}
	if strings.TrimSpace(template) == "" {
		template = DefaultTemplate
	}
	subject := strings.TrimSpace(l.ChangeRequest.Subject)
	if subject == "" {
		subject = "No subject"
	}
	return strings.NewReplacer("{change_request_number}", strconv.Itoa(l.ChangeRequest.Number),
		"{change_request_subject}", subject, "{user_name}", user.Name, "{user_email}", user.Email).Replace(template)
}

// Exports queues the export of each merge and direct edit of a space
// whose Git Sync direction is both or galley-to-git
// (changerequests.Landings).
type Exports struct{ d *deps.Deps }

// NewExports returns the exports on d's queue.
func NewExports(d *deps.Deps) *Exports { return &Exports{d: d} }

// Exporting tells whether a state's space exports its merges.
func Exporting(st model.GitSync) bool {
	return (st.Direction == model.SyncBoth || st.Direction == model.SyncSpaceToGit) && st.LastURL != "" && st.LastRef != ""
}

// Landed queues the export of a landing to the branch the space last
// synced with (its repository, branch and project directory): the
// revision landed, one commit authored by the user, committed by Galley.
func (e *Exports) Landed(ctx context.Context, l changerequests.Landing) error {
	st, _, err := gitstate.Get(ctx, e.d.Store, l.SpaceID)
	if err != nil || !Exporting(st) {
		return err
	}
	if e.d.Queue == nil {
		return fmt.Errorf("this process has no Git queue: the export waits for the next one")
	}
	author := Person{Name: "Galley", Email: CommitterEmail}
	if l.UserID != "" {
		us, err := users.ReadAll(ctx, e.d.Store, []string{l.UserID})
		if err != nil {
			return err
		}
		author = Person{Name: strings.TrimSpace(us[0].DisplayName), Email: us[0].Email}
		if author.Name == "" {
			author.Name, _, _ = strings.Cut(us[0].Email, "@")
		}
	}
	p := Payload{SpaceID: l.SpaceID, URL: st.LastURL, Ref: st.LastRef, LastDir: true, Auto: true, Revision: l.Revision,
		CommitMessage: Message(st.CommitTemplate, l, author), Author: &author, UserID: l.UserID, Trigger: "merge"}
	if st.SyncURL != "" {
		// The sync settings name the branch.
		if st.Paused {
			return nil
		}
		p.URL, p.Ref = st.SyncURL, st.SyncRef
		if st.SyncDir != "" {
			p.ProjectDir, p.LastDir = st.SyncDir, false
		}
	}
	p.Auth = st.AuthFor(p.URL)
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	now := e.d.Clock()
	job := queue.Job{ID: ids.New(now), Kind: ExportKind, Group: l.SpaceID, Payload: raw}
	err = store.Retry(ctx, func() error {
		st, v, err := gitstate.Get(ctx, e.d.Store, l.SpaceID)
		if err != nil {
			return err
		}
		st.UpdatedAt = now
		st.Operation = &model.GitOperation{JobID: job.ID, Direction: model.GitExport, State: model.GitRunning, Stage: "repo_fetch",
			StartedAt: now, UpdatedAt: now, Trigger: "merge"}
		st.Pending = append(st.Pending, model.GitPending{JobID: job.ID, Direction: model.GitExport, Trigger: "merge", EnqueuedAt: now,
			Kind: job.Kind, Group: job.Group, Payload: job.Payload, Until: now.Add(LeaseTTL)})
		return e.d.Store.Write(ctx, gitstate.WriteOp(st, v))
	})
	if err != nil {
		return err
	}
	return e.d.Queue.Enqueue(ctx, job)
}

// CommitterEmail is the email of Galley's commits (their committer, and
// the author of exports nobody in particular made).
const CommitterEmail = "galley@noreply.invalid"
