// Package importsroot is the imports function's composition root (package roots).
package importsroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/app/wire/gitsyncwire"
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

// Routes adds the imports family's operations.
func Routes(api *httpapi.API, r *app.Root) { importshttp.Register(api, Service(r)) }
