// Package orgsroot is the organizations function's composition root (package roots).
package orgsroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/orgswire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
)

// Routes adds the organizations family's operations.
func Routes(api *httpapi.API, r *app.Root) { orgshttp.Register(api, orgswire.Service(r)) }
