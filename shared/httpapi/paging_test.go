package httpapi

import (
	"slices"
	"testing"
)

// Scopes, windows and cursors are tested in package paging; Window here is
// its adapter.
func TestWindowAdapterPagesThroughTheList(t *testing.T) {
	p := NewPager([]byte("secret"))
	id := func(s string) string { return s }
	page, next, err := Window(p, "s", ListParams{Limit: 2}, []string{"a", "b", "c"}, id, false)
	if err != nil || !slices.Equal(page, []string{"a", "b"}) || next == nil {
		t.Fatalf("first page = %v, %v, %v", page, next, err)
	}
	page, next, err = Window(p, "s", ListParams{Limit: 2, Page: next.Page}, []string{"a", "b", "c"}, id, false)
	if err != nil || !slices.Equal(page, []string{"c"}) || next != nil {
		t.Fatalf("second page = %v, %v, %v", page, next, err)
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
