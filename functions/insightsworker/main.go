// Command insightsworker is the InsightsWorkerFunction Lambda function: it
// adds the tracked events of the insights queue (SQS) to the sites'
// counters, a delivery's jobs together (insights.ApplyAll), reporting
// failed records one by one. Built for provided.al2023
// as "bootstrap" by `make build-InsightsWorkerFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app/roots/insightsworkerroot"
	"github.com/galleydocs/galley/shared/app/sqsworker"
)

func main() {
	sqsworker.StartBatchingWorker("insightsworker", insightsworkerroot.Handlers, insightsworkerroot.Batches)
}
