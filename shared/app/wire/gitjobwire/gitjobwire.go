// Package gitjobwire provides Git Sync's export on merge (package wire):
// the change requests family tells it of each merge and direct edit, and
// it queues the Git worker's export, without linking Git.
package gitjobwire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/gitsync/gitjob"
)

// ProvideExports gives the root's change requests service Git Sync's
// exports on merge: the roots that build that service call it first.
func ProvideExports(r *app.Root) changerequests.Landings {
	return app.Service(r, func() changerequests.Landings { return gitjob.NewExports(r.Deps) })
}
