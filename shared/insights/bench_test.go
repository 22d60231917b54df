package insights_test

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app/wire/insightswire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/insights"
	"github.com/galleydocs/galley/shared/testkit"
)

// millionEvents are the counters of 1,000,000 events over the 30 days
// before now, as a busy documentation site makes them a day: views of 200
// pages, 400 queries (50 without results), 200 results opened, 100 links
// clicked, 150 page ratings and 50 comments, in 5 visitor segments; the
// counts skewed (the first pages and queries get the most), 33,333 events
// a day (the last day one more).
func millionEvents(now time.Time) []insights.Counter {
	type kind struct {
		typ   string
		n     int
		share int // per mille of a day's events
	}
	kinds := []kind{{insights.PageView, 200, 600}, {insights.SearchTypeQuery, 400, 200}, {insights.SearchOpenResult, 200, 80},
		{insights.LinkClick, 100, 80}, {insights.PagePostFeedback, 150, 30}, {insights.PagePostFeedbackComment, 50, 10}}
	var out []insights.Counter
	total := 0
	for d := 0; d < 30; d++ {
		day := insights.Day(now.AddDate(0, 0, -d))
		perDay := 33333
		if d == 0 {
			perDay = 1_000_000 - 29*33333
		}
		left := perDay
		for ki, k := range kinds {
			budget := perDay * k.share / 1000
			if ki == len(kinds)-1 {
				budget = left
			}
			left -= budget
			// Weights 1/(i+1) (Zipf), scaled to the budget; the rest to the first.
			weights, sum := make([]float64, k.n), 0.0
			for i := range weights {
				weights[i] = 1 / float64(i+1)
				sum += weights[i]
			}
			given := 0
			for i := 0; i < k.n; i++ {
				n := int(float64(budget) * weights[i] / sum)
				if i == k.n-1 {
					n = budget - given
				}
				given += n
				c := insights.Counter{Day: day, Type: k.typ, Location: insights.Location{Space: "space1", SiteSpace: "sitesp1"}, Events: int64(n), Visitors: int64(n/2 + 1), Sessions: int64(n/2 + 1)}
				page := fmt.Sprintf("page%03d", i%200)
				switch k.typ {
				case insights.PageView:
					c.Page, c.URLPath = page, "/docs/"+page
				case insights.SearchTypeQuery:
					c.Query, c.NoResults = fmt.Sprintf("query %d", i), i%8 == 7
				case insights.SearchOpenResult:
					c.Query, c.ResultSpace, c.ResultPage = fmt.Sprintf("query %d", i), "space1", page
				case insights.LinkClick:
					c.Page, c.LinkKind, c.LinkValue, c.LinkPosition = page, "url", fmt.Sprintf("https://example.com/%d", i), "content"
				case insights.PagePostFeedback:
					c.Page, c.Rating = fmt.Sprintf("page%03d", i%50), []string{"good", "ok", "bad"}[i/50]
				case insights.PagePostFeedbackComment:
					c.Page, c.Rating, c.Comment = page, "bad", fmt.Sprintf("Comment number %d on this page.", i)
				}
				out = append(out, c)
			}
		}
		for s := 0; s < 5; s++ {
			claims := ""
			if s > 0 {
				claims = fmt.Sprintf(`{"plan":"p%d"}`, s)
			}
			out = append(out, insights.Counter{Day: day, Type: insights.SegmentType, Claims: claims, Events: int64(perDay / 5), Visitors: 100, Sessions: 120})
		}
		total += perDay
	}
	if total != 1_000_000 {
		panic(total)
	}
	return out
}

