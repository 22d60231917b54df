package gitstate

import (
	"context"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
)

// GetSite reads a site's Git Sync state and its version; a site without
// one answers an empty state of that site and version 0.
func GetSite(ctx context.Context, s store.Store, siteID string) (model.SiteGitSync, int64, error) {
	return get(ctx, s, keys.SiteGitSync(siteID), model.SiteGitSync{SiteID: siteID}, "site Git Sync state")
}

// WriteSiteOp writes a site's state read at version v (0: a new state),
// guarded by that version.
func WriteSiteOp(st model.SiteGitSync, v int64) store.Op {
	return writeOp(keys.SiteGitSync(st.SiteID), st, v)
}
