// Package collections is the collections family: collections of an
// organization's spaces, nested, ordered, moved and transferred.
//
// Decisions:
//   - Collections and spaces share one order among the children of a
//     parent (the top level or a collection); positions are order keys
//     (package tree), so moving an item rewrites only that item, its
//     entries and, for a collection, the paths of the collections under it.
//   - GET /v1/orgs/{organizationId}/collections lists, by default (nested),
//     every collection the caller may read in tree order: each collection
//     right after its parent, siblings in their order. With nested=false it
//     lists the top-level ones in their order. Both come from one query.
//   - Deleting a collection that still holds spaces or collections is a
//     409: nothing is deleted or left without its parent; move or delete
//     what it holds first. Deleted spaces are not held (they left their
//     collection and, restored, go to the top level once it is gone).
//   - A transfer moves the collection with everything under it (its
//     collections and live spaces) to the top level of the other
//     organization, in one transaction; grants on that content, which name
//     users and teams of the old organization, and the spaces' custom field
//     values, whose fields are the old organization's, are removed. It needs
//     the admin role in both organizations.
//   - One change rewrites at most store.MaxTransactionOps items; a move or a
//     transfer of a bigger tree is a 409 that says so.
package collections

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/tree"
)

// Service manages collections.
type Service struct {
	d      *deps.Deps
	spaces Spaces
}

// Spaces is what collections ask of the spaces family: a space's move in
// the tree of collections (spaces.Service).
type Spaces interface {
	Get(ctx context.Context, spaceID string) (model.Space, model.Role, error)
	Move(ctx context.Context, spaceID, parentID string, pos tree.Position) (model.Space, model.Role, error)
}

// New returns the collections service; spaces moves spaces.
func New(d *deps.Deps, spaces Spaces) *Service { return &Service{d: d, spaces: spaces} }

// Change is the input of Update: nil fields are left as they are.
type Change struct {
	Title, Description *string
	// DefaultLevel: a role, "inherit", or "" for guest (null).
	DefaultLevel     *string
	ClearDescription bool
}

// Item is a collection of a list with the caller's level on it.
type Item struct {
	Collection model.Collection
	Level      model.Role
}

// SpaceItem is a space of a list with the caller's level on it.
type SpaceItem struct {
	Space model.Space
	Level model.Role
}

// load reads a collection and requires op of the caller on it.
func (s *Service) load(ctx context.Context, id string, op access.OrgOp) (model.Collection, *access.Viewer, model.Role, error) {
	if _, err := access.CallerFrom(ctx); err != nil {
		return model.Collection{}, nil, "", err
	}
	col, _, err := tree.ReadCollection(ctx, s.d.Store, id)
	if err != nil {
		return col, nil, "", err
	}
	v, level, err := s.d.Authz.RequireOn(ctx, access.CollectionNode(col), op)
	return col, v, level, err
}

// Get returns a collection and the caller's level on it.
func (s *Service) Get(ctx context.Context, id string) (model.Collection, model.Role, error) {
	col, _, level, err := s.load(ctx, id, access.ReadContent)
	return col, level, err
}

// Create makes a collection at the end of parentID ("" the top level).
func (s *Service) Create(ctx context.Context, orgID, title, parentID string) (model.Collection, model.Role, error) {
	v, err := s.d.Authz.ViewerIn(ctx, orgID)
	if err != nil {
		return model.Collection{}, "", err
	}
	if err := spaces.RequireCreateIn(ctx, v, parentID, "parent"); err != nil {
		return model.Collection{}, "", err
	}
	now := s.d.Clock()
	col := model.Collection{ID: ids.New(now), OrgID: orgID, Title: title, Parent: parentID, DefaultLevel: model.LevelInherit,
		CreatedAt: now, UpdatedAt: now, CreatedBy: v.Caller().UserID}
	self := tree.Pointer{Kind: model.KindCollection, ID: col.ID}
	err = tree.Run(ctx, s.d.Store, func(tx *tree.Tx) error {
		parentPath, err := s.parentPath(ctx, tx, orgID, parentID, "parent")
		if err != nil {
			return err
		}
		g, err := tree.Place(ctx, s.d.Store, orgID, parentID, self, tree.Position{})
		if err != nil {
			return err
		}
		if col.Ancestors, err = tx.AncestorsIn(ctx, parentID); err != nil {
			return err
		}
		col.Position, col.Path = g.Key, tree.JoinPath(parentPath, g.Key)
		if len(col.Path) > tree.MaxPathBytes {
			return apperr.Field("parent", "collections cannot nest deeper here")
		}
		tx.New(col)
		tx.Add(orgs.CheckOrg(orgID, 0))
		return tx.Attach(ctx, orgID, parentID, g.Key, self)
	})
	if err != nil {
		return model.Collection{}, "", internal("create collection", err)
	}
	level, err := v.Level(ctx, access.CollectionNode(col))
	return col, level, err
}

