// Command users is the UsersFunction Lambda function: the users family
// (the authenticated user, API information, instance administration and the
// OpenAPI document). Built for provided.al2023 as "bootstrap" by
// `make build-UsersFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/usersroot"
)

func main() {
	app.StartLambda(app.NewFamily("users", "UsersFunction", usersroot.Routes))
}
