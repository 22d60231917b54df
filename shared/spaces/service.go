// Package spaces is the spaces family: the lifecycle of spaces (create,
// list, read, update, soft delete, restore).
//
// Decisions: a deleted space keeps answering GET (with deletedAt) and
// restore, is hidden from lists, and answers 404 to everything else; deleting
// it again answers 205 as the first time did. A `parent` that names no
// collection the caller can see is a 400. Deleting a space takes it out of
// its collection (which may then be deleted) but remembers the collection:
// restoring puts it back at the end of that collection, or at the top level
// when the collection is gone. What a caller may do on a space is decided by
// the content permission model (access.Viewer, docs/permissions.md).
package spaces

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/mergerules"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/tree"
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
	// decoded keeps the spaces this service read last (decoded.go).
	decoded *records.Memo[model.Space]
}

// New returns the spaces service.
func New(d *deps.Deps) *Service {
	return &Service{d: d, decoded: records.NewMemo(maxDecodedSpaces, cloneSpace)}
}

// MaxTitle is the longest space title, in characters (the API's limit).
const MaxTitle = 50

// Create is the input of Create.
type Create struct {
	Title, Emoji, Parent, EditMode string
	// Language is the language of the space's content (one of Languages,
	// or "" for none).
	Language string
}

// Change is the input of Update: nil fields are left as they are.
type Change struct {
	Title, EditMode, Emoji, Icon *string
	// DefaultLevel: a role, "inherit", or "" for guest (null).
	DefaultLevel *string
	ClearEmoji   bool
	ClearIcon    bool
	// Parent moves the space to the end of this collection ("" the top level).
	Parent *string
	// MergeRules replaces the space's merge rules.
	MergeRules *model.MergeRules
	// Language sets the language of the space's content: a code of
	// Languages, or "" to remove it.
	Language *string
}

// languageCodes are the codes of GitBook's TranslationLanguage (reference
// 0.202.0; the older reference has no space language). The same list is
// the enum of the language fields in spaces.Space and package spaceshttp;
// a test keeps them equal.
const languageCodes = "en,fr,de,es,it,pt,pt-br,ru,ja,zh,zh-tw,yue,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl"

// Languages returns the language codes a space's language may be.
func Languages() []string { return strings.Split(languageCodes, ",") }

// ValidateLanguage refuses a language that is not one of Languages ("" is
// none), naming field.
func ValidateLanguage(field, lang string) error {
	if lang != "" && !slices.Contains(Languages(), lang) {
		return apperr.Field(field, "unknown language %q (one of %s)", lang, languageCodes)
	}
	return nil
}

// Page is one page of spaces.
type Page struct {
	Spaces []model.Space
	// Levels are the caller's levels on Spaces, one each.
	Levels []model.Role
	// Next is the cursor of the following page, "" on the last (List only).
	Next string
}

// Live returns a space that is not deleted and on which the caller may do
// op, with their level on it: the entry point of the families acting on a
// space's content (content, comments, change requests, custom fields...).
// Callers who may not read it, and deleted spaces, get NotFound; readers
// whose level does not allow op get Forbidden.
func (s *Service) Live(ctx context.Context, spaceID string, op access.OrgOp) (model.Space, model.Role, error) {
	sp, _, _, level, err := s.load(ctx, spaceID, op)
	if err != nil {
		return sp, "", err
	}
	if sp.DeletedAt != nil {
		return sp, "", apperr.NotFoundf("space %s not found", spaceID)
	}
	return sp, level, nil
}

// Get returns a space and the caller's level on it. Callers who may not
// read it get NotFound.
func (s *Service) Get(ctx context.Context, spaceID string) (model.Space, model.Role, error) {
	sp, _, _, level, err := s.load(ctx, spaceID, access.ReadContent)
	return sp, level, err
}

// load reads a space and requires op of the caller on it.
func (s *Service) load(ctx context.Context, spaceID string, op access.OrgOp) (model.Space, int64, *access.Viewer, model.Role, error) {
	if vis, ok := access.VisitorFrom(ctx); ok && op == access.ReadContent {
		return s.visit(ctx, vis, spaceID)
	}
	if _, err := access.CallerFrom(ctx); err != nil {
		return model.Space{}, 0, nil, "", err
	}
	sp, v, err := s.read(ctx, spaceID)
	if errors.Is(err, store.ErrNotFound) {
		return sp, 0, nil, "", apperr.NotFoundf("space %s not found", spaceID)
	}
	if err != nil {
		return sp, 0, nil, "", fmt.Errorf("read space: %w", err)
	}
	viewer, level, err := s.d.Authz.RequireOn(ctx, access.SpaceNode(sp), op)
	if err != nil {
		return sp, 0, nil, "", err
	}
	return sp, v, viewer, level, nil
}

