// Package orgswire provides the process's organizations service (package
// wire).
package orgswire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/auditwire"
	"github.com/galleydocs/galley/shared/orgs"
)

// Service is the root's organizations service.
func Service(r *app.Root) *orgs.Service {
	return app.Service(r, func() *orgs.Service { return orgs.New(r.Deps, app.Users(r), auditwire.Service(r)) })
}
