// Package commentsroot is the comments function's composition root (package roots).
package commentsroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/commentswire"
	"github.com/galleydocs/galley/shared/comments/commentshttp"
	"github.com/galleydocs/galley/shared/httpapi"
)

// Routes adds the comments family's operations.
func Routes(api *httpapi.API, r *app.Root) { commentshttp.Register(api, commentswire.Service(r)) }
