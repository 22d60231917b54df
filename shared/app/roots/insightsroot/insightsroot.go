// Package insightsroot adds the insights family's operations to the
// reader function (package roots): the reader posts its events, and the
// function reads the table only, handing them to the insights worker.
package insightsroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/insightswire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/insights/insightshttp"
)

// Routes adds the insights operations.
func Routes(api *httpapi.API, r *app.Root) {
	insightshttp.Register(api, insightswire.Service(r), r.Deps.Clock)
}
