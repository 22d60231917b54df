package faults_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/awsretry"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/testenv/faultproxy"
)

// apiBudget is an API request's budget: API Gateway's HTTP API waits
// 29 s for its function.
const apiBudget = 29 * time.Second

// A store call that cannot get an answer gives up within the request's
// budget: its attempts' timeouts and the waits between them.
func TestAttemptTimeoutsFitTheRequestBudget(t *testing.T) {
	worst := awsretry.MaxAttempts * awsretry.AttemptTimeout
	for n := 1; n < awsretry.MaxAttempts; n++ {
		worst += min(awsretry.BaseDelay<<(n-1), awsretry.MaxDelay)
	}
	// Two such calls (a request that reads, then writes, both hanging)
	// still answer before API Gateway gives up.
	if 2*worst >= apiBudget {
		t.Fatalf("a hung call takes up to %v; two of them pass the request's %v", worst, apiBudget)
	}
}

// DynamoDB calls slower than the per-attempt timeout
// (awsretry.AttemptTimeout), for a family's write:
//   - one write call delayed past it (never reaching the store): the
//     attempt is given up, the retry succeeds, the write answers its
//     success, one record;
//   - one write call applied at once and answered past it: the retry
//     finds the write done (a transaction's token, a put's own item),
//     one record;
//   - every write call delayed past it: 503 with Retry-After after the
//     attempts (never 500, never the Lambda's whole budget), nothing
//     listed; the same write then succeeds once.
func TestFaultsLatencyPastAttemptTimeout(t *testing.T) {
	late := awsretry.AttemptTimeout + 500*time.Millisecond
	for _, name := range []string{"spaces", "comments"} {
		w := writes[name]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, p := apiOn(t, w.family...)
			c := a.As(t, "admin")
			path, list := w.path(a, t), w.path(a, t)
			before := w.count(t, c, list)
			n := 0
			write := func(what string) (int, http.Header) {
				t.Helper()
				start := time.Now()
				res := c.Do(w.method, path, w.body(n))
				t.Logf("%s: %d in %v (DynamoDB calls so far: %d, delayed %d)", what, res.Status, time.Since(start).Round(time.Millisecond),
					p.Calls(faultproxy.DynamoDB, ""), p.Injected(faultproxy.DynamoDB, ""))
				if res.Status >= 500 && res.Status != http.StatusServiceUnavailable {
					t.Fatalf("%s: %d %s", what, res.Status, res.Body)
				}
				return res.Status, res.Header
			}
			for _, f := range []faultproxy.Fault{faultproxy.Latency(late), faultproxy.LateAnswer(late)} {
				was := p.Injected(faultproxy.DynamoDB, "")
				p.Set(faultproxy.Rule{Service: faultproxy.DynamoDB, Ops: dynamoWrites, Count: 1, Fault: f})
				if st, _ := write(f.Name + " once"); st != w.created {
					t.Errorf("%s once: %d, want %d", f.Name, st, w.created)
				}
				if got := p.Injected(faultproxy.DynamoDB, "") - was; got != 1 {
					t.Errorf("%s once: %d calls delayed, want 1", f.Name, got)
				}
				p.Set()
				n++
				if got := w.count(t, c, list); got != before+n {
					t.Errorf("after %s once: %d listed, want %d", f.Name, got, before+n)
				}
			}

			was := p.Injected(faultproxy.DynamoDB, "")
			p.Set(faultproxy.Rule{Service: faultproxy.DynamoDB, Ops: dynamoWrites, Fault: faultproxy.Latency(late)})
			st, h := write("every write late")
			injected := p.Injected(faultproxy.DynamoDB, "") - was
			p.Set()
			if st != http.StatusServiceUnavailable || h.Get("Retry-After") != httpapi.RetryAfterUnavailable {
				t.Errorf("every write late: %d, Retry-After %q; want 503, %s", st, h.Get("Retry-After"), httpapi.RetryAfterUnavailable)
			}
			if injected != awsretry.MaxAttempts {
				t.Errorf("every write late: %d attempts, want %d", injected, awsretry.MaxAttempts)
			}
			if got := w.count(t, c, list); got != before+n {
				t.Errorf("after the 503: %d listed, want %d", got, before+n)
			}
			if st, _ := write("the same write again"); st != w.created {
				t.Errorf("the same write after the 503: %d", st)
			}
			n++
			if got := w.count(t, c, list); got != before+n {
				t.Errorf("after the write again: %d listed, want %d", got, before+n)
			}
		})
	}
}
