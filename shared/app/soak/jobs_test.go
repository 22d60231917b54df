package soak_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/webhooks"
)

// The soak's webhook and insights jobs (docs/faults.md, "The soak",
// "Webhooks and insights").

// hookSecret is the soak's webhook endpoint's secret.
const hookSecret = "soak-webhook-secret-0123456789"

// hookEvents are the events the soak's endpoint asks for: those the load
// causes (merges and Git imports update a space's content; Git jobs
// conclude; the readers' votes are counted).
var hookEvents = []string{"space_content_updated", "space_gitsync_completed", "page_feedback"}

// receiver is the soak's webhook endpoint on loopback: it verifies each
// delivery as docs/webhooks.md tells a receiver to, and records it. It
// answers every delivery 200 (a failed attempt would be retried a minute
// later, past the soak's drain).
type receiver struct {
	*httptest.Server
	mu sync.Mutex
	// bodies is each delivery's body (by X-Galley-Delivery), seen is how
	// many times it came; bad, the deliveries that did not verify or came
	// with another body than before.
	bodies map[string]string
	seen   map[string]int
	bad    []string
	// events are the verified deliveries' payloads, the first of each.
	events []map[string]any
}

func newReceiver(tb testing.TB) *receiver {
	r := &receiver{bodies: map[string]string{}, seen: map[string]int{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		raw, _ := io.ReadAll(req.Body)
		id := req.Header.Get(webhooks.DeliveryHeader)
		err := webhooks.Verify(hookSecret, req.Header.Get(webhooks.SignatureHeader), raw, time.Now(), 5*time.Minute)
		r.mu.Lock()
		defer r.mu.Unlock()
		switch {
		case err != nil:
			r.bad = append(r.bad, fmt.Sprintf("delivery %s (%s): %v", id, req.Header.Get(webhooks.EventHeader), err))
		case r.seen[id] > 0 && r.bodies[id] != string(raw):
			r.bad = append(r.bad, fmt.Sprintf("delivery %s came again with another payload: %s, then %s", id, r.bodies[id], raw))
		case r.seen[id] == 0:
			var p map[string]any
			if err := json.Unmarshal(raw, &p); err != nil || p["type"] != req.Header.Get(webhooks.EventHeader) {
				r.bad = append(r.bad, fmt.Sprintf("delivery %s: payload %s does not match its event %s", id, raw, req.Header.Get(webhooks.EventHeader)))
			}
			r.bodies[id] = string(raw)
			r.events = append(r.events, p)
		}
		r.seen[id]++
		w.WriteHeader(http.StatusOK)
	}))
	tb.Cleanup(r.Close)
	return r
}

// has tells whether a verified delivery of the event typ whose payload
// has the fields of want has come.
func (r *receiver) has(typ string, want map[string]any) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.ContainsFunc(r.events, func(p map[string]any) bool { return p["type"] == typ && matches(p, want) })
}

// matches tells whether payload p has every field of want.
func matches(p, want map[string]any) bool {
	for k, v := range want {
		if p[k] != v {
			return false
		}
	}
	return true
}

// counts are the receiver's deliveries: distinct, those that came more
// than once, and the distinct events by type.
func (r *receiver) counts() (distinct, again int, byType map[string]int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, n := range r.seen {
		distinct++
		if n > 1 {
			again++
		}
	}
	byType = map[string]int{}
	for _, p := range r.events {
		byType[p["type"].(string)]++
	}
	return distinct, again, byType
}

// insightsPages are the page ids the load's events name.
var insightsPages = []string{"p1", "p2", "p3", "p4", "p5"}

