// Command orgs is the OrganizationsFunction Lambda function: the
// organizations family (organizations, members, teams, invites). Built for
// provided.al2023 as "bootstrap" by `make build-OrganizationsFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/orgsroot"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
)

func main() {
	app.StartLambda(app.NewFamily("orgs", "OrganizationsFunction", orgsroot.Routes).WithQueues(sqsqueue.Connect))
}
