package webhooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/app/wire/webhookswire"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/localqueue"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/webhooks"
)

const secret = "whsec-0123456789abcdef"

// receiver is an endpoint on loopback that checks every delivery's
// signature, answering fail statuses first, then 204.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	fail     []int // statuses of the first answers
	got      []delivery
	badSigns int
}

type delivery struct {
	id, event string
	body      map[string]any
	status    int
}

func newReceiver(t *testing.T, fail ...int) *receiver {
	r := &receiver{fail: fail}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		raw, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		// The kit's clock is 2026-01-02: the signature's time is checked
		// against it.
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		if err := webhooks.Verify(secret, req.Header.Get(webhooks.SignatureHeader), raw, now, time.Hour); err != nil {
			r.badSigns++
		}
		if webhooks.Verify("another-secret-of-16", req.Header.Get(webhooks.SignatureHeader), raw, now, time.Hour) == nil {
			r.badSigns++ // a signature any key verifies proves nothing
		}
		status := http.StatusNoContent
		if len(r.got) < len(r.fail) {
			status = r.fail[len(r.got)]
		}
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		r.got = append(r.got, delivery{id: req.Header.Get(webhooks.DeliveryHeader), event: req.Header.Get(webhooks.EventHeader), body: body, status: status})
		w.WriteHeader(status)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// fixture is the organizations family's API (which serves webhooks) and
// the families whose events they send, on a kit whose queue the test
// drains, loopback endpoints allowed.
type fixture struct {
	*testkit.API
	q        *queuetest.Memory
	handlers map[string]queue.Handler
}

func setupOn(t *testing.T, k *testkit.Kit) *fixture {
	q := &queuetest.Memory{}
	k.Deps.Queue, k.Deps.FetchAllowPrivate = q, true
	a := testkit.NewAPI(t, k, []string{"orgs", "sites", "changerequests"})
	return &fixture{API: a, q: q, handlers: families.JobHandlers(a.Root)}
}

func setup(t *testing.T) *fixture { return setupOn(t, testkit.New(t)) }

func (f *fixture) base() string { return "/v1/orgs/" + f.Org.ID + "/webhooks" }

func (f *fixture) hook(t *testing.T, url string, events ...string) map[string]any {
	t.Helper()
	return f.As(t, "admin").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"url": url, "secret": secret, "events": events}).Map(t)
}

func (f *fixture) drain(t *testing.T) {
	t.Helper()
	if err := f.q.Drain(f.Kit.Ctx, f.handlers); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) deliveries(t *testing.T, hookID string) []map[string]any {
	t.Helper()
	items, _ := testkit.Pages(t, f.As(t, "admin"), f.base()+"/"+hookID+"/deliveries", 50)
	return items
}

func TestEveryDeliveryIsSignedAndCarriesGitBooksShape(t *testing.T) {
	f := setup(t)
	rcv := newReceiver(t)
	h := f.hook(t, rcv.URL+"/hook", webhooks.SitePublished, webhooks.SpaceContentUpdated, webhooks.ChangeRequestMerged, webhooks.ChangeRequestOpened)
	if _, ok := h["secret"]; ok {
		t.Errorf("the secret is answered: %v", h)
	}
	id := h["id"].(string)
	admin := f.As(t, "admin")
	admin.Expect(http.StatusAccepted, "POST", f.base()+"/"+id+"/ping", nil)
	site := "/v1/orgs/" + f.Org.ID + "/sites/" + f.Site(t)
	admin.Expect(http.StatusOK, "POST", site+"/publish", nil)
	admin.Expect(http.StatusOK, "POST", site+"/publish", nil) // already published: no event
	sp := "/v1/spaces/" + f.Space(t)
	cr := admin.Expect(http.StatusCreated, "POST", sp+"/change-requests", map[string]any{"subject": "Typos"}).Map(t)["id"].(string)
	admin.Expect(http.StatusOK, "PATCH", sp+"/change-requests/"+cr, map[string]any{"status": "open"})
	admin.Expect(http.StatusOK, "POST", sp+"/change-requests/"+cr+"/merge", nil)
	f.drain(t)

	got := rcv.deliveries()
	var events []string
	for _, d := range got {
		events = append(events, d.event)
		if d.body["type"] != d.event || d.body["installationId"] != id || d.body["eventId"] == "" {
			t.Errorf("%s: body %v", d.event, d.body)
		}
	}
	want := "ping site_published change_request_opened space_content_updated change_request_merged"
	if strings.Join(events, " ") != want {
		t.Errorf("events %v, want %s", events, want)
	}
	if rcv.badSigns != 0 {
		t.Errorf("%d signatures did not verify as they should", rcv.badSigns)
	}
	for _, d := range got {
		switch d.event {
		case webhooks.SpaceContentUpdated:
			by, _ := d.body["updatedBy"].([]any)
			if d.body["spaceId"] != f.Space(t) || d.body["revisionId"] == "" || len(by) != 1 || by[0].(map[string]any)["id"] != f.Users["admin"].ID {
				t.Errorf("space_content_updated: %v", d.body)
			}
		case webhooks.SitePublished:
			if d.body["siteId"] != f.Site(t) {
				t.Errorf("site_published: %v", d.body)
			}
		case webhooks.ChangeRequestMerged:
			if d.body["changeRequestId"] != cr || d.body["number"] != 1.0 {
				t.Errorf("change_request_merged: %v", d.body)
			}
		}
	}
	for _, d := range f.deliveries(t, id) {
		if d["status"] != "succeeded" || d["attempts"] != 1.0 || d["lastResponseCode"] != 204.0 {
			t.Errorf("delivery %v", d)
		}
	}
}