// setupJobs gives the soak's organization a webhook endpoint at a new
// receiver, and a published site (its first space's) with readers'
// feedback on.
func (s *soak) setupJobs(tb testing.TB) {
	tb.Helper()
	c := s.client(tb)
	s.hooks = newReceiver(tb)
	s.hook = c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+s.org+"/webhooks",
		map[string]any{"url": s.hooks.URL, "secret": hookSecret, "events": hookEvents}).Map(tb)["id"].(string)
	s.site = c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+s.org+"/sites", map[string]any{"title": "Soak site", "spaces": []string{s.active[0]}}).Map(tb)["id"].(string)
	site := "/v1/orgs/" + s.org + "/sites/" + s.site
	cust := c.Expect(http.StatusOK, "GET", site+"/customization", nil).Map(tb)
	cust["feedback"] = map[string]any{"enabled": true}
	c.Expect(http.StatusOK, "PUT", site+"/customization", cust)
	c.Expect(http.StatusOK, "POST", site+"/publish", nil)
}

// track posts a reader's events to the site's insights: one to three
// page views, and now and then a vote (a visitor of its own: its user
// agent, so that each vote is counted, docs/insights.md). Sent counts
// every event posted; acknowledged, those of a request answered 204.
func (s *soak) track(rng *rand.Rand) {
	s.mu.Lock()
	s.visitors++
	ua := fmt.Sprintf("soak-reader-%d", s.visitors)
	s.mu.Unlock()
	location := func() map[string]any {
		p := insightsPages[rng.IntN(len(insightsPages))]
		return map[string]any{"url": "https://docs.soak.test/" + p, "page": p, "space": s.active[0]}
	}
	var events []any
	for range 1 + rng.IntN(3) {
		events = append(events, map[string]any{"type": "page_view", "session": map[string]any{"sessionId": ua}, "location": location()})
	}
	if rng.IntN(4) == 0 {
		events = append(events, map[string]any{"type": "page_post_feedback", "feedback": map[string]any{"rating": []string{"bad", "ok", "good"}[rng.IntN(3)]},
			"session": map[string]any{"sessionId": ua}, "location": location()})
	}
	st, _ := s.do("POST", "/v1/orgs/"+s.org+"/sites/"+s.site+"/insights/events", map[string]any{"events": events}, "User-Agent", ua)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range events {
		t := e.(map[string]any)["type"].(string)
		s.sent[t]++
		if st == http.StatusNoContent {
			s.tracked[t]++
		}
	}
	if st >= 400 && st < 500 {
		s.violations = append(s.violations, fmt.Sprintf("insights events answered %d", st))
	}
}

