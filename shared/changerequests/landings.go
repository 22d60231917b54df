package changerequests

import (
	"context"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Landing is a revision that became a live space's head by a merge or by
// a direct edit (a content import into the space), not by a Git import.
type Landing struct {
	SpaceID, Revision string
	// UserID is who merged or edited ("" unknown: a job).
	UserID string
	// ChangeRequest is the merged request; nil for a direct edit.
	ChangeRequest *model.ChangeRequest
}

// Landings is told of each Landing once it is written: Git Sync exports
// it (gitjob.Exports, given through the composition root). Its error is
// logged: the merge or edit stands, and the next export carries it.
type Landings interface {
	Landed(ctx context.Context, l Landing) error
}

// landed tells the Landings of a landing, if any.
func (s *Service) landed(ctx context.Context, l Landing) {
	if s.landings == nil {
		return
	}
	if err := s.landings.Landed(ctx, l); err != nil {
		s.d.Logger.WarnContext(ctx, "after a merge or an edit: Git Sync export not queued", "space", l.SpaceID,
			"revision", l.Revision, "err", err.Error())
	}
}

// Events is told of what happened to change requests and to spaces'
// content once it is written (the webhooks family's emitter, given by the
// composition root): change_request_opened, change_request_merged and
// space_content_updated (docs/webhooks.md).
type Events interface {
	Emit(ctx context.Context, e model.Event)
}

// emit tells the events, if any, of an event about request cr.
func (s *Service) emit(ctx context.Context, event string, cr model.ChangeRequest) {
	if s.events == nil {
		return
	}
	f := map[string]any{"spaceId": cr.SpaceID, "changeRequestId": cr.ID, "number": cr.Number, "subject": cr.Subject, "revisionId": cr.Revision}
	if cr.RevisionMerged != "" {
		f["revisionMerged"] = cr.RevisionMerged
	}
	s.events.Emit(ctx, model.Event{Type: event, OrgID: cr.OrgID, Fields: f})
}

// contentUpdated tells the events, if any, that a space's primary content
// is now revision (GitBook's space_content_updated): a merge, a content
// import, a Git import. by lists who changed it (empty: a job nobody
// asked for).
func (s *Service) contentUpdated(ctx context.Context, orgID, spaceID, revision string, by []string) {
	if s.events == nil {
		return
	}
	s.events.Emit(ctx, model.Event{Type: "space_content_updated", OrgID: orgID,
		Fields: map[string]any{"spaceId": spaceID, "revisionId": revision}, UpdatedBy: by})
}

// Propose opens a change request against the space's revision base (not
// necessarily its head) whose content is the revision build makes from
// base's content: Git Sync's conflicts, a branch's commit the space has
// not imported, while the space changed too (docs/workers.md). The
// request is open, made by userID ("" none) with that subject. It checks
// no rights: callers have.
func (s *Service) Propose(ctx context.Context, spaceID, base, subject, userID string, build Builder) (model.ChangeRequest, error) {
	var cr model.ChangeRequest
	err := store.Retry(ctx, func() error {
		old, cur, err := s.readSpace(ctx, spaceID)
		if err != nil {
			return err
		}
		baseRev, ix, err := s.repo.Load(ctx, spaceID, base)
		if err != nil {
			return err
		}
		rev, extra, err := build(ctx, baseRev, ix)
		if err != nil {
			return err
		}
		now := s.d.Clock()
		cur, spOp := spaces.Apply(cur, old, spaces.NumberChangeRequest(), spaces.MoveChangeRequest(model.CRDraft, model.CROpen))
		cr = model.ChangeRequest{ID: ids.New(now), SpaceID: spaceID, Number: cur.ChangeRequests, Status: model.CROpen,
			Subject: subject, CreatedBy: userID, CreatedAt: now, UpdatedAt: now,
			Revision: rev.ID, RevisionInitial: base, OrgID: cur.OrgID}
		if userID != "" {
			cr.Contributors = []string{userID}
		}
		ops := []store.Op{spOp, content.Put(rev),
			store.Put(records.Item(keys.ChangeRequestNumber(spaceID, cr.Number), content.ChangeRequestNumber{ID: cr.ID}, 1), store.IfNotExists)}
		ops = append(append(ops, crOps(cr, 0)...), extra...)
		return s.d.Store.Write(ctx, ops...)
	})
	if err == nil {
		s.emit(ctx, "change_request_opened", cr)
	}
	return cr, err
}
