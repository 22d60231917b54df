// Package sitesroot is the sites function's composition root (package roots).
package sitesroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/sites/siteshttp"
)

// Routes adds the sites family's operations.
func Routes(api *httpapi.API, r *app.Root) { siteshttp.Register(api, siteswire.Service(r)) }
