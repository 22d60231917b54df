// Package readerroot is the reader function's composition root (package roots).
package readerroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/app/wire/insightswire"
	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/reader"
	"github.com/galleydocs/galley/shared/reader/readerhttp"
)

// Service is the root's reader. Its content is computed from the
// organization's OpenAPI specs: computed API pages and OpenAPI blocks read
// as in the API.
func Service(r *app.Root) *reader.Service {
	return app.Service(r, func() *reader.Service {
		openapiwire.ProvideSpecs(r)
		s, err := reader.New(r.Deps, reader.Needs{Sites: siteswire.Service(r), Content: contentwire.Service(r), Users: app.Users(r),
			Insights: insightswire.Service(r)})
		if err != nil {
			// Templates and styles are the code's own: a failure is a bug.
			panic(err)
		}
		return s
	})
}

// Routes adds the reader's operations.
func Routes(api *httpapi.API, r *app.Root) { readerhttp.Register(api, Service(r)) }
