// Package changerequestsroot is the change requests function's composition root (package roots).
package changerequestsroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/app/wire/commentswire"
	"github.com/galleydocs/galley/shared/app/wire/gitjobwire"
	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/changerequests/changerequestshttp"
	"github.com/galleydocs/galley/shared/httpapi"
)

// Routes adds the change requests family's operations. Reviews' comments
// are posted and rendered by the comments family's service; a request's
// computed pages and OpenAPI blocks are computed from the organization's
// OpenAPI specs; merges of Git-synced spaces queue their export.
func Routes(api *httpapi.API, r *app.Root) {
	openapiwire.ProvideSpecs(r)
	commentswire.ProvideReviewComments(r)
	gitjobwire.ProvideExports(r)
	changerequestshttp.Register(api, changerequestswire.Service(r), commentswire.Service(r))
}
