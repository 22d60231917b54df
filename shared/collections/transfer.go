package collections

import (
	"context"
	"fmt"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/customfields"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/tree"
)

// Transfer moves a collection, with every collection and live space under
// it, to the top level of another organization. The caller must be an
// admin of both. Grants on the moved content, and the spaces' custom field
// values (the fields are the old organization's), are removed.
func (s *Service) Transfer(ctx context.Context, id, targetOrg string) (model.Collection, model.Role, error) {
	col, _, _, err := s.load(ctx, id, access.ReadContent)
	if err != nil {
		return model.Collection{}, "", err
	}
	acc, err := s.d.Authz.RequireOrg(ctx, col.OrgID, access.AdminOrg)
	if err != nil {
		return model.Collection{}, "", err
	}
	target, err := s.d.Authz.Viewer(ctx, acc.Caller, targetOrg)
	if apperr.Is(err, apperr.NotFound) {
		return model.Collection{}, "", apperr.Field("organization", "organization %s not found", targetOrg)
	}
	if err != nil {
		return model.Collection{}, "", err
	}
	if !access.Allowed(target.Role(), access.AdminOrg) {
		return model.Collection{}, "", apperr.Forbiddenf("transferring needs the admin role in the target organization too")
	}
	if targetOrg == col.OrgID {
		return model.Collection{}, "", apperr.Conflictf("collection %s is already in organization %s", id, targetOrg)
	}
	var out model.Collection
	self := tree.Pointer{Kind: model.KindCollection, ID: id}
	err = tree.Run(ctx, s.d.Store, func(tx *tree.Tx) error {
		root, err := tx.Collection(ctx, id)
		if err != nil {
			return err
		}
		from := root.OrgID
		if from == targetOrg {
			return apperr.Conflictf("collection %s is already in organization %s", id, targetOrg)
		}
		sub, err := s.subtree(ctx, tx, *root)
		if err != nil {
			return err
		}
		g, err := tree.Place(ctx, s.d.Store, targetOrg, "", self, tree.Position{})
		if err != nil {
			return err
		}
		if err := tx.Detach(ctx, from, root.Parent, root.Position); err != nil {
			return err
		}
		if err := tx.Attach(ctx, targetOrg, "", g.Key, self); err != nil {
			return err
		}
		tx.Add(orgs.CheckOrg(targetOrg, 0))
		oldPath, now := root.Path, s.d.Clock()
		root.Parent, root.Position, root.Ancestors = "", g.Key, nil
		for _, cid := range sub.collections {
			c, _ := tx.Collection(ctx, cid)
			c.OrgID, c.Path, c.UpdatedAt = targetOrg, g.Key+strings.TrimPrefix(c.Path, oldPath), now
			if cid != root.ID {
				c.Ancestors = tree.Rebase(c.Ancestors, *root)
			}
			tx.Write(cid)
		}
		for _, sp := range sub.spaces {
			_, op := spaces.Apply(sp.space, sp.version, spaces.Transfer(targetOrg, tree.Rebase(sp.space.Ancestors, *root), now))
			tx.Add(op)
		}
		if err := s.dropGrants(ctx, tx, from, sub); err != nil {
			return err
		}
		if err := s.dropValues(ctx, tx, sub); err != nil {
			return err
		}
		out = *root
		return nil
	})
	return written(ctx, target, out, "transfer collection", err)
}

type versioned struct {
	space   model.Space
	version int64
}

// subtree is a collection and everything under it, read for one change.
type subtree struct {
	collections []string // the root first
	spaces      []versioned
}

// subtree reads the tree under root from the entries (consistently): its
// collections go into tx, its spaces are read with their versions.
func (s *Service) subtree(ctx context.Context, tx *tree.Tx, root model.Collection) (subtree, error) {
	sub := subtree{collections: []string{root.ID}}
	for i := 0; i < len(sub.collections); i++ {
		children, err := tree.Children(ctx, s.d.Store, root.OrgID, sub.collections[i])
		if err != nil {
			return sub, err
		}
		for _, ch := range children {
			switch ch.Kind {
			case model.KindCollection:
				if _, err := tx.Collection(ctx, ch.ID); err != nil {
					return sub, err
				}
				sub.collections = append(sub.collections, ch.ID)
			case model.KindSpace:
				sp, v, err := spaces.Read(ctx, s.d.Store, ch.ID)
				if apperr.Is(err, apperr.NotFound) {
					return sub, fmt.Errorf("entry of missing space %s in collection %s", ch.ID, sub.collections[i])
				}
				if err != nil {
					return sub, err
				}
				sub.spaces = append(sub.spaces, versioned{sp, v})
			}
		}
		if len(sub.collections)+len(sub.spaces) > store.MaxTransactionOps {
			return sub, apperr.Conflictf("collection %s holds more than %d spaces and collections; transfer smaller parts of it", root.ID, store.MaxTransactionOps)
		}
	}
	return sub, nil
}

// dropGrants removes the grants on the content of sub (they name users and
// teams of the organization it leaves), uncounting space grants from their
// members and teams (the access module owns grants and their counts).
func (s *Service) dropGrants(ctx context.Context, tx *tree.Tx, orgID string, sub subtree) error {
	var grants []model.Grant
	on := func(kind, id string) error {
		gs, err := s.d.Authz.GrantsOn(ctx, kind, id)
		grants = append(grants, gs...)
		return err
	}
	for _, id := range sub.collections {
		if err := on(model.KindCollection, id); err != nil {
			return err
		}
	}
	for _, sp := range sub.spaces {
		if err := on(model.KindSpace, sp.space.ID); err != nil {
			return err
		}
	}
	ops, err := s.d.Authz.DropGrantsOps(ctx, orgID, grants)
	if err != nil {
		return err
	}
	tx.Add(ops...)
	return nil
}

// dropValues removes the custom field values of the spaces of sub: they
// belong to fields of the organization the spaces leave.
func (s *Service) dropValues(ctx context.Context, tx *tree.Tx, sub subtree) error {
	for _, sp := range sub.spaces {
		ops, err := customfields.DropValuesOps(ctx, s.d.Store, sp.space.ID)
		if err != nil {
			return err
		}
		tx.Add(ops...)
	}
	return nil
}
