package openapispecs_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/testenv/faultproxy"
	"github.com/galleydocs/galley/shared/testkit"
)

// sqsFixture is the family on DynamoDB Local whose jobs go through moto's
// SQS and run through sqsqueue.Handler (the worker Lambda's path), with a
// killer on the store and blobs (a worker dying between two steps) and a
// clock that can jump (a lease expiring): testkit.Killable.
type sqsFixture struct {
	*fixture
	testkit.Killable
}

func setupSQS(t *testing.T) *sqsFixture {
	kl := testkit.NewKillable(t, false)
	f := &sqsFixture{fixture: setupOn(t, kl.Kit), Killable: kl}
	kl.Kit.Deps.Queue = kl.SQS.Queue
	return f
}

func (f *sqsFixture) handlers() map[string]queue.Handler {
	return map[string]queue.Handler{openapispecs.JobKind: f.svc.Handle}
}

// spec reads a spec's record as stored (no read of the API's, which may
// hand its job out again).
func (f *sqsFixture) spec(t *testing.T, slug string) model.OpenAPISpec {
	t.Helper()
	sp, _, err := records.Get[model.OpenAPISpec](context.Background(), f.Kit.Deps.Store, keys.OpenAPISpec(f.Org.ID, slug))
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// versions counts a spec's versions as the API lists them.
func (f *sqsFixture) versions(t *testing.T, slug string) int {
	t.Helper()
	var list struct {
		Items []map[string]any `json:"items"`
	}
	f.As(t, "read").Expect(http.StatusOK, "GET", f.base()+"/"+slug+"/versions", nil).JSON(t, &list)
	return len(list.Items)
}

// done checks that the spec's job ended once: complete, one version whose
// content reads, no lease, nothing left in the queue.
func (f *sqsFixture) done(t *testing.T, slug string) {
	t.Helper()
	sp := f.spec(t, slug)
	if sp.ProcessingState != model.OpenAPIComplete || sp.Processed != sp.Generation || sp.Lease != nil || sp.LastProcessErrorCode != "" {
		t.Errorf("%s: state %s, processed %d of %d, lease %v, error %q", slug, sp.ProcessingState, sp.Processed, sp.Generation, sp.Lease, sp.LastProcessErrorCode)
	}
	if n := f.versions(t, slug); n != 1 {
		t.Errorf("%s: %d versions, want 1", slug, n)
	}
	f.As(t, "read").Expect(http.StatusOK, "GET", f.base()+"/"+slug+"/versions/latest/content", nil)
	if n, _ := f.SQS.Deliver(t, f.handlers()); n != 0 {
		t.Errorf("%s: %d messages left in the queue", slug, n)
	}
}

func (f *sqsFixture) create(t *testing.T, slug string) {
	t.Helper()
	f.As(t, "create").Expect(http.StatusCreated, "PUT", f.base()+"/"+slug, map[string]any{"source": map[string]any{"text": petstore}})
}

// The same SQS message delivered twice at once, then a third time, runs
// through the worker's handler: one version, the spec complete once.
func TestSQSDuplicateDeliveryOneVersion(t *testing.T) {
	f := setupSQS(t)
	f.create(t, "pets")
	first, msgs := f.SQS.Receive(t)
	second, again := f.SQS.Receive(t)
	if len(msgs) != 1 || len(again) != 1 || *msgs[0].MessageId != *again[0].MessageId {
		t.Fatalf("received %d then %d messages, want the same one twice", len(msgs), len(again))
	}
	h := sqsqueue.Handler(f.handlers())
	var wg sync.WaitGroup
	for _, ev := range []events.SQSEvent{first, second} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res, err := h(context.Background(), ev); err != nil || len(res.BatchItemFailures) != 0 {
				t.Errorf("delivery: %v %v", res, err)
			}
		}()
	}
	wg.Wait()
	if _, failed := f.SQS.Deliver(t, f.handlers()); len(failed) != 0 {
		t.Fatalf("third delivery failed: %v", failed)
	}
	f.done(t, "pets")
}

