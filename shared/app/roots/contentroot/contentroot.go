// Package contentroot is the content function's composition root (package roots).
package contentroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/contentpdfwire"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/sites/siteshttp"
)

// Routes adds the content family's operations. Computed pages and OpenAPI
// blocks are computed from the organization's OpenAPI specs. Duplicating a
// site space is served here: it copies the space's content, which the
// sites function does not link.
func Routes(api *httpapi.API, r *app.Root) {
	openapiwire.ProvideSpecs(r)
	content := contentwire.Service(r)
	contenthttp.Register(api, content, contentpdfwire.Service(r))
	siteshttp.RegisterDuplicate(api, siteswire.Service(r), content)
}
