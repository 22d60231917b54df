// Package siteswire provides the process's sites service (package wire).
package siteswire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/auditwire"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/sites"
)

// Service is the root's sites service. It tells sites published and
// unpublished to the webhooks when the process provided them first
// (sitesroot.ProvideEvents: the sites function and local mode).
func Service(r *app.Root) *sites.Service {
	return app.Service(r, func() *sites.Service {
		return sites.New(r.Deps, spaceswire.Service(r), app.Optional[sites.Events](r), auditwire.Service(r))
	})
}
