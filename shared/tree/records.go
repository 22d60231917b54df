package tree

import (
	"context"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// This package owns the records of collections and of the entries of a
// parent's children (their keys, index keys and counts); the collections
// service reads them here.

// ReadCollection returns a collection record and its version; NotFound if
// absent.
func ReadCollection(ctx context.Context, st store.Store, id string) (model.Collection, int64, error) {
	return records.Read[model.Collection](ctx, st, keys.Collection(id), "collection", id)
}

// CollectionsPage reads a page of an organization's collections from the
// indexes: those at the top level in their order, or (nested) every one in
// tree order.
func CollectionsPage(ctx context.Context, st store.Store, orgID string, nested bool, limit int, after *store.Key) ([]model.Collection, *store.Key, error) {
	q := store.Query{Index: store.GSI2, PK: keys.ChildCollections(orgID, ""), Limit: limit, After: after}
	if nested {
		q = store.Query{Index: store.GSI1, PK: keys.OrgCollections(orgID), Limit: limit, After: after}
	}
	return records.QueryPage[model.Collection](ctx, st, q)
}
