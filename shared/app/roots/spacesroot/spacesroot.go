// Package spacesroot is the spaces function's composition root (package roots).
package spacesroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
)

// Routes adds the spaces family's operations.
func Routes(api *httpapi.API, r *app.Root) { spaceshttp.Register(api, spaceswire.Service(r)) }