// parentPath reads parentID for tx, checks that it is a collection of
// orgID and returns its path ("" at the top level).
func (s *Service) parentPath(ctx context.Context, tx *tree.Tx, orgID, parentID, field string) (string, error) {
	if parentID == "" {
		return "", nil
	}
	p, err := tx.Collection(ctx, parentID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && p.OrgID != orgID) {
		return "", apperr.Field(field, "collection %s not found", parentID)
	}
	if err != nil {
		return "", err
	}
	return p.Path, nil
}

// written is what a change to a collection answers once its transaction
// (what) has run: the collection and the level v has on it, or the
// transaction's error.
func written(ctx context.Context, v *access.Viewer, out model.Collection, what string, err error) (model.Collection, model.Role, error) {
	if err != nil {
		return out, "", internal(what, err)
	}
	v.Remember(out)
	level, err := v.Level(ctx, access.CollectionNode(out))
	return out, level, err
}

// internal wraps errors that are not of a known kind.
func internal(what string, err error) error {
	if err != nil && apperr.KindOf(err) == apperr.Internal {
		return fmt.Errorf("%s: %w", what, err)
	}
	return err
}

// List returns a page of the collections of an organization that the
// caller may read: all of them in tree order when nested, else the
// top-level ones in order.
func (s *Service) List(ctx context.Context, orgID string, nested bool, r paging.Request) (paging.Page[Item], error) {
	v, err := s.d.Authz.ViewerIn(ctx, orgID)
	if err != nil {
		return paging.Page[Item]{}, err
	}
	scope := "collections:" + orgID + ":nested=" + strconv.FormatBool(nested)
	cols, err := records.Page[model.Collection](ctx, s.d.Store, s.d.Cursors, scope, tree.CollectionsQuery(orgID, nested), r, "collections")
	if err != nil {
		return paging.Page[Item]{}, err
	}
	out := paging.Page[Item]{Items: []Item{}, Next: cols.Next}
	for _, col := range cols.Items {
		v.Remember(col)
	}
	for _, col := range cols.Items {
		level, err := v.Level(ctx, access.CollectionNode(col))
		if err != nil {
			return paging.Page[Item]{}, err
		}
		if access.Allowed(level, access.ReadContent) {
			out.Items = append(out.Items, Item{Collection: col, Level: level})
		}
	}
	return out, nil
}

// ListSpaces returns a page of the live spaces directly in a collection
// that the caller may read, in their order.
func (s *Service) ListSpaces(ctx context.Context, id string, r paging.Request) (paging.Page[SpaceItem], error) {
	col, v, _, err := s.load(ctx, id, access.ReadContent)
	if err != nil {
		return paging.Page[SpaceItem]{}, err
	}
	sps, err := records.Page[model.Space](ctx, s.d.Store, s.d.Cursors, "collection-spaces:"+id, spaces.InCollectionQuery(id), r, "spaces of collection")
	if err != nil {
		return paging.Page[SpaceItem]{}, err
	}
	v.Remember(col)
	readable, err := spaces.Readable(ctx, v, sps.Items)
	if err != nil {
		return paging.Page[SpaceItem]{}, err
	}
	out := paging.Page[SpaceItem]{Items: make([]SpaceItem, 0, len(readable.Spaces)), Next: sps.Next}
	for i, sp := range readable.Spaces {
		out.Items = append(out.Items, SpaceItem{Space: sp, Level: readable.Levels[i]})
	}
	return out, nil
}

// Update changes a collection (administrators of it).
func (s *Service) Update(ctx context.Context, id string, ch Change) (model.Collection, model.Role, error) {
	_, v, _, err := s.load(ctx, id, access.AdminContent)
	if err != nil {
		return model.Collection{}, "", err
	}
	var out model.Collection
	err = tree.Run(ctx, s.d.Store, func(tx *tree.Tx) error {
		col, err := tx.Collection(ctx, id)
		if err != nil {
			return err
		}
		records.Set(&col.Title, ch.Title)
		records.Set(&col.Description, ch.Description)
		if ch.ClearDescription {
			col.Description = ""
		}
		records.Set(&col.DefaultLevel, ch.DefaultLevel)
		col.UpdatedAt = s.d.Clock()
		tx.Write(id)
		out = *col
		return nil
	})
	return written(ctx, v, out, "update collection", err)
}

// Delete removes an empty collection (administrators of it); one that
// still holds spaces or collections is a conflict.
func (s *Service) Delete(ctx context.Context, id string) error {
	if _, _, _, err := s.load(ctx, id, access.AdminContent); err != nil {
		return err
	}
	grants, err := s.d.Authz.GrantsOn(ctx, model.KindCollection, id)
	if err != nil {
		return err
	}
	err = tree.Run(ctx, s.d.Store, func(tx *tree.Tx) error {
		col, err := tx.Collection(ctx, id)
		if err != nil {
			return err
		}
		if col.Children > 0 {
			return apperr.Conflictf("collection %s is not empty: it holds %d spaces or collections; move or delete them first", id, col.Children)
		}
		if err := tx.Detach(ctx, col.OrgID, col.Parent, col.Position); err != nil {
			return err
		}
		tx.Remove(id)
		ops, err := s.d.Authz.DropGrantsOps(ctx, col.OrgID, grants)
		if err != nil {
			return err
		}
		tx.Add(ops...)
		return nil
	})
	return internal("delete collection", err)
}

