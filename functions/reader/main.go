// Command reader is the ReaderFunction Lambda function: published sites
// served as HTML and markdown under the public URL (docs/reader.md). Built
// for provided.al2023 as "bootstrap" by `make build-ReaderFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/insightsroot"
	"github.com/galleydocs/galley/shared/app/roots/readerroot"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
)

func main() {
	app.StartLambda(app.NewFamily("reader", "ReaderFunction", readerroot.Routes, insightsroot.Routes).WithQueues(sqsqueue.Connect))
}
