// Package contentroot is the content function's composition root (package roots).
package contentroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/contentpdfwire"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/httpapi"
)

// Routes adds the content family's operations. Computed pages and OpenAPI
// blocks are computed from the organization's OpenAPI specs.
func Routes(api *httpapi.API, r *app.Root) {
	openapiwire.ProvideSpecs(r)
	contenthttp.Register(api, contentwire.Service(r), contentpdfwire.Service(r))
}
