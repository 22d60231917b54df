package insights_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/app/wire/insightswire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/insights"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// fixture is the reader function's API (insights included) with a
// published site whose feedback is on, and the queue its jobs wait in.
type fixture struct {
	*testkit.API
	q    *queuetest.Memory
	site string
}

func setup(t *testing.T, k *testkit.Kit) *fixture {
	q := &queuetest.Memory{}
	k.Deps.Queue = q
	a := testkit.NewAPI(t, k, []string{"sites", "reader"})
	f := &fixture{API: a, q: q, site: a.Site(t)}
	ctx := access.WithCaller(k.Ctx, a.Caller("admin"))
	s := siteswire.Service(a.Root)
	if _, _, err := s.SetPublished(ctx, a.Org.ID, f.site, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutCustomization(ctx, a.Org.ID, f.site, map[string]any{"feedback": map[string]any{"enabled": true}}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) base() string { return "/v1/orgs/" + f.Org.ID + "/sites/" + f.site + "/insights" }

// drain runs the queued jobs as the worker would.
func (f *fixture) drain(t *testing.T) {
	t.Helper()
	if err := f.q.Drain(f.Kit.Ctx, families.JobHandlers(f.Root)); err != nil {
		t.Fatal(err)
	}
}

func view(page string) map[string]any {
	return map[string]any{"type": "page_view", "session": map[string]any{"sessionId": "tab-1"},
		"location": map[string]any{"url": "https://app.test/sites/x/docs/" + page + "?visitor.plan=pro", "page": page, "space": "sp1", "siteSpace": nil, "siteSection": nil}}
}

func search(query string, results int) map[string]any {
	return map[string]any{"type": "search_type_query", "query": query, "resultsCount": results, "session": map[string]any{},
		"location": map[string]any{"url": "https://app.test/sites/x/docs/"}}
}

func feedback(page, rating, comment string) map[string]any {
	e := map[string]any{"type": "page_post_feedback", "feedback": map[string]any{"rating": rating}, "session": map[string]any{},
		"location": map[string]any{"url": "https://app.test/sites/x/docs/" + page, "page": page, "space": "sp1"}}
	if comment != "" {
		e["type"] = "page_post_feedback_comment"
		e["feedback"].(map[string]any)["comment"] = comment
	}
	return e
}

// column returns an answer's column's values.
func column(t *testing.T, res map[string]any, name string) []any {
	t.Helper()
	for _, c := range res["columns"].([]any) {
		c := c.(map[string]any)
		if c["column"] == name {
			return c["values"].([]any)
		}
	}
	t.Fatalf("no column %s in %v", name, res)
	return nil
}

func TestTrackedEventsAggregateFromCounters(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setup(t, k)
		reader := f.As(t, "read")
		reader.Expect(http.StatusNoContent, "POST", f.base()+"/events", map[string]any{"events": []any{view("p1"), view("p1"), view("p2"), search("Install", 3), search("  nothing HERE ", 0)}}, "User-Agent", "A")
		reader.Expect(http.StatusNoContent, "POST", f.base()+"/events", map[string]any{"events": []any{view("p1"), feedback("p1", "good", ""), feedback("p1", "bad", "Missing steps")}}, "User-Agent", "B")
		// A second vote of the same visitor on the same page and day is not counted.
		reader.Expect(http.StatusNoContent, "POST", f.base()+"/events", map[string]any{"events": []any{feedback("p1", "bad", "")}}, "User-Agent", "B")
		f.drain(t)
		editor := f.As(t, "edit")
		agg := func(body map[string]any) map[string]any {
			body["range"] = "last7Days"
			return editor.Expect(http.StatusOK, "POST", f.base()+"/events/aggregate", body).Map(t)
		}
		byType := agg(map[string]any{"select": []any{map[string]any{"column": "eventsCount"}}, "groupBy": []any{map[string]any{"column": "eventType"}}})
		got := map[string]any{}
		types, counts := column(t, byType, "eventType"), column(t, byType, "eventsCount")
		for i := range types {
			got[types[i].(string)] = counts[i]
		}
		want := map[string]any{"page_view": 4.0, "search_type_query": 2.0, "page_post_feedback": 1.0, "page_post_feedback_comment": 1.0}
		if len(got) != len(want) {
			t.Errorf("by type %v, want %v", got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %v events, want %v", k, got[k], v)
			}
		}
		pages := agg(map[string]any{"select": []any{map[string]any{"column": "eventsCount"}, map[string]any{"column": "visitorsCount"}},
			"groupBy": []any{map[string]any{"column": "page"}}, "where": []any{map[string]any{"column": "eventType", "values": []any{"page_view"}}}})
		pv, ev, vis := column(t, pages, "page"), column(t, pages, "eventsCount"), column(t, pages, "visitorsCount")
		if len(pv) != 2 || pv[0].(map[string]any)["page"] != "p1" || ev[0] != 3.0 || vis[0] != 2.0 || ev[1] != 1.0 || vis[1] != 1.0 {
			t.Errorf("page views by page: %v %v %v (want p1: 3 events of 2 visitors, p2: 1 of 1)", pv, ev, vis)
		}
		none := agg(map[string]any{"groupBy": []any{map[string]any{"column": "eventSearchQuery"}},
			"where": []any{map[string]any{"column": "eventSearchResultsCount", "values": []any{0}}}})
		if q := column(t, none, "eventSearchQuery"); len(q) != 1 || q[0] != "nothing here" {
			t.Errorf("queries without results %v, want [nothing here]", q)
		}
		top := agg(map[string]any{"groupBy": []any{map[string]any{"column": "eventSearchQuery"}},
			"where": []any{map[string]any{"column": "eventType", "values": []any{"search_type_query"}}}})
		if q := column(t, top, "eventSearchQuery"); len(q) != 2 {
			t.Errorf("top queries %v", q)
		}
		rating := agg(map[string]any{"select": []any{map[string]any{"column": "pageFeedbackRating"}}, "groupBy": []any{map[string]any{"column": "page"}},
			"where": []any{map[string]any{"column": "eventType", "values": []any{"page_post_feedback"}}}})
		if r := column(t, rating, "pageFeedbackRating"); len(r) != 1 || r[0].(map[string]any)["good"] != 1.0 || r[0].(map[string]any)["bad"] != 0.0 {
			t.Errorf("ratings %v: want one good vote (the second vote of the day dropped)", r)
		}
		comments := agg(map[string]any{"groupBy": []any{map[string]any{"column": "eventPageFeedbackComment"}},
			"where": []any{map[string]any{"column": "eventType", "values": []any{"page_post_feedback_comment"}}}})
		if c := column(t, comments, "eventPageFeedbackComment"); len(c) != 1 || c[0] != "Missing steps" {
			t.Errorf("comments %v", c)
		}
		segs := editor.Expect(http.StatusOK, "GET", f.base()+"/visitor-segments", nil).Map(t)
		items := segs["items"].([]any)
		if len(items) != 1 || items[0].(map[string]any)["title"] != "Anonymous" || items[0].(map[string]any)["events"] != 8.0 || items[0].(map[string]any)["visitors"] != 2.0 {
			t.Errorf("segments %v", items)
		}
	})
}

