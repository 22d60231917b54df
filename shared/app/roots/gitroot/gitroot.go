// Package gitroot is the Git function's composition root (package roots).
package gitroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/gitsyncwire"
	"github.com/galleydocs/galley/shared/gitsync/gitsynchttp"
	"github.com/galleydocs/galley/shared/httpapi"
)

// Routes adds Git Sync's operations (import and export requests, queued
// for the Git worker).
func Routes(api *httpapi.API, r *app.Root) { gitsynchttp.Register(api, gitsyncwire.Service(r)) }
