package insights

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Column is a column of an aggregation (GitBook's
// SiteInsightsQueryEventsColumn): its name and, for datetime, the interval.
type Column struct {
	Name     string
	Interval string
}

// Filter keeps the counters whose column's value is (operator "in", the
// default) or is not ("notIn") among Values; greaterThan and the others
// compare numbers (eventSearchResultsCount) and times (datetime).
type Filter struct {
	Column   string
	Operator string
	Values   []any
}

// Aggregation is an aggregate query.
type Aggregation struct {
	Select, GroupBy []Column
	Where           []Filter
	// OrderBy (a column of Select or GroupBy) and Desc order the rows; by
	// default the first selected metric, descending.
	OrderBy string
	Desc    bool
	// From and To bound the range (To excluded).
	From, To time.Time
	Limit    int
}

// Presets are GitBook's named ranges, ending now.
var Presets = map[string]time.Duration{
	"last24Hours": 24 * time.Hour, "last7Days": 7 * 24 * time.Hour, "last30Days": 30 * 24 * time.Hour,
	"last3Months": 92 * 24 * time.Hour, "lastYear": 366 * 24 * time.Hour,
}

// MaxRangeDays bounds a custom range.
const MaxRangeDays = 400

// Metrics are the columns an aggregation may select.
var Metrics = []string{"eventsCount", "visitorsCount", "sessionsCount", "pageFeedbackRating"}

// Dimensions are the columns an aggregation may group and filter by.
// Counters are kept per day: datetime groups by day, week or month (not
// hour), and hourOfDay is not answered.
var Dimensions = []string{"datetime", "dayOfWeek", "eventType", "urlPath", "siteSection", "siteSpace", "page", "displayContext",
	"eventSearchQuery", "eventSearchResultRecordId", "eventPageFeedbackRating", "eventPageFeedbackComment",
	"eventLinkTargetKind", "eventLinkPosition"}

// FilterOnly are Galley's filter columns that are no dimension:
// eventSearchResultsCount, a search's number of results (0: the queries
// without results).
var FilterOnly = []string{"eventSearchResultsCount"}

// Row is one row of an aggregation: a value per column, in the order of
// GroupBy then Select.
type Row []any

// Result is an aggregation's answer, by column (GitBook's columnar shape).
type Result struct {
	Columns []string
	Rows    []Row
}

// PageRef is a page column's value.
type PageRef struct {
	Page  string `json:"page"`
	Space string `json:"space"`
}

// Ratings counts a page's feedback by rating (pageFeedbackRating).
type RatingCounts struct {
	Bad  int64 `json:"bad"`
	OK   int64 `json:"ok"`
	Good int64 `json:"good"`
}

// Aggregate answers an aggregation over a site's counters (editors and
// up). Errors: NotFound (outsiders, no such site), Forbidden (readers,
// commenters), Invalid naming the field (an unknown or unanswered column,
// a range too long or reversed).
func (s *Service) Aggregate(ctx context.Context, orgID, siteID string, q Aggregation) (Result, error) {
	return s.aggregate(ctx, orgID, siteID, q, true)
}

// aggregate answers from the months' roll-ups where it can (rollups; else
// from the days' counters only: the tests compare both).
func (s *Service) aggregate(ctx context.Context, orgID, siteID string, q Aggregation, rollups bool) (Result, error) {
	if err := checkAggregation(q); err != nil {
		return Result{}, err
	}
	if err := s.requireEditor(ctx, orgID, siteID); err != nil {
		return Result{}, err
	}
	if q.Limit <= 0 || q.Limit > 1000 {
		q.Limit = 1000
	}
	type group struct {
		dims    []any
		metrics []any
		// events is the group's events whatever is selected: a group
		// whose added and subtracted counters sum to no event is no
		// group (a roll-up's counter of the days left out).
		events int64
	}
	groups := map[string]*group{}
	var order []string
	dims := make([]any, len(q.GroupBy))
	var key []byte
	src := fromDays
	if rollups {
		src = sourceOf(q)
	}
	spans := s.plan(q.From, q.To, src)
	err := s.eachCounter(ctx, siteID, spans, func(cp *Counter, sign int64) {
		c := cp
		if c.Type == segmentType || !matches(c, q.Where) {
			return
		}
		key = key[:0]
		for i, col := range q.GroupBy {
			dims[i] = dimension(c, col)
			key = appendKey(key, dims[i])
		}
		g := groups[string(key)]
		if g == nil {
			dims := slices.Clone(dims)
			g = &group{dims: dims, metrics: make([]any, len(q.Select))}
			for i, col := range q.Select {
				if col.Name == "pageFeedbackRating" {
					g.metrics[i] = &RatingCounts{}
				} else {
					g.metrics[i] = int64(0)
				}
			}
			groups[string(key)] = g
			order = append(order, string(key))
		}
		g.events += sign * c.Events
		for i, col := range q.Select {
			switch col.Name {
			case "eventsCount":
				g.metrics[i] = g.metrics[i].(int64) + sign*c.Events
			case "visitorsCount":
				g.metrics[i] = g.metrics[i].(int64) + sign*c.Visitors
			case "sessionsCount":
				g.metrics[i] = g.metrics[i].(int64) + sign*c.Sessions
			case "pageFeedbackRating":
				r := g.metrics[i].(*RatingCounts)
				switch c.Rating {
				case "bad":
					r.Bad += sign * c.Events
				case "ok":
					r.OK += sign * c.Events
				case "good":
					r.Good += sign * c.Events
				}
			}
		}
	})
	if err != nil {
		return Result{}, err
	}
	order = slices.DeleteFunc(order, func(k string) bool { return groups[k].events == 0 })
	res := Result{}
	for _, c := range q.GroupBy {
		res.Columns = append(res.Columns, c.Name)
	}
	for _, c := range q.Select {
		res.Columns = append(res.Columns, c.Name)
	}
	for _, k := range order {
		g := groups[k]
		res.Rows = append(res.Rows, append(append(Row{}, g.dims...), g.metrics...))
	}
	if len(q.GroupBy) == 0 && len(res.Rows) == 0 && len(q.Select) > 0 {
		// Totals of nothing are zeros.
		row := Row{}
		for _, c := range q.Select {
			if c.Name == "pageFeedbackRating" {
				row = append(row, &RatingCounts{})
			} else {
				row = append(row, int64(0))
			}
		}
		res.Rows = append(res.Rows, row)
	}
	sortRows(res, q)
	if len(res.Rows) > q.Limit {
		res.Rows = res.Rows[:q.Limit]
	}
	return res, nil
}

// sortRows orders rows by the query's order, else by the first metric
// (descending), else by the first dimension (ascending); ties by the
// dimensions' text, so that answers are stable.
func sortRows(res Result, q Aggregation) {
	by, desc := slices.Index(res.Columns, q.OrderBy), q.Desc
	if by < 0 {
		by, desc = len(q.GroupBy), true
		if len(q.Select) == 0 {
			by, desc = 0, false
		}
	}
	// Each row's dimensions' text, made once (not at each comparison).
	type keyed struct {
		row Row
		key string
	}
	rows := make([]keyed, len(res.Rows))
	for i, r := range res.Rows {
		b, _ := json.Marshal(r[:len(q.GroupBy)])
		rows[i] = keyed{row: r, key: string(b)}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i].row, rows[j].row
		if by < len(a) {
			if c := compare(a[by], b[by]); c != 0 {
				return (c < 0) != desc
			}
		}
		return rows[i].key < rows[j].key
	})
	for i, r := range rows {
		res.Rows[i] = r.row
	}
}

