package access

import (
	"context"
	"slices"

	"github.com/galleydocs/galley/shared/model"
)

// SiteVisitor is the bearer of a site token (package sitetoken): a visitor
// of one published site, who may read that site's published view,
// customization and redirects, and the content of the spaces it showed
// when the token was issued. A caller with a SiteVisitor has no UserID,
// so CallerFrom refuses it (401) everywhere but in the reads that ask
// VisitorFrom first.
type SiteVisitor struct {
	SiteID, OrgID string
	// SpaceIDs are the spaces the site showed the visitor; LinkIDs its
	// external links.
	SpaceIDs, LinkIDs []string
	// Preview is a member's preview (sites' getSitePublishingPreviewById):
	// the site may be unpublished.
	Preview bool
}

// VisitorFrom returns the site visitor of ctx, if its caller is one.
func VisitorFrom(ctx context.Context) (*SiteVisitor, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	if !ok || c.Site == nil {
		return nil, false
	}
	return c.Site, true
}

// MayReadSite tells whether the visitor's token is for this site.
func (v *SiteVisitor) MayReadSite(orgID, siteID string) bool {
	return v.OrgID == orgID && v.SiteID == siteID
}

// MayReadSpace tells whether the visitor may read a space's content: a
// live space of the site's organization that the site showed.
func (v *SiteVisitor) MayReadSpace(sp model.Space) bool {
	return sp.OrgID == v.OrgID && sp.DeletedAt == nil && slices.Contains(v.SpaceIDs, sp.ID)
}
