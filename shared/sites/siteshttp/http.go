// Package siteshttp is the sites family's HTTP layer: its operations,
// request bodies and response shapes (the views, which build the published
// URLs from the request's bases), on the service of package sites (which
// knows no HTTP).
//
// It is one file per resource it serves (sites.go, sections.go,
// sectiongroups.go, sitespaces.go, sharelinks.go), each with its request
// and response shapes and its register function; views.go renders a site's
// items; this file has Routes and what they share.
package siteshttp

import (
	"context"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
)

// Register adds the sites family's operations.
func Register(api *httpapi.API, s *sites.Service) {
	registerSites(api, s)
	registerSections(api, s)
	registerGroups(api, s)
	registerSiteSpaces(api, s)
	registerShareLinks(api, s)
	registerPublishingAuth(api, s)
	registerCustomization(api, s)
	registerRedirects(api, s)
	registerBulkRedirects(api, s)
	registerURLs(api, s)
}

const (
	tag   = "Sites"
	base  = "/v1/orgs/{organizationId}/sites"
	site1 = base + "/{siteId}"
)

// SiteParams are the path parameters of a site.
type SiteParams struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	SiteID         string `path:"siteId" maxLength:"64"`
}

func pointer(typ, id string) *sites.Pointer { return &sites.Pointer{Type: typ, ID: id} }

// item renders one item of a site just written, reading the spaces it shows.
func item(ctx context.Context, s *sites.Service, site model.Site, role model.Role) (*viewer, error) {
	v, err := s.ViewOf(ctx, site, role)
	if err != nil {
		return nil, err
	}
	return newViewer(ctx, v), nil
}
