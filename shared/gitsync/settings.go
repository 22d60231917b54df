package gitsync

import (
	"context"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/store"
)

// Sync directions of the settings.
const (
	DirectionBoth        = model.SyncBoth
	DirectionGitToGalley = model.SyncGitToSpace
	DirectionGalleyToGit = model.SyncSpaceToGit
)

// Priorities of the first sync (GitBook's GitSyncInstallationPriority).
const (
	PriorityGit    = "git"
	PriorityGalley = "gitbook"
)

// Bounds of the settings.
const (
	MinPollSeconds   = 60
	MaxPollSeconds   = 86400
	MinWebhookSecret = 16
)

// Settings are a space's sync settings as given to SetSettings.
type Settings struct {
	// URL of the repository; it may embed basic credentials, kept sealed.
	// Without them, the credentials kept for the same URL stay.
	URL string
	// Branch is refs/heads/<branch>.
	Branch           string
	ProjectDirectory string
	Direction        string
	CommitTemplate   string
	Priority         string
	Enabled          bool
	// WebhookSecret: nil keeps the secret, "" removes it.
	WebhookSecret *string
	PollSeconds   int
}

// importing reports whether a direction takes the repository's commits.
func importing(direction string) bool {
	return direction == DirectionBoth || direction == DirectionGitToGalley
}

// exporting reports whether a direction pushes the space's changes.
func exporting(direction string) bool {
	return direction == DirectionBoth || direction == DirectionGalleyToGit
}

// SyncSettings returns a space's Git Sync state for its settings (the
// caller administers the space's content).
func (s *Service) SyncSettings(ctx context.Context, spaceID string) (model.GitSync, error) {
	if _, _, err := s.content.Space(ctx, spaceID, access.AdminContent); err != nil {
		return model.GitSync{}, err
	}
	st, _, err := s.state(ctx, spaceID)
	return st, err
}

