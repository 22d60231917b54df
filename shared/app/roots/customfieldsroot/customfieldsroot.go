// Package customfieldsroot is the custom fields function's composition root (package roots).
package customfieldsroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/customfields"
	"github.com/galleydocs/galley/shared/customfields/customfieldshttp"
	"github.com/galleydocs/galley/shared/httpapi"
)

// Service is the root's custom fields service.
func Service(r *app.Root) *customfields.Service {
	return app.Service(r, func() *customfields.Service { return customfields.New(r.Deps, spaceswire.Service(r)) })
}

// Routes adds the custom fields family's operations.
func Routes(api *httpapi.API, r *app.Root) { customfieldshttp.Register(api, Service(r)) }
