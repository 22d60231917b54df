// Command changerequests is the ChangeRequestsFunction Lambda function: the
// change requests family (create, list, read, update, author, update from
// the space, merge, and reads of a request's content; a merge into a
// Git-synced space queues its export on the Git queue). Built for
// provided.al2023 as "bootstrap" by `make build-ChangeRequestsFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/changerequestsroot"
	"github.com/galleydocs/galley/shared/cdn/cloudfrontcdn"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
)

func main() {
	app.StartLambda(app.NewFamily("changerequests", "ChangeRequestsFunction", changerequestsroot.Routes).WithQueues(sqsqueue.Connect).WithCDN(cloudfrontcdn.Connect))
}
