// Package queuetest is the conformance suite of the queue port: what every
// adapter must do between Enqueue and the delivery of the job to a handler.
package queuetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/queue"
)

// Kinds are the job kinds the suite enqueues; a harness delivers at least
// these.
func Kinds() []string { return []string{"test-alpha", "test-beta"} }

// Harness is one adapter under test.
type Harness struct {
	// Queue is the adapter, empty.
	Queue queue.Queue
	// Receive returns the next job delivered to a handler, waiting until
	// ctx is done if none is there yet. Each job it returns counts as
	// handled successfully.
	Receive func(ctx context.Context) (queue.Job, error)
}

// RunTests runs the suite. newHarness is called once per subtest.
func RunTests(t *testing.T, newHarness func(t *testing.T) Harness) {
	t.Run("RoundTrip", func(t *testing.T) {
		h := newHarness(t)
		ctx := testContext(t)
		in := queue.Job{ID: "job-1", Kind: "test-alpha", Payload: json.RawMessage(`{"repo": "a/b", "n": [1, 2], "s": "<&>"}`)}
		if err := h.Queue.Enqueue(ctx, in); err != nil {
			t.Fatalf("Enqueue: %v", err)
		}
		got, err := h.Receive(ctx)
		if err != nil {
			t.Fatalf("Receive: %v", err)
		}
		if got.ID != in.ID || got.Kind != in.Kind {
			t.Errorf("received %s %s, want %s %s", got.Kind, got.ID, in.Kind, in.ID)
		}
		if !jsonEqual(got.Payload, in.Payload) {
			t.Errorf("payload = %s, want %s", got.Payload, in.Payload)
		}
	})

	t.Run("AssignsID", func(t *testing.T) {
		h := newHarness(t)
		ctx := testContext(t)
		for range 2 {
			if err := h.Queue.Enqueue(ctx, queue.Job{Kind: "test-beta"}); err != nil {
				t.Fatalf("Enqueue: %v", err)
			}
		}
		seen := map[string]bool{}
		for range 2 {
			got, err := h.Receive(ctx)
			if err != nil {
				t.Fatalf("Receive: %v", err)
			}
			if got.ID == "" || seen[got.ID] {
				t.Errorf("job ID %q is empty or repeated", got.ID)
			}
			seen[got.ID] = true
			if !jsonEqual(got.Payload, nil) {
				t.Errorf("payload of a job without one = %s, want null", got.Payload)
			}
		}
	})

	t.Run("Many", func(t *testing.T) {
		h := newHarness(t)
		ctx := testContext(t)
		const n = 20
		want := map[string]string{}
		for i := range n {
			job := queue.Job{ID: fmt.Sprintf("many-%d", i), Kind: Kinds()[i%2], Payload: json.RawMessage(fmt.Sprint(i))}
			want[job.ID] = job.Kind
			if err := h.Queue.Enqueue(ctx, job); err != nil {
				t.Fatalf("Enqueue: %v", err)
			}
		}
		for range n {
			got, err := h.Receive(ctx)
			if err != nil {
				t.Fatalf("Receive: %v (missing %v)", err, want)
			}
			if kind, ok := want[got.ID]; !ok || kind != got.Kind {
				t.Errorf("received unexpected or repeated job %s %s", got.Kind, got.ID)
			}
			delete(want, got.ID)
		}
	})

	t.Run("RejectsJobWithoutKind", func(t *testing.T) {
		h := newHarness(t)
		if err := h.Queue.Enqueue(testContext(t), queue.Job{ID: "x"}); err == nil {
			t.Error("Enqueue of a job without kind succeeded")
		}
	})
}

// jsonEqual compares payloads as JSON values; adapters may re-encode them.
// An absent payload equals null.
func jsonEqual(a, b json.RawMessage) bool {
	norm := func(m json.RawMessage) (any, error) {
		if len(bytes.TrimSpace(m)) == 0 {
			return nil, nil
		}
		var v any
		err := json.Unmarshal(m, &v)
		return v, err
	}
	va, errA := norm(a)
	vb, errB := norm(b)
	if errA != nil || errB != nil {
		return false
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return bytes.Equal(ja, jb)
}

// testContext bounds each subtest, so a lost job fails instead of hanging.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
