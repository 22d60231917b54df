package insights_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app/wire/insightswire"
	"github.com/galleydocs/galley/shared/insights"
	"github.com/galleydocs/galley/shared/testkit"
)

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
		for i := 0; i < 150; i++ {
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
			got, err := s.Aggregate(editor, f.Org.ID, f.site, q)
			if err != nil {
				t.Fatal(err)
			}
			want, err := s.AggregateByDays(editor, f.Org.ID, f.site, q)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("query %d (%+v): from roll-ups %v, from days %v", i, q, got, want)
			}
		}
		if rolled < 20 || subtracted < 20 || totals < 20 {
			t.Errorf("%d queries read roll-ups, %d days subtracted, %d read totals: the comparison did not exercise them", rolled, subtracted, totals)
		}
		t.Logf("%d of 150 queries read month roll-ups (%d days subtracted), %d the totals by type", rolled, subtracted, totals)
	})
}
