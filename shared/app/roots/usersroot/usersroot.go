// Package usersroot is the users function's composition root (package roots).
package usersroot

import (
	"github.com/galleydocs/galley/shared/apidoc"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/users/usershttp"
)

// Routes adds the users family's operations, on the service that
// authenticates the API's requests (so that a revoked token leaves the
// process's token cache at once), and the API's OpenAPI document
// (generated from every family, embedded: package apidoc).
func Routes(api *httpapi.API, r *app.Root) {
	usershttp.Register(api, app.Users(r))
	apidoc.Register(api)
}
