// Package spaces is the spaces family: the lifecycle of spaces (create,
// list, read, update, soft delete, restore).
//
// Decisions: a deleted space keeps answering GET (with deletedAt) and
// restore, is hidden from lists, and answers 404 to everything else; deleting
// it again answers 205 as the first time did. Until collections exist, a
// `parent` that names no collection is a 400.
package spaces

import (
	"context"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Defaults of a new space.
const (
	DefaultVisibility = "private"
	DefaultEditMode   = "live"
	LevelInherit      = "inherit"
)

// Service manages spaces.
type Service struct {
	d *deps.Deps
}

// New returns the spaces service.
func New(d *deps.Deps) *Service { return &Service{d: d} }

// Create is the input of Create.
type Create struct {
	Title, Emoji, Parent, EditMode string
}

// Change is the input of Update: nil fields are left as they are.
type Change struct {
	Title, EditMode, Emoji, Icon *string
	// DefaultLevel: a role, "inherit", or "" for guest (null).
	DefaultLevel *string
	ClearEmoji   bool
	ClearIcon    bool
}

// Page is one page of spaces.
type Page struct {
	Spaces []model.Space
	Next   *store.Key
}

// Get returns a space and the caller's role on it. Outsiders get NotFound.
func (s *Service) Get(ctx context.Context, spaceID string) (model.Space, model.Role, error) {
	sp, _, role, err := s.load(ctx, spaceID, access.ReadContent)
	return sp, role, err
}

func (s *Service) load(ctx context.Context, spaceID string, op access.OrgOp) (model.Space, int64, model.Role, error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return model.Space{}, 0, "", err
	}
	sp, v, err := records.Get[model.Space](ctx, s.d.Store, keys.Space(spaceID))
	if errors.Is(err, store.ErrNotFound) {
		return sp, 0, "", apperr.NotFoundf("space %s not found", spaceID)
	}
	if err != nil {
		return sp, 0, "", fmt.Errorf("read space: %w", err)
	}
	m, err := s.d.Authz.Membership(ctx, c, sp.OrgID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && !access.Allowed(m.Role(), access.ReadContent)) {
		return sp, 0, "", apperr.NotFoundf("space %s not found", spaceID)
	}
	if err != nil {
		return sp, 0, "", err
	}
	if !access.Allowed(m.Role(), op) {
		return sp, 0, "", apperr.Forbiddenf("your role does not allow this on the space (%s)", op)
	}
	return sp, v, m.Role(), nil
}

// Create makes a space in an organization, with an empty first revision.
func (s *Service) Create(ctx context.Context, orgID string, in Create) (model.Space, model.Role, error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return model.Space{}, "", err
	}
	m, err := s.d.Authz.Require(ctx, c, orgID, access.CreateContent)
	if err != nil {
		return model.Space{}, "", err
	}
	if in.Parent != "" {
		return model.Space{}, "", apperr.Field("parent", "collection %s not found", in.Parent)
	}
	now := s.d.Clock()
	sp := model.Space{ID: ids.New(now), OrgID: orgID, Title: in.Title, Emoji: in.Emoji, Visibility: DefaultVisibility,
		EditMode: in.EditMode, DefaultLevel: LevelInherit, CreatedAt: now, UpdatedAt: now, CreatedBy: c.UserID}
	if sp.EditMode == "" {
		sp.EditMode = DefaultEditMode
	}
	rev := model.Revision{ID: ids.New(now), SpaceID: sp.ID, Parents: []string{}, Type: "edits", CreatedAt: now}
	sp.Revision = rev.ID
	err = s.d.Store.Write(ctx,
		store.Check(keys.Org(orgID).PK, keys.Org(orgID).SK, store.IfExists, 0),
		store.Put(item(sp, 1), store.IfNotExists),
		store.Put(records.Item(keys.Revision(sp.ID, rev.ID), rev, 1), store.IfNotExists),
	)
	if err != nil {
		return model.Space{}, "", fmt.Errorf("create space: %w", err)
	}
	return sp, m.Role(), nil
}

