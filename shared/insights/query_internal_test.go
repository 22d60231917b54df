package insights

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAppendJSONIsMarshal: the rows' order keys (appendJSON) are what
// json.Marshal makes of every kind of dimension value, texts needing
// escapes included.
func TestAppendJSONIsMarshal(t *testing.T) {
	values := []any{nil, "", "page007", "2026-03-01T00:00:00Z", `say "hi"`, `back\slash`, "<b>&amp;</b>", "tab\there", "été", "日本",
		"\x7f", 0, 7, -3, 12345, PageRef{Page: "p1", Space: "s1"}, PageRef{Page: `p"1`, Space: "<s>"}, PageRef{}}
	for _, v := range values {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSON([]byte("x"), v); string(got) != "x"+string(want) {
			t.Errorf("appendJSON(%#v) = %s, want x%s", v, got, want)
		}
	}
}

// TestShortcutsAnswerAsValues: the group keys and the text filters made
// without boxing each counter's values (appendDimKey, dimText) are
// those made from the values (appendKey(dimension), same), on counters
// with and without each fact, for every column.
func TestShortcutsAnswerAsValues(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 28))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	for i := 0; i < 2000; i++ {
		c := &Counter{Day: pick("2026-03-01", "2026-02-28", "2026-03-15"), Type: pick(PageView, SearchTypeQuery, LinkClick),
			Location: Location{URLPath: pick("", "/a", "/b"), SiteSection: pick("", "sec"), SiteSpace: pick("", "ss"), Space: pick("", "sp"), Page: pick("", "p1", "p2")},
			Facts: Facts{Query: pick("", "q", "2026-03-01T00:00:00Z", "2026-03-01T01:00:00+01:00"), ResultPage: pick("", "r"), Rating: pick("", "good"),
				Comment: pick("", "c"), LinkKind: pick("", "url"), LinkPosition: pick("", "content")}}
		for _, name := range Dimensions {
			for _, interval := range []string{"", "day", "week", "month"} {
				col := Column{Name: name, Interval: interval}
				if got, want := appendDimKey([]byte("k"), c, col), appendKey([]byte("k"), dimension(c, col)); !bytes.Equal(got, want) {
					t.Fatalf("%+v of %+v: key %q, want %q", col, c, got, want)
				}
			}
			values := []any{nil, "", "q", "/a", "sec", "good", "2026-03-01T00:00:00Z", PageView, 1.0, map[string]any{"page": "p1"}}
			for _, op := range []string{"", "in", "notIn"} {
				f := Filter{Column: name, Operator: op, Values: []any{values[r.IntN(len(values))], values[r.IntN(len(values))]}}
				v := dimension(c, Column{Name: name, Interval: "day"})
				want := slices.ContainsFunc(f.Values, func(w any) bool { return same(v, w) }) == (op != "notIn")
				if got := match(c, f); got != want {
					t.Fatalf("%+v on %+v: %v, want %v", f, c, got, want)
				}
			}
		}
	}
}

// TestFirstRowsAreTheSortedFirst: the first n rows by the heap are the
// sort's.
func TestFirstRowsAreTheSortedFirst(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 28))
	for i := 0; i < 300; i++ {
		rows := make([]int, 1+r.IntN(500))
		for j := range rows {
			rows[j] = r.IntN(1000)*1000 + j // distinct
		}
		n := 1 + r.IntN(len(rows))
		want := slices.Sorted(slices.Values(rows))[:n]
		if got := firstRows(slices.Clone(rows), n, cmp.Compare[int]); !slices.Equal(got, want) {
			t.Fatalf("first %d of %d: %v, want %v", n, len(rows), got, want)
		}
	}
}
