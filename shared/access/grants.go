package access

import (
	"context"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// GrantItem is the stored item of a grant: under its content, and in the
// list of its user's or team's grants.
func GrantItem(g model.Grant) store.Item {
	it := records.Item(keys.Grant(g.ContentKind, g.ContentID, g.PrincipalKind, g.PrincipalID), g, 1)
	ik := keys.GrantByPrincipal(g.OrgID, g.PrincipalKind, g.PrincipalID, g.ContentKind, g.ContentID)
	it.GSI1PK, it.GSI1SK = ik.PK, ik.SK
	return it
}

// principalKey is the record that counts a principal's space grants.
func principalKey(orgID, kind, id string) keys.Key {
	if kind == model.PrincipalTeam {
		return keys.Team(orgID, id)
	}
	return keys.Member(orgID, id)
}

// Grant gives a user or a team a level on a space or a collection (and so
// on everything inside it), replacing the principal's earlier grant there.
// Grants on spaces are counted in the member's or team's `spaces`. There is
// no HTTP operation for grants in this version; the model honours them.
func (a *Authorizer) Grant(ctx context.Context, g model.Grant) error {
	if g.Role == model.RoleGuest || !g.Role.Valid() {
		return apperr.Field("role", "a grant needs a role")
	}
	gk := keys.Grant(g.ContentKind, g.ContentID, g.PrincipalKind, g.PrincipalID)
	_, err := a.store.Get(ctx, gk.PK, gk.SK)
	existed := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("read grant: %w", err)
	}
	content := keys.Space(g.ContentID)
	if g.ContentKind == model.KindCollection {
		content = keys.Collection(g.ContentID)
	}
	// Checked first as well as in the transaction: a failed check there
	// reads as a conflict, which store.Update would retry.
	if _, err := a.store.Get(ctx, content.PK, content.SK); errors.Is(err, store.ErrNotFound) {
		return apperr.NotFoundf("%s %s not found", g.ContentKind, g.ContentID)
	} else if err != nil {
		return fmt.Errorf("read %s: %w", g.ContentKind, err)
	}
	return a.countGrant(ctx, g, existed, 1, store.Put(GrantItem(g), store.Always), store.Check(content.PK, content.SK, store.IfExists, 0))
}

// Revoke removes a principal's grant on a space or a collection, if any.
func (a *Authorizer) Revoke(ctx context.Context, g model.Grant) error {
	gk := keys.Grant(g.ContentKind, g.ContentID, g.PrincipalKind, g.PrincipalID)
	if _, err := a.store.Get(ctx, gk.PK, gk.SK); errors.Is(err, store.ErrNotFound) {
		return nil
	} else if err != nil {
		return fmt.Errorf("read grant: %w", err)
	}
	return a.countGrant(ctx, g, false, -1, store.Delete(gk.PK, gk.SK, store.IfExists))
}

// countGrant writes ops with the principal's record, whose space-grant
// counter moves by delta unless the grant is not on a space or already existed.
func (a *Authorizer) countGrant(ctx context.Context, g model.Grant, existed bool, delta int, ops ...store.Op) error {
	pk := principalKey(g.OrgID, g.PrincipalKind, g.PrincipalID)
	_, err := store.Update(ctx, a.store, pk.PK, pk.SK, func(old store.Item) (store.Item, []store.Op, error) {
		next := old
		if g.ContentKind == model.KindSpace && !existed {
			var err error
			if next.Data, err = bump(old, g.PrincipalKind, delta); err != nil {
				return store.Item{}, nil, err
			}
		}
		return next, ops, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return apperr.NotFoundf("%s %s not found", g.PrincipalKind, g.PrincipalID)
	}
	if errors.Is(err, store.ErrConflict) {
		return apperr.NotFoundf("%s %s not found", g.ContentKind, g.ContentID)
	}
	return err
}

// bump moves the `spaces` counter of a member's or team's record.
func bump(it store.Item, kind string, delta int) ([]byte, error) {
	if kind == model.PrincipalTeam {
		t, err := records.Decode[model.Team](it)
		if err != nil {
			return nil, err
		}
		t.Spaces = max(0, t.Spaces+delta)
		return records.Item(keys.Key{PK: it.PK, SK: it.SK}, t, 0).Data, nil
	}
	m, err := records.Decode[model.Member](it)
	if err != nil {
		return nil, err
	}
	m.Spaces = max(0, m.Spaces+delta)
	return records.Item(keys.Key{PK: it.PK, SK: it.SK}, m, 0).Data, nil
}

// DropGrantsOps returns the operations that remove grants (as GrantsOn
// read them) inside the caller's transaction, uncounting the space grants
// from their members' and teams' records in orgID, each guarded by the
// version read (a conflict, for the caller's store.Retry, if it moved).
func (a *Authorizer) DropGrantsOps(ctx context.Context, orgID string, grants []model.Grant) ([]store.Op, error) {
	counts := map[keys.Key]int{}
	kinds := map[keys.Key]string{}
	ops := make([]store.Op, 0, len(grants))
	for _, g := range grants {
		k := keys.Grant(g.ContentKind, g.ContentID, g.PrincipalKind, g.PrincipalID)
		ops = append(ops, store.Delete(k.PK, k.SK, store.Always))
		if g.ContentKind == model.KindSpace {
			pk := principalKey(orgID, g.PrincipalKind, g.PrincipalID)
			counts[pk]++
			kinds[pk] = g.PrincipalKind
		}
	}
	for k, n := range counts {
		it, err := a.store.Get(ctx, k.PK, k.SK)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read grantee: %w", err)
		}
		next := it
		if next.Data, err = bump(it, kinds[k], -n); err != nil {
			return nil, err
		}
		next.Version = it.Version + 1
		ops = append(ops, store.PutIfVersion(next, it.Version))
	}
	return ops, nil
}

// GrantsOn reads the grants on a space or a collection (consistently).
func (a *Authorizer) GrantsOn(ctx context.Context, contentKind, contentID string) ([]model.Grant, error) {
	items, err := store.QueryAll(ctx, a.store, store.Query{PK: keys.ContentPartition(contentKind, contentID), SKPrefix: keys.GrantPrefix})
	if err != nil {
		return nil, fmt.Errorf("read grants: %w", err)
	}
	return records.DecodeAll[model.Grant](items)
}