// BenchmarkAggregateMillionEvents measures aggregateSiteEvents' service
// (as an editor: authorization, the counters' queries, grouping) over the
// counters of 1,000,000 events of the last 30 days (millionEvents), on
// bbolt: the top pages by views, the queries without results (search
// analytics), events by type and day, page views by page and day, the
// top pages of a range ending mid-month, and three queries over a year
// (the data's 30 days) grouped by day or week; p50 and p95.
func BenchmarkAggregateMillionEvents(b *testing.B) {
	now := time.Date(2026, 3, 30, 12, 0, 0, 0, time.UTC)
	k := testkit.New(b, testkit.Clock(now, time.Microsecond))
	a := testkit.NewAPI(b, k, []string{"sites", "reader"})
	site := a.Site(b)
	admin := access.WithCaller(k.Ctx, a.Caller("admin"))
	if _, _, err := siteswire.Service(a.Root).SetPublished(admin, a.Org.ID, site, true); err != nil {
		b.Fatal(err)
	}
	s := insightswire.Service(a.Root)
	cs := millionEvents(now)
	if err := s.SeedCounters(k.Ctx, site, cs); err != nil {
		b.Fatal(err)
	}
	editor := access.WithCaller(k.Ctx, a.Caller("edit"))
	month := insights.Presets["last30Days"]
	queries := map[string]insights.Aggregation{
		"top_pages": {Select: []insights.Column{{Name: "eventsCount"}, {Name: "visitorsCount"}}, GroupBy: []insights.Column{{Name: "page"}},
			Where: []insights.Filter{{Column: "eventType", Values: []any{insights.PageView}}}, Limit: 20},
		"queries_without_results": {Select: []insights.Column{{Name: "eventsCount"}}, GroupBy: []insights.Column{{Name: "eventSearchQuery"}},
			Where: []insights.Filter{{Column: "eventSearchResultsCount", Values: []any{0.0}}}, Limit: 20},
		"by_type_and_day": {Select: []insights.Column{{Name: "eventsCount"}}, GroupBy: []insights.Column{{Name: "eventType"}, {Name: "datetime", Interval: "day"}},
			Limit: 1000},
		// Grouped by day and page: no roll-up answers it, every counter
		// of the range is read.
		"views_by_page_and_day": {Select: []insights.Column{{Name: "eventsCount"}}, GroupBy: []insights.Column{{Name: "page"}, {Name: "datetime", Interval: "day"}},
			Where: []insights.Filter{{Column: "eventType", Values: []any{insights.PageView}}}, Limit: 20},
		// The worst shapes: a year grouped by day and page (every type
		// with a page), one page's events over a year by type and week, a
		// year's queries by day.
		"year_by_page_and_day": {Select: []insights.Column{{Name: "eventsCount"}, {Name: "visitorsCount"}}, GroupBy: []insights.Column{{Name: "page"}, {Name: "datetime", Interval: "day"}},
			Limit: 20},
		"year_one_page_by_type_and_week": {Select: []insights.Column{{Name: "eventsCount"}}, GroupBy: []insights.Column{{Name: "eventType"}, {Name: "datetime", Interval: "week"}},
			Where: []insights.Filter{{Column: "page", Values: []any{map[string]any{"page": "page007"}}}}, Limit: 1000},
		"year_queries_by_day": {Select: []insights.Column{{Name: "eventsCount"}}, GroupBy: []insights.Column{{Name: "eventSearchQuery"}, {Name: "datetime", Interval: "day"}},
			Where: []insights.Filter{{Column: "eventType", Values: []any{insights.SearchTypeQuery}}}, Limit: 50},
	}
	// top_pages_mid_month: the top pages of the 30 days to the 15th, whose
	// month holds 16 days of counters after the range: the month's
	// half in the range is read day by day (the roll-ups' worst case).
	midMonth := queries["top_pages"]
	queries["top_pages_mid_month"] = midMonth
	// The set-up holds what it should: every event, counted once.
	all, err := s.Aggregate(editor, a.Org.ID, site, insights.Aggregation{Select: []insights.Column{{Name: "eventsCount"}},
		From: now.Add(-month), To: now.Add(time.Hour), Limit: 1})
	if err != nil {
		b.Fatal(err)
	}
	if len(all.Rows) != 1 || fmt.Sprint(all.Rows[0][0]) != "1000000" {
		b.Fatalf("the seeded counters total %v events, want 1000000", all.Rows)
	}
	b.ReportMetric(float64(len(cs)), "counters")
	for _, name := range slices.Sorted(maps.Keys(queries)) {
		q := queries[name]
		q.From, q.To = now.Add(-month), now.Add(time.Hour)
		if strings.HasPrefix(name, "year_") {
			q.From = now.AddDate(-1, 0, 0)
		}
		if name == "top_pages_mid_month" {
			q.To = time.Date(2026, 3, 16, 0, 0, 0, 0, time.UTC)
			q.From = q.To.Add(-month)
		}
		b.Run(name, func(b *testing.B) {
			durs := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			cpu0 := cpuTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				r, err := s.Aggregate(editor, a.Org.ID, site, q)
				durs = append(durs, time.Since(start))
				if err != nil || len(r.Rows) == 0 {
					b.Fatalf("%v, %d rows", err, len(r.Rows))
				}
			}
			b.StopTimer()
			// The process's CPU time a query (the machine's other work
			// does not count in it, unlike the times below).
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
			b.ReportMetric(float64(durs[len(durs)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(durs[len(durs)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}

// cpuTime is the process's CPU time so far (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
