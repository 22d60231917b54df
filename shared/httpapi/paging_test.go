package httpapi

import (
	"slices"
	"testing"
)

func TestScopeQuotesEachPart(t *testing.T) {
	if a, b := Scope("op", "a b", "c"), Scope("op", "a", "b c"); a == b {
		t.Fatalf("two lists share the scope %q", a)
	}
	if got, want := Scope("op", "x"), `op "x"`; got != want {
		t.Fatalf("Scope = %q, want %q", got, want)
	}
}

func TestWindowWalksEveryPageInOrder(t *testing.T) {
	p := NewPager([]byte("secret"))
	id := func(s string) string { return s }
	for _, tc := range []struct {
		name  string
		items []string
		desc  bool
	}{
		{"ascending", []string{"a", "b", "c", "d", "e"}, false},
		{"descending", []string{"e", "d", "c", "b", "a"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			lp := ListParams{Limit: 2}
			for range 10 {
				page, next, err := Window(p, "s", lp, tc.items, id, tc.desc)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, page...)
				if next == nil {
					break
				}
				lp.Page = next.Page
			}
			if !slices.Equal(got, tc.items) {
				t.Fatalf("pages = %v, want %v", got, tc.items)
			}
		})
	}
}

func TestWindowResumesAfterTheLastItemShown(t *testing.T) {
	p := NewPager([]byte("secret"))
	id := func(s string) string { return s }
	_, next, err := Window(p, "s", ListParams{Limit: 2}, []string{"a", "c", "e"}, id, false)
	if err != nil || next == nil {
		t.Fatalf("first page: next %v, err %v", next, err)
	}
	// "c" was removed and "d" added after the first page was read.
	page, _, err := Window(p, "s", ListParams{Limit: 2, Page: next.Page}, []string{"a", "d", "e"}, id, false)
	if err != nil || !slices.Equal(page, []string{"d", "e"}) {
		t.Fatalf("second page = %v, err %v; want [d e]", page, err)
	}
}

func TestWindowRefusesATokenOfAnotherList(t *testing.T) {
	p := NewPager([]byte("secret"))
	id := func(s string) string { return s }
	_, next, _ := Window(p, "one", ListParams{Limit: 1}, []string{"a", "b"}, id, false)
	if _, _, err := Window(p, "two", ListParams{Limit: 1, Page: next.Page}, []string{"a", "b"}, id, false); err == nil {
		t.Fatal("a token of another list was accepted")
	}
}

func TestListOfShowsEachItemAndCountsThem(t *testing.T) {
	next := &NextPage{Page: "t"}
	l := ListOf([]int{1, 2}, next, func(i int) string { return string(rune('a' + i)) })
	if l.Count != 2 || !slices.Equal(l.Items, []string{"b", "c"}) || l.Next != next {
		t.Fatalf("ListOf = %+v", l)
	}
	if empty := ListOf([]int(nil), nil, func(int) string { return "" }); empty.Items == nil || empty.Count != 0 {
		t.Fatalf("an empty page must have items [] (not null): %+v", empty)
	}
}
