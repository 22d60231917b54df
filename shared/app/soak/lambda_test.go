package soak_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/testenv/faultproxy"
	"github.com/galleydocs/galley/shared/testenv/lambdarun"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

// The lambda rig's timings. The API functions' timeout is the template's
// (29 s). The workers' is shortened from the template's (300 s for the
// Git worker) to 10 s, and so is the queues' visibility timeout (1800 s
// for Git jobs): a job whose process was killed is seen again 10 s after
// it was received instead of half an hour; a whole Git job takes well
// under a second.
const (
	apiTimeout     = 29 * time.Second
	workerTimeout  = 10 * time.Second
	visibility     = 10 * time.Second
	maxReceives    = 5 // the template's dead-letter queues' maxReceiveCount
	apiConcurrency = 3 // processes of one function at once (the load has 5 clients)
)

// lambdaRig is the deployment's processes: every function's binary (as
// the process tests build it) run as Lambda runs it, AWS_ENDPOINT_URL at
// the fault proxy before DynamoDB Local and moto (S3, SQS); the load sent
// through a loopback API Gateway (routes of the template, events of
// payload 2.0); the queues' messages delivered to the workers' processes
// by Lambda's event source mapping (batches, ReportBatchItemFailures,
// redelivery after the visibility timeout). The faults are the aws rig's,
// SQS's calls passing the same proxy unharmed; and every 0.5–2 s during
// the load one function's process is SIGKILLed (one handling an
// invocation, when any is: an API request or a job cut at a random
// point), the next invocation starting a new one, as Lambda does.
func lambdaRig(tb testing.TB) *rig {
	tb.Helper()
	ctx := context.Background()
	bins := testkit.FunctionBinaries(tb)
	p := faultproxy.New(tb, faultproxy.Upstreams{DynamoDB: testkit.DynamoDBLocal().Endpoint(tb), Moto: testkit.Moto().Endpoint(tb)})
	st := testkit.DynamoStore(tb)
	_, bucket := testkit.MotoBucket(tb)
	d, err := app.NewDeps(ctx, app.Config{}, deps.Deps{Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		tb.Fatal(err)
	}
	if _, _, err := users.New(d).Bootstrap(ctx, adminToken); err != nil {
		tb.Fatal(err)
	}
	env := []string{"BUCKET_NAME=" + bucket, "FETCH_ALLOW_PRIVATE=1",
		// The load is one caller: no per-caller limit (the template's
		// defaults allow 30 Git jobs a minute).
		"RATE_LIMIT_EXPENSIVE_PER_MINUTE=0", "RATE_LIMIT_EXPENSIVE_BURST=0"}
	queues, queueURLs := map[string]*testkit.SQSWorker{}, map[string]string{}
	for _, w := range app.Workers() {
		q := testkit.NewSQSWorker(tb, w.FIFO)
		queues[w.Name], queueURLs[w.QueueEnv] = q, q.URL
	}
	// A function gets the queues its variables in template.yaml name
	// (a function that links no SQS client refuses to start with one).
	command := func(name, function string) func(string) *exec.Cmd {
		fenv := slices.Clone(env)
		for _, v := range lambdarun.TemplateVariables(tb, function) {
			if u, ok := queueURLs[v]; ok {
				fenv = append(fenv, v+"="+u)
			}
		}
		return func(runtimeAddr string) *exec.Cmd {
			return lambdarun.Command(filepath.Join(bins, name), runtimeAddr, p.URL, st.Table(), fenv...)
		}
	}
	fns := map[string]*lambdarun.Function{}
	for _, f := range families.All() {
		fns[f.Name] = lambdarun.NewFunction(tb, f.Name, apiTimeout, apiConcurrency, command(f.Name, f.Function))
	}
	runCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var sources []*lambdarun.EventSource
	for _, w := range app.Workers() {
		fn := lambdarun.NewFunction(tb, w.Name, workerTimeout, 2, command(w.Name, w.Function))
		fns[w.Name] = fn
		batch := int32(5)
		if w.FIFO {
			batch = 1
		}
		es := &lambdarun.EventSource{SQS: queues[w.Name].Client, QueueURL: queues[w.Name].URL, Function: fn,
			Batch: batch, Visibility: visibility, MaxReceives: maxReceives}
		sources = append(sources, es)
		wg.Add(1)
		go func() { defer wg.Done(); es.Run(runCtx) }()
	}
	// Registered after the functions': runs before their processes end.
	tb.Cleanup(func() { cancel(); wg.Wait() })
	gw := lambdarun.NewGateway(fns)
	r := &rig{name: "lambda", api: app.NewAPI(app.Config{}, families.NewRoot(d), families.All()...), h: gw, proxy: p, faults: awsFaults()}
	r.left = func(tb testing.TB) (queued, dead int) {
		for _, q := range queues {
			n, err := lambdarun.QueueDepth(ctx, q.Client, q.URL)
			if err != nil {
				tb.Fatal(err)
			}
			queued += n
		}
		for _, es := range sources {
			_, _, _, dd := es.Counts()
			dead += dd
		}
		return queued, dead
	}
	var killsMu sync.Mutex
	kills := map[string]int{}
	r.during = func(stop time.Time) {
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 5))
		for {
			time.Sleep(500*time.Millisecond + time.Duration(rng.Int64N(int64(1500*time.Millisecond))))
			if time.Now().After(stop) {
				return
			}
			// A process at work (an invocation's), else any running.
			var running, busy []string
			for name, fn := range fns {
				if fn.Busy() > 0 {
					busy = append(busy, name)
				}
				if len(fn.Pids()) > 0 {
					running = append(running, name)
				}
			}
			if len(busy) > 0 {
				running = busy
			}
			sort.Strings(running)
			if len(running) == 0 {
				continue
			}
			name := running[rng.IntN(len(running))]
			if fns[name].Kill(rng) {
				killsMu.Lock()
				kills[name]++
				killsMu.Unlock()
			}
		}
	}
	r.procRSS = func() float64 {
		sum := 0.0
		for _, fn := range fns {
			for _, pid := range fn.Pids() {
				sum += rssOf(fmt.Sprintf("/proc/%d/status", pid))
			}
		}
		return sum
	}
	r.report = func(tb testing.TB) string {
		started, total := 0, 0
		var killed []string
		killsMu.Lock()
		for name, n := range kills {
			killed = append(killed, fmt.Sprintf("%s×%d", name, n))
			total += n
		}
		killsMu.Unlock()
		sort.Strings(killed)
		for _, fn := range fns {
			s, _ := fn.Counts()
			started += s
		}
		var jobs []string
		for i, es := range sources {
			inv, failed, again, dead := es.Counts()
			jobs = append(jobs, fmt.Sprintf("%s: %d invocations, %d messages failed, %d received again, %d dead", app.Workers()[i].Name, inv, failed, again, dead))
		}
		r.kills = total
		return fmt.Sprintf("%d processes started, %d SIGKILLed (%s), %d requests answered 500 by a killed process; %s",
			started, total, strings.Join(killed, " "), gw.Killed(), strings.Join(jobs, "; "))
	}
	return r
}
