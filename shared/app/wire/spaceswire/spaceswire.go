// Package spaceswire provides the process's spaces service (package wire).
package spaceswire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/spaces"
)

// Service is the root's spaces service.
func Service(r *app.Root) *spaces.Service {
	return app.Service(r, func() *spaces.Service { return spaces.New(r.Deps) })
}