// visit reads a space for a published site's visitor: the spaces the site
// showed them, read only (no viewer: a visitor has no membership).
func (s *Service) visit(ctx context.Context, vis *access.SiteVisitor, spaceID string) (model.Space, int64, *access.Viewer, model.Role, error) {
	sp, v, err := records.Get[model.Space](ctx, s.d.Store, keys.Space(spaceID))
	if errors.Is(err, store.ErrNotFound) || (err == nil && !vis.MayReadSpace(sp)) {
		return model.Space{}, 0, nil, "", apperr.NotFoundf("space %s not found", spaceID)
	}
	if err != nil {
		return sp, 0, nil, "", fmt.Errorf("read space: %w", err)
	}
	return sp, v, nil, model.RoleRead, nil
}

// RequireCreateIn checks that the viewer may create content in parentID
// ("" the top level): a parent the viewer cannot see is a 400 naming field.
func RequireCreateIn(ctx context.Context, v *access.Viewer, parentID, field string) error {
	level, err := v.CreateLevel(ctx, parentID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && parentID != "" && !access.Allowed(level, access.ReadContent)) {
		return apperr.Field(field, "collection %s not found", parentID)
	}
	if err != nil {
		return err
	}
	if !access.Allowed(level, access.CreateContent) {
		if parentID == "" {
			return apperr.Forbiddenf("your role in this organization does not allow this (%s)", access.CreateContent)
		}
		return apperr.Forbiddenf("your access to collection %s does not allow creating content in it", parentID)
	}
	return nil
}

// parentIn reads collection parentID for tx and checks it belongs to orgID.
func parentIn(ctx context.Context, tx *tree.Tx, orgID, parentID, field string) error {
	if parentID == "" {
		return nil
	}
	p, err := tx.Collection(ctx, parentID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && p.OrgID != orgID) {
		return apperr.Field(field, "collection %s not found", parentID)
	}
	return err
}

// Create makes a space in an organization, with an empty first revision.
func (s *Service) Create(ctx context.Context, orgID string, in Create) (model.Space, model.Role, error) {
	v, err := s.d.Authz.ViewerIn(ctx, orgID)
	if err != nil {
		return model.Space{}, "", err
	}
	if err := RequireCreateIn(ctx, v, in.Parent, "parent"); err != nil {
		return model.Space{}, "", err
	}
	if err := ValidateLanguage("language", in.Language); err != nil {
		return model.Space{}, "", err
	}
	now := s.d.Clock()
	sp := model.Space{ID: ids.New(now), OrgID: orgID, Title: in.Title, Emoji: in.Emoji, Language: in.Language, Visibility: DefaultVisibility,
		EditMode: in.EditMode, Parent: in.Parent, DefaultLevel: LevelInherit, CreatedAt: now, UpdatedAt: now, CreatedBy: v.Caller().UserID}
	if sp.EditMode == "" {
		sp.EditMode = DefaultEditMode
	}
	rev := model.Revision{ID: ids.New(now), SpaceID: sp.ID, Parents: []string{}, Type: "edits", CreatedAt: now}
	sp.Revision = rev.ID
	self := tree.Pointer{Kind: model.KindSpace, ID: sp.ID}
	err = tree.Run(ctx, s.d.Store, func(tx *tree.Tx) error {
		if err := parentIn(ctx, tx, orgID, in.Parent, "parent"); err != nil {
			return err
		}
		ancestors, err := tx.AncestorsIn(ctx, in.Parent)
		if err != nil {
			return err
		}
		sp.Ancestors = ancestors
		g, err := tree.Place(ctx, s.d.Store, orgID, in.Parent, self, tree.Position{})
		if err != nil {
			return err
		}
		sp.Position = g.Key
		tx.Add(store.Check(keys.Org(orgID).PK, keys.Org(orgID).SK, store.IfExists, 0),
			store.Put(Item(sp, 1), store.IfNotExists),
			store.Put(records.Item(keys.Revision(sp.ID, rev.ID), rev, 1), store.IfNotExists))
		return tx.Attach(ctx, orgID, in.Parent, g.Key, self)
	})
	if err != nil {
		if apperr.KindOf(err) == apperr.Internal {
			err = fmt.Errorf("create space: %w", err)
		}
		return model.Space{}, "", err
	}
	level, err := v.Level(ctx, access.SpaceNode(sp))
	return sp, level, err
}

