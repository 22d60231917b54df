// Package local is Galley on one machine: every family on one listener,
// the embedded store (bbolt), blobs on disk, and the workers in-process.
package local

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/app/wire/auditwire"
	"github.com/galleydocs/galley/shared/blob/fsblob"
	"github.com/galleydocs/galley/shared/cdn/cloudfrontcdn"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/idempotency"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/localqueue"
	"github.com/galleydocs/galley/shared/store/boltstore"
	"github.com/galleydocs/galley/shared/users"
)

// Local is the whole service on one machine: every family on one listener,
// the embedded store, blobs on disk, and the workers in-process.
type Local struct {
	Config app.Config
	Deps   *deps.Deps
	// Root holds every family's services, each built once.
	Root    *app.Root
	Handler http.Handler
	workers map[string]queue.Handler
	// batches: the kinds the queue runs by batches (the insights jobs).
	batches map[string]queue.BatchHandler
	store   *boltstore.Store
	queue   *localqueue.Queue
	logs    *logBuffer
}

// localGCPercent is the garbage collector's target in local mode, unless
// GOGC is set. The embedded store's data lives in bbolt's memory map,
// outside the Go heap, which stays a few megabytes: at the default (100)
// the collector ran every few hundred requests and took a quarter of a
// read's CPU time. At 400 the heap may grow to five times what is live
// (tens of megabytes) between collections.
const localGCPercent = 400

// Open opens the data directory and assembles the service. It creates
// the instance administrator on the first start (see Bootstrap), and sets
// the collector's target to localGCPercent unless GOGC is set.
func Open(ctx context.Context, c app.Config) (*Local, error) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(localGCPercent)
	}
	if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	st, err := boltstore.Open(filepath.Join(c.DataDir, "galley.db"))
	if err != nil {
		return nil, err
	}
	blobs, err := fsblob.New(filepath.Join(c.DataDir, "blobs"))
	if err != nil {
		st.Close()
		return nil, err
	}
	logs := newLogBuffer(os.Stderr)
	logger := c.LoggerTo(logs)
	q, err := localqueue.New(st.DB(), localqueue.Options{Logger: logger})
	if err != nil {
		st.Close()
		return nil, err
	}
	d := deps.Deps{Store: st, Blobs: blobs, Queue: q, Logger: logger}
	if c.CDNDistribution != "" {
		// A CDN in front of a local server (docs/reader.md, "CDN"): its
		// credentials and region from the environment, as in AWS.
		awsCfg, err := app.EnvAWSConfig()
		if err != nil {
			st.Close()
			return nil, fmt.Errorf("CDN_DISTRIBUTION_ID: %w", err)
		}
		d.CDN = cloudfrontcdn.Connect(awsCfg, c.CDNDistribution)
	}
	dp, err := app.NewDeps(ctx, c, d)
	if err != nil {
		st.Close()
		return nil, err
	}
	root := families.NewRoot(dp)
	l := &Local{Config: c, Deps: dp, Root: root, store: st, queue: q, logs: logs, Handler: app.NewAPI(c, root, families.All()...).Handler(),
		workers: families.JobHandlers(root), batches: families.BatchHandlers(root)}
	if err := l.bootstrap(ctx); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// bootstrap creates the instance administrator when none exists: with
// BOOTSTRAP_TOKEN when set, else with a new token printed once and written
// to $DATA_DIR/admin-token.
func (l *Local) bootstrap(ctx context.Context) error {
	created, token, err := app.Users(l.Root).Bootstrap(ctx, l.Config.BootstrapToken)
	if err != nil || !created {
		return err
	}
	if l.Config.BootstrapToken != "" {
		l.Deps.Logger.Info("created the instance administrator with BOOTSTRAP_TOKEN", "email", users.AdminEmail)
		return nil
	}
	path := filepath.Join(l.Config.DataDir, "admin-token")
	if err := os.WriteFile(path, []byte(token+"\n"), 0o600); err != nil {
		return fmt.Errorf("write admin token: %w", err)
	}
	fmt.Fprintf(os.Stderr, "\nInstance administrator %s created. Its API token (also in %s):\n\n    %s\n\n", users.AdminEmail, path, token)
	return nil
}

// Workers are the job handlers run in-process, by kind: every worker's.
func (l *Local) Workers() map[string]queue.Handler { return l.workers }

// Serve listens on ln until ctx ends, running the workers beside it.
func (l *Local) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: l.Handler, ReadHeaderTimeout: 10 * time.Second}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := make(chan error, 1)
	go func() { workers <- l.queue.RunBatched(ctx, l.Workers(), l.batches) }()
	go l.schedule(ctx, PollTick)
	go l.sweep(ctx, "the audit log", auditwire.Service(l.Root), AuditSweepTick)
	go l.sweep(ctx, "idempotent answers", idempotency.New(l.Deps.Store, l.Deps.Clock), AuditSweepTick)
	go func() {
		<-ctx.Done()
		shutdown, done := context.WithTimeout(context.Background(), 10*time.Second)
		defer done()
		_ = srv.Shutdown(shutdown)
	}()
	// Errors net/http answers itself (malformed requests) in the API's shape.
	err := srv.Serve(httpapi.JSONErrors(ln))
	cancel()
	if werr := <-workers; werr != nil && !errors.Is(werr, context.Canceled) {
		return werr
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// PollTick is how often the local worker loop queues Git Sync's poll job
// (gitsync.PollKind), which looks at the branches whose interval passed:
// the EventBridge schedule of template.yaml does the same in AWS.
const PollTick = time.Minute

// schedule queues the scheduled jobs every tick until ctx ends.
func (l *Local) schedule(ctx context.Context, tick time.Duration) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			job := queue.Job{ID: ids.New(l.Deps.Clock()), Kind: gitsync.PollKind, Group: gitsync.PollKind, Payload: []byte(`{}`)}
			if err := l.queue.Enqueue(ctx, job); err != nil && ctx.Err() == nil {
				l.Deps.Logger.Warn("queue the Git poll job", "err", err.Error())
			}
		}
	}
}

// AuditSweepTick is how often local mode deletes the audit events whose
// retention ended, and the idempotent answers past their 24 hours (in AWS,
// DynamoDB's TTL does; docs/audit.md, docs/faults.md). It also sweeps once
// at start.
const AuditSweepTick = time.Hour

// sweeper deletes expired records (audit.Service, idempotency.Store).
type sweeper interface {
	Sweep(ctx context.Context) (int, error)
}

// sweep runs s now and every tick until ctx ends.
func (l *Local) sweep(ctx context.Context, what string, s sweeper, tick time.Duration) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		if n, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			l.Deps.Logger.Warn("sweep "+what, "err", err.Error())
		} else if n > 0 {
			l.Deps.Logger.Info("swept "+what, "deleted", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Close closes the services (search's index directories), the store, and
// writes out the last log lines.
func (l *Local) Close() error {
	l.Root.Close()
	err := l.store.Close()
	if ferr := l.logs.Flush(); err == nil {
		err = ferr
	}
	return err
}