func compare(a, b any) int {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, y)
		}
	case *RatingCounts:
		if y, ok := b.(*RatingCounts); ok {
			return cmp.Compare(x.Bad+x.OK+x.Good, y.Bad+y.OK+y.Good)
		}
	case int:
		if y, ok := b.(int); ok {
			return cmp.Compare(x, y)
		}
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return strings.Compare(string(ja), string(jb))
}

// checkAggregation refuses what the counters cannot answer, naming the
// field.
func checkAggregation(q Aggregation) error {
	if !q.To.After(q.From) {
		return apperr.Field("range", "from is before to")
	}
	if q.To.Sub(q.From) > MaxRangeDays*24*time.Hour {
		return apperr.Field("range", "at most %d days", MaxRangeDays)
	}
	for i, c := range q.Select {
		if !slices.Contains(Metrics, c.Name) && !slices.Contains(Dimensions, c.Name) {
			return apperr.Field(fmt.Sprintf("select[%d].column", i), "not answered from counters: one of %s", strings.Join(Metrics, ", "))
		}
		if slices.Contains(Dimensions, c.Name) {
			return apperr.Field(fmt.Sprintf("select[%d].column", i), "%s is a dimension: group by it", c.Name)
		}
	}
	for i, c := range q.GroupBy {
		if !slices.Contains(Dimensions, c.Name) {
			return apperr.Field(fmt.Sprintf("groupBy[%d].column", i), "not answered from counters: one of %s", strings.Join(Dimensions, ", "))
		}
		if c.Name == "datetime" && !slices.Contains([]string{"", "day", "week", "month"}, c.Interval) {
			return apperr.Field(fmt.Sprintf("groupBy[%d].interval", i), "counters are kept per day: day, week or month")
		}
	}
	for i, f := range q.Where {
		if !slices.Contains(Dimensions, f.Column) && !slices.Contains(FilterOnly, f.Column) {
			return apperr.Field(fmt.Sprintf("where[%d].column", i), "not answered from counters: one of %s", strings.Join(append(slices.Clone(Dimensions), FilterOnly...), ", "))
		}
		switch f.Operator {
		case "", "in", "notIn":
		case "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual":
			if len(f.Values) != 1 {
				return apperr.Field(fmt.Sprintf("where[%d].values", i), "a comparison takes one value")
			}
			if _, ok := number(f.Values[0]); !ok && f.Column != "datetime" {
				return apperr.Field(fmt.Sprintf("where[%d].values", i), "a comparison takes a number")
			}
		default:
			return apperr.Field(fmt.Sprintf("where[%d].operator", i), "one of in, notIn, greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual")
		}
	}
	if q.OrderBy != "" && !slices.ContainsFunc(append(slices.Clone(q.Select), q.GroupBy...), func(c Column) bool { return c.Name == q.OrderBy }) {
		return apperr.Field("order.by", "order by a selected or grouped column")
	}
	return nil
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// source is what an aggregation reads: the days' counters, the months'
// roll-ups (with days' counters at the range's ends), or the days' totals
// by type.
type source int

const (
	fromDays source = iota
	fromMonths
	fromTotals
)

// sourceOf is the cheapest source that answers an aggregation: the
// totals by type when it groups and filters by type and time only (and
// does not select ratings); else the months' roll-ups unless it needs
// each counter's day (grouped or filtered by datetime, but grouped by
// month, or by dayOfWeek); else the days' counters.
func sourceOf(q Aggregation) source {
	typeAndTime := func(name string) bool {
		return name == "eventType" || name == "datetime" || name == "dayOfWeek" || name == "displayContext"
	}
	totals, byDay := true, false
	for _, c := range q.Select {
		totals = totals && c.Name != "pageFeedbackRating"
	}
	for _, c := range q.GroupBy {
		totals = totals && typeAndTime(c.Name)
		byDay = byDay || c.Name == "dayOfWeek" || c.Name == "datetime" && c.Interval != "month"
	}
	for _, f := range q.Where {
		totals = totals && typeAndTime(f.Column)
		byDay = byDay || f.Column == "dayOfWeek" || f.Column == "datetime"
	}
	switch {
	case totals:
		return fromTotals
	case byDay:
		return fromDays
	}
	return fromMonths
}

// span is a part of an aggregate's plan: the counters under one sort-key
// prefix, those of the days first..last when first is set, added or
// subtracted.
type span struct {
	prefix      string
	first, last string
	sign        int64
}

// plan is the spans that read the days of a range from a source. The
// days' counters and the totals: a query per month of the range, its
// days outside the range left out. The months' roll-ups: per month of the
// range, the roll-ups when the month is wholly in the range; else each of
// its days in the range (a query each) or, when that is fewer queries, the
// month's roll-ups less each of its days out of the range. Days after
// tomorrow (by the service's clock) count as no query: no counter can be
// there yet (an event is dated within MaxSkew of now; a day more for the
// clocks of other processes), so they are neither read nor subtracted.
func (s *Service) plan(from, to time.Time, src source) []span {
	first, _ := time.Parse(time.DateOnly, Day(from))
	last, _ := time.Parse(time.DateOnly, Day(to.Add(-time.Nanosecond)))
	horizon, _ := time.Parse(time.DateOnly, Day(s.d.Clock().Add(24*time.Hour)))
	var spans []span
	for m := time.Date(first.Year(), first.Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(last); m = m.AddDate(0, 1, 0) {
		month := m.Format("2006-01")
		switch src {
		case fromDays:
			spans = append(spans, span{prefix: keys.InsightsCounterPrefix(month), first: Day(first), last: Day(last), sign: 1})
			continue
		case fromTotals:
			spans = append(spans, span{prefix: keys.InsightsTotalPrefix(month), first: Day(first), last: Day(last), sign: 1})
			continue
		}
		var in, out []string
		for d := m; d.Month() == m.Month() && !d.After(horizon); d = d.AddDate(0, 0, 1) {
			if d.Before(first) || d.After(last) {
				out = append(out, d.Format(time.DateOnly))
			} else {
				in = append(in, d.Format(time.DateOnly))
			}
		}
		if len(out)+1 < len(in) {
			spans = append(spans, span{prefix: keys.InsightsMonthPrefix(month) + "#", sign: 1})
			for _, d := range out {
				spans = append(spans, span{prefix: keys.InsightsCounterPrefix(d) + "#", sign: -1})
			}
			continue
		}
		for _, d := range in {
			spans = append(spans, span{prefix: keys.InsightsCounterPrefix(d) + "#", sign: 1})
		}
	}
	return spans
}

// eachCounter calls fn with each counter of a plan's spans and its sign
// (read only: it may be kept decoded for the next read).
func (s *Service) eachCounter(ctx context.Context, siteID string, spans []span, fn func(*Counter, int64)) error {
	for _, sp := range spans {
		q := store.Query{PK: keys.InsightsPartition(siteID), SKPrefix: sp.prefix, Limit: store.MaxQueryLimit}
		for {
			page, err := s.d.Store.Query(ctx, q)
			if err != nil {
				return err
			}
			for _, it := range page.Items {
				c, err := s.decoded.counter(it)
				if err != nil {
					return err
				}
				if sp.first == "" || c.Day >= sp.first && c.Day <= sp.last {
					fn(c, sp.sign)
				}
			}
			if page.Next == nil {
				break
			}
			q.After = page.Next
		}
	}
	return nil
}

// dimension is a counter's value of a column.
func dimension(c *Counter, col Column) any {
	switch col.Name {
	case "datetime":
		if col.Interval == "" || col.Interval == "day" {
			// What the parse and format below give a day, without them.
			return c.Day + "T00:00:00Z"
		}
		if col.Interval == "month" {
			// A day's or a month's roll-up (its Day is yyyy-mm).
			return c.Day[:len("2006-01")] + "-01T00:00:00Z"
		}
		d, _ := time.Parse(time.DateOnly, c.Day)
		switch col.Interval {
		case "week":
			d = d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
		}
		return d.UTC().Format(time.RFC3339)
	case "dayOfWeek":
		d, _ := time.Parse(time.DateOnly, c.Day)
		return (int(d.Weekday())+6)%7 + 1
	case "eventType":
		return c.Type
	case "urlPath":
		return c.URLPath
	case "siteSection":
		return nullable(c.SiteSection)
	case "siteSpace":
		return nullable(c.SiteSpace)
	case "page":
		if c.Page == "" {
			return nil
		}
		return PageRef{Page: c.Page, Space: c.Space}
	case "displayContext":
		return "site"
	case "eventSearchQuery":
		return c.Query
	case "eventSearchResultRecordId":
		return nullable(c.ResultPage)
	case "eventPageFeedbackRating":
		return c.Rating
	case "eventPageFeedbackComment":
		return c.Comment
	case "eventLinkTargetKind":
		return c.LinkKind
	case "eventLinkPosition":
		return c.LinkPosition
	}
	return nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// matches tells whether a counter passes every filter.
func matches(c *Counter, where []Filter) bool {
	for _, f := range where {
		if !match(c, f) {
			return false
		}
	}
	return true
}

func match(c *Counter, f Filter) bool {
	var v any
	if f.Column == "eventSearchResultsCount" {
		// Counters know whether a search had results, not how many.
		if c.Type != SearchTypeQuery && c.Type != SearchOpenResult {
			return false
		}
		v = 1
		if c.NoResults {
			v = 0
		}
	} else {
		v = dimension(c, Column{Name: f.Column, Interval: "day"})
	}
	switch f.Operator {
	case "", "in", "notIn":
		found := slices.ContainsFunc(f.Values, func(w any) bool { return same(v, w) })
		return found == (f.Operator != "notIn")
	}
	var a, b float64
	if f.Column == "datetime" {
		t, _ := time.Parse(time.RFC3339, v.(string))
		w, _ := f.Values[0].(string)
		u, err := time.Parse(time.RFC3339, w)
		if err != nil {
			return false
		}
		a, b = float64(t.Unix()), float64(u.Unix())
	} else {
		x, ok1 := number(v)
		y, ok2 := number(f.Values[0])
		if !ok1 || !ok2 {
			return false
		}
		a, b = x, y
	}
	switch f.Operator {
	case "greaterThan":
		return a > b
	case "greaterThanOrEqual":
		return a >= b
	case "lessThan":
		return a < b
	}
	return a <= b
}

// same compares a counter's value with a filter's (decoded JSON).
func same(v, w any) bool {
	if v == nil || w == nil {
		return v == nil && w == nil
	}
	if p, ok := v.(PageRef); ok {
		m, ok := w.(map[string]any)
		return ok && m["page"] == p.Page && (m["space"] == nil || m["space"] == p.Space)
	}
	if x, ok := number(v); ok {
		y, ok := number(w)
		return ok && x == y
	}
	if s, ok := v.(string); ok {
		if t, ok := w.(string); ok {
			if !dateLike(s) || !dateLike(t) {
				return s == t
			}
			if a, err := time.Parse(time.RFC3339, s); err == nil {
				if b, err := time.Parse(time.RFC3339, t); err == nil {
					return a.Equal(b)
				}
			}
			return s == t
		}
	}
	return false
}

// appendKey adds a dimension's value to a group's key: each value with
// its kind (nil, a text, a number, a page), so that different values
// never make the same key.
func appendKey(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, 'n', 0)
	case string:
		return append(append(append(b, 's'), x...), 0)
	case int:
		return append(strconv.AppendInt(append(b, 'i'), int64(x), 10), 0)
	case PageRef:
		return append(append(append(append(append(b, 'p'), x.Page...), 1), x.Space...), 0)
	}
	return append(fmt.Appendf(b, "%T:%v", v, v), 0)
}

// dateLike tells a text that may be a date-time (yyyy-mm-dd...): others
// are compared as text without trying to parse them.
func dateLike(s string) bool { return len(s) >= 10 && s[4] == '-' && s[7] == '-' }

// Segment is a segment of visitors with the same claims.
type Segment struct {
	Title                      string
	Claims                     map[string]any
	Events, Visitors, Sessions int64
}

// SegmentDays is the window the visitor segments are counted over.
const SegmentDays = 30

// Segments lists a site's visitor segments of the last SegmentDays days,
// the most events first (editors and up; errors as Aggregate's).
func (s *Service) Segments(ctx context.Context, orgID, siteID string) ([]Segment, error) {
	if err := s.requireEditor(ctx, orgID, siteID); err != nil {
		return nil, err
	}
	now := s.d.Clock()
	var counters []Counter
	err := s.eachCounter(ctx, siteID, s.plan(now.AddDate(0, 0, -SegmentDays), now.Add(time.Nanosecond), fromDays), func(c *Counter, _ int64) {
		if c.Type == segmentType {
			counters = append(counters, *c)
		}
	})
	if err != nil {
		return nil, err
	}
	by := map[string]*Segment{}
	for _, c := range counters {
		sg := by[c.Claims]
		if sg == nil {
			sg = &Segment{Claims: map[string]any{}}
			if c.Claims != "" {
				if err := json.Unmarshal([]byte(c.Claims), &sg.Claims); err != nil {
					return nil, err
				}
			}
			sg.Title = title(sg.Claims)
			by[c.Claims] = sg
		}
		sg.Events += c.Events
		sg.Visitors += c.Visitors
		sg.Sessions += c.Sessions
	}
	out := make([]Segment, 0, len(by))
	for _, sg := range by {
		out = append(out, *sg)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Events != out[j].Events {
			return out[i].Events > out[j].Events
		}
		return out[i].Title < out[j].Title
	})
	return out, nil
}

