// Package auditwire provides the process's audit service (package wire):
// the families that make administrative changes record them with it.
package auditwire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/audit"
)

// Service is the root's audit service.
func Service(r *app.Root) *audit.Service {
	return app.Service(r, func() *audit.Service { return audit.New(r.Deps, r.Deps.AuditRetention) })
}