func TestDoNotTrackRecordsNothing(t *testing.T) {
	f := setup(t, testkit.New(t))
	for _, h := range [][]string{{"DNT", "1"}, {"Sec-GPC", "1"}} {
		f.As(t, "read").Expect(http.StatusNoContent, "POST", f.base()+"/events", map[string]any{"events": []any{view("p1")}}, h...)
	}
	if jobs := f.q.Take(); len(jobs) != 0 {
		t.Fatalf("%d jobs queued for requests asking not to be tracked", len(jobs))
	}
	f.As(t, "read").Expect(http.StatusNoContent, "POST", f.base()+"/events", map[string]any{"events": []any{view("p1")}}, "DNT", "0")
	if jobs := f.q.Take(); len(jobs) != 1 {
		t.Fatalf("%d jobs queued, want 1", len(jobs))
	}
}

func TestRedeliveredJobCountsOnce(t *testing.T) {
	f := setup(t, testkit.New(t))
	f.As(t, "read").Expect(http.StatusNoContent, "POST", f.base()+"/events", map[string]any{"events": []any{view("p1"), view("p2")}})
	jobs := f.q.Take()
	h := families.JobHandlers(f.Root)
	for range 2 {
		for _, j := range jobs {
			if err := h[j.Kind](f.Kit.Ctx, j); err != nil {
				t.Fatal(err)
			}
		}
	}
	res := f.As(t, "edit").Expect(http.StatusOK, "POST", f.base()+"/events/aggregate", map[string]any{"range": "last24Hours"}).Map(t)
	if c := column(t, res, "eventsCount"); len(c) != 1 || c[0] != 2.0 {
		t.Errorf("events %v after a redelivery, want [2]", c)
	}
}

