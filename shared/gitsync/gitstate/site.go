package gitstate

import (
	"context"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// GetSite reads a site's Git Sync state and its version; a site without
// one answers an empty state of that site and version 0.
func GetSite(ctx context.Context, s store.Store, siteID string) (model.SiteGitSync, int64, error) {
	st, v, err := records.Get[model.SiteGitSync](ctx, s, keys.SiteGitSync(siteID))
	if errors.Is(err, store.ErrNotFound) {
		return model.SiteGitSync{SiteID: siteID}, 0, nil
	}
	if err != nil {
		return st, 0, fmt.Errorf("read site Git Sync state: %w", err)
	}
	return st, v, nil
}

// WriteSiteOp writes a site's state read at version v (0: a new state),
// guarded by that version.
func WriteSiteOp(st model.SiteGitSync, v int64) store.Op {
	it := records.Item(keys.SiteGitSync(st.SiteID), st, v+1)
	if v == 0 {
		return store.Put(it, store.IfNotExists)
	}
	return store.PutIfVersion(it, v)
}