// Move places a collection in parentID (nil: its own parent; "" the top
// level) at pos. A collection cannot move into itself or below itself, and
// moving it to where it already is is a conflict. It needs admin on the
// collection and, to change its parent, the right to create content in the
// new one.
func (s *Service) Move(ctx context.Context, id string, parentID *string, pos tree.Position) (model.Collection, model.Role, error) {
	_, v, _, err := s.load(ctx, id, access.AdminContent)
	if err != nil {
		return model.Collection{}, "", err
	}
	var out model.Collection
	self := tree.Pointer{Kind: model.KindCollection, ID: id}
	err = tree.Run(ctx, s.d.Store, func(tx *tree.Tx) error {
		col, err := tx.Collection(ctx, id)
		if err != nil {
			return err
		}
		org, from, dest := col.OrgID, col.Parent, col.Parent
		if parentID != nil {
			dest = *parentID
		}
		destPath := ""
		if dest != from {
			if err := spaces.RequireCreateIn(ctx, v, dest, "parent"); err != nil {
				return err
			}
			if destPath, err = s.parentPath(ctx, tx, org, dest, "parent"); err != nil {
				return err
			}
			if err := s.notBelow(ctx, tx, id, dest); err != nil {
				return err
			}
		} else if dest != "" {
			p, err := tx.Collection(ctx, dest)
			if err != nil {
				return err
			}
			destPath = p.Path
		}
		g, err := tree.Place(ctx, s.d.Store, org, dest, self, pos)
		if err != nil {
			return err
		}
		if dest == from && g.Holds(col.Position) {
			return apperr.Conflictf("the collection is already there")
		}
		if err := tx.Detach(ctx, org, from, col.Position); err != nil {
			return err
		}
		if err := tx.Attach(ctx, org, dest, g.Key, self); err != nil {
			return err
		}
		oldPath := col.Path
		ancestors, err := tx.AncestorsIn(ctx, dest)
		if err != nil {
			return err
		}
		col.Parent, col.Position, col.Path, col.UpdatedAt = dest, g.Key, tree.JoinPath(destPath, g.Key), s.d.Clock()
		col.Ancestors = ancestors
		tx.Write(id)
		if err := s.repath(ctx, tx, *col, oldPath); err != nil {
			return err
		}
		out = *col
		return nil
	})
	return written(ctx, v, out, "move collection", err)
}

// notBelow fails when dest is the collection id or one of its
// descendants, and makes tx depend on every collection above dest staying
// where it is (so that two concurrent moves cannot make a cycle).
func (s *Service) notBelow(ctx context.Context, tx *tree.Tx, id, dest string) error {
	for depth := 0; dest != ""; depth++ {
		if dest == id {
			return apperr.Field("parent", "a collection cannot be moved into itself or into a collection inside it")
		}
		if depth > tree.MaxPathBytes {
			return fmt.Errorf("collection tree above %s does not end", dest)
		}
		p, err := tx.Collection(ctx, dest)
		if err != nil {
			return err
		}
		tx.Check(dest)
		dest = p.Parent
	}
	return nil
}

// repath rewrites the paths of the collections under col after col's path
// changed from oldPath, reading the tree from the entries (consistently).
func (s *Service) repath(ctx context.Context, tx *tree.Tx, col model.Collection, oldPath string) error {
	queue := []string{col.ID}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		children, err := tree.Children(ctx, s.d.Store, col.OrgID, id)
		if err != nil {
			return err
		}
		for _, ch := range children {
			if ch.Kind != model.KindCollection {
				continue
			}
			c, err := tx.Collection(ctx, ch.ID)
			if err != nil {
				return err
			}
			c.Path = col.Path + strings.TrimPrefix(c.Path, oldPath)
			if c.Ancestors, err = tx.AncestorsIn(ctx, id); err != nil {
				return err
			}
			if len(c.Path) > tree.MaxPathBytes {
				return apperr.Field("parent", "collections cannot nest deeper here")
			}
			tx.Write(ch.ID)
			queue = append(queue, ch.ID)
		}
	}
	return nil
}

// MoveSpace moves a live space into parent ("" the top level; nil: its
// current collection) at pos (the end when empty): the tree's operation on
// a space, made by the spaces family, which checks the rights.
func (s *Service) MoveSpace(ctx context.Context, spaceID string, parent *string, pos tree.Position) (model.Space, model.Role, error) {
	sp := s.spaces
	if parent == nil {
		cur, _, err := sp.Get(ctx, spaceID)
		if err != nil {
			return model.Space{}, "", err
		}
		parent = &cur.Parent
	}
	return sp.Move(ctx, spaceID, *parent, pos)
}

// Require returns a collection on which the caller may do op, with their
// level on it: NotFound for who may not read it, Forbidden below op.
func (s *Service) Require(ctx context.Context, id string, op access.OrgOp) (model.Collection, model.Role, error) {
	col, _, level, err := s.load(ctx, id, op)
	return col, level, err
}
