// Command gitworker is the GitWorkerFunction Lambda function: it runs the
// git-import and git-export jobs of the FIFO Git queue (SQS), one space's
// jobs in order, reporting failed records one by one. Built for
// provided.al2023 as "bootstrap" by `make build-GitWorkerFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app/roots/gitworkerroot"
	"github.com/galleydocs/galley/shared/app/sqsworker"
	"github.com/galleydocs/galley/shared/cdn/cloudfrontcdn"
)

// Imports land on published spaces and change sites' structure: their
// CDN copies are invalidated.
func main() { sqsworker.StartWorkerWithCDN("gitworker", gitworkerroot.Handlers, cloudfrontcdn.Connect) }
