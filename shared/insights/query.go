package insights

import (
	"bytes"
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
	groups := map[string]*group{}
	var order []*group
	var key []byte
	var slab groupSlab
	src := fromDays
	if rollups {
		src = sourceOf(q)
	}
	spans := s.plan(q.From, q.To, src)
	read := s.eachCounter
	if rollups {
		// The closed days through their packs.
		read = func(ctx context.Context, siteID string, spans []span, fn func(*Counter, int64)) error {
			return s.eachPacked(ctx, siteID, spans, typesOf(q.Where), fn)
		}
	}
	err := read(ctx, siteID, spans, func(c *Counter, sign int64) {
		if c.Type == segmentType || !matches(c, q.Where) {
			return
		}
		key = key[:0]
		for _, col := range q.GroupBy {
			key = appendDimKey(key, c, col)
		}
		g := groups[string(key)]
		if g == nil {
			g = slab.new(len(q.GroupBy), len(q.Select))
			for i, col := range q.GroupBy {
				g.dims[i] = dimension(c, col)
			}
			groups[string(key)] = g
			order = append(order, g)
		}
		g.events += sign * c.Events
		for i, col := range q.Select {
			switch col.Name {
			case "eventsCount":
				g.counts[i] += sign * c.Events
			case "visitorsCount":
				g.counts[i] += sign * c.Visitors
			case "sessionsCount":
				g.counts[i] += sign * c.Sessions
			case "pageFeedbackRating":
				r := g.rating(i, len(q.Select))
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
	order = slices.DeleteFunc(order, func(g *group) bool { return g.events == 0 })
	res := Result{}
	for _, c := range q.GroupBy {
		res.Columns = append(res.Columns, c.Name)
	}
	for _, c := range q.Select {
		res.Columns = append(res.Columns, c.Name)
	}
	for _, g := range firstGroups(order, q, res.Columns) {
		row := make(Row, 0, len(g.dims)+len(q.Select))
		row = append(row, g.dims...)
		for i, c := range q.Select {
			if c.Name == "pageFeedbackRating" {
				row = append(row, g.rating(i, len(q.Select)))
			} else {
				row = append(row, g.counts[i])
			}
		}
		res.Rows = append(res.Rows, row)
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
	return res, nil
}

// group is a row of an aggregation as it is summed: its dimensions, and
// its sum of each selected metric (a rating's in ratings).
type group struct {
	dims    []any
	counts  []int64
	ratings []RatingCounts
	// events is the group's events whatever is selected: a group whose
	// added and subtracted counters sum to no event is no group (a
	// roll-up's counter of the days left out).
	events int64
	// key is its dimensions' JSON, made when the order needs it.
	key []byte
}

// rating is the group's rating counts of the selected column i (of n).
func (g *group) rating(i, n int) *RatingCounts {
	if g.ratings == nil {
		g.ratings = make([]RatingCounts, n)
	}
	return &g.ratings[i]
}

// groupSlab allocates groups and their slices by the hundred (an
// aggregation may make tens of thousands).
type groupSlab struct {
	groups []group
	dims   []any
	counts []int64
}

func (s *groupSlab) new(dims, counts int) *group {
	if len(s.groups) == cap(s.groups) {
		s.groups = make([]group, 0, 256)
	}
	if len(s.dims)+dims > cap(s.dims) {
		s.dims = make([]any, 0, 256*max(dims, 1))
	}
	if len(s.counts)+counts > cap(s.counts) {
		s.counts = make([]int64, 0, 256*max(counts, 1))
	}
	s.groups = append(s.groups, group{dims: s.dims[len(s.dims) : len(s.dims)+dims : len(s.dims)+dims],
		counts: s.counts[len(s.counts) : len(s.counts)+counts : len(s.counts)+counts]})
	s.dims, s.counts = s.dims[:len(s.dims)+dims], s.counts[:len(s.counts)+counts]
	return &s.groups[len(s.groups)-1]
}

// firstGroups are the first q.Limit groups in the query's order: by its
// order column, else by the first metric (descending), else by the
// first dimension (ascending); ties by the dimensions' JSON, so that
// answers are stable.
func firstGroups(groups []*group, q Aggregation, columns []string) []*group {
	by, desc := slices.Index(columns, q.OrderBy), q.Desc
	if by < 0 {
		by, desc = len(q.GroupBy), true
		if len(q.Select) == 0 {
			by, desc = 0, false
		}
	}
	keyOf := func(g *group) []byte {
		if g.key == nil {
			g.key = append(g.key, '[')
			for j, v := range g.dims {
				if j > 0 {
					g.key = append(g.key, ',')
				}
				g.key = appendJSON(g.key, v)
			}
			g.key = append(g.key, ']')
		}
		return g.key
	}
	byColumn := func(x, y *group) int {
		switch {
		case by >= len(columns):
			return 0
		case by < len(q.GroupBy):
			return compare(x.dims[by], y.dims[by])
		}
		i := by - len(q.GroupBy)
		if q.Select[i].Name == "pageFeedbackRating" {
			a, b := x.rating(i, len(q.Select)), y.rating(i, len(q.Select))
			return cmp.Compare(a.Bad+a.OK+a.Good, b.Bad+b.OK+b.Good)
		}
		return cmp.Compare(x.counts[i], y.counts[i])
	}
	// Groups' keys differ (a group is its dimensions): no two tie.
	return firstRows(groups, q.Limit, func(x, y *group) int {
		if c := byColumn(x, y); c != 0 {
			if desc {
				return -c
			}
			return c
		}
		return bytes.Compare(keyOf(x), keyOf(y))
	})
}

// firstRows are the first n of rows in cmp's order, in order: a heap
// of the n first so far (the last of them on top) when n is much less
// than the rows, else a sort.
func firstRows[T any](rows []T, n int, cmp func(a, b T) int) []T {
	if n >= len(rows)/4 {
		slices.SortFunc(rows, cmp)
		return rows[:min(n, len(rows))]
	}
	h := slices.Clone(rows[:n])
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			if r := l + 1; r < len(h) && cmp(h[r], h[l]) > 0 {
				l = r
			}
			if cmp(h[l], h[i]) <= 0 {
				return
			}
			h[i], h[l] = h[l], h[i]
			i = l
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for _, r := range rows[n:] {
		if cmp(r, h[0]) < 0 {
			h[0] = r
			down(0)
		}
	}
	slices.SortFunc(h, cmp)
	return h
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
	return strings.Compare(string(appendJSON(nil, a)), string(appendJSON(nil, b)))
}

// appendJSON appends what json.Marshal makes of a dimension's value,
// without its reflection for the usual ones (texts needing no escape,
// numbers, pages, null): the rows' order is that of their JSON.
func appendJSON(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		if plainJSON(x) {
			return append(append(append(b, '"'), x...), '"')
		}
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case PageRef:
		if plainJSON(x.Page) && plainJSON(x.Space) {
			return append(append(append(append(append(b, `{"page":"`...), x.Page...), `","space":"`...), x.Space...), `"}`...)
		}
	}
	j, _ := json.Marshal(v)
	return append(b, j...)
}

// plainJSON tells a text that JSON writes as it is between quotes
// (printable ASCII but the quote, the backslash and <, >, & that
// encoding/json escapes).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
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
	// days: the span is days' counters (first..last, of one month).
	days bool
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
			// The range's days of this month.
			lo, hi := Day(first), Day(last)
			lo, hi = max(lo, month+"-01"), min(hi, month+"-31")
			spans = append(spans, span{prefix: keys.InsightsCounterPrefix(month), first: lo, last: hi, sign: 1, days: true})
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
				spans = append(spans, span{prefix: keys.InsightsCounterPrefix(d) + "#", first: d, last: d, sign: -1, days: true})
			}
			continue
		}
		for _, d := range in {
			spans = append(spans, span{prefix: keys.InsightsCounterPrefix(d) + "#", first: d, last: d, sign: 1, days: true})
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

// eachPacked is eachCounter reading the days' spans through the days'
// packs (eachDayCounter), with the months' totals by type, and only the
// counters of types (nil: all).
func (s *Service) eachPacked(ctx context.Context, siteID string, spans []span, types []string, fn func(*Counter, int64)) error {
	totals := map[string]map[string]map[string]int64{} // by month, day, type
	for _, sp := range spans {
		if !sp.days {
			if err := s.eachCounter(ctx, siteID, []span{sp}, fn); err != nil {
				return err
			}
			continue
		}
		month := sp.first[:len("2006-01")]
		t, ok := totals[month]
		if !ok {
			var err error
			if t, err = s.dayTotals(ctx, siteID, month); err != nil {
				return err
			}
			totals[month] = t
		}
		if err := s.eachDayCounter(ctx, siteID, t, sp.first, sp.last, types, sp.sign, fn); err != nil {
			return err
		}
	}
	return nil
}

// typesOf are the event types an aggregation's filters leave (nil: any).
func typesOf(where []Filter) []string {
	var types []string
	for _, f := range where {
		if f.Column != "eventType" || f.Operator != "" && f.Operator != "in" {
			continue
		}
		var these []string
		for _, v := range f.Values {
			if t, ok := v.(string); ok && (types == nil || slices.Contains(types, t)) {
				these = append(these, t)
			}
		}
		if these == nil {
			these = []string{}
		}
		types = these
	}
	return types
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

// dimText is a counter's value of a text column without making it an
// any (null: the column's null); ok false for the other columns.
func dimText(c *Counter, name string) (v string, null, ok bool) {
	switch name {
	case "eventType":
		v = c.Type
	case "urlPath":
		v = c.URLPath
	case "displayContext":
		v = "site"
	case "eventSearchQuery":
		v = c.Query
	case "eventPageFeedbackRating":
		v = c.Rating
	case "eventPageFeedbackComment":
		v = c.Comment
	case "eventLinkTargetKind":
		v = c.LinkKind
	case "eventLinkPosition":
		v = c.LinkPosition
	case "siteSection":
		return c.SiteSection, c.SiteSection == "", true
	case "siteSpace":
		return c.SiteSpace, c.SiteSpace == "", true
	case "eventSearchResultRecordId":
		return c.ResultPage, c.ResultPage == "", true
	default:
		return "", false, false
	}
	return v, false, true
}

// appendDimKey is appendKey(b, dimension(c, col)) without making the
// value (the texts, days, months and pages of every counter read).
func appendDimKey(b []byte, c *Counter, col Column) []byte {
	if v, null, ok := dimText(c, col.Name); ok {
		if null {
			return append(b, 'n', 0)
		}
		return append(append(append(b, 's'), v...), 0)
	}
	switch {
	case col.Name == "datetime" && (col.Interval == "" || col.Interval == "day"):
		return append(append(append(b, 's'), c.Day...), "T00:00:00Z\x00"...)
	case col.Name == "datetime" && col.Interval == "month":
		return append(append(append(b, 's'), c.Day[:len("2006-01")]...), "-01T00:00:00Z\x00"...)
	case col.Name == "page":
		if c.Page == "" {
			return append(b, 'n', 0)
		}
		return append(append(append(append(append(b, 'p'), c.Page...), 1), c.Space...), 0)
	}
	return appendKey(b, dimension(c, col))
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
		if t, null, ok := dimText(c, f.Column); ok && (f.Operator == "" || f.Operator == "in" || f.Operator == "notIn") {
			found := slices.ContainsFunc(f.Values, func(w any) bool { return sameText(t, null, w) })
			return found == (f.Operator != "notIn")
		}
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

// sameText is same for a text column's value (t, or null).
func sameText(t string, null bool, w any) bool {
	if null || w == nil {
		return null && w == nil
	}
	u, ok := w.(string)
	if !ok {
		return false
	}
	if !dateLike(t) || !dateLike(u) {
		return t == u
	}
	return same(t, u)
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
	return s.segments(ctx, orgID, siteID, true)
}

// segments reads the segments' counters of each day through the day's
// segments pack where it is at the day's segments total's version
// (eachPacked), else from the day's segments counters; with packs false,
// every counter of the days (what the packs must answer alike).
func (s *Service) segments(ctx context.Context, orgID, siteID string, packs bool) ([]Segment, error) {
	if err := s.requireEditor(ctx, orgID, siteID); err != nil {
		return nil, err
	}
	now := s.d.Clock()
	var counters []Counter
	read := s.eachCounter
	if packs {
		read = func(ctx context.Context, siteID string, spans []span, fn func(*Counter, int64)) error {
			return s.eachPacked(ctx, siteID, spans, []string{segmentType}, fn)
		}
	}
	err := read(ctx, siteID, s.plan(now.AddDate(0, 0, -SegmentDays), now.Add(time.Nanosecond), fromDays), func(c *Counter, _ int64) {
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