func TestInsightsAuthAndBadInput(t *testing.T) {
	f := setup(t, testkit.New(t))
	tok := f.Tokens
	events, agg, segs := f.base()+"/events", f.base()+"/events/aggregate", f.base()+"/visitor-segments"
	ok := map[string]any{"events": []any{view("p1")}}
	r := map[string]any{"range": "last30Days"}
	f.Check(t, []testkit.Case{
		{"track without a token is 401", "", "POST", events, ok, http.StatusUnauthorized, ""},
		{"track by an outsider is 404", tok[testkit.Outsider], "POST", events, ok, http.StatusNotFound, ""},
		{"track by a reader is 204", tok["read"], "POST", events, ok, http.StatusNoContent, ""},
		{"track of another site is 404", tok["read"], "POST", "/v1/orgs/" + f.Org.ID + "/sites/nosuch/insights/events", ok, http.StatusNotFound, ""},
		{"aggregate without a token is 401", "", "POST", agg, r, http.StatusUnauthorized, ""},
		{"aggregate by an outsider is 404", tok[testkit.Outsider], "POST", agg, r, http.StatusNotFound, ""},
		{"aggregate by a reader is 403", tok["read"], "POST", agg, r, http.StatusForbidden, ""},
		{"aggregate by a commenter is 403", tok["comment"], "POST", agg, r, http.StatusForbidden, ""},
		{"aggregate by an editor is 200", tok["edit"], "POST", agg, r, http.StatusOK, ""},
		{"segments without a token is 401", "", "GET", segs, nil, http.StatusUnauthorized, ""},
		{"segments by an outsider is 404", tok[testkit.Outsider], "GET", segs, nil, http.StatusNotFound, ""},
		{"segments by a reader is 403", tok["read"], "GET", segs, nil, http.StatusForbidden, ""},
		{"a search without its query is 400", tok["read"], "POST", events, map[string]any{"events": []any{map[string]any{"type": "search_type_query", "session": map[string]any{}, "location": map[string]any{"url": "https://x/"}}}}, http.StatusBadRequest, "events[0].query"},
		{"an unknown rating is 400", tok["read"], "POST", events, map[string]any{"events": []any{view("p1"), feedback("p1", "great", "")}}, http.StatusBadRequest, "rating"},
		{"a link click without a position is 400", tok["read"], "POST", events, map[string]any{"events": []any{map[string]any{"type": "link_click", "link": map[string]any{"target": map[string]any{"kind": "page", "page": "p2"}}, "session": map[string]any{}, "location": map[string]any{"url": "https://x/"}}}}, http.StatusBadRequest, "position"},
		{"no events is 400", tok["read"], "POST", events, map[string]any{"events": []any{}}, http.StatusBadRequest, "events"},
		{"an unknown preset is 400", tok["edit"], "POST", agg, map[string]any{"range": "lastDecade"}, http.StatusBadRequest, "range"},
		{"a reversed range is 400", tok["edit"], "POST", agg, map[string]any{"range": map[string]any{"from": "2026-01-02T00:00:00Z", "to": "2026-01-01T00:00:00Z"}}, http.StatusBadRequest, "range"},
		{"a column counters do not keep is 400", tok["edit"], "POST", agg, map[string]any{"range": "last7Days", "groupBy": []any{map[string]any{"column": "visitorGeoCountry"}}}, http.StatusBadRequest, "groupBy[0].column"},
		{"hours are 400", tok["edit"], "POST", agg, map[string]any{"range": "last7Days", "groupBy": []any{map[string]any{"column": "datetime", "interval": "hour"}}}, http.StatusBadRequest, "groupBy[0].interval"},
		{"an unknown filter column is 400", tok["edit"], "POST", agg, map[string]any{"range": "last7Days", "where": []any{map[string]any{"column": "utmSource", "values": []any{"x"}}}}, http.StatusBadRequest, "where[0].column"},
	})
}

