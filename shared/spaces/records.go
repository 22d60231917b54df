package spaces

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// The spaces family owns the space record: its key, its index keys (Item)
// and its invariants. Other families read it and change it here only,
// inside their own transactions: change requests move the head revision and
// the request counters, comments move the comment counter, collection
// transfers move a space between organizations.

// Read returns a space's record and version, live or deleted, without
// authorization (callers have authorized). A missing space is NotFound.
func Read(ctx context.Context, st store.Store, spaceID string) (model.Space, int64, error) {
	return records.Read[model.Space](ctx, st, keys.Space(spaceID), "space", spaceID)
}

// ReadLive is Read for a change: a deleted space is NotFound too.
func ReadLive(ctx context.Context, st store.Store, spaceID string) (model.Space, int64, error) {
	sp, v, err := Read(ctx, st, spaceID)
	if err == nil && sp.DeletedAt != nil {
		err = apperr.NotFoundf("space %s not found", spaceID)
	}
	return sp, v, err
}

// writeOp is the operation that writes sp, read at version v, in the
// caller's transaction if the space is still at v (a conflict otherwise,
// for the caller's store.Retry). The index keys come from Item, so that
// they follow the record whoever changed it.
func writeOp(sp model.Space, v int64) store.Op {
	return store.PutIfVersion(Item(sp, v+1), v)
}

// An Edit is one of the changes other families make to a space record,
// named here, where the record's fields and invariants are kept: no other
// package assigns a field of model.Space (shared/keys' ownership test).
type Edit func(*model.Space)

// Apply makes the changes to sp, read at version v, and returns the space
// as changed with the operation that writes it in the caller's transaction
// if the space is still at v (a conflict otherwise, for store.Retry).
func Apply(sp model.Space, v int64, changes ...Edit) (model.Space, store.Op) {
	for _, c := range changes {
		c(&sp)
	}
	return sp, writeOp(sp, v)
}

// SetHead makes revID, made at at, the space's current revision (a merge,
// a content change landed on the space, a duplicate's first content).
func SetHead(revID string, at time.Time) Edit {
	return func(sp *model.Space) { sp.Revision, sp.UpdatedAt = revID, at }
}

// CountComments moves the space's comment counter by delta (never below 0).
func CountComments(delta int) Edit {
	return func(sp *model.Space) { sp.Comments = max(0, sp.Comments+delta) }
}

// NumberChangeRequest counts a new change request, a draft: the space's
// ChangeRequests afterwards is its number.
func NumberChangeRequest() Edit {
	return func(sp *model.Space) {
		sp.ChangeRequests++
		sp.ChangeRequestsDraft++
	}
}

// MoveChangeRequest moves a change request from one status to another in
// the space's counters of draft and open requests.
func MoveChangeRequest(from, to string) Edit {
	return func(sp *model.Space) {
		add := func(status string, d int) {
			switch status {
			case model.CRDraft:
				sp.ChangeRequestsDraft += d
			case model.CROpen:
				sp.ChangeRequestsOpen += d
			}
		}
		add(from, -1)
		add(to, +1)
	}
}

// Transfer moves the space to another organization, under the collections
// ancestors (a collection's transfer takes its spaces along).
func Transfer(orgID string, ancestors []string, at time.Time) Edit {
	return func(sp *model.Space) { sp.OrgID, sp.Ancestors, sp.UpdatedAt = orgID, ancestors, at }
}

// SetIcon sets the space's icon (a duplicate takes its original's).
func SetIcon(icon string) Edit {
	return func(sp *model.Space) { sp.Icon = icon }
}

// OrgListKey is the partition a page token over an organization's live
// spaces is bound to (see httpapi.Scope).
func OrgListKey(orgID string) string { return keys.OrgSpaces(orgID) }

// LivePage reads a page of an organization's live spaces in creation order
// (reverse: newest first), from the index (eventually consistent).
func LivePage(ctx context.Context, st store.Store, orgID string, reverse bool, limit int, after *store.Key) ([]model.Space, *store.Key, error) {
	return records.QueryPage[model.Space](ctx, st, store.Query{Index: store.GSI1, PK: keys.OrgSpaces(orgID), Reverse: reverse, Limit: limit, After: after})
}

// AllLive reads every live space of an organization, from the index.
func AllLive(ctx context.Context, st store.Store, orgID string) ([]model.Space, error) {
	items, err := store.QueryAll(ctx, st, store.Query{Index: store.GSI1, PK: keys.OrgSpaces(orgID)})
	if err != nil {
		return nil, fmt.Errorf("list spaces: %w", err)
	}
	return records.DecodeAll[model.Space](items)
}

// InCollectionQuery lists the live spaces directly in a collection, in
// their order, from the index.
func InCollectionQuery(collectionID string) store.Query {
	return store.Query{Index: store.GSI2, PK: keys.CollectionSpaces(collectionID)}
}

// CheckExists is the operation that makes the caller's transaction require
// the space's record to exist (a record kept under a space, such as a
// custom field value, is written only while it does).
func CheckExists(spaceID string) store.Op {
	k := keys.Space(spaceID)
	return store.Check(k.PK, k.SK, store.IfExists, 0)
}

// ReadMany reads the records of spaces, live or deleted, without
// authorization, by id. Missing spaces are left out.
func ReadMany(ctx context.Context, st store.Store, spaceIDs []string) (map[string]model.Space, error) {
	ids := slices.Clone(spaceIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	ks := make([]keys.Key, 0, len(ids))
	for _, id := range ids {
		ks = append(ks, keys.Space(id))
	}
	sps, err := records.Existing[model.Space](ctx, st, ks)
	if err != nil {
		return nil, fmt.Errorf("read spaces: %w", err)
	}
	out := make(map[string]model.Space, len(sps))
	for _, sp := range sps {
		out[sp.ID] = sp
	}
	return out, nil
}
