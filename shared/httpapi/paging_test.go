package httpapi

import (
	"github.com/galleydocs/galley/shared/paging"
	"slices"
	"testing"
)

// Scopes, windows and cursors are tested in package paging; ListPage adapts
// a service's page to the envelope.
func TestListPageCarriesTheCursorAsNextPage(t *testing.T) {
	l := ListPage(paging.Page[int]{Items: []int{1}, Next: "c"}, func(i int) int { return i })
	if l.Next == nil || l.Next.Page != "c" || l.Count != 1 {
		t.Fatalf("ListPage = %+v", l)
	}
	if last := ListPage(paging.Page[int]{Items: []int{1}}, func(i int) int { return i }); last.Next != nil {
		t.Fatalf("the last page has a next: %+v", last.Next)
	}
	if p := (ListParams{Page: "c", Limit: 5}).Request(); p.Cursor != "c" || p.Limit != 5 {
		t.Fatalf("Request = %+v", p)
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
