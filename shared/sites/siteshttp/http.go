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
	"github.com/galleydocs/galley/shared/ids"
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
	registerExternalLinks(api, s)
	registerPreview(api, s)
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

// location is the API URL of what the site holds at rest (a Location
// header).
func (p SiteParams) location(ctx context.Context, rest string) string {
	return httpapi.APIURL(ctx) + "/v1/orgs/" + p.OrganizationID + "/sites/" + p.SiteID + rest
}

// ref is a move body's pointer: the type and id of the item it names.
type ref interface{ ref() (string, ids.ID) }

// moveTo is the position a move body gives: before or after the item a
// pointer names (neither: the end of the level).
func moveTo[P ref](before, after *P) sites.Position {
	return sites.Position{Before: target(before), After: target(after)}
}

func target[P ref](p *P) *sites.Pointer {
	if p == nil {
		return nil
	}
	typ, id := (*p).ref()
	return &sites.Pointer{Type: typ, ID: string(id)}
}

// orEmpty is an optional string of a body, "" when absent.
func orEmpty(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// item renders one item of a site just written, reading the spaces it shows.
func item(ctx context.Context, s *sites.Service, site model.Site, role model.Role) (*viewer, error) {
	v, err := s.ViewOf(ctx, site, role)
	if err != nil {
		return nil, err
	}
	return newViewer(ctx, v), nil
}

// written answers a write to the item id of a site's structure (a section,
// a group, a site space): the service's result (the written site and the
// caller's role) or error, then the item as that site shows it, rendered by
// pick.
func written[T any](ctx context.Context, s *sites.Service, pick func(*viewer, string) (T, error), id string) func(model.Site, model.Role, error) (*httpapi.Out[T], error) {
	return func(site model.Site, role model.Role, err error) (*httpapi.Out[T], error) {
		if err != nil {
			return nil, err
		}
		w, err := item(ctx, s, site, role)
		if err != nil {
			return nil, err
		}
		v, err := pick(w, id)
		if err != nil {
			return nil, err
		}
		return &httpapi.Out[T]{Body: v}, nil
	}
}

// added is written for an item the service has just created and named.
func added[T any](ctx context.Context, s *sites.Service, pick func(*viewer, string) (T, error)) func(model.Site, string, model.Role, error) (*httpapi.Out[T], error) {
	return func(site model.Site, id string, role model.Role, err error) (*httpapi.Out[T], error) {
		return written(ctx, s, pick, id)(site, role, err)
	}
}