// Item is a space's item: listed in its organization while not deleted,
// and among the spaces of its collection by position while in one.
func Item(sp model.Space, version int64) store.Item {
	it := records.Item(keys.Space(sp.ID), sp, version)
	if sp.DeletedAt == nil {
		ik := keys.SpaceInOrg(sp.OrgID, sp.ID)
		it.GSI1PK, it.GSI1SK = ik.PK, ik.SK
		if sp.Parent != "" && sp.Position != "" {
			ck := keys.SpaceInCollection(sp.Parent, sp.Position)
			it.GSI2PK, it.GSI2SK = ck.PK, ck.SK
		}
	}
	return it
}

// List returns a page of the organization's live spaces the caller may
// read, in creation order, and the caller's organization role. A page holds
// at most limit spaces, fewer when some are hidden from the caller.
func (s *Service) List(ctx context.Context, orgID string, r paging.Request) (Page, model.Role, error) {
	scope := "spaces:" + orgID
	if _, err := s.d.Cursors.After(scope, r.Cursor); err != nil { // a bad cursor before the caller's rights
		return Page{}, "", err
	}
	v, err := s.d.Authz.ViewerIn(ctx, orgID)
	if err != nil {
		return Page{}, "", err
	}
	sps, err := records.Page[model.Space](ctx, s.d.Store, s.d.Cursors, scope, store.Query{Index: store.GSI1, PK: keys.OrgSpaces(orgID)}, r, "spaces")
	if err != nil {
		return Page{}, "", err
	}
	out, err := Readable(ctx, v, sps.Items)
	out.Next = sps.Next
	return out, v.Role(), err
}

// Readable keeps the spaces v may read, with v's level on each.
func Readable(ctx context.Context, v *access.Viewer, sps []model.Space) (Page, error) {
	out := Page{Spaces: []model.Space{}, Levels: []model.Role{}}
	for _, sp := range sps {
		level, err := v.Level(ctx, access.SpaceNode(sp))
		if err != nil {
			return Page{}, err
		}
		if access.Allowed(level, access.ReadContent) {
			out.Spaces = append(out.Spaces, sp)
			out.Levels = append(out.Levels, level)
		}
	}
	return out, nil
}