// item is a space's item: listed in its organization while not deleted.
func item(sp model.Space, version int64) store.Item {
	it := records.Item(keys.Space(sp.ID), sp, version)
	if sp.DeletedAt == nil {
		ik := keys.SpaceInOrg(sp.OrgID, sp.ID)
		it.GSI1PK, it.GSI1SK = ik.PK, ik.SK
	}
	return it
}

// List returns a page of an organization's live spaces, in creation order.
func (s *Service) List(ctx context.Context, orgID string, limit int, after *store.Key) (Page, model.Role, error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return Page{}, "", err
	}
	m, err := s.d.Authz.Membership(ctx, c, orgID)
	if err != nil {
		return Page{}, "", err
	}
	if !access.Allowed(m.Role(), access.ReadContent) {
		// Guests see only what is shared with them; nothing is yet.
		return Page{}, m.Role(), nil
	}
	p, err := s.d.Store.Query(ctx, store.Query{Index: store.GSI1, PK: keys.OrgSpaces(orgID), Limit: limit, After: after})
	if err != nil {
		return Page{}, "", fmt.Errorf("list spaces: %w", err)
	}
	sps, err := records.DecodeAll[model.Space](p.Items)
	return Page{Spaces: sps, Next: p.Next}, m.Role(), err
}

// Update changes a live space (administrators of its content).
func (s *Service) Update(ctx context.Context, spaceID string, ch Change) (model.Space, model.Role, error) {
	return s.modify(ctx, spaceID, func(sp *model.Space) error {
		if sp.DeletedAt != nil {
			return apperr.NotFoundf("space %s not found", spaceID)
		}
		if ch.Title != nil {
			sp.Title = *ch.Title
		}
		if ch.EditMode != nil {
			sp.EditMode = *ch.EditMode
		}
		if ch.DefaultLevel != nil {
			sp.DefaultLevel = *ch.DefaultLevel
		}
		switch {
		case ch.Emoji != nil:
			sp.Emoji, sp.Icon = *ch.Emoji, ""
		case ch.Icon != nil:
			sp.Icon, sp.Emoji = *ch.Icon, ""
		}
		if ch.ClearEmoji {
			sp.Emoji = ""
		}
		if ch.ClearIcon {
			sp.Icon = ""
		}
		return nil
	})
}

// Delete soft-deletes a space: it leaves the lists and keeps its content.
func (s *Service) Delete(ctx context.Context, spaceID string) error {
	_, _, err := s.modify(ctx, spaceID, func(sp *model.Space) error {
		if sp.DeletedAt == nil {
			now := s.d.Clock()
			sp.DeletedAt = &now
		}
		return nil
	})
	return err
}

// Restore brings a deleted space back.
func (s *Service) Restore(ctx context.Context, spaceID string) (model.Space, model.Role, error) {
	return s.modify(ctx, spaceID, func(sp *model.Space) error {
		sp.DeletedAt = nil
		return nil
	})
}

func (s *Service) modify(ctx context.Context, spaceID string, fn func(*model.Space) error) (model.Space, model.Role, error) {
	_, _, role, err := s.load(ctx, spaceID, access.AdminContent)
	if err != nil {
		return model.Space{}, "", err
	}
	var out model.Space
	_, err = store.Update(ctx, s.d.Store, keys.Space(spaceID).PK, keys.Space(spaceID).SK, func(old store.Item) (store.Item, []store.Op, error) {
		sp, err := records.Decode[model.Space](old)
		if err != nil {
			return store.Item{}, nil, err
		}
		if err := fn(&sp); err != nil {
			return store.Item{}, nil, err
		}
		sp.UpdatedAt = s.d.Clock()
		out = sp
		return item(sp, old.Version+1), nil, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return out, "", apperr.NotFoundf("space %s not found", spaceID)
	}
	return out, role, err
}
