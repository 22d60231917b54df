// Package openapiroot is the OpenAPI function's composition root (package roots).
package openapiroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/openapispecs/openapispecshttp"
)

// Routes adds the OpenAPI specs family's operations (processing is
// enqueued for the OpenAPI worker).
func Routes(api *httpapi.API, r *app.Root) { openapispecshttp.Register(api, openapiwire.Service(r)) }
