// Package sitesroot is the sites function's composition root (package roots).
package sitesroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/app/wire/webhookswire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/sites/siteshttp"
)

// Routes adds the sites family's operations; sites published and
// unpublished are told to the webhooks.
func Routes(api *httpapi.API, r *app.Root) {
	ProvideEvents(r)
	siteshttp.Register(api, siteswire.Service(r))
}

// ProvideEvents gives the root's sites service the webhooks' emitter; the
// roots that serve publishing call it before they build that service.
func ProvideEvents(r *app.Root) sites.Events {
	return app.Service(r, func() sites.Events { return webhookswire.Service(r) })
}