func TestFeedbackOffAndUnpublished(t *testing.T) {
	f := setup(t, testkit.New(t))
	ctx := access.WithCaller(f.Kit.Ctx, f.Caller("admin"))
	s := siteswire.Service(f.Root)
	if _, err := s.PutCustomization(ctx, f.Org.ID, f.site, map[string]any{"feedback": map[string]any{"enabled": false}}); err != nil {
		t.Fatal(err)
	}
	f.Check(t, []testkit.Case{
		{"feedback on a site with feedback off is 400", f.Tokens["read"], "POST", f.base() + "/events", map[string]any{"events": []any{feedback("p1", "good", "")}}, http.StatusBadRequest, "events[0].type"},
	})
	if _, _, err := s.SetPublished(ctx, f.Org.ID, f.site, false); err != nil {
		t.Fatal(err)
	}
	f.Check(t, []testkit.Case{
		{"events of an unpublished site are 404", f.Tokens["read"], "POST", f.base() + "/events", map[string]any{"events": []any{view("p1")}}, http.StatusNotFound, ""},
	})
}

// Aggregates read months' roll-ups (less the days out of the range) or
// the days' totals by type where that reads less: on random events of 45 days across two month ends,
// every random aggregation answers exactly what the days' counters alone
// answer, on both backends.
func TestRollupsAnswerAsDays(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		clock := k.SkewClock()
		f := setup(t, k)
		s := insightswire.Service(f.Root)
		r := rand.New(rand.NewPCG(28, 3))
		reader := access.WithCaller(k.Ctx, f.Caller("read"))
		start := k.Deps.Clock()
		pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
		// 2026-01-02 + 45 days: January's end, February's end.
		for day := 0; day < 60; day++ {
			if day > 0 {
				clock.Jump(24 * time.Hour)
			}
			if day%3 == 2 {
				continue // days without events
			}
			for batch := 0; batch < 3; batch++ {
				var events []insights.Event
				for range 1 + r.IntN(12) {
					e := insights.Event{Type: pick(insights.PageView, insights.PageView, insights.SearchTypeQuery, insights.SearchOpenResult,
						insights.LinkClick, insights.PagePostFeedback, insights.PagePostFeedbackComment),
						URL: "https://x.test/docs/" + pick("a", "b", "c"), Page: pick("p1", "p2", "p3"), Space: "sp1", SessionID: pick("t1", "t2")}
					if r.IntN(4) == 0 {
						e.Claims = map[string]any{"plan": pick("pro", "free")}
					}
					switch e.Type {
					case insights.SearchTypeQuery, insights.SearchOpenResult:
						e.Query, e.ResultPage = pick("install", "api", "nothing"), pick("p1", "p2")
						n := r.IntN(3)
						e.ResultsCount = &n
					case insights.LinkClick:
						e.LinkKind, e.LinkValue, e.LinkPosition = "url", pick("https://a.test/", "https://b.test/"), pick("content", "sidebar")
					case insights.PagePostFeedback, insights.PagePostFeedbackComment:
						e.Rating, e.Comment = pick(insights.Ratings...), pick("Too short", "Great")
					}
					events = append(events, e)
				}
				if err := s.Track(reader, f.Org.ID, f.site, events, insights.Visitor{Addr: fmt.Sprintf("10.0.0.%d", r.IntN(6)), UserAgent: pick("A", "B")}); err != nil {
					t.Fatal(err)
				}
			}
			f.drain(t)
		}
		editor := access.WithCaller(k.Ctx, f.Caller("edit"))
		metrics := []string{"eventsCount", "visitorsCount", "sessionsCount", "pageFeedbackRating"}
		dims := []string{"eventType", "page", "urlPath", "eventSearchQuery", "eventPageFeedbackRating", "eventPageFeedbackComment",
			"eventLinkPosition", "eventSearchResultRecordId", "siteSpace", "datetime", "dayOfWeek"}
		filters := []insights.Filter{{Column: "eventType", Values: []any{insights.PageView}}, {Column: "eventSearchResultsCount", Values: []any{0.0}},
			{Column: "page", Operator: "notIn", Values: []any{map[string]any{"page": "p1"}}}, {Column: "eventType", Operator: "notIn", Values: []any{insights.LinkClick}}}
		now := k.Deps.Clock()
		rolled, subtracted, totals := 0, 0, 0
		compare := func(i int, q insights.Aggregation) {
			t.Helper()
			got, err := s.Aggregate(editor, f.Org.ID, f.site, q)
			if err != nil {
				t.Fatal(err)
			}
			want, err := s.AggregateByDays(editor, f.Org.ID, f.site, q)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("query %d (%+v): from roll-ups and packs %v, from days %v", i, q, got, want)
			}
		}
		random := func(n int) {
			for i := 0; i < n; i++ {
				q := insights.Aggregation{Limit: 1000}
				for _, m := range metrics {
					if r.IntN(2) == 0 {
						q.Select = append(q.Select, insights.Column{Name: m})
					}
				}
				for range r.IntN(3) {
					c := insights.Column{Name: dims[r.IntN(len(dims))]}
					if c.Name == "datetime" {
						c.Interval = pick("day", "week", "month", "month")
					}
					q.GroupBy = append(q.GroupBy, c)
				}
				if r.IntN(2) == 0 {
					q.Where = append(q.Where, filters[r.IntN(len(filters))])
				}
				q.From = start.Add(time.Duration(r.IntN(62*24)-24) * time.Hour)
				q.To = q.From.Add(time.Duration(1+r.IntN(50*24)) * time.Hour)
				if r.IntN(3) == 0 {
					q.From, q.To = now.Add(-time.Duration(1+r.IntN(50))*24*time.Hour), now
				}
				months, minus, total := s.PlanSpans(q)
				if months > 0 {
					rolled++
				}
				if total {
					totals++
				}
				subtracted += minus
				compare(i, q)
			}
		}
		// The closed days (all but the last two with events) are packed
		// by the worker's first job of each new day.
		valid := func() []string {
			var out []string
			for m := start; !m.After(now.AddDate(0, 1, 0)); m = m.AddDate(0, 1, 0) {
				days, err := s.ValidPacks(k.Ctx, f.site, m.Format("2006-01"))
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, days...)
			}
			return out
		}
		// The segments of the last 30 days: from the days' segments
		// packs and the last two days' counters, as from every counter.
		segments := func(when string) {
			t.Helper()
			got, err := s.Segments(editor, f.Org.ID, f.site)
			if err != nil {
				t.Fatal(err)
			}
			want, err := s.SegmentsByDays(editor, f.Org.ID, f.site)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != 3 || !reflect.DeepEqual(got, want) {
				t.Fatalf("segments %s: from packs %v, from days %v", when, got, want)
			}
		}
		packed := valid()
		if len(packed) < 35 {
			t.Fatalf("%d days packed at their totals' versions, want the 38 closed days with events: %v", len(packed), packed)
		}
		random(150)
		segments("with every closed day packed")
		// A late job (a day 20 days back, as a redelivery long after)
		// packs its day again; counters added without their packs (a job
		// whose packing failed) leave the day read from its counters.
		late, stale := insights.Day(now.AddDate(0, 0, -20)), insights.Day(now.AddDate(0, 0, -30))
		clock.Jump(-20 * 24 * time.Hour)
		if err := s.Track(reader, f.Org.ID, f.site, []insights.Event{{Type: insights.PageView, URL: "https://x.test/docs/late", Page: "p9", Space: "sp1"},
			{Type: insights.PageView, URL: "https://x.test/docs/a", Page: "p1", Space: "sp1"}}, insights.Visitor{Addr: "10.0.0.9", UserAgent: "C"}); err != nil {
			t.Fatal(err)
		}
		f.drain(t)
		clock.Jump(20 * 24 * time.Hour)
		if err := s.AddCounters(k.Ctx, f.site, []insights.Counter{{Day: stale, Type: insights.PageView,
			Location: insights.Location{URLPath: "/docs/stale", Space: "sp1", Page: "p7"}, Events: 3, Visitors: 2, Sessions: 2},
			{Day: stale, Type: insights.SegmentType, Claims: `{"plan":"free"}`, Events: 3, Visitors: 2, Sessions: 2}}); err != nil {
			t.Fatal(err)
		}
		segments("after a late job and a day's packs made stale")
		if err := s.DropSegmentsTotal(k.Ctx, f.site, packed[len(packed)-5]); err != nil {
			t.Fatal(err)
		}
		segments("with a day counted before the segments had a total")
		packed = valid()
		if !slices.Contains(packed, late) || slices.Contains(packed, stale) {
			t.Fatalf("packed days %v: want the late job's day %s packed again, %s not (its pack is older than its counters)", packed, late, stale)
		}
		for i, g := range []string{"page", "urlPath", "eventType"} {
			compare(1000+i, insights.Aggregation{Select: []insights.Column{{Name: "eventsCount"}, {Name: "visitorsCount"}}, GroupBy: []insights.Column{{Name: g}, {Name: "datetime", Interval: "day"}},
				From: now.AddDate(0, 0, -31), To: now.AddDate(0, 0, -19), Limit: 1000})
		}
		random(100)
		if rolled < 30 || subtracted < 30 || totals < 30 {
			t.Errorf("%d queries read roll-ups, %d days subtracted, %d read totals: the comparison did not exercise them", rolled, subtracted, totals)
		}
		t.Logf("%d of 250 queries read month roll-ups (%d days subtracted), %d the totals by type", rolled, subtracted, totals)
	})
}

