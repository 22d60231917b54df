package localqueue_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/localqueue"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/store/boltstore"
	"github.com/galleydocs/galley/shared/testenv"
	bolt "go.etcd.io/bbolt"
)

// openDB opens a bolt file the way local mode does: through the store, whose
// file the queue shares.
func openDB(t *testing.T, path string) *boltstore.Store {
	t.Helper()
	s, err := boltstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// newQueue returns a queue in a fresh bolt file with fast backoff; the file
// is closed at the end of the test.
func newQueue(t *testing.T, opts localqueue.Options) (*localqueue.Queue, *bolt.DB) {
	t.Helper()
	s := openDB(t, filepath.Join(t.TempDir(), "galley.db"))
	t.Cleanup(func() { s.Close() })
	if opts.Backoff == 0 {
		opts.Backoff = 5 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = discardLogger()
	}
	q, err := localqueue.New(s.DB(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return q, s.DB()
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// start runs q in the background until the test ends, and fails the test if
// Run returns an error or does not return once cancelled.
func start(t *testing.T, q *localqueue.Queue, handlers map[string]queue.Handler) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Run(ctx, handlers) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Run did not return after its context was cancelled")
		}
	})
}

// waitFor polls cond until it holds or a deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// enqueue puts j on q; a failure ends the test.
func enqueue(t *testing.T, q *localqueue.Queue, j queue.Job) {
	t.Helper()
	if err := q.Enqueue(context.Background(), j); err != nil {
		t.Fatal(err)
	}
}

// receive waits for what comes on ch; when nothing comes within 10
// seconds, the test ends saying what did not happen (missed).
func receive[T any](t *testing.T, ch <-chan T, missed string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal(missed)
	}
	var none T
	return none
}

// records returns the decoded contents of one of the queue's buckets.
func records(t *testing.T, db *bolt.DB, bucket string) []localqueue.Record {
	t.Helper()
	var out []localqueue.Record
	err := db.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucket)).ForEach(func(k, v []byte) error {
			var r localqueue.Record
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			out = append(out, r)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestConformance(t *testing.T) {
	queuetest.RunTests(t, func(t *testing.T) queuetest.Harness {
		q, _ := newQueue(t, localqueue.Options{})
		got := make(chan queue.Job, 100)
		handlers := map[string]queue.Handler{}
		for _, k := range queuetest.Kinds() {
			handlers[k] = func(_ context.Context, job queue.Job) error { got <- job; return nil }
		}
		start(t, q, handlers)
		return queuetest.Harness{Queue: q, Receive: func(ctx context.Context) (queue.Job, error) {
			select {
			case j := <-got:
				return j, nil
			case <-ctx.Done():
				return queue.Job{}, ctx.Err()
			}
		}}
	})
}

func TestHandled(t *testing.T) {
	q, db := newQueue(t, localqueue.Options{})
	got := make(chan queue.Job, 1)
	start(t, q, map[string]queue.Handler{"echo": func(_ context.Context, j queue.Job) error { got <- j; return nil }})
	enqueue(t, q, queue.Job{ID: "j1", Kind: "echo", Payload: json.RawMessage(`{"x":1}`)})
	if j := receive(t, got, "job not handled"); j.ID != "j1" || string(j.Payload) != `{"x":1}` {
		t.Errorf("handled %+v", j)
	}
	waitFor(t, "the handled job to be deleted", func() bool { return len(records(t, db, localqueue.JobsBucket)) == 0 })
}

func TestRetryThenSuccess(t *testing.T) {
	const backoff = 20 * time.Millisecond
	q, db := newQueue(t, localqueue.Options{Backoff: backoff})
	var mu sync.Mutex
	var calls []time.Time
	start(t, q, map[string]queue.Handler{"flaky": func(_ context.Context, j queue.Job) error {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, time.Now())
		if len(calls) < 3 {
			return errors.New("transient")
		}
		return nil
	}})
	enqueue(t, q, queue.Job{Kind: "flaky"})
	waitFor(t, "the job to succeed", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(calls) >= 3 && len(records(t, db, localqueue.JobsBucket)) == 0
	})
	time.Sleep(8 * backoff) // room for a wrong extra delivery
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 3 {
		t.Errorf("handler ran %d times, want 3", len(calls))
	}
	// Exponential backoff: the second wait is about twice the first.
	if d := calls[1].Sub(calls[0]); d < backoff {
		t.Errorf("first retry after %s, want at least %s", d, backoff)
	}
	if d := calls[2].Sub(calls[1]); d < 2*backoff {
		t.Errorf("second retry after %s, want at least %s", d, 2*backoff)
	}
	if dead := records(t, db, localqueue.DeadBucket); len(dead) != 0 {
		t.Errorf("dead bucket holds %d jobs, want 0", len(dead))
	}
}