func TestFailingTwiceThenSucceedingIsDeliveredOnceInThreeAttempts(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		rcv := newReceiver(t, http.StatusInternalServerError, http.StatusServiceUnavailable)
		id := f.hook(t, rcv.URL, webhooks.SitePublished)["id"].(string)
		f.As(t, "admin").Expect(http.StatusOK, "POST", "/v1/orgs/"+f.Org.ID+"/sites/"+f.Site(t)+"/publish", nil)
		var jobs []queue.Job
		// Each attempt's job is kept, and run again after the next: a
		// message SQS delivers twice.
		for {
			taken := f.q.Take()
			if len(taken) == 0 {
				break
			}
			for _, j := range taken {
				jobs = append(jobs, j)
				for _, again := range []queue.Job{j, j} {
					if err := f.handlers[again.Kind](f.Kit.Ctx, again); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		for _, j := range jobs {
			if err := f.handlers[j.Kind](f.Kit.Ctx, j); err != nil {
				t.Fatal(err)
			}
		}
		f.drain(t)
		got := rcv.deliveries()
		ok := 0
		for _, d := range got {
			if d.status < 300 {
				ok++
			}
		}
		if len(got) != 3 || ok != 1 || got[0].id != got[2].id {
			t.Errorf("receiver got %d posts, %d successful, want 3 of one delivery and 1", len(got), ok)
		}
		ds := f.deliveries(t, id)
		if len(ds) != 1 || ds[0]["status"] != "succeeded" || ds[0]["attempts"] != 3.0 || ds[0]["lastResponseCode"] != 204.0 {
			t.Errorf("deliveries %v", ds)
		}
	})
}

func TestAlwaysFailingEndsDeadInTheAPI(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		fails := make([]int, 20)
		for i := range fails {
			fails[i] = http.StatusBadGateway
		}
		rcv := newReceiver(t, fails...)
		id := f.hook(t, rcv.URL, webhooks.SitePublished)["id"].(string)
		f.As(t, "admin").Expect(http.StatusAccepted, "POST", f.base()+"/"+id+"/ping", nil)
		f.drain(t)
		attempts := webhooks.DefaultPolicy().Attempts
		ds := f.deliveries(t, id)
		if len(ds) != 1 || ds[0]["status"] != "dead" || ds[0]["attempts"] != float64(attempts) || ds[0]["lastResponseCode"] != 502.0 {
			t.Fatalf("deliveries %v, want one dead after %d attempts", ds, attempts)
		}
		if n := len(rcv.deliveries()); n != attempts {
			t.Errorf("receiver got %d posts, want %d", n, attempts)
		}
		// A redelivery is a new delivery of the same event, with attempts
		// of its own.
		again := f.As(t, "admin").Expect(http.StatusAccepted, "POST", f.base()+"/"+id+"/deliveries/"+ds[0]["id"].(string)+"/redeliver", nil).Map(t)
		if again["redeliveryOf"] != ds[0]["id"] || again["eventId"] != ds[0]["eventId"] || again["status"] != "pending" {
			t.Errorf("redelivery %v", again)
		}
	})
}

