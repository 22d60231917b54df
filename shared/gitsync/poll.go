package gitsync

import (
	"context"
	"errors"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
)

// PollKind is the poll fallback's job: look at the synced branch of every
// space polling it whose interval passed, and queue an import where the
// branch moved. A schedule sends it (EventBridge Scheduler in AWS, a
// ticker of the local worker loop).
const PollKind = "git-poll"

// HandlePoll runs a poll job.
func (s *Service) HandlePoll(ctx context.Context, _ queue.Job) error {
	_, err := s.Poll(ctx)
	return err
}

// Poll looks at the branches due and answers how many imports it queued.
// A branch that cannot be read is logged and looked at again at the next
// interval; only storage failures are returned.
func (s *Service) Poll(ctx context.Context) (int, error) {
	spaces, err := gitstate.PolledSpaces(ctx, s.d.Store)
	if err != nil {
		return 0, err
	}
	queued := 0
	for _, spaceID := range spaces {
		ok, err := s.pollSpace(ctx, spaceID)
		if err != nil {
			return queued, err
		}
		if ok {
			queued++
		}
	}
	return queued, nil
}

// pollSpace polls one space's branch when its interval passed.
func (s *Service) pollSpace(ctx context.Context, spaceID string) (bool, error) {
	st, _, err := s.state(ctx, spaceID)
	if err != nil {
		return false, err
	}
	now := s.d.Clock()
	if !polls(st) {
		return false, s.setPolled(ctx, st)
	}
	if st.LastPoll != nil && now.Sub(*st.LastPoll).Seconds() < float64(st.PollSeconds) {
		return false, nil
	}
	head, herr := s.branchHead(ctx, st)
	var queued *queue.Job
	_, err = s.updateState(ctx, spaceID, func(st *model.GitSync) error {
		queued = nil
		st.LastPoll = &now
		if herr != nil || head == "" || !polls(*st) {
			return nil
		}
		if head == st.LastCommit && st.LastURL == st.SyncURL && st.LastRef == st.SyncRef {
			return nil
		}
		if slices.ContainsFunc(st.Pending, func(p model.GitPending) bool { return p.Direction == model.GitImport }) {
			return nil // an import is on its way
		}
		var err error
		queued, err = s.syncJob(ctx, st, ImportKind, "poll")
		return err
	})
	if err != nil {
		return false, err
	}
	if herr != nil {
		s.d.Logger.WarnContext(ctx, "Git poll: cannot read the branch", "space", spaceID, "url", fetch.Redact(st.SyncURL),
			"ref", st.SyncRef, "err", herr.Error())
	}
	if queued == nil {
		return false, nil
	}
	return true, s.dispatch(ctx, *queued, s.Handle)
}

// branchHead is the commit the synced branch points to ("" when it has
// none), read from the refs the repository advertises (no objects).
func (s *Service) branchHead(ctx context.Context, st model.GitSync) (string, error) {
	r, err := s.openRemote(ctx, st.SyncURL, st.AuthFor(st.SyncURL))
	if err != nil {
		return "", err
	}
	sess, err := r.client.NewUploadPackSession(r.ep, r.auth)
	if err != nil {
		return "", r.scrub(err)
	}
	defer sess.Close()
	ar, err := sess.AdvertisedReferencesContext(ctx)
	if errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return "", nil
	}
	if err != nil {
		return "", r.scrub(err)
	}
	refs, err := ar.AllReferences()
	if err != nil {
		return "", r.scrub(err)
	}
	if ref, ok := refs[plumbing.ReferenceName(st.SyncRef)]; ok {
		return ref.Hash().String(), nil
	}
	return "", nil
}