// syncBuffer is a log destination safe for the runner goroutine.
type syncBuffer = testenv.SyncBuffer

func TestDeadLetter(t *testing.T) {
	var logs syncBuffer
	q, db := newQueue(t, localqueue.Options{MaxAttempts: 3, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	var mu sync.Mutex
	calls := map[string]int{}
	start(t, q, map[string]queue.Handler{
		"broken": func(_ context.Context, j queue.Job) error {
			mu.Lock()
			defer mu.Unlock()
			calls[j.ID]++
			return fmt.Errorf("attempt %d failed", calls[j.ID])
		},
		"panics": func(context.Context, queue.Job) error { panic("boom") },
	})
	ctx := context.Background()
	for _, j := range []queue.Job{{ID: "broken-1", Kind: "broken"}, {ID: "panic-1", Kind: "panics"}, {ID: "unknown-1", Kind: "nobody-handles-this"}} {
		if err := q.Enqueue(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "three dead jobs", func() bool { return len(records(t, db, localqueue.DeadBucket)) == 3 })
	time.Sleep(50 * time.Millisecond) // room for a wrong extra delivery
	mu.Lock()
	if calls["broken-1"] != 3 {
		t.Errorf("failing handler ran %d times, want MaxAttempts = 3", calls["broken-1"])
	}
	mu.Unlock()
	if pending := records(t, db, localqueue.JobsBucket); len(pending) != 0 {
		t.Errorf("%d jobs still pending, want 0", len(pending))
	}
	for _, r := range records(t, db, localqueue.DeadBucket) {
		if r.Attempts != 3 || r.LastError == "" {
			t.Errorf("dead job %s: attempts %d, last error %q", r.Job.ID, r.Attempts, r.LastError)
		}
		if r.Job.ID == "broken-1" && r.LastError != "attempt 3 failed" {
			t.Errorf("dead job keeps last error %q, want %q", r.LastError, "attempt 3 failed")
		}
		if !strings.Contains(logs.String(), "id="+r.Job.ID) {
			t.Errorf("no log line for dead job %s", r.Job.ID)
		}
	}
	if n := strings.Count(logs.String(), "job dead-lettered"); n != 3 {
		t.Errorf("%d dead-letter log lines, want 3:\n%s", n, logs.String())
	}
}

func TestRestartResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "galley.db")
	s := openDB(t, path)
	q, err := localqueue.New(s.DB(), localqueue.Options{Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		enqueue(t, q, queue.Job{ID: fmt.Sprint("pending-", i), Kind: "work"})
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openDB(t, path)
	t.Cleanup(func() { s.Close() })
	q, err = localqueue.New(s.DB(), localqueue.Options{Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 10)
	start(t, q, map[string]queue.Handler{"work": func(_ context.Context, j queue.Job) error { got <- j.ID; return nil }})
	for i := range 3 {
		select {
		case id := <-got:
			// Enqueue order is kept across the restart.
			if want := fmt.Sprint("pending-", i); id != want {
				t.Errorf("job %d handled = %s, want %s", i, id, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of 3 pending jobs handled after restart", i)
		}
	}
}

// TestShutdownMidJob checks at-least-once delivery across a stop: a job whose
// handler is interrupted by the runner's cancellation is neither lost nor
// charged an attempt, and runs again on the next Run.
func TestShutdownMidJob(t *testing.T) {
	q, db := newQueue(t, localqueue.Options{MaxAttempts: 1})
	started := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- q.Run(ctx, map[string]queue.Handler{"slow": func(ctx context.Context, j queue.Job) error {
			close(started)
			<-ctx.Done()
			return ctx.Err()
		}})
	}()
	enqueue(t, q, queue.Job{ID: "slow-1", Kind: "slow"})
	<-started
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run after cancel = %v, want nil", err)
	}
	pending := records(t, db, localqueue.JobsBucket)
	if len(pending) != 1 || pending[0].Attempts != 0 {
		t.Fatalf("after shutdown pending = %+v, want slow-1 with no attempt counted", pending)
	}
	got := make(chan string, 1)
	start(t, q, map[string]queue.Handler{"slow": func(_ context.Context, j queue.Job) error { got <- j.ID; return nil }})
	if id := receive(t, got, "interrupted job not run again"); id != "slow-1" {
		t.Errorf("handled %s, want slow-1", id)
	}
}

func TestConcurrentEnqueue(t *testing.T) {
	q, db := newQueue(t, localqueue.Options{})
	const writers, perWriter = 8, 25
	var mu sync.Mutex
	handled := map[string]int{}
	start(t, q, map[string]queue.Handler{"count": func(_ context.Context, j queue.Job) error {
		mu.Lock()
		defer mu.Unlock()
		handled[j.ID]++
		return nil
	}})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				if err := q.Enqueue(context.Background(), queue.Job{ID: fmt.Sprintf("w%d-%d", w, i), Kind: "count"}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	waitFor(t, "all jobs handled", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(handled) == writers*perWriter && len(records(t, db, localqueue.JobsBucket)) == 0
	})
	time.Sleep(50 * time.Millisecond) // room for a wrong extra delivery
	mu.Lock()
	defer mu.Unlock()
	for id, n := range handled {
		if n != 1 {
			t.Errorf("job %s handled %d times, want 1", id, n)
		}
	}
}

func TestSecondRunRefused(t *testing.T) {
	q, _ := newQueue(t, localqueue.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results := make(chan error, 2)
	for range 2 {
		go func() { results <- q.Run(ctx, nil) }()
	}
	// Whichever Run lost the race returns at once, with an error.
	if err := receive(t, results, "second concurrent Run was not refused"); err == nil {
		t.Error("a Run returned nil while the other was active")
	}
	cancel()
	if err := <-results; err != nil {
		t.Errorf("active Run after cancel = %v, want nil", err)
	}
}

// TestUndecodableRecord checks that a corrupt record is moved aside instead
// of blocking or crashing the runner.
func TestUndecodableRecord(t *testing.T) {
	q, db := newQueue(t, localqueue.Options{})
	err := db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(localqueue.JobsBucket)).Put([]byte{0, 0, 0, 0, 0, 0, 0, 0}, []byte("not json"))
	})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	start(t, q, map[string]queue.Handler{"ok": func(_ context.Context, j queue.Job) error { got <- j.ID; return nil }})
	enqueue(t, q, queue.Job{ID: "after-corrupt", Kind: "ok"})
	receive(t, got, "job behind a corrupt record not handled")
	waitFor(t, "the corrupt record to be dead-lettered", func() bool {
		var n int
		_ = db.View(func(tx *bolt.Tx) error { n = tx.Bucket([]byte(localqueue.DeadBucket)).Stats().KeyN; return nil })
		return n == 1
	})
}

// A job whose runs keep taking the process down (simulated: its record says
// it was started MaxAttempts times and never concluded) is dead-lettered
// instead of being run again on every start.
func TestJobThatCrashesTheProcessIsDeadLettered(t *testing.T) {
	q, db := newQueue(t, localqueue.Options{MaxAttempts: 3})
	rec := localqueue.Record{Job: queue.Job{ID: "crasher", Kind: "boom"}, Starts: 3}
	v, _ := json.Marshal(rec)
	if err := db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(localqueue.JobsBucket)).Put([]byte{0, 0, 0, 0, 0, 0, 0, 1}, v)
	}); err != nil {
		t.Fatal(err)
	}
	ran := make(chan struct{}, 1)
	start(t, q, map[string]queue.Handler{"boom": func(context.Context, queue.Job) error { ran <- struct{}{}; return nil }})
	waitFor(t, "the crashing job to be dead-lettered", func() bool { return len(records(t, db, localqueue.DeadBucket)) == 1 })
	select {
	case <-ran:
		t.Fatal("a job that crashed the process MaxAttempts times ran again")
	default:
	}
	if dead := records(t, db, localqueue.DeadBucket)[0]; !strings.Contains(dead.LastError, "without finishing") {
		t.Fatalf("dead record = %+v", dead)
	}
}