// title names a segment by its claims: "Anonymous" without any, else its
// top-level claims as name=value, by name.
func title(claims map[string]any) string {
	if len(claims) == 0 {
		return "Anonymous"
	}
	names := make([]string, 0, len(claims))
	for k := range claims {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, k := range names {
		v := claims[k]
		if _, nested := v.(map[string]any); nested {
			parts = append(parts, k+"={…}")
			continue
		}
		b, _ := json.Marshal(v)
		parts = append(parts, k+"="+strings.Trim(string(b), `"`))
	}
	t := strings.Join(parts, ", ")
	if len(t) > 200 {
		t = t[:200] + "…"
	}
	return t
}

// maxDecoded bounds the counters a process keeps decoded (about 300 bytes
// each: some 60 MB at most).
const maxDecoded = 200_000

// decodedCounters keeps counters decoded by their key and version: a
// counter's version grows with every write (addCounts), so an item read
// again at the same version holds the same counts and its decoding (most
// of an aggregate's time) is skipped. Correct whatever writes happen: a
// changed counter has another version and is decoded again. Emptied when
// full.
type decodedCounters struct {
	mu sync.Mutex
	n  int
	m  map[string]map[string]decodedCounter // by partition, then sort key
}

type decodedCounter struct {
	version int64
	c       *Counter
}

// counter decodes it, or returns its decoding at its version (shared:
// read only).
func (d *decodedCounters) counter(it store.Item) (*Counter, error) {
	d.mu.Lock()
	got, ok := d.m[it.PK][it.SK]
	d.mu.Unlock()
	if ok && got.version == it.Version {
		return got.c, nil
	}
	v, err := records.Decode[Counter](it)
	if err != nil {
		return nil, err
	}
	c := &v
	d.mu.Lock()
	if d.m == nil || d.n >= maxDecoded {
		d.m, d.n = map[string]map[string]decodedCounter{}, 0
	}
	site := d.m[it.PK]
	if site == nil {
		site = map[string]decodedCounter{}
		d.m[it.PK] = site
	}
	if _, ok := site[it.SK]; !ok {
		d.n++
	}
	site[it.SK] = decodedCounter{version: it.Version, c: c}
	d.mu.Unlock()
	return c, nil
}
