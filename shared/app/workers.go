package app

import (
	"fmt"

	"github.com/galleydocs/galley/shared/queue"
)

// Worker is one worker Lambda function: the job kinds it runs, taken from
// one SQS queue (docs/workers.md). The table is data only, so that every
// function can route the jobs it makes to the right queue without linking
// the workers' code; each worker's main.go passes its handlers to
// sqsworker.StartWorker, and package families holds them all for local mode.
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
	// Kinds are the job kinds it runs (package families checks them against
	// the handlers' kinds: openapispecs.JobKind, gitsync.Kinds()).
	Kinds []string
}

// Handlers build a worker's job handlers, by kind, with the services of
// the process's root.
type Handlers func(r *Root) map[string]queue.Handler

// Batches build a worker's batch handlers, by kind (the kinds whose jobs
// run together, in AWS those of one delivery, locally the queue's due
// ones), with the services of the process's root.
type Batches func(r *Root) map[string]queue.BatchHandler

// Workers lists every worker.
func Workers() []Worker {
	return []Worker{
		{Name: "openapiworker", Function: "OpenAPIWorkerFunction", Queue: "JobsQueue", QueueEnv: "QUEUE_URL",
			Kinds: []string{"openapi-fetch"}},
		// Git jobs run one at a time per space (a site's jobs per site), in
		// order: a FIFO queue grouped by space or site.
		{Name: "gitworker", Function: "GitWorkerFunction", Queue: "GitQueue", FIFO: true, QueueEnv: "GIT_QUEUE_URL",
			Kinds: []string{"git-import", "git-export", "git-site-import", "git-site-export", "git-poll"}},
		// Webhook delivery attempts, each retry queued with its backoff
		// as the message's delay (docs/webhooks.md): a standard queue.
		{Name: "webhookworker", Function: "WebhookWorkerFunction", Queue: "WebhooksQueue", QueueEnv: "WEBHOOKS_QUEUE_URL",
			Kinds: []string{"webhook-deliver"}},
		// Site insights: the events the reader tracks, added to counters
		// (docs/insights.md).
		{Name: "insightsworker", Function: "InsightsWorkerFunction", Queue: "InsightsQueue", QueueEnv: "INSIGHTS_QUEUE_URL",
			Kinds: []string{"insights-aggregate"}},
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
