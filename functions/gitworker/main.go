// Command gitworker is the GitWorkerFunction Lambda function: it runs the
// git-import and git-export jobs of the FIFO Git queue (SQS), one space's
// jobs in order, reporting failed records one by one. Built for
// provided.al2023 as "bootstrap" by `make build-GitWorkerFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app/roots/gitworkerroot"
	"github.com/galleydocs/galley/shared/app/sqsworker"
)

func main() { sqsworker.StartWorker("gitworker", gitworkerroot.Handlers) }