// The local queue runs the same policy: the retries wait their backoff
// (made short here) as the queue's delay.
func TestLocalQueueRetriesWithTheBackoff(t *testing.T) {
	st := testkit.BoltStore(t)
	k := testkit.NewOn(t, st)
	lq, err := localqueue.New(st.DB(), localqueue.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k.Deps.Queue, k.Deps.FetchAllowPrivate = lq, true
	a := testkit.NewAPI(t, k, []string{"orgs"})
	s := webhooks.New(k.Deps, webhooks.Policy{Attempts: 4, Backoff: 20 * time.Millisecond, MaxBackoff: 40 * time.Millisecond})
	rcv := newReceiver(t, 500, 500)
	ctx := access.WithCaller(k.Ctx, a.Caller("admin"))
	w, err := s.Create(ctx, a.Org.ID, webhooks.Create{URL: rcv.URL, Secret: secret, Events: []string{webhooks.SitePublished}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s.Emit(ctx, model.Event{Type: webhooks.SitePublished, OrgID: a.Org.ID, Fields: map[string]any{"siteId": "s1"}})
	run, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- lq.Run(run, s.Handlers()) }()
	var d model.WebhookDelivery
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		p, err := s.Deliveries(ctx, a.Org.ID, w.ID, paging.Request{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) == 1 && p.Items[0].Status == model.DeliverySucceeded {
			d = p.Items[0]
			break
		}
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if d.Status != model.DeliverySucceeded || d.Attempts != 3 {
		t.Fatalf("delivery %+v, want succeeded at the third attempt", d)
	}
	// The two waits (20 ms, then 40 ms) were kept: a lower bound, never
	// an upper one.
	if took := time.Since(start); took < 60*time.Millisecond {
		t.Errorf("three attempts in %s: the backoff was not waited", took)
	}
	if _, _, err := records.Get[model.WebhookDelivery](k.Ctx, k.Deps.Store, keys.WebhookDelivery(w.ID, d.ID)); err != nil {
		t.Error(err)
	}
}

func TestPrivateAddressesAreRefusedUnlessAllowed(t *testing.T) {
	k := testkit.New(t)
	a := testkit.NewAPI(t, k, []string{"orgs"})
	base := "/v1/orgs/" + a.Org.ID + "/webhooks"
	body := func(url string) map[string]any {
		return map[string]any{"url": url, "secret": secret, "events": []string{"site_published"}}
	}
	admin := a.Tokens["admin"]
	a.Check(t, []testkit.Case{
		{"400Loopback", admin, "POST", base, body("http://127.0.0.1:8080/hook"), 400, "url"},
		{"400LoopbackV6", admin, "POST", base, body("http://[::1]/hook"), 400, "url"},
		{"400Private", admin, "POST", base, body("https://10.1.2.3/hook"), 400, "url"},
		{"400Metadata", admin, "POST", base, body("http://169.254.169.254/latest"), 400, "url"},
		{"400Localhost", admin, "POST", base, body("http://localhost:9000/"), 400, "url"},
		{"400MappedLoopback", admin, "POST", base, body("http://[::ffff:127.0.0.1]/"), 400, "url"},
	})

	allowed := testkit.New(t)
	allowed.Deps.FetchAllowPrivate = true
	b := testkit.NewAPI(t, allowed, []string{"orgs"})
	b.As(t, "admin").Expect(http.StatusCreated, "POST", "/v1/orgs/"+b.Org.ID+"/webhooks", body("http://127.0.0.1:8080/hook"))
}

func TestDeliveryToARefusedAddressEndsDead(t *testing.T) {
	k := testkit.New(t)
	k.Deps.FetchAllowPrivate = true // lets the endpoint be registered
	a := testkit.NewAPI(t, k, []string{"orgs"})
	rcv := newReceiver(t)
	ctx := access.WithCaller(k.Ctx, a.Caller("admin"))
	w, err := webhookswire.Service(a.Root).Create(ctx, a.Org.ID, webhooks.Create{URL: rcv.URL, Secret: secret, Events: []string{"site_published"}})
	if err != nil {
		t.Fatal(err)
	}
	k.Deps.FetchAllowPrivate = false // the delivering process does not allow it
	s := webhooks.New(k.Deps, webhooks.Policy{})
	d, err := s.SendPing(ctx, a.Org.ID, w.ID) // no queue: attempted at once
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := records.Get[model.WebhookDelivery](k.Ctx, k.Deps.Store, keys.WebhookDelivery(w.ID, d.ID))
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != model.DeliveryDead || got.Attempts != 1 || !strings.Contains(got.LastError, "not public") {
		t.Errorf("delivery %+v, want dead at once (the address is refused)", got)
	}
	if n := len(rcv.deliveries()); n != 0 {
		t.Errorf("the receiver was reached %d times", n)
	}
}

func TestOperationsRefuseWhoMayNotAndWhatIsWrong(t *testing.T) {
	f := setup(t)
	rcv := newReceiver(t)
	id := f.hook(t, rcv.URL, webhooks.SitePublished)["id"].(string)
	f.As(t, "admin").Expect(http.StatusAccepted, "POST", f.base()+"/"+id+"/ping", nil)
	f.drain(t)
	dl := f.deliveries(t, id)[0]["id"].(string)
	one := f.base() + "/" + id
	ok := map[string]any{"url": rcv.URL, "secret": secret, "events": []string{"site_published"}}
	ops := []struct {
		name, method, path string
		body               any
	}{
		{"List", "GET", f.base(), nil},
		{"Create", "POST", f.base(), ok},
		{"Get", "GET", one, nil},
		{"Update", "PATCH", one, map[string]any{"enabled": false}},
		{"Delete", "DELETE", one, nil},
		{"Deliveries", "GET", one + "/deliveries", nil},
		{"Redeliver", "POST", one + "/deliveries/" + dl + "/redeliver", nil},
		{"Ping", "POST", one + "/ping", nil},
	}
	var cases []testkit.Case
	for _, op := range ops {
		cases = append(cases,
			testkit.Case{"401NoToken" + op.name, "", op.method, op.path, op.body, 401, ""},
			testkit.Case{"403Create" + op.name, f.Tokens["create"], op.method, op.path, op.body, 403, ""},
			testkit.Case{"403Reader" + op.name, f.Tokens["read"], op.method, op.path, op.body, 403, ""},
			testkit.Case{"404Outsider" + op.name, f.Tokens[testkit.Outsider], op.method, op.path, op.body, 404, ""})
	}
	admin := f.Tokens["admin"]
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for kk, vv := range ok {
			m[kk] = vv
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	cases = append(cases,
		testkit.Case{"400URLMissing", admin, "POST", f.base(), with("url", nil), 400, "url"},
		testkit.Case{"400URLNotHTTP", admin, "POST", f.base(), with("url", "ftp://example.com/x"), 400, "url"},
		testkit.Case{"400URLWithCredentials", admin, "POST", f.base(), with("url", "https://u:p@example.com/x"), 400, "url"},
		testkit.Case{"400SecretMissing", admin, "POST", f.base(), with("secret", nil), 400, "secret"},
		testkit.Case{"400SecretShort", admin, "POST", f.base(), with("secret", "short"), 400, "secret"},
		testkit.Case{"400EventsMissing", admin, "POST", f.base(), with("events", nil), 400, "events"},
		testkit.Case{"400EventsEmpty", admin, "POST", f.base(), with("events", []string{}), 400, "events"},
		testkit.Case{"400EventUnknown", admin, "POST", f.base(), with("events", []string{"space_deleted"}), 400, "events"},
		testkit.Case{"400PingNotAnEventToAskFor", admin, "POST", f.base(), with("events", []string{"ping"}), 400, "events"},
		testkit.Case{"400EventTwice", admin, "POST", f.base(), with("events", []string{"site_published", "site_published"}), 400, "events"},
		testkit.Case{"400UpdateURL", admin, "PATCH", one, map[string]any{"url": "not a url"}, 400, "url"},
		testkit.Case{"400UpdateSecret", admin, "PATCH", one, map[string]any{"secret": "short"}, 400, "secret"},
		testkit.Case{"400UpdateEvents", admin, "PATCH", one, map[string]any{"events": []string{"nope"}}, 400, "events"},
		testkit.Case{"400UpdateUnknownField", admin, "PATCH", one, map[string]any{"sekret": "x"}, 400, "sekret"},
		testkit.Case{"404UnknownWebhook", admin, "GET", f.base() + "/nope", nil, 404, ""},
		testkit.Case{"404UnknownDelivery", admin, "POST", one + "/deliveries/nope/redeliver", nil, 404, ""},
		testkit.Case{"404WebhookOfAnotherOrganization", f.Tokens[testkit.Outsider], "GET", "/v1/orgs/" + f.Other.ID + "/webhooks/" + id, nil, 404, ""},
	)
	f.Check(t, cases)
	// A PATCH changes what it names only, and the secret it replaces signs
	// the next deliveries.
	v := f.As(t, "admin").Expect(http.StatusOK, "PATCH", one, map[string]any{"enabled": false, "events": []string{"site_unpublished", "site_published"}}).Map(t)
	if v["enabled"] != false || v["url"] != rcv.URL || len(v["events"].([]any)) != 2 {
		t.Errorf("updated %v", v)
	}
	f.As(t, "admin").Expect(http.StatusResetContent, "DELETE", one, nil)
	f.As(t, "admin").Expect(http.StatusNoContent, "DELETE", one, nil)
	f.As(t, "admin").Expect(http.StatusNotFound, "GET", one+"/deliveries", nil)
}

// A disabled endpoint gets no events; a ping still reaches it.
func TestDisabledEndpointsGetNoEvents(t *testing.T) {
	f := setup(t)
	rcv := newReceiver(t)
	id := f.hook(t, rcv.URL, webhooks.SitePublished, webhooks.SiteUnpublished)["id"].(string)
	admin := f.As(t, "admin")
	admin.Expect(http.StatusOK, "PATCH", f.base()+"/"+id, map[string]any{"enabled": false})
	site := "/v1/orgs/" + f.Org.ID + "/sites/" + f.Site(t)
	admin.Expect(http.StatusOK, "POST", site+"/publish", nil)
	admin.Expect(http.StatusAccepted, "POST", f.base()+"/"+id+"/ping", nil)
	f.drain(t)
	if got := rcv.deliveries(); len(got) != 1 || got[0].event != "ping" {
		t.Errorf("deliveries %v, want the ping only", got)
	}
}

// The body's enum (webhookshttp) lets every type of webhooks.Types through.
func TestEveryEventTypeMayBeAskedFor(t *testing.T) {
	f := setup(t)
	v := f.hook(t, "https://hooks.example.com/galley", webhooks.Types()...)
	if n := len(v["events"].([]any)); n != len(webhooks.Types()) {
		t.Errorf("%d events kept, want %d", n, len(webhooks.Types()))
	}
}

// flaky fails its next fail enqueues, as SQS may.
type flaky struct {
	queue.Queue
	fail int
}

func (q *flaky) Enqueue(ctx context.Context, j queue.Job) error {
	if q.fail > 0 {
		q.fail--
		return errors.New("queue unavailable")
	}
	return q.Queue.Enqueue(ctx, j)
}

// A delivery whose first job never reached the queue does not stay
// pending: past the policy's Recover, the next list of deliveries, or the
// next event of the organization, queues it again; within it, it is left
// alone.
func TestAFirstAttemptNeverQueuedIsQueuedAgain(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		mem := &queuetest.Memory{}
		q := &flaky{Queue: mem}
		k.Deps.Queue, k.Deps.FetchAllowPrivate = q, true
		var later time.Duration
		tick := k.Deps.Now
		k.Deps.Now = func() time.Time { return tick().Add(later) }
		a := testkit.NewAPI(t, k, []string{"orgs"})
		s := webhooks.New(k.Deps, webhooks.Policy{Recover: time.Minute})
		rcv := newReceiver(t)
		ctx := access.WithCaller(k.Ctx, a.Caller("admin"))
		w, err := s.Create(ctx, a.Org.ID, webhooks.Create{URL: rcv.URL, Secret: secret, Events: []string{webhooks.SitePublished, webhooks.SiteUnpublished}})
		if err != nil {
			t.Fatal(err)
		}
		statuses := func() (out []string) {
			t.Helper()
			p, err := s.Deliveries(ctx, a.Org.ID, w.ID, paging.Request{})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range p.Items {
				out = append(out, fmt.Sprintf("%s:%s:%d", d.Event, d.Status, d.Attempts))
			}
			return out
		}
		run := func() {
			t.Helper()
			if err := mem.Drain(k.Ctx, s.Handlers()); err != nil {
				t.Fatal(err)
			}
		}

		q.fail = 1
		s.Emit(ctx, model.Event{Type: webhooks.SitePublished, OrgID: a.Org.ID, Fields: map[string]any{"siteId": "s1"}})
		if got := statuses(); !slices.Equal(got, []string{"site_published:pending:0"}) || len(mem.Take()) != 0 {
			t.Fatalf("after a failed enqueue: %v", got)
		}
		later = 2 * time.Minute
		statuses() // the list finds it past the deadline and queues it
		run()
		if got := statuses(); !slices.Equal(got, []string{"site_published:succeeded:1"}) {
			t.Fatalf("after the list: %v", got)
		}

		q.fail = 1
		s.Emit(ctx, model.Event{Type: webhooks.SiteUnpublished, OrgID: a.Org.ID, Fields: map[string]any{"siteId": "s1"}})
		later = 4 * time.Minute
		s.Emit(ctx, model.Event{Type: webhooks.SitePublished, OrgID: a.Org.ID, Fields: map[string]any{"siteId": "s1"}})
		run()
		want := []string{"site_published:succeeded:1", "site_unpublished:succeeded:1", "site_published:succeeded:1"}
		if got := statuses(); !slices.Equal(got, want) {
			t.Fatalf("after the next event: %v, want %v", got, want)
		}
		if got := rcv.deliveries(); len(got) != 3 {
			t.Errorf("the receiver got %d posts, want 3 (one per delivery)", len(got))
		}
	})
}

// A direct change of a space's primary content (a content import) is
// GitBook's space_content_updated too, by whoever made it; an import into
// a change request is not (the space's content is unchanged).
func TestContentImportIsAContentUpdate(t *testing.T) {
	k := testkit.New(t)
	q := &queuetest.Memory{}
	k.Deps.Queue, k.Deps.FetchAllowPrivate = q, true
	a := testkit.NewAPI(t, k, []string{"orgs", "changerequests", "imports"})
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/markdown")
		_, _ = io.WriteString(w, "# Imported\n\nWords.\n")
	}))
	t.Cleanup(page.Close)
	rcv := newReceiver(t)
	a.As(t, "admin").Expect(http.StatusCreated, "POST", "/v1/orgs/"+a.Org.ID+"/webhooks",
		map[string]any{"url": rcv.URL, "secret": secret, "events": []string{webhooks.SpaceContentUpdated}})
	sp := "/v1/spaces/" + a.Space(t)
	rev := a.As(t, "edit").Expect(http.StatusCreated, "POST", sp+"/content/import", map[string]any{"url": page.URL + "/a.md", "source": "markdown"}).Map(t)["revision"]
	cr := a.As(t, "edit").Expect(http.StatusCreated, "POST", sp+"/change-requests", map[string]any{"subject": "More"}).Map(t)["id"].(string)
	a.As(t, "edit").Expect(http.StatusCreated, "POST", sp+"/change-requests/"+cr+"/content/import", map[string]any{"url": page.URL + "/b.md", "source": "markdown"})
	if err := q.Drain(k.Ctx, families.JobHandlers(a.Root)); err != nil {
		t.Fatal(err)
	}
	got := rcv.deliveries()
	if len(got) != 1 {
		t.Fatalf("%d deliveries, want the import into the space only: %v", len(got), got)
	}
	by, _ := got[0].body["updatedBy"].([]any)
	if got[0].event != webhooks.SpaceContentUpdated || got[0].body["revisionId"] != rev || rev == nil || len(by) != 1 || by[0].(map[string]any)["id"] != a.Users["edit"].ID {
		t.Errorf("delivery %v, want revision %v by the editor", got[0].body, rev)
	}
}

