// Package siteswire provides the process's sites service (package wire).
package siteswire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/sites"
)

// Service is the root's sites service.
func Service(r *app.Root) *sites.Service {
	return app.Service(r, func() *sites.Service { return sites.New(r.Deps, spaceswire.Service(r)) })
}
