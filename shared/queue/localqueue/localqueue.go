// Package localqueue implements the queue port in-process, for local mode:
// jobs are kept in the bbolt file of the embedded store until a handler has
// run them successfully, so work enqueued before a crash or restart is not
// lost.
//
// Layout: bucket "queue-jobs" maps an 8-byte big-endian sequence number
// (enqueue order) to the JSON of a pending job with its delivery state;
// bucket "queue-dead" holds, under the same key, the jobs that failed
// MaxAttempts times, for inspection.
package localqueue

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/galleydocs/galley/shared/queue"
	bolt "go.etcd.io/bbolt"
)

// Bucket names in the bbolt file.
const (
	JobsBucket = "queue-jobs"
	DeadBucket = "queue-dead"
)

// Defaults of Options.
const (
	DefaultMaxAttempts = 5
	DefaultBackoff     = time.Second
	DefaultMaxBackoff  = 15 * time.Minute
	DefaultBatchWait   = 500 * time.Millisecond
)

// Options tune a Queue. Zero fields take the defaults.
type Options struct {
	// MaxAttempts is how many times a job is run before it is dead-lettered.
	MaxAttempts int
	// Backoff is the delay after a job's first failure; each further failure
	// doubles it, up to MaxBackoff.
	Backoff time.Duration
	// MaxBackoff caps the delay between two attempts.
	MaxBackoff time.Duration
	// Logger receives retries and dead-lettered jobs; slog.Default() if nil.
	Logger *slog.Logger
	// BatchWait holds a job of a kind RunBatched runs by batches that long
	// after it is due, for the jobs enqueued meanwhile to join its batch.
	BatchWait time.Duration
}

// Queue is the local adapter. Enqueue may be called from any goroutine, with
// or without a runner; Run executes the jobs.
type Queue struct {
	db      *bolt.DB
	opts    Options
	wake    chan struct{}
	running atomic.Bool
}

var _ queue.Queue = (*Queue)(nil)

// Record is the stored form of a job, in both buckets.
type Record struct {
	Job queue.Job `json:"job"`
	// Attempts counts the failed runs.
	Attempts int `json:"attempts"`
	// Starts counts the runs begun and not yet concluded: it is written
	// before the handler runs, so a job that takes the whole process down
	// (fatal error, out of memory) is still counted, and is dead-lettered
	// instead of crashing every start.
	Starts int `json:"starts,omitempty"`
	// NotBefore is when the job may run next.
	NotBefore time.Time `json:"notBefore"`
	// LastError is the error of the last failed run.
	LastError string `json:"lastError,omitempty"`
}

// New returns a queue keeping its jobs in db, creating its buckets if
// needed. db stays owned by the caller, who closes it after Run has
// returned.
func New(db *bolt.DB, opts Options) (*Queue, error) {
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = DefaultMaxAttempts
	}
	if opts.Backoff <= 0 {
		opts.Backoff = DefaultBackoff
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = DefaultMaxBackoff
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.BatchWait <= 0 {
		opts.BatchWait = DefaultBatchWait
	}
	err := db.Update(func(tx *bolt.Tx) error {
		for _, name := range []string{JobsBucket, DeadBucket} {
			if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("localqueue: init: %w", err)
	}
	// One pending signal is enough: the runner rescans everything it wakes
	// for, so signals sent while one is pending can be dropped.
	return &Queue{db: db, opts: opts, wake: make(chan struct{}, 1)}, nil
}

// Enqueue implements queue.Queue. The job is durable when Enqueue returns,
// and runs no sooner than its Delay. A job without an ID gets a random one.
func (q *Queue) Enqueue(ctx context.Context, job queue.Job) error {
	if job.Kind == "" {
		return errors.New("localqueue: enqueue: job has no kind")
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("localqueue: enqueue %s: %w", job.Kind, err)
	}
	if job.ID == "" {
		id, err := newID()
		if err != nil {
			return fmt.Errorf("localqueue: enqueue %s: %w", job.Kind, err)
		}
		job.ID = id
	}
	v, err := json.Marshal(Record{Job: job, NotBefore: time.Now().Add(max(job.Delay, 0))})
	if err != nil {
		return fmt.Errorf("localqueue: enqueue %s %s: encode: %w", job.Kind, job.ID, err)
	}
	err = q.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(JobsBucket))
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		return b.Put(seqKey(seq), v)
	})
	if err != nil {
		return fmt.Errorf("localqueue: enqueue %s %s: %w", job.Kind, job.ID, err)
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return nil
}