// TestBatchedJobsCountAsOneByOne: the same events tracked on two sites,
// one's jobs applied one by one, the other's as batches (ApplyAll, local
// mode's queue), a few jobs of each again (redeliveries, inside a batch
// for the second): both sites' counters answer alike, every metric, by
// type, page, query, rating and segment.
func TestBatchedJobsCountAsOneByOne(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setup(t, k)
		other := f.otherSite(t)
		s := insightswire.Service(f.Root)
		one, batched := f.trackOnBoth(t, other, rand.New(rand.NewPCG(28, 4)), 40)
		for _, j := range append(one, one[5:8]...) {
			if err := s.Apply(k.Ctx, j); err != nil {
				t.Fatal(err)
			}
		}
		for _, b := range [][]queue.Job{batched[:25], batched[25:], append(slices.Clone(batched[20:23]), batched[5:8]...)} {
			if err := s.ApplyAll(k.Ctx, b); err != nil {
				t.Fatal(err)
			}
		}
		f.sameAnswers(t, other)
	})
}

// otherSite is a second published site of the fixture's space, feedback
// on.
func (f *fixture) otherSite(t *testing.T) string {
	admin := access.WithCaller(f.Kit.Ctx, f.Caller("admin"))
	created, _, err := siteswire.Service(f.Root).Create(admin, f.Org.ID, sites.CreateSite{Title: "Other", SpaceIDs: []string{f.Space(t)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := siteswire.Service(f.Root).SetPublished(admin, f.Org.ID, created.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := siteswire.Service(f.Root).PutCustomization(admin, f.Org.ID, created.ID, map[string]any{"feedback": map[string]any{"enabled": true}}); err != nil {
		t.Fatal(err)
	}
	return created.ID
}

// trackOnBoth tracks n random batches of events (views, searches,
// votes; two segments) on the fixture's site and on other alike, and
// takes their queued jobs: the fixture site's, other's.
func (f *fixture) trackOnBoth(t *testing.T, other string, r *rand.Rand, n int) (mine, others []queue.Job) {
	s := insightswire.Service(f.Root)
	reader := access.WithCaller(f.Kit.Ctx, f.Caller("read"))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	for range n {
		var events []insights.Event
		for range 1 + r.IntN(6) {
			e := insights.Event{Type: pick(insights.PageView, insights.PageView, insights.SearchTypeQuery, insights.PagePostFeedback),
				URL: "https://x.test/docs/" + pick("a", "b"), Page: pick("p1", "p2", "p3", "p4"), Space: "sp1", SessionID: pick("t1", "t2", "t3")}
			switch e.Type {
			case insights.SearchTypeQuery:
				e.Query = pick("install", "api")
			case insights.PagePostFeedback:
				e.Rating = pick(insights.Ratings...)
			}
			if r.IntN(3) == 0 {
				e.Claims = map[string]any{"plan": "pro"}
			}
			events = append(events, e)
		}
		v := insights.Visitor{Addr: fmt.Sprintf("10.0.0.%d", r.IntN(5)), UserAgent: "A"}
		for _, site := range []string{f.site, other} {
			if err := s.Track(reader, f.Org.ID, site, events, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, j := range f.q.Take() {
		if strings.Contains(string(j.Payload), other) {
			others = append(others, j)
		} else {
			mine = append(mine, j)
		}
	}
	if len(mine) != n || len(others) != n {
		t.Fatalf("%d and %d jobs, want %d each", len(mine), len(others), n)
	}
	return mine, others
}

// sameAnswers checks that other's counters answer as the fixture site's:
// every metric by type, page, query and rating, and the segments.
func (f *fixture) sameAnswers(t *testing.T, other string) {
	t.Helper()
	s := insightswire.Service(f.Root)
	editor := access.WithCaller(f.Kit.Ctx, f.Caller("edit"))
	now := f.Kit.Deps.Clock()
	for _, by := range []string{"eventType", "page", "eventSearchQuery", "eventPageFeedbackRating"} {
		q := insights.Aggregation{Select: []insights.Column{{Name: "eventsCount"}, {Name: "visitorsCount"}, {Name: "sessionsCount"}, {Name: "pageFeedbackRating"}},
			GroupBy: []insights.Column{{Name: by}}, From: now.Add(-time.Hour), To: now.Add(time.Hour), Limit: 1000}
		want, err := s.Aggregate(editor, f.Org.ID, f.site, q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Aggregate(editor, f.Org.ID, other, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Rows) < 2 || !reflect.DeepEqual(got, want) {
			t.Errorf("by %s: %v, want %v", by, got, want)
		}
	}
	want, err := s.Segments(editor, f.Org.ID, f.site)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Segments(editor, f.Org.ID, other)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("segments: %v, want %v", got, want)
	}
}