// counted reads the site's insights events by type (the last 24 hours).
func (s *soak) counted(tb testing.TB) map[string]int {
	tb.Helper()
	rec := s.serve("POST", "/v1/orgs/"+s.org+"/sites/"+s.site+"/insights/events/aggregate", map[string]any{"range": "last24Hours",
		"select": []any{map[string]any{"column": "eventsCount"}}, "groupBy": []any{map[string]any{"column": "eventType"}}})
	if rec.Code != http.StatusOK {
		tb.Fatalf("aggregate: %d %s", rec.Code, rec.Body.Bytes())
	}
	var body struct {
		Columns []struct {
			Column string `json:"column"`
			Values []any  `json:"values"`
		} `json:"columns"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		tb.Fatal(err)
	}
	cols := map[string][]any{}
	for _, c := range body.Columns {
		cols[c.Column] = c.Values
	}
	out := map[string]int{}
	for i, t := range cols["eventType"] {
		out[t.(string)] = int(cols["eventsCount"][i].(float64))
	}
	return out
}

// jobsOutcome is what the webhook and insights checks found.
type jobsOutcome struct {
	received, again, pending, dead int
	byType                         map[string]int
	sent, acked, counted           map[string]int
}

func (o jobsOutcome) String() string {
	var types []string
	for t := range o.sent {
		types = append(types, t)
	}
	slices.Sort(types)
	var ins []string
	for _, t := range types {
		ins = append(ins, fmt.Sprintf("%s %d sent, %d acknowledged, %d counted", t, o.sent[t], o.acked[t], o.counted[t]))
	}
	return fmt.Sprintf("webhooks: %d deliveries received (%v), %d received more than once, %d listed pending (not received), %d dead; insights: %s",
		o.received, o.byType, o.again, o.pending, o.dead, strings.Join(ins, "; "))
}

// hookDrain bounds the wait, after the load and the queues' drain, for
// the acknowledged events' deliveries and the acknowledged insights
// events to be counted.
const hookDrain = 30 * time.Second

// checkJobs checks the webhooks' and insights' invariants after the
// load (its queues drained): every delivery received verifies, and no
// delivery came twice with different payloads; every acknowledged merge
// (answered 200) has its space_content_updated delivered, or listed
// among the endpoint's deliveries not yet made (pending: not lost); no
// more page_feedback deliveries than votes counted; the insights events
// counted of each type are at least those acknowledged and at most those
// sent.
func (s *soak) checkJobs(tb testing.TB) jobsOutcome {
	tb.Helper()
	o := jobsOutcome{sent: s.sent, acked: s.tracked}
	waiting := func() []map[string]any {
		var left []map[string]any
		for _, m := range s.mergedRevs {
			if !s.hooks.has("space_content_updated", m) {
				left = append(left, m)
			}
		}
		return left
	}
	// listed finds the delivery of the acknowledged event m among the
	// endpoint's deliveries (nil if none).
	var deliveries []map[string]any
	listed := func(m map[string]any) map[string]any {
		i := slices.IndexFunc(deliveries, func(d map[string]any) bool {
			p, _ := d["payload"].(map[string]any)
			return d["event"] == "space_content_updated" && matches(p, m)
		})
		if i < 0 {
			return nil
		}
		return deliveries[i]
	}
	// The queues are drained (check): what has not come by now is
	// listed pending (its job never queued, or its claim left by a
	// killed worker: docs/faults.md) and will not come within the soak;
	// the wait is for what the API has not shown yet.
	var left []map[string]any
	for deadline := time.Now().Add(hookDrain); ; time.Sleep(250 * time.Millisecond) {
		o.counted = s.counted(tb)
		left = waiting()
		settled := true
		for t, n := range s.tracked {
			settled = settled && o.counted[t] >= n
		}
		if len(left) > 0 {
			deliveries = s.items(tb, "/v1/orgs/"+s.org+"/webhooks/"+s.hook+"/deliveries")
			for _, m := range left {
				d := listed(m)
				settled = settled && d != nil && (d["status"] == "pending" || d["status"] == "failed")
			}
		}
		if settled || time.Now().After(deadline) {
			break
		}
	}
	for t, n := range o.counted {
		if n < s.tracked[t] || n > s.sent[t] {
			s.violate("insights: %d %s events counted, want between the %d acknowledged and the %d sent", n, t, s.tracked[t], s.sent[t])
		}
	}
	for t, n := range s.tracked {
		if _, ok := o.counted[t]; !ok && n > 0 {
			s.violate("insights: no %s event counted, %d acknowledged", t, n)
		}
	}
	// Deliveries not received: listed (pending, failed) or lost.
	for _, m := range left {
		switch d := listed(m); {
		case d == nil:
			s.violate("webhooks: the merge of revision %s in space %s was acknowledged and its space_content_updated is neither delivered nor listed", m["revisionId"], m["spaceId"])
		case d["status"] == "pending" || d["status"] == "failed":
			o.pending++
		default:
			s.violate("webhooks: delivery %s (revision %s) is %s but never came", d["id"], m["revisionId"], d["status"])
		}
	}
	for _, d := range s.items(tb, "/v1/orgs/"+s.org+"/webhooks/"+s.hook+"/deliveries") {
		if d["status"] == "dead" {
			o.dead++
		}
	}
	o.received, o.again, o.byType = s.hooks.counts()
	s.hooks.mu.Lock()
	for _, b := range s.hooks.bad {
		s.violations = append(s.violations, "webhooks: "+b)
	}
	s.hooks.mu.Unlock()
	if n := o.byType["page_feedback"]; n > o.counted["page_post_feedback"] {
		s.violate("webhooks: %d page_feedback events delivered, %d votes counted", n, o.counted["page_post_feedback"])
	}
	if o.dead > 0 {
		s.violate("webhooks: %d deliveries dead (the receiver answers every attempt 200)", o.dead)
	}
	return o
}
