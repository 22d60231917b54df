// Command git is the GitFunction Lambda function: Git Sync's operations
// (import and export requests, queued for the Git worker; Git info).
// Built for provided.al2023 as "bootstrap" by `make build-GitFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/gitroot"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
)

func main() {
	app.StartLambda(app.NewFamily("git", "GitFunction", gitroot.Routes).WithQueues(sqsqueue.Connect))
}