func seqKey(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

// newID returns 16 random bytes in hex.
func newID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("job id: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Run executes jobs, one at a time in enqueue order among those that are
// due, until ctx is done; it then returns nil. Jobs left by an earlier run
// (a restart) are resumed. Delivery is at least once: a job is deleted only
// after its handler succeeded, so one interrupted by a crash or by ctx runs
// again. A failed job (error, panic, or no handler for its kind) waits with
// exponential backoff and after MaxAttempts failures moves to the dead
// bucket. Run returns an error only if the database fails or another Run of
// this Queue is active.
func (q *Queue) Run(ctx context.Context, handlers map[string]queue.Handler) error {
	return q.RunBatched(ctx, handlers, nil)
}

// MaxBatch is the most jobs RunBatched gives a batch handler at once.
const MaxBatch = 64

// RunBatched is Run, but the due jobs of a kind with a batch handler
// (and no Group: those run in order, one at a time) are run together, up
// to MaxBatch at once, in enqueue order, the first held BatchWait after
// it is due (the jobs enqueued meanwhile join it; a retry is not held): their starts and their removal
// are one transaction each. A batch that fails is not counted against
// its jobs: each then runs on its own handler, as Run runs it (retries,
// dead letters). Local mode runs the insights jobs so (docs/insights.md).
func (q *Queue) RunBatched(ctx context.Context, handlers map[string]queue.Handler, batches map[string]queue.BatchHandler) error {
	// Two runners would deliver each job twice.
	if !q.running.CompareAndSwap(false, true) {
		return errors.New("localqueue: Run is already active on this queue")
	}
	defer q.running.Store(false)

	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		if ctx.Err() != nil {
			return nil
		}
		key, rec, wait, bad, err := q.next(time.Now(), batches)
		if err != nil {
			return err
		}
		if len(bad) > 0 {
			if err := q.bury(bad); err != nil {
				return err
			}
		}
		if key != nil {
			if h := batches[rec.Job.Kind]; h != nil && rec.Job.Group == "" {
				if err := q.processBatch(ctx, handlers, h, key, rec); err != nil {
					return err
				}
				continue
			}
			if err := q.process(ctx, handlers, key, rec); err != nil {
				return err
			}
			continue
		}
		var due <-chan time.Time
		if wait > 0 {
			timer.Reset(wait)
			due = timer.C
		}
		select {
		case <-ctx.Done():
			return nil
		case <-q.wake:
		case <-due:
		}
	}
}

// next returns the first due job in enqueue order or, when none is due, how
// long until the earliest one is (0 when there is no job at all). It also
// returns the keys of records that do not decode.
func (q *Queue) next(now time.Time, batches map[string]queue.BatchHandler) (key []byte, rec Record, wait time.Duration, bad [][]byte, err error) {
	err = q.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(JobsBucket)).Cursor()
		var earliest time.Time
		for k, v := c.First(); k != nil; k, v = c.Next() {
			var r Record
			if err := json.Unmarshal(v, &r); err != nil {
				bad = append(bad, bytes.Clone(k))
				continue
			}
			due := r.NotBefore
			if batches[r.Job.Kind] != nil && r.Job.Group == "" && r.Attempts == 0 {
				due = due.Add(q.opts.BatchWait) // gathering its batch
			}
			if !due.After(now) {
				key, rec = bytes.Clone(k), r
				return nil
			}
			if earliest.IsZero() || due.Before(earliest) {
				earliest = due
			}
		}
		if !earliest.IsZero() {
			wait = max(earliest.Sub(now), time.Millisecond)
		}
		return nil
	})
	if err != nil {
		return nil, Record{}, 0, nil, fmt.Errorf("localqueue: scan jobs: %w", err)
	}
	return key, rec, wait, bad, nil
}

