// Package soak_test is the soak of issue 30 (docs/faults.md, "The
// soak"): the whole API and its jobs under a mixed concurrent load for a
// while, faults injected where the deployment meets AWS, then every
// acknowledged write looked for, the invariants checked, memory compared
// between the first and the last third of the run.
package soak_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	bolt "go.etcd.io/bbolt"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/app/local"
	"github.com/galleydocs/galley/shared/blob/s3blob"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/queue/localqueue"
	"github.com/galleydocs/galley/shared/store/boltstore"
	"github.com/galleydocs/galley/shared/testenv/faultproxy"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// adminToken is the instance administrator's token of both rigs.
const adminToken = "gly_soak-instance-admin-aBcDeFgHiJkLmNoPqRsTuVwXyZ0123"

// rig is a running Galley the soak loads: its API (served in-process, as
// the local server and the API functions serve it, or by the functions'
// processes behind a loopback API Gateway), its jobs run beside it.
type rig struct {
	name string
	api  *httpapi.API
	// h serves the load when set (the lambda rig's gateway); otherwise
	// api's handler. api's document validates the setup's answers.
	h http.Handler
	// proxy, on the AWS rigs, stands between the services and DynamoDB
	// Local and moto; faults are the rules set during the load.
	proxy  *faultproxy.Proxy
	faults []faultproxy.Rule
	// left, when set, counts the jobs queued and dead-lettered.
	left func(testing.TB) (queued, dead int)
	// during, when set, runs beside the load until it stops (the lambda
	// rig's kills).
	during func(stop time.Time)
	// procRSS, when set, is the resident set of the rig's own processes
	// (the functions'), in MiB.
	procRSS func() float64
	// report, when set, says what the rig did besides the load; kills is
	// the processes it killed.
	report func(testing.TB) string
	kills  int
}

// localRig is local mode itself (local.Open: bbolt, files, the local
// queue, its sweeps and schedule) serving on loopback. It makes no AWS
// call, so no fault is injected into it: it is the fault-free run of the
// same load, and the memory of the whole local server.
func localRig(tb testing.TB) *rig {
	tb.Helper()
	c := app.Config{DataDir: tb.TempDir(), BootstrapToken: adminToken, FetchAllowPrivate: true, LogLevel: slog.LevelError}
	l, err := local.Open(context.Background(), c)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Serve(ctx, ln) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("local server: %v", err)
		}
		_ = l.Close()
	})
	// Its queue is on its store's file: the jobs left can be counted.
	st, ok := l.Deps.Store.(*boltstore.Store)
	if !ok {
		tb.Fatalf("local mode's store is a %T", l.Deps.Store)
	}
	return &rig{name: "local", api: app.NewAPI(c, l.Root, families.All()...),
		left: func(tb testing.TB) (int, int) { return boltJobsLeft(tb, st.DB()) }}
}

// awsRig is every family as the functions assemble them, on DynamoDB
// Local and moto's S3 reached through a fault proxy (the clients'
// retries as deployed: awsretry), its jobs run in-process by local
// mode's queue (on a bbolt file of its own, so the jobs left can be
// counted). Faults: a share of DynamoDB and S3 calls throttled, failing,
// slow, reset, or cut after the store applied them.
func awsRig(tb testing.TB) *rig {
	tb.Helper()
	ctx := context.Background()
	p := faultproxy.New(tb, faultproxy.Upstreams{DynamoDB: testkit.DynamoDBLocal().Endpoint(tb), Moto: testkit.Moto().Endpoint(tb)})
	_, bucket := testkit.MotoBucket(tb)
	s3c := s3.NewFromConfig(p.Via(testkit.Moto().AWSConfig(tb)), func(o *s3.Options) { o.UsePathStyle = true })
	qdb := testkit.BoltStore(tb).DB()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	q, err := localqueue.New(qdb, localqueue.Options{Logger: logger, Backoff: 200 * time.Millisecond})
	if err != nil {
		tb.Fatal(err)
	}
	c := app.Config{FetchAllowPrivate: true}
	d, err := app.NewDeps(ctx, c, deps.Deps{Store: testkit.DynamoStoreAt(tb, p.URL), Blobs: s3blob.New(s3c, bucket, ""), Queue: q, Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	if _, _, err := users.New(d).Bootstrap(ctx, adminToken); err != nil {
		tb.Fatal(err)
	}
	root := families.NewRoot(d)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- q.Run(runCtx, families.JobHandlers(root)) }()
	tb.Cleanup(func() {
		cancel()
		<-done
		root.Close()
	})
	return &rig{name: "aws", api: app.NewAPI(c, root, families.All()...), proxy: p, faults: awsFaults(),
		left: func(tb testing.TB) (int, int) { return boltJobsLeft(tb, qdb) }}
}

// awsFaults are the faults of the AWS rigs during the load: a share of
// DynamoDB and S3 calls throttled, failing, slow, reset, or cut after the
// store applied them (about 5% of DynamoDB calls).
func awsFaults() []faultproxy.Rule {
	writes := []string{"PutItem", "DeleteItem", "UpdateItem", "TransactWriteItems", "BatchWriteItem"}
	return []faultproxy.Rule{
		{Service: faultproxy.DynamoDB, Share: 0.03, Fault: faultproxy.ProvisionedThroughputExceeded},
		{Service: faultproxy.DynamoDB, Share: 0.01, Fault: faultproxy.InternalServerError},
		{Service: faultproxy.DynamoDB, Share: 0.02, Fault: faultproxy.Latency(30 * time.Millisecond)},
		{Service: faultproxy.DynamoDB, Share: 0.005, Fault: faultproxy.Reset},
		{Service: faultproxy.DynamoDB, Ops: writes, Share: 0.01, Fault: faultproxy.DropAnswer},
		{Service: faultproxy.S3, Share: 0.02, Fault: faultproxy.SlowDown},
		{Service: faultproxy.S3, Share: 0.01, Fault: faultproxy.Latency(30 * time.Millisecond)},
		{Service: faultproxy.S3, Share: 0.005, Fault: faultproxy.Reset},
		{Service: faultproxy.S3, Op: "PutObject", Share: 0.01, Fault: faultproxy.DropAnswer},
	}
}

// boltJobsLeft counts the jobs of local mode's queue on db, queued and
// dead-lettered.
func boltJobsLeft(tb testing.TB, db *bolt.DB) (queued, dead int) {
	tb.Helper()
	err := db.View(func(tx *bolt.Tx) error {
		queued, dead = tx.Bucket([]byte(localqueue.JobsBucket)).Stats().KeyN, tx.Bucket([]byte(localqueue.DeadBucket)).Stats().KeyN
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return queued, dead
}

// jobsLeft counts the rig's queued and dead-lettered jobs (0, 0 on a rig
// that cannot count them).
func (r *rig) jobsLeft(tb testing.TB) (queued, dead int) {
	tb.Helper()
	if r.left == nil {
		return 0, 0
	}
	return r.left(tb)
}
