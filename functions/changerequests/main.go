// Command changerequests is the ChangeRequestsFunction Lambda function: the
// change requests family (create, list, read, update, author, update from
// the space, merge, and reads of a request's content). Built for
// provided.al2023 as "bootstrap" by `make build-ChangeRequestsFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/changerequestsroot"
)

func main() {
	app.StartLambda(app.NewFamily("changerequests", "ChangeRequestsFunction", changerequestsroot.Routes))
}
