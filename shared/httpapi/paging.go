package httpapi

import (
	"github.com/galleydocs/galley/shared/paging"
)

// DefaultLimit is the page size of lists when `limit` is absent.
const DefaultLimit = paging.DefaultLimit

// ListParams are the paging query parameters of every list.
type ListParams struct {
	Page  string `query:"page" doc:"Token of the page to read, from the previous page's next.page"`
	Limit int    `query:"limit" minimum:"1" maximum:"1000" doc:"Most items to return (default 50)"`
}

// Size is the requested page size, DefaultLimit when absent.
func (p ListParams) Size() int {
	if p.Limit == 0 {
		return DefaultLimit
	}
	return p.Limit
}

// List is the envelope of every list response.
type List[T any] struct {
	Next  *NextPage `json:"next,omitempty"`
	Count int       `json:"count" doc:"Number of items in this page"`
	Items []T       `json:"items"`
}

// ListOf is the list response of one page: items, each shown through view,
// and next, the following page (nil on the last).
func ListOf[T, V any](items []T, next *NextPage, view func(T) V) List[V] {
	l := List[V]{Next: next, Count: len(items), Items: make([]V, 0, len(items))}
	for _, it := range items {
		l.Items = append(l.Items, view(it))
	}
	return l
}

// NextPage points at the following page.
type NextPage struct {
	Page string `json:"page"`
}

// Request is the paging request of the list parameters.
func (p ListParams) Request() paging.Request { return paging.Request{Limit: p.Limit, Cursor: p.Page} }

// ListPage is the list response of a service's page: its items, each shown
// through view, and the next page's token.
func ListPage[T, V any](p paging.Page[T], view func(T) V) List[V] {
	var next *NextPage
	if p.Next != "" {
		next = &NextPage{Page: p.Next}
	}
	return ListOf(p.Items, next, view)
}
