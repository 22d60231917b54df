// Package importsroot is the imports function's composition root (package roots).
package importsroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/app/wire/gitjobwire"
	"github.com/galleydocs/galley/shared/app/wire/gitsyncwire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/app/wire/webhookswire"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/imports"
	"github.com/galleydocs/galley/shared/imports/importshttp"
)

// Service is the root's imports service.
func Service(r *app.Root) *imports.Service {
	return app.Service(r, func() *imports.Service { return imports.New(r.Deps, Needs(r)) })
}

// Needs are the root's services imports use.
func Needs(r *app.Root) imports.Needs {
	return imports.Needs{Content: contentwire.Service(r), ChangeRequests: changerequestswire.Service(r), Git: gitsyncwire.Service(r)}
}

// Routes adds the imports family's operations; an import into a space's
// content is told to the webhooks (space_content_updated) and, in a
// Git-synced space, queues its export on merge (the Git queue), as a
// merge does.
func Routes(api *httpapi.API, r *app.Root) {
	ProvideEvents(r)
	gitjobwire.ProvideExports(r)
	importshttp.Register(api, Service(r))
}

// ProvideEvents gives the root's change requests service, which lands the
// imports, the webhooks' emitter (and, with a CDN, the invalidation of the
// spaces' published pages); it is called before that service is built.
func ProvideEvents(r *app.Root) changerequests.Events {
	return app.Service(r, func() changerequests.Events { return siteswire.ContentEvents(r, webhookswire.Service(r)) })
}
