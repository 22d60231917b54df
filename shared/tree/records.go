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

// CollectionsQuery lists an organization's collections from the indexes:
// those at the top level in their order, or (nested) every one in tree
// order.
func CollectionsQuery(orgID string, nested bool) store.Query {
	if nested {
		return store.Query{Index: store.GSI1, PK: keys.OrgCollections(orgID)}
	}
	return store.Query{Index: store.GSI2, PK: keys.ChildCollections(orgID, "")}
}
