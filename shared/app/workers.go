package app

import (
	"context"
	"fmt"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
)

// Worker is one worker Lambda function: the job kinds it runs, taken from
// one SQS queue (docs/workers.md).
type Worker struct {
	// Name selects the worker (functions/<name>).
	Name string
	// Function is its logical id in template.yaml.
	Function string
	// Queue is the logical id of its queue in template.yaml.
	Queue string
	// FIFO tells whether the queue is a FIFO queue (jobs of a group in order).
	FIFO bool
	// QueueEnv is the environment variable naming the queue's URL in the
	// functions that enqueue its jobs.
	QueueEnv string
	// Kinds are the job kinds it runs.
	Kinds    []string
	handlers func(d *deps.Deps) map[string]queue.Handler
}

// Workers lists every worker.
func Workers() []Worker {
	return []Worker{
		{Name: "openapiworker", Function: "OpenAPIWorkerFunction", Queue: "JobsQueue", QueueEnv: "QUEUE_URL",
			Kinds: []string{openapispecs.JobKind},
			handlers: func(d *deps.Deps) map[string]queue.Handler {
				return map[string]queue.Handler{openapispecs.JobKind: openapispecs.New(d).Handle}
			}},
		// Git jobs run one at a time per space, in order: a FIFO queue
		// grouped by space.
		{Name: "gitworker", Function: "GitWorkerFunction", Queue: "GitQueue", FIFO: true, QueueEnv: "GIT_QUEUE_URL",
			Kinds: gitsync.Kinds(),
			handlers: func(d *deps.Deps) map[string]queue.Handler {
				h := gitsync.New(d).Handle
				return map[string]queue.Handler{gitsync.ImportKind: h, gitsync.ExportKind: h}
			}},
	}
}

// WorkerByName returns the named worker.
func WorkerByName(name string) (Worker, error) {
	for _, w := range Workers() {
		if w.Name == name {
			return w, nil
		}
	}
	return Worker{}, fmt.Errorf("no worker %q", name)
}

// Handlers are the worker's job handlers, by kind.
func (w Worker) Handlers(d *deps.Deps) map[string]queue.Handler { return w.handlers(d) }

// JobHandlers are every worker's handlers, by kind: local mode runs them
// all in-process.
func JobHandlers(d *deps.Deps) map[string]queue.Handler {
	all := map[string]queue.Handler{}
	for _, w := range Workers() {
		for kind, h := range w.handlers(d) {
			all[kind] = h
		}
	}
	return all
}

// queueRouter sends each kind to the queue of the worker running it,
// given the queues' URLs by environment variable; nil when no queue is
// configured (jobs then run within the request that makes them).
func queueRouter(urls map[string]string, newQueue func(url string) queue.Queue) queue.Queue {
	r := queue.Router{ByKind: map[string]queue.Queue{}}
	for _, w := range Workers() {
		u := urls[w.QueueEnv]
		if u == "" {
			continue
		}
		q := newQueue(u)
		for _, k := range w.Kinds {
			r.ByKind[k] = q
		}
	}
	if len(r.ByKind) == 0 {
		return nil
	}
	return r
}

// StartWorker runs a worker as a Lambda function fed by SQS, reporting
// failed records one by one; functions/<worker>/main.go calls it and
// nothing else.
func StartWorker(name string) {
	ctx := context.Background()
	c := ConfigFromEnv()
	w, err := WorkerByName(name)
	if err != nil {
		panic(err)
	}
	d, err := AWSDeps(ctx, c)
	if err != nil {
		c.Logger().Error("start", "worker", name, "err", err.Error())
		panic(err)
	}
	lambda.Start(sqsqueue.Handler(w.Handlers(d)))
}
