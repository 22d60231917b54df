// Command search is the SearchFunction Lambda function: the search family
// (full-text search of a space and of an organization's spaces). Built for
// provided.al2023 as "bootstrap" by `make build-SearchFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/searchroot"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
)

func main() {
	app.StartLambda(app.NewFamily("search", "SearchFunction", searchroot.Routes).WithQueues(sqsqueue.Connect))
}
