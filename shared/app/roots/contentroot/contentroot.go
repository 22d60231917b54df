// Package contentroot is the content function's composition root (package roots).
package contentroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/collectionswire"
	"github.com/galleydocs/galley/shared/app/wire/contentpdfwire"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/content/embeds"
	"github.com/galleydocs/galley/shared/content/urlshttp"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/sites/siteshttp"
)

// Routes adds the content family's operations. Computed pages and OpenAPI
// blocks are computed from the organization's OpenAPI specs; Galley's own
// URLs resolve to collections too. Duplicating a site space is served
// here: it copies the space's content, which the sites function does not
// link.
func Routes(api *httpapi.API, r *app.Root) {
	openapiwire.ProvideSpecs(r)
	s := contentwire.Service(r)
	contenthttp.Register(api, s, contentpdfwire.Service(r))
	cards := app.Service(r, func() *embeds.Service { return embeds.New(r.Deps, s) })
	urlshttp.Register(api, s, cards, collectionswire.Service(r))
	siteshttp.RegisterDuplicate(api, siteswire.Service(r), s)
}
