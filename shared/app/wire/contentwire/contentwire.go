// Package contentwire provides the process's content service (package
// wire).
package contentwire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/orgswire"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/content"
)

// Service is the root's content service. It computes pages from the
// organization's OpenAPI specs when the process provided them first
// (openapiwire.ProvideSpecs: the functions that link the OpenAPI specs
// family, and local mode); elsewhere (comments, Git Sync, imports) it
// reads computed pages as stored, which those families never read.
func Service(r *app.Root) *content.Service {
	return app.Service(r, func() *content.Service {
		return content.New(r.Deps, content.Needs{Spaces: spaceswire.Service(r), Users: app.Users(r),
			Orgs: orgswire.Service(r), Specs: app.Optional[content.Specs](r)})
	})
}
