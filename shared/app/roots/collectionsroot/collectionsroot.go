// Package collectionsroot is the collections function's composition root (package roots).
package collectionsroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/collectionswire"
	"github.com/galleydocs/galley/shared/collections"
	"github.com/galleydocs/galley/shared/collections/collectionshttp"
	"github.com/galleydocs/galley/shared/httpapi"
)

// Service is the root's collections service (collectionswire's).
func Service(r *app.Root) *collections.Service { return collectionswire.Service(r) }

// Routes adds the collections family's operations.
func Routes(api *httpapi.API, r *app.Root) { collectionshttp.Register(api, Service(r)) }
