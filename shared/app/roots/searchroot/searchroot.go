// Package searchroot is the search function's composition root (package roots).
package searchroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/app/wire/insightswire"
	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/search"
	"github.com/galleydocs/galley/shared/search/searchhttp"
)

// Service is the root's search service. The sites' agents read published
// pages as the reader does: computed from the organization's OpenAPI specs.
// The search page's searches are counted in the sites' insights (queued
// for the insights worker).
func Service(r *app.Root) *search.Service {
	return app.Service(r, func() *search.Service {
		openapiwire.ProvideSpecs(r)
		return search.New(r.Deps, search.Needs{Content: contentwire.Service(r), Sites: siteswire.Service(r), Users: app.Users(r),
			Insights: insightswire.Service(r)})
	})
}

// Routes adds the search family's operations.
func Routes(api *httpapi.API, r *app.Root) { searchhttp.Register(api, Service(r)) }