// bury moves records that do not decode to the dead bucket as they are: they
// can never run, and left in place they would be rescanned forever.
func (q *Queue) bury(keys [][]byte) error {
	err := q.db.Update(func(tx *bolt.Tx) error {
		jobs, dead := tx.Bucket([]byte(JobsBucket)), tx.Bucket([]byte(DeadBucket))
		for _, k := range keys {
			if v := jobs.Get(k); v != nil {
				if err := dead.Put(k, bytes.Clone(v)); err != nil {
					return err
				}
			}
			if err := jobs.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("localqueue: dead-letter undecodable records: %w", err)
	}
	for _, k := range keys {
		q.opts.Logger.Error("localqueue: undecodable job record dead-lettered", "key", hex.EncodeToString(k))
	}
	return nil
}

// process runs one job and records the outcome.
func (q *Queue) process(ctx context.Context, handlers map[string]queue.Handler, key []byte, rec Record) error {
	log := q.opts.Logger.With("kind", rec.Job.Kind, "id", rec.Job.ID)
	// Runs begun and never concluded are runs that took the process down.
	crashed := rec.Starts - rec.Attempts
	if crashed >= q.opts.MaxAttempts {
		rec.LastError = fmt.Sprintf("started %d times without finishing (the process stopped during the job)", crashed)
		if err := q.put(DeadBucket, key, rec, true); err != nil {
			return err
		}
		log.Error("localqueue: job dead-lettered", "err", rec.LastError)
		return nil
	}
	rec.Starts++
	if err := q.put(JobsBucket, key, rec, false); err != nil {
		return err
	}
	err := run(ctx, handlers, rec.Job)
	if err != nil && ctx.Err() != nil {
		// Most likely the handler gave up because we are shutting down: not
		// the job's fault, so no attempt is counted. It stays pending and
		// runs on the next start.
		rec.Starts--
		return q.put(JobsBucket, key, rec, false)
	}
	dbErr := q.db.Update(func(tx *bolt.Tx) error {
		jobs := tx.Bucket([]byte(JobsBucket))
		if err == nil {
			return jobs.Delete(key)
		}
		rec.Attempts++
		rec.LastError = err.Error()
		if rec.Attempts >= q.opts.MaxAttempts {
			v, merr := json.Marshal(rec)
			if merr != nil {
				return merr
			}
			if perr := tx.Bucket([]byte(DeadBucket)).Put(key, v); perr != nil {
				return perr
			}
			return jobs.Delete(key)
		}
		rec.NotBefore = time.Now().Add(q.backoff(rec.Attempts))
		v, merr := json.Marshal(rec)
		if merr != nil {
			return merr
		}
		return jobs.Put(key, v)
	})
	if dbErr != nil {
		return fmt.Errorf("localqueue: record outcome of %s %s: %w", rec.Job.Kind, rec.Job.ID, dbErr)
	}
	switch {
	case err == nil:
	case rec.Attempts >= q.opts.MaxAttempts:
		log.Error("localqueue: job dead-lettered", "attempts", rec.Attempts, "err", err)
	default:
		log.Warn("localqueue: job failed, will retry", "attempts", rec.Attempts,
			"retryAt", rec.NotBefore, "err", err)
	}
	return nil
}

// processBatch runs the due jobs of first's kind (without a Group), first
// included, as one batch, and records the outcome: removed when the
// batch handler succeeds; else each runs on its own (process).
func (q *Queue) processBatch(ctx context.Context, handlers map[string]queue.Handler, h queue.BatchHandler, first []byte, rec Record) error {
	if rec.Starts-rec.Attempts >= q.opts.MaxAttempts {
		return q.process(ctx, handlers, first, rec) // dead-lettered there
	}
	var ks [][]byte
	var recs []Record
	err := q.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(JobsBucket)).Cursor()
		now := time.Now()
		for k, v := c.Seek(first); k != nil && len(ks) < MaxBatch; k, v = c.Next() {
			var r Record
			if json.Unmarshal(v, &r) != nil || r.Job.Kind != rec.Job.Kind || r.Job.Group != "" || r.NotBefore.After(now) {
				continue
			}
			// Jobs whose runs took the process down are dead-lettered
			// by process, one by one.
			if r.Starts-r.Attempts >= q.opts.MaxAttempts {
				continue
			}
			ks, recs = append(ks, bytes.Clone(k)), append(recs, r)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("localqueue: scan jobs: %w", err)
	}
	if len(ks) <= 1 {
		return q.process(ctx, handlers, first, rec)
	}
	// Starts as process counts them, in one transaction.
	if err := q.putAll(ks, recs, 1); err != nil {
		return err
	}
	jobs := make([]queue.Job, len(recs))
	for i, r := range recs {
		jobs[i] = r.Job
	}
	err = runBatch(ctx, h, jobs)
	if err == nil {
		return q.db.Update(func(tx *bolt.Tx) error {
			for _, k := range ks {
				if err := tx.Bucket([]byte(JobsBucket)).Delete(k); err != nil {
					return err
				}
			}
			return nil
		})
	}
	// Not the jobs' fault, nor a crash: the starts are taken back.
	if perr := q.putAll(ks, recs, 0); perr != nil {
		return perr
	}
	if ctx.Err() != nil {
		return nil
	}
	q.opts.Logger.Warn("localqueue: batch failed, its jobs run one by one", "kind", rec.Job.Kind, "jobs", len(ks), "err", err)
	for i, k := range ks {
		if err := q.process(ctx, handlers, k, recs[i]); err != nil {
			return err
		}
	}
	return nil
}

// putAll stores records (their Starts plus starts) under their keys in
// the jobs bucket, in one transaction.
func (q *Queue) putAll(ks [][]byte, recs []Record, starts int) error {
	err := q.db.Update(func(tx *bolt.Tx) error {
		for i, k := range ks {
			r := recs[i]
			r.Starts += starts
			v, err := json.Marshal(r)
			if err != nil {
				return err
			}
			if err := tx.Bucket([]byte(JobsBucket)).Put(k, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("localqueue: store %d %s jobs: %w", len(ks), recs[0].Job.Kind, err)
	}
	return nil
}

// put stores rec under key in bucket, removing it from the jobs bucket
// when it moves elsewhere (move).
func (q *Queue) put(bucket string, key []byte, rec Record, move bool) error {
	v, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	err = q.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket([]byte(bucket)).Put(key, v); err != nil {
			return err
		}
		if move {
			return tx.Bucket([]byte(JobsBucket)).Delete(key)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("localqueue: store %s %s: %w", rec.Job.Kind, rec.Job.ID, err)
	}
	return nil
}

// backoff is the delay after the given number of failures: Backoff doubled
// for each failure after the first, capped at MaxBackoff.
func (q *Queue) backoff(failures int) time.Duration {
	d := q.opts.Backoff
	for i := 1; i < failures && d < q.opts.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, q.opts.MaxBackoff)
}

// runBatch calls a batch handler, turning a panic into an error.
func runBatch(ctx context.Context, h queue.BatchHandler, jobs []queue.Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("batch handler panicked: %v\n%s", p, debug.Stack())
		}
	}()
	return h(ctx, jobs)
}

// run calls the job's handler, turning a missing handler or a panic into an
// error so that one bad job cannot stop the runner.
func run(ctx context.Context, handlers map[string]queue.Handler, job queue.Job) (err error) {
	h := handlers[job.Kind]
	if h == nil {
		return fmt.Errorf("no handler for job kind %q", job.Kind)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("handler panicked: %v\n%s", p, debug.Stack())
		}
	}()
	return h(ctx, job)
}