// Update changes a live space (administrators of its content). Moving it
// to another collection also needs the right to create content there.
func (s *Service) Update(ctx context.Context, spaceID string, ch Change) (model.Space, model.Role, error) {
	return s.modify(ctx, spaceID, func(tx *tree.Tx, v *access.Viewer, sp *model.Space) error {
		if sp.DeletedAt != nil {
			return apperr.NotFoundf("space %s not found", spaceID)
		}
		if ch.Parent != nil && *ch.Parent != sp.Parent {
			if err := s.move(ctx, tx, v, sp, *ch.Parent, tree.Position{}, "parent"); err != nil {
				return err
			}
		}
		records.Set(&sp.Title, ch.Title)
		records.Set(&sp.EditMode, ch.EditMode)
		records.Set(&sp.DefaultLevel, ch.DefaultLevel)
		if ch.Language != nil {
			if err := ValidateLanguage("language", *ch.Language); err != nil {
				return err
			}
			sp.Language = *ch.Language
		}
		if ch.MergeRules != nil {
			if err := mergerules.Validate("mergeRules", *ch.MergeRules, true); err != nil {
				return err
			}
			r := *ch.MergeRules
			sp.MergeRules = &r
			if r.Type == model.MergeRulesInherit {
				sp.MergeRules = nil
			}
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

// Move moves a live space into parentID ("" the top level) at pos, or
// within its collection when parentID is its own. Moving it to where it
// already is is a conflict.
func (s *Service) Move(ctx context.Context, spaceID, parentID string, pos tree.Position) (model.Space, model.Role, error) {
	return s.modify(ctx, spaceID, func(tx *tree.Tx, v *access.Viewer, sp *model.Space) error {
		if sp.DeletedAt != nil {
			return apperr.NotFoundf("space %s not found", spaceID)
		}
		return s.move(ctx, tx, v, sp, parentID, pos, "parent")
	})
}

// move places sp at pos in parentID within tx.
func (s *Service) move(ctx context.Context, tx *tree.Tx, v *access.Viewer, sp *model.Space, parentID string, pos tree.Position, field string) error {
	if parentID != sp.Parent {
		if err := RequireCreateIn(ctx, v, parentID, field); err != nil {
			return err
		}
		if err := parentIn(ctx, tx, sp.OrgID, parentID, field); err != nil {
			return err
		}
	}
	self := tree.Pointer{Kind: model.KindSpace, ID: sp.ID}
	g, err := tree.Place(ctx, s.d.Store, sp.OrgID, parentID, self, pos)
	if err != nil {
		return err
	}
	if parentID == sp.Parent && g.Holds(sp.Position) {
		return apperr.Conflictf("the space is already there")
	}
	if sp.Position != "" {
		if err := tx.Detach(ctx, sp.OrgID, sp.Parent, sp.Position); err != nil {
			return err
		}
	}
	ancestors, err := tx.AncestorsIn(ctx, parentID)
	if err != nil {
		return err
	}
	sp.Parent, sp.Position, sp.Ancestors = parentID, g.Key, ancestors
	return tx.Attach(ctx, sp.OrgID, parentID, g.Key, self)
}

// Delete soft-deletes a space: it leaves the lists and its collection, and
// keeps its content.
func (s *Service) Delete(ctx context.Context, spaceID string) error {
	_, _, err := s.modify(ctx, spaceID, func(tx *tree.Tx, _ *access.Viewer, sp *model.Space) error {
		if sp.DeletedAt != nil {
			return nil
		}
		now := s.d.Clock()
		sp.DeletedAt = &now
		if sp.Position == "" {
			return nil
		}
		err := tx.Detach(ctx, sp.OrgID, sp.Parent, sp.Position)
		sp.Position = ""
		return err
	})
	return err
}

// Restore brings a deleted space back, at the end of the collection it was
// in, or at the top level when that collection is gone.
func (s *Service) Restore(ctx context.Context, spaceID string) (model.Space, model.Role, error) {
	return s.modify(ctx, spaceID, func(tx *tree.Tx, _ *access.Viewer, sp *model.Space) error {
		if sp.DeletedAt == nil {
			return nil
		}
		sp.DeletedAt = nil
		if err := parentIn(ctx, tx, sp.OrgID, sp.Parent, "parent"); apperr.Is(err, apperr.Invalid) {
			sp.Parent = "" // its collection is gone, or in another organization
		} else if err != nil {
			return err
		}
		ancestors, err := tx.AncestorsIn(ctx, sp.Parent)
		if err != nil {
			return err
		}
		sp.Ancestors = ancestors
		self := tree.Pointer{Kind: model.KindSpace, ID: sp.ID}
		g, err := tree.Place(ctx, s.d.Store, sp.OrgID, sp.Parent, self, tree.Position{})
		if err != nil {
			return err
		}
		sp.Position = g.Key
		return tx.Attach(ctx, sp.OrgID, sp.Parent, g.Key, self)
	})
}

// modify changes a space as an administrator of it, together with the
// tree when fn moves it.
func (s *Service) modify(ctx context.Context, spaceID string, fn func(*tree.Tx, *access.Viewer, *model.Space) error) (model.Space, model.Role, error) {
	_, _, v, _, err := s.load(ctx, spaceID, access.AdminContent)
	if err != nil {
		return model.Space{}, "", err
	}
	var out model.Space
	err = tree.Run(ctx, s.d.Store, func(tx *tree.Tx) error {
		sp, version, err := records.Get[model.Space](ctx, s.d.Store, keys.Space(spaceID))
		if errors.Is(err, store.ErrNotFound) {
			return apperr.NotFoundf("space %s not found", spaceID)
		}
		if err != nil {
			return fmt.Errorf("read space: %w", err)
		}
		was := sp
		if err := fn(tx, v, &sp); err != nil {
			return err
		}
		if !records.Same(was, sp) {
			sp.UpdatedAt = s.d.Clock()
		}
		tx.Add(store.PutIfVersion(Item(sp, version+1), version))
		out = sp
		return nil
	})
	if err != nil {
		return out, "", err
	}
	level, err := v.Level(ctx, access.SpaceNode(out))
	return out, level, err
}
