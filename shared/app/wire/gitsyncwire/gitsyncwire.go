// Package gitsyncwire provides the process's Git Sync service (package
// wire).
package gitsyncwire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/auditwire"
	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/gitsync"
)

// Service is the root's Git Sync service. It tells each job's outcome to
// the webhooks when the process provided them first
// (gitworkerroot.ProvideEvents: the Git worker and local mode).
func Service(r *app.Root) *gitsync.Service {
	return app.Service(r, func() *gitsync.Service {
		return gitsync.New(r.Deps, gitsync.Needs{Content: contentwire.Service(r),
			ChangeRequests: changerequestswire.Service(r), Sites: siteswire.Service(r),
			SiteStructure: siteswire.Service(r), Spaces: spaceswire.Service(r),
			Audit: auditwire.Service(r), Events: app.Optional[gitsync.Events](r)})
	})
}