// A run that concludes (successfully or not) is not mistaken for a crash.
func TestStartsAreConcludedByOutcomes(t *testing.T) {
	q, db := newQueue(t, localqueue.Options{MaxAttempts: 2})
	fails := 0
	done := make(chan struct{})
	start(t, q, map[string]queue.Handler{"flaky": func(context.Context, queue.Job) error {
		fails++
		if fails == 1 {
			return errors.New("first run fails")
		}
		close(done)
		return nil
	}})
	enqueue(t, q, queue.Job{ID: "f", Kind: "flaky"})
	receive(t, done, "flaky job did not succeed on its second run")
	waitFor(t, "the job to be deleted", func() bool { return len(records(t, db, localqueue.JobsBucket)) == 0 })
	if dead := records(t, db, localqueue.DeadBucket); len(dead) != 0 {
		t.Fatalf("dead-lettered: %+v", dead)
	}
}

// TestRunBatchedRunsAKindsDueJobsTogether: the due jobs of a kind with a
// batch handler run as one batch (those of a Group, and other kinds, one
// by one); a failing batch runs each of its jobs on its own handler, each
// once; nothing is left queued.
func TestRunBatchedRunsAKindsDueJobsTogether(t *testing.T) {
	for _, fail := range []bool{false, true} {
		t.Run(fmt.Sprintf("fail=%v", fail), func(t *testing.T) {
			q, db := newQueue(t, localqueue.Options{})
			ctx := context.Background()
			for i := range 20 {
				if err := q.Enqueue(ctx, queue.Job{ID: fmt.Sprintf("c%02d", i), Kind: "count"}); err != nil {
					t.Fatal(err)
				}
				if i%10 == 0 {
					for _, j := range []queue.Job{{ID: fmt.Sprintf("o%02d", i), Kind: "other"}, {ID: fmt.Sprintf("g%02d", i), Kind: "count", Group: "g"}} {
						if err := q.Enqueue(ctx, j); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			var mu sync.Mutex
			ran := map[string]int{}
			var batches []int
			one := func(ctx context.Context, j queue.Job) error {
				mu.Lock()
				defer mu.Unlock()
				ran[j.ID]++
				return nil
			}
			batch := func(ctx context.Context, jobs []queue.Job) error {
				mu.Lock()
				defer mu.Unlock()
				batches = append(batches, len(jobs))
				for _, j := range jobs {
					if j.Kind != "count" || j.Group != "" {
						t.Errorf("job %s (%s, group %q) in a batch", j.ID, j.Kind, j.Group)
					}
				}
				if fail {
					return errors.New("batch failed")
				}
				for _, j := range jobs {
					ran[j.ID]++
				}
				return nil
			}
			runCtx, cancel := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() {
				done <- q.RunBatched(runCtx, map[string]queue.Handler{"count": one, "other": one}, map[string]queue.BatchHandler{"count": batch})
			}()
			waitFor(t, "every job run", func() bool {
				mu.Lock()
				defer mu.Unlock()
				return len(ran) == 24
			})
			waitFor(t, "the queue empty", func() bool {
				n := -1
				_ = db.View(func(tx *bolt.Tx) error { n = tx.Bucket([]byte(localqueue.JobsBucket)).Stats().KeyN; return nil })
				return n == 0
			})
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			for id, n := range ran {
				if n != 1 {
					t.Errorf("job %s ran %d times", id, n)
				}
			}
			if len(batches) != 1 || batches[0] != 20 {
				t.Errorf("batches of %v jobs, want one of the 20 due count jobs", batches)
			}
		})
	}
}
