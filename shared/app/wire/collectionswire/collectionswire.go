// Package collectionswire provides the process's collections service
// (package wire): the collections function's, and the content function's,
// which resolves a collection's URL (getContentByUrl).
package collectionswire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/collections"
)

// Service is the root's collections service.
func Service(r *app.Root) *collections.Service {
	return app.Service(r, func() *collections.Service { return collections.New(r.Deps, spaceswire.Service(r)) })
}
