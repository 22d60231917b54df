package changerequests

import (
	"context"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Builder makes a new revision from the content it starts from (a space's
// head or a change request's revision): it stores the tree (see
// content.Repo.NewRevision) and returns the revision, not yet written, and
// operations to commit with it. It may run more than once when the head
// moves meanwhile, each time on the fresher content.
type Builder func(ctx context.Context, base model.Revision, ix *content.Index) (model.Revision, []store.Op, error)

// LandOnSpace writes a revision built from a live space's head (imports):
// as the new head, by a write guarded by the space's version and redone on
// the new head when it moved, or beside the head (standalone), the space
// unchanged. It checks no rights: callers have. A revision without Git
// metadata landed as the head is a direct edit, told to the Landings (Git
// Sync exports it); a Git import's is not. Every revision landed as the
// head is told to the events (space_content_updated, by the caller).
func (s *Service) LandOnSpace(ctx context.Context, spaceID string, standalone bool, build Builder) (model.Revision, model.Space, error) {
	var out model.Revision
	var sp model.Space
	err := store.Retry(ctx, func() error {
		old, cur, err := s.readSpace(ctx, spaceID)
		if err != nil {
			return err
		}
		base, ix, err := s.repo.Load(ctx, spaceID, cur.Revision)
		if err != nil {
			return err
		}
		rev, extra, err := build(ctx, base, ix)
		if err != nil {
			return err
		}
		ops := append([]store.Op{content.Put(rev)}, extra...)
		if !standalone {
			var op store.Op
			cur, op = spaces.Apply(cur, old, spaces.SetHead(rev.ID, rev.CreatedAt))
			ops = append(ops, op)
		}
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return err
		}
		out, sp = rev, cur
		return nil
	})
	if err == nil && !standalone {
		c, _ := access.CallerFrom(ctx)
		if out.Git == nil {
			s.landed(ctx, Landing{SpaceID: spaceID, Revision: out.ID, UserID: c.UserID})
		}
		by := []string{}
		if c.UserID != "" {
			by = append(by, c.UserID)
		}
		s.contentUpdated(ctx, sp.OrgID, spaceID, out.ID, by)
	}
	return out, sp, err
}

// LandOnRequest writes a revision built from a draft or open change
// request's revision as its new revision, the user joining its
// contributors; guarded by the request's version and redone when it moved.
// It checks no rights: callers have.
func (s *Service) LandOnRequest(ctx context.Context, spaceID, ref, userID string, build Builder) (model.Revision, model.ChangeRequest, error) {
	var out model.Revision
	var res model.ChangeRequest
	err := store.Retry(ctx, func() error {
		cr, v, err := s.readActive(ctx, spaceID, ref, "accept changes")
		if err != nil {
			return err
		}
		base, ix, err := s.repo.Load(ctx, spaceID, cr.Revision)
		if err != nil {
			return err
		}
		rev, extra, err := build(ctx, base, ix)
		if err != nil {
			return err
		}
		cr.Revision, cr.UpdatedAt = rev.ID, rev.CreatedAt
		if userID != "" {
			addContributor(&cr, userID, rev.CreatedAt)
		}
		ops := append(append(crOps(cr, v), content.Put(rev)), extra...)
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return err
		}
		out, res = rev, cr
		return nil
	})
	return out, res, err
}
