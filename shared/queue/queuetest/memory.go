package queuetest

import (
	"context"
	"fmt"
	"sync"

	"github.com/galleydocs/galley/shared/queue"
)

// Memory is a queue for tests of the services that enqueue: it keeps the
// jobs until the test runs them (Drain), so that a test decides when work
// happens, and may deliver a job twice or out of order.
type Memory struct {
	mu   sync.Mutex
	jobs []queue.Job
	seq  int
}

var _ queue.Queue = (*Memory)(nil)

// Enqueue implements queue.Queue; a job without an ID gets one.
func (m *Memory) Enqueue(_ context.Context, job queue.Job) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seq++
	if job.ID == "" {
		job.ID = fmt.Sprintf("mem-%d", m.seq)
	}
	m.jobs = append(m.jobs, job)
	return nil
}

// Take removes and returns the pending jobs, oldest first.
func (m *Memory) Take() []queue.Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	jobs := m.jobs
	m.jobs = nil
	return jobs
}

// Drain runs the pending jobs, and those they enqueue, in order with the
// handlers of their kinds, until none is left. It stops at the first
// failure, leaving the failed job's followers pending.
func (m *Memory) Drain(ctx context.Context, handlers map[string]queue.Handler) error {
	for {
		m.mu.Lock()
		if len(m.jobs) == 0 {
			m.mu.Unlock()
			return nil
		}
		job := m.jobs[0]
		m.jobs = m.jobs[1:]
		m.mu.Unlock()
		h := handlers[job.Kind]
		if h == nil {
			return fmt.Errorf("no handler for job kind %q", job.Kind)
		}
		if err := h(ctx, job); err != nil {
			return fmt.Errorf("job %s %s: %w", job.Kind, job.ID, err)
		}
	}
}
