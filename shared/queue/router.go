package queue

import (
	"context"
	"fmt"
)

// Router sends each job to the queue of its kind (Git jobs go to a FIFO
// queue of their own, for instance), or to Default.
type Router struct {
	ByKind  map[string]Queue
	Default Queue
}

var _ Queue = Router{}

// Enqueue implements Queue.
func (r Router) Enqueue(ctx context.Context, job Job) error {
	q := r.ByKind[job.Kind]
	if q == nil {
		q = r.Default
	}
	if q == nil {
		return fmt.Errorf("queue: no queue for job kind %q", job.Kind)
	}
	return q.Enqueue(ctx, job)
}
