// Package queue is the port through which services hand work to workers
// (Git import and export, content import, OpenAPI fetching). In AWS it is
// SQS feeding worker Lambdas; locally the same handlers run in-process.
package queue

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// ErrUnavailable: the queue is throttling or failing for now (SQS answered
// throttling or a server error, or did not answer, through every retry of
// the call). The job was not enqueued, unless the connection failed after
// SQS took it (jobs are idempotent, so enqueueing it again is harmless).
// The HTTP layer answers it 503 with Retry-After.
var ErrUnavailable = errors.New("queue: temporarily unavailable")

// Job is one unit of background work.
type Job struct {
	// ID identifies the job; handlers use it to make redelivery harmless.
	ID string `json:"id"`
	// Kind selects the handler, e.g. "git-import".
	Kind string `json:"kind"`
	// Group orders jobs: on a FIFO queue, jobs of one group run one at a
	// time in the order they were enqueued (a space's Git imports and
	// exports). Empty: no ordering beyond the queue's own.
	Group string `json:"group,omitempty"`
	// Payload is the handler's input.
	Payload json.RawMessage `json:"payload"`
	// Delay holds the job back that long after it is enqueued (a retry's
	// backoff): SQS's DelaySeconds on a standard queue (rounded up to a
	// second, at most 15 minutes), the run time of the local queue.
	Delay time.Duration `json:"delay,omitempty"`
}

// Queue accepts jobs.
type Queue interface {
	Enqueue(ctx context.Context, job Job) error
}

// Handler runs one job. A returned error means the job should be retried.
type Handler func(ctx context.Context, job Job) error

// BatchHandler runs several jobs of one kind together (the local queue
// gives it the due jobs of its kind). A returned error means the jobs
// should be retried: the local queue runs each again on its own Handler,
// so a batch handler may leave some of them done (idempotent jobs).
type BatchHandler func(ctx context.Context, jobs []Job) error