// SetSettings replaces a space's sync settings. When they enable a sync
// whose repository and branch the space never synced with, the first sync
// is queued: an import when the priority is the repository's (the
// default), an export when it is the space's.
func (s *Service) SetSettings(ctx context.Context, spaceID string, in Settings) (model.GitSync, error) {
	sp, _, err := s.content.Space(ctx, spaceID, access.AdminContent)
	if err != nil {
		return model.GitSync{}, err
	}
	if !validRef(in.Branch) {
		return model.GitSync{}, apperr.Field("branch", "must be a branch ref: refs/heads/<branch>")
	}
	clean, user, password, dir, err := Request{URL: in.URL, Ref: in.Branch, ProjectDir: in.ProjectDirectory}.check(false)
	if err != nil {
		return model.GitSync{}, err
	}
	switch in.Direction {
	case "", DirectionBoth, DirectionGitToGalley, DirectionGalleyToGit:
	default:
		return model.GitSync{}, apperr.Field("direction", "must be both, git-to-galley or galley-to-git")
	}
	switch in.Priority {
	case "", PriorityGit, PriorityGalley:
	default:
		return model.GitSync{}, apperr.Field("priority", "must be git or gitbook")
	}
	if in.PollSeconds != 0 && (in.PollSeconds < MinPollSeconds || in.PollSeconds > MaxPollSeconds) {
		return model.GitSync{}, apperr.Field("pollInterval", "must be 0 (off) or %d to %d seconds", MinPollSeconds, MaxPollSeconds)
	}
	var auth, secret string
	if user != "" || password != "" {
		if auth, err = s.seal(ctx, user+"\x00"+password); err != nil {
			return model.GitSync{}, err
		}
	}
	if in.WebhookSecret != nil && *in.WebhookSecret != "" {
		if len(*in.WebhookSecret) < MinWebhookSecret {
			return model.GitSync{}, apperr.Field("webhookSecret", "must be at least %d characters", MinWebhookSecret)
		}
		if secret, err = s.seal(ctx, *in.WebhookSecret); err != nil {
			return model.GitSync{}, err
		}
	}
	var first *queue.Job
	event := model.AuditChange{OrgID: sp.OrgID, Action: model.AuditGitSyncUpdated, Target: model.AuditRef{Type: "space", ID: spaceID},
		Payload: map[string]any{"url": clean, "branch": in.Branch, "direction": in.Direction, "enabled": in.Enabled}}
	st, err := s.updateStateOps(ctx, spaceID, func(st *model.GitSync) ([]store.Op, error) {
		ops := []store.Op{s.audit.Op(ctx, event)}
		if auth == "" {
			auth = st.AuthFor(clean) // kept (the settings' or a request's)
		}
		if st.SyncURL != clean || st.SyncRef != in.Branch {
			// Previews are of pull requests into the synced branch.
			st.Previews = nil
		}
		st.SyncURL, st.SyncRef, st.SyncDir, st.Auth, st.AuthURL = clean, in.Branch, dir, auth, clean
		st.Direction, st.CommitTemplate, st.Priority = in.Direction, in.CommitTemplate, in.Priority
		st.Paused, st.PollSeconds = !in.Enabled, in.PollSeconds
		if in.WebhookSecret != nil {
			st.WebhookSecret = secret
		}
		st.UpdatedAt = s.d.Clock()
		first = nil
		if !in.Enabled || st.Direction == "" || (st.LastURL == clean && st.LastRef == in.Branch && st.LastCommit != "") {
			return ops, nil
		}
		kind := ImportKind
		if in.Priority == PriorityGalley {
			kind = ExportKind
		}
		if (kind == ImportKind && !importing(st.Direction)) || (kind == ExportKind && !exporting(st.Direction)) {
			return ops, nil
		}
		var err error
		first, err = s.syncJob(ctx, st, kind, "settings")
		return ops, err
	})
	if err != nil {
		return model.GitSync{}, err
	}
	if err := s.setPolled(ctx, st); err != nil {
		return model.GitSync{}, err
	}
	if first != nil {
		if err := s.dispatch(ctx, *first, s.Handle); err != nil {
			return model.GitSync{}, err
		}
	}
	return st, nil
}

// syncJob makes a job of the settings (kind, started by trigger) and
// records it on st as its operation, pending.
func (s *Service) syncJob(ctx context.Context, st *model.GitSync, kind, trigger string) (*queue.Job, error) {
	now := s.d.Clock()
	p := payload{SpaceID: st.SpaceID, URL: st.SyncURL, Auth: st.AuthFor(st.SyncURL), Ref: st.SyncRef, ProjectDir: st.SyncDir,
		Timestamp: &now, Trigger: trigger,
		// A push's import meeting edits of the space becomes a change
		// request (docs/workers.md, "Conflicts"), as a merge's export does.
		Auto: kind == ImportKind && trigger != "settings"}
	if kind == ExportKind {
		// The first sync with the space's priority: the space's content
		// goes on top of the branch, whatever it holds.
		p.Force, p.CommitMessage = true, st.CommitTemplate
		if p.CommitMessage == "" {
			p.CommitMessage = "Sync from Galley"
		}
	}
	job, op, err := s.newJob(ctx, kind, st.SpaceID, kind == ExportKind, "", "", &p.Auth, &p)
	if err != nil {
		return nil, err
	}
	op.Trigger = trigger
	st.URL, st.Ref, st.UpdatedAt = st.SyncURL, st.SyncRef, now
	st.Operation = &op
	addPending(st, job, op, trigger)
	return &job, nil
}

// polls reports whether a state's branch is polled.
func polls(st model.GitSync) bool {
	return st.PollSeconds > 0 && !st.Paused && importing(st.Direction) && st.SyncURL != ""
}

// setPolled lists the space among the polled ones, or takes it off.
func (s *Service) setPolled(ctx context.Context, st model.GitSync) error {
	return gitstate.SetPolled(ctx, s.d.Store, st.SpaceID, polls(st))
}
