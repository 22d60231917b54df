package gitsync_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/galleydocs/galley/shared/app/wire/gitsyncwire"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// fixture is the Git family's API on a kit (testkit.NewAPI), whose jobs
// wait in queue until work runs them, whose log lines (debug included)
// are kept in logs, and a Git server of test repositories on loopback
// (which fetches may reach).
type fixture struct {
	*testkit.API
	svc   *gitsync.Service
	queue *queuetest.Memory
	logs  *testenv.SyncBuffer
	git   *gitServer
}

func setup(t testing.TB) *fixture { return setupOn(t, testkit.New(t)) }

// setupOn builds the fixture on a kit (a storage backend).
func setupOn(t testing.TB, k *testkit.Kit, families ...string) *fixture {
	if len(families) == 0 {
		families = []string{"git"}
	}
	f := &fixture{queue: &queuetest.Memory{}, logs: &testenv.SyncBuffer{}, git: newGitServer(t)}
	k.Deps.Queue = f.queue
	k.Deps.FetchAllowPrivate = true
	k.Deps.Logger = slog.New(slog.NewJSONHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	f.API = testkit.NewAPI(t, k, families)
	f.svc = gitsyncwire.Service(f.Root)
	return f
}

// work runs the queued jobs.
func (f *fixture) work(t testing.TB) {
	t.Helper()
	h := map[string]queue.Handler{gitsync.ImportKind: f.svc.Handle, gitsync.ExportKind: f.svc.Handle}
	if err := f.queue.Drain(context.Background(), h); err != nil {
		t.Fatal(err)
	}
}
