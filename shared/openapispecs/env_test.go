package openapispecs_test

import (
	"context"
	"testing"

	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// fixture is the OpenAPI family's API on a kit (testkit.NewAPI, and
// "stranger", a user of no organization), whose jobs wait in queue until
// work runs them; fetches may reach loopback (the tests' servers).
type fixture struct {
	*testkit.API
	svc   *openapispecs.Service
	queue *queuetest.Memory
}

func setup(t *testing.T) *fixture { return setupOn(t, testkit.New(t)) }

// setupOn builds the fixture on a kit (a storage backend).
func setupOn(t *testing.T, k *testkit.Kit) *fixture {
	f := &fixture{queue: &queuetest.Memory{}}
	k.Deps.Queue = f.queue
	k.Deps.FetchAllowPrivate = true
	f.API = testkit.NewAPI(t, k, []string{"openapi"})
	f.User("stranger")
	f.svc = openapiwire.Service(f.Root)
	return f
}

func (f *fixture) base() string { return "/v1/orgs/" + f.Org.ID + "/openapi" }

// work runs the queued jobs as the worker would.
func (f *fixture) work(t *testing.T) {
	t.Helper()
	if err := f.queue.Drain(context.Background(), map[string]queue.Handler{openapispecs.JobKind: f.svc.Handle}); err != nil {
		t.Fatal(err)
	}
}
