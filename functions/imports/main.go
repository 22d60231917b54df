// Command imports is the ImportsFunction Lambda function: content import
// from URLs into a space or a change request, run within the request and
// bounded to end within API Gateway's time limit. Built for
// provided.al2023 as "bootstrap" by `make build-ImportsFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/importsroot"
	"github.com/galleydocs/galley/shared/cdn/cloudfrontcdn"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
)

func main() {
	app.StartLambda(app.NewFamily("imports", "ImportsFunction", importsroot.Routes).WithQueues(sqsqueue.Connect).WithCDN(cloudfrontcdn.Connect))
}