// A page feedback the reader records is told to the endpoints asking for
// page_feedback, once per vote counted, in GitBook's PageFeedbackEvent
// shape: a vote with a comment (two events) is one delivery, a second
// vote of the same visitor on the same page and day none, another
// visitor's vote one more; an endpoint not asking for it gets nothing.
func TestPageFeedbackIsToldOncePerVote(t *testing.T) {
	q := &queuetest.Memory{}
	k := testkit.New(t)
	k.Deps.Queue, k.Deps.FetchAllowPrivate = q, true
	a := testkit.NewAPI(t, k, []string{"orgs", "sites", "reader"})
	f := &fixture{API: a, q: q, handlers: families.JobHandlers(a.Root)}
	site := a.Site(t)
	admin := f.As(t, "admin")
	siteURL := "/v1/orgs/" + f.Org.ID + "/sites/" + site
	admin.Expect(http.StatusOK, "POST", siteURL+"/publish", nil)
	if _, err := siteswire.Service(a.Root).PutCustomization(access.WithCaller(k.Ctx, a.Caller("admin")), f.Org.ID, site, map[string]any{"feedback": map[string]any{"enabled": true}}); err != nil {
		t.Fatal(err)
	}
	rcv, other := newReceiver(t), newReceiver(t)
	id := f.hook(t, rcv.URL, webhooks.PageFeedback)["id"].(string)
	f.hook(t, other.URL, webhooks.SitePublished)
	f.drain(t)
	vote := func(typ, rating, comment string) map[string]any {
		e := map[string]any{"type": typ, "feedback": map[string]any{"rating": rating}, "session": map[string]any{},
			"location": map[string]any{"url": "https://docs.test/guide/p1?shareKey=secret#top", "page": "p1", "space": "sp1"}}
		if comment != "" {
			e["feedback"].(map[string]any)["comment"] = comment
		}
		return e
	}
	reader := f.As(t, "read")
	post := func(ua string, events ...any) {
		reader.Expect(http.StatusNoContent, "POST", siteURL+"/insights/events", map[string]any{"events": events}, "User-Agent", ua)
		f.drain(t)
	}
	post("A", vote("page_post_feedback", "bad", ""), vote("page_post_feedback_comment", "bad", "Missing steps"))
	post("A", vote("page_post_feedback", "good", "")) // the same visitor's second vote of the day
	post("B", vote("page_post_feedback", "good", ""))
	post("B", map[string]any{"type": "page_view", "session": map[string]any{}, "location": map[string]any{"url": "https://docs.test/guide/p1", "page": "p1"}})

	got := rcv.deliveries()
	if len(got) != 2 {
		t.Fatalf("%d deliveries, want 2 (one per vote counted): %v", len(got), got)
	}
	if rcv.badSigns != 0 {
		t.Errorf("%d signatures did not verify as they should", rcv.badSigns)
	}
	for i, want := range []map[string]any{{"rating": "bad", "comment": "Missing steps"}, {"rating": "good"}} {
		d := got[i]
		raw, _ := json.Marshal(d.body)
		if err := apitest.Schema("PageFeedbackEvent", raw); err != nil {
			t.Errorf("delivery %d is not GitBook's PageFeedbackEvent: %v\n%s", i, err, raw)
		}
		fb, _ := d.body["feedback"].(map[string]any)
		if d.event != webhooks.PageFeedback || d.body["installationId"] != id || d.body["siteId"] != site || d.body["pageId"] != "p1" ||
			d.body["spaceId"] != "sp1" || d.body["url"] != "https://docs.test/guide/p1" || fmt.Sprint(fb) != fmt.Sprint(want) {
			t.Errorf("delivery %d: %s, want feedback %v on p1 at https://docs.test/guide/p1", i, raw, want)
		}
		vis, _ := d.body["visitor"].(map[string]any)
		if vis["anonymousId"] == "" || vis["ip"] != "" || vis["userAgent"] != "" {
			t.Errorf("delivery %d: visitor %v, want the salted hash only", i, vis)
		}
	}
	if got[0].body["visitor"].(map[string]any)["anonymousId"] == got[1].body["visitor"].(map[string]any)["anonymousId"] {
		t.Errorf("two visitors told as one: %v", got[0].body["visitor"])
	}
	if n := len(other.deliveries()); n != 0 {
		t.Errorf("the endpoint not asking for page_feedback got %d deliveries", n)
	}
}
