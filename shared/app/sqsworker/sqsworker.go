// Package sqsworker starts a worker Lambda function fed by SQS. It is
// apart from package app so that only the workers' binaries link the SQS
// client and event handling (docs/functions.md).
package sqsworker

import (
	"context"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
)

// StartWorker runs the named worker as a Lambda function fed by SQS,
// reporting failed records one by one; functions/<worker>/main.go calls it
// (or StartWorkerWithCDN, StartBatchingWorker) and nothing else.
func StartWorker(name string, handlers app.Handlers) { start(name, handlers, nil, nil) }

// StartBatchingWorker is StartWorker for a worker whose jobs of some
// kinds run together, the records of one delivery (the insights worker):
// sqsqueue.BatchingHandler.
func StartBatchingWorker(name string, handlers app.Handlers, batches app.Batches) {
	start(name, handlers, batches, nil)
}

// StartWorkerWithCDN is StartWorker for a worker whose jobs change
// published pages (the Git worker's imports): cdns connects the CDN whose
// copies it invalidates (CDN_DISTRIBUTION_ID).
func StartWorkerWithCDN(name string, handlers app.Handlers, cdns app.CDNs) {
	start(name, handlers, nil, cdns)
}

func start(name string, handlers app.Handlers, batches app.Batches, cdns app.CDNs) {
	ctx := context.Background()
	c, err := app.ConfigFromEnv()
	if err != nil {
		c.Logger().Error("start", "worker", name, "err", err.Error())
		panic(err)
	}
	if _, err := app.WorkerByName(name); err != nil {
		panic(err)
	}
	d, err := app.AWSDeps(ctx, c, sqsqueue.Connect, cdns)
	if err != nil {
		c.Logger().Error("start", "worker", name, "err", err.Error())
		panic(err)
	}
	r := app.NewRoot(d)
	var bs map[string]queue.BatchHandler
	if batches != nil {
		bs = batches(r)
	}
	lambda.Start(sqsqueue.BatchingHandler(handlers(r), bs))
}