// A worker killed between any two steps of the job (each storage call is
// one: the killer refuses the calls after the nth), then the message
// delivered again once the lease expired: the spec ends complete with one
// version; in between, readers see it unprocessed, with no version.
func TestSQSKilledAtEachStepEndsDoneOnce(t *testing.T) {
	f := setupSQS(t)
	for n := 0; ; n++ {
		slug := fmt.Sprint("pets-", n)
		f.create(t, slug)
		f.Killer.Arm(n)
		_, failed := f.SQS.Deliver(t, f.handlers())
		calls, refused := f.Killer.Calls()
		f.Killer.Disarm()
		if refused == 0 {
			// The job needs n calls: it ran whole.
			if len(failed) != 0 || n < 3 {
				t.Fatalf("job of %d calls: failed %v", calls, failed)
			}
			f.done(t, slug)
			t.Logf("the job makes %d storage calls; killed after each of the first %d", calls, n)
			return
		}
		if len(failed) != 1 {
			t.Fatalf("killed after %d calls: %d failures, want 1 (left for delivery again)", n, len(failed))
		}
		if sp := f.spec(t, slug); sp.ProcessingState == model.OpenAPIComplete || f.versions(t, slug) != 0 {
			t.Fatalf("killed after %d calls: readers see %s with %d versions", n, sp.ProcessingState, f.versions(t, slug))
		}
		f.Clock.Jump(openapispecs.LeaseTTL)
		if _, failed := f.SQS.Deliver(t, f.handlers()); len(failed) != 0 {
			t.Fatalf("killed after %d calls, delivered again: failed %v", n, failed)
		}
		f.done(t, slug)
	}
}

// A job lost (its message dropped: past the dead-letter queue's
// redeliveries, or never sent) is handed out again by the first read after
// its lease expired, so the spec never stays pending or in progress.
func TestLostJobHandedOutAgainAfterLease(t *testing.T) {
	f := setupSQS(t)
	for _, killedAt := range []int{-1, 1, 3} {
		slug := fmt.Sprint("lost-", killedAt+1)
		f.create(t, slug)
		if killedAt >= 0 {
			f.Killer.Arm(killedAt)
			f.SQS.Deliver(t, f.handlers())
			f.Killer.Disarm()
		}
		f.SQS.Purge(t)
		before := f.spec(t, slug).ProcessingState
		f.As(t, "read").Expect(http.StatusOK, "GET", f.base()+"/"+slug, nil)
		if n, _ := f.SQS.Deliver(t, f.handlers()); n != 0 {
			t.Fatalf("%s: a read within the lease sent %d jobs", slug, n)
		}
		f.Clock.Jump(openapispecs.LeaseTTL)
		got := f.As(t, "read").Expect(http.StatusOK, "GET", f.base()+"/"+slug, nil).Map(t)
		if got["processingState"] != model.OpenAPIPending {
			t.Errorf("%s (%s when lost): read after the lease: %v, want pending", slug, before, got["processingState"])
		}
		if n, failed := f.SQS.Deliver(t, f.handlers()); n != 1 || len(failed) != 0 {
			t.Fatalf("%s: read after the lease sent %d jobs (%v failed), want 1", slug, n, failed)
		}
		f.done(t, slug)
	}
}

// Creating a spec whose job cannot be enqueued (SQS throttling through
// every retry) answers 503 after the spec was written; the client's
// repeated POST (same body, same user) answers 201 and enqueues the job.
// Another body, or another user, or the same POST once the spec was
// processed, still gets 409.
func TestPostAgainAfterEnqueueFailed(t *testing.T) {
	f := setupSQS(t)
	p := faultproxy.New(t, faultproxy.Upstreams{Moto: testkit.Moto().Endpoint(t)})
	f.Kit.Deps.Queue = sqsqueue.New(sqs.NewFromConfig(p.Via(testkit.Moto().AWSConfig(t))), f.SQS.URL)
	body := map[string]any{"slug": "pets", "source": map[string]any{"text": petstore}}
	c := f.As(t, "create")
	p.Set(faultproxy.Rule{Service: faultproxy.SQS, Op: "SendMessage", Fault: faultproxy.SQSThrottling})
	c.Expect(http.StatusServiceUnavailable, "POST", f.base(), body)
	p.Set()
	if sp := f.spec(t, "pets"); sp.ProcessingState != model.OpenAPIPending {
		t.Fatalf("after the 503: %s", sp.ProcessingState)
	}
	if n, _ := f.SQS.Deliver(t, f.handlers()); n != 0 {
		t.Fatalf("%d jobs enqueued by the failed POST", n)
	}
	c.Expect(http.StatusConflict, "POST", f.base(), map[string]any{"slug": "pets", "source": map[string]any{"text": petstore + "\n# other\n"}})
	f.As(t, "admin").Expect(http.StatusConflict, "POST", f.base(), body)
	if got := c.Expect(http.StatusCreated, "POST", f.base(), body).Map(t); got["processingState"] != model.OpenAPIPending {
		t.Errorf("POST again: %v", got)
	}
	if n, failed := f.SQS.Deliver(t, f.handlers()); n != 1 || len(failed) != 0 {
		t.Fatalf("POST again enqueued %d jobs (%v failed), want 1", n, failed)
	}
	f.done(t, "pets")
	// Once processed, a POST of the slug is refused as before.
	c.Expect(http.StatusConflict, "POST", f.base(), body)
}
