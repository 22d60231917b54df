// Package changerequestsroot is the change requests function's composition root (package roots).
package changerequestsroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/app/wire/commentswire"
	"github.com/galleydocs/galley/shared/app/wire/gitjobwire"
	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/app/wire/webhookswire"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/changerequests/changerequestshttp"
	"github.com/galleydocs/galley/shared/httpapi"
)

// Routes adds the change requests family's operations. Reviews' comments
// are posted and rendered by the comments family's service; a request's
// computed pages and OpenAPI blocks are computed from the organization's
// OpenAPI specs; merges of Git-synced spaces queue their export; the
// organization's list filters by site through the sites family; requests
// opened and merged are told to the webhooks.
func Routes(api *httpapi.API, r *app.Root) {
	openapiwire.ProvideSpecs(r)
	commentswire.ProvideReviewComments(r)
	gitjobwire.ProvideExports(r)
	ProvideSiteSpaces(r)
	ProvideEvents(r)
	changerequestshttp.Register(api, changerequestswire.Service(r), commentswire.Service(r))
}

// ProvideSiteSpaces gives the root's change requests service the sites
// service, which answers the spaces of a site for the organization list's
// site filter; the roots serving change requests' routes call it before
// they build that service. It lives here, not in siteswire, so that the
// functions linking the sites provider (reader, search) do not link
// change requests.
func ProvideSiteSpaces(r *app.Root) changerequests.SiteSpaces {
	return app.Service(r, func() changerequests.SiteSpaces { return siteswire.Service(r) })
}

// ProvideEvents gives the root's change requests service the webhooks'
// emitter (and, with a CDN, the invalidation of merged spaces' published
// pages); the roots serving change requests' routes call it before they
// build that service.
func ProvideEvents(r *app.Root) changerequests.Events {
	return app.Service(r, func() changerequests.Events { return siteswire.ContentEvents(r, webhookswire.Service(r)) })
}
