package httpapi

import (
	"context"

	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/store"
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

// Pager signs page tokens for the lists not yet moved to package paging
// (their services still take and return store keys): it is paging.Signer
// under the names the handlers used, so the tokens are the same.
type Pager struct {
	*paging.Signer
}

// NewPager returns a Pager signing with secret.
func NewPager(secret []byte) *Pager { return &Pager{paging.NewSigner(secret)} }

// NewLazyPager returns a Pager whose secret is read by key on first use
// (see paging.NewLazySigner).
func NewLazyPager(key func(context.Context) ([]byte, error)) *Pager {
	return &Pager{paging.NewLazySigner(key)}
}

// Token returns the token resuming scope's list after key.
func (p *Pager) Token(scope string, key store.Key) string { return p.Cursor(scope, key) }

// Key reads a token of scope's list; "" reads from the start (nil key).
func (p *Pager) Key(scope, token string) (*store.Key, error) { return p.After(scope, token) }

// Next returns the envelope's next field for a page's next key.
func (p *Pager) Next(scope string, next *store.Key) *NextPage {
	if next == nil {
		return nil
	}
	return &NextPage{Page: p.Cursor(scope, *next)}
}

// Scope names one list for the page-token signer (paging.Scope).
func Scope(op string, parts ...string) string { return paging.Scope(op, parts...) }

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

// Window cuts the page lp asks for out of a list built in memory
// (paging.Window).
func Window[T any](p *Pager, scope string, lp ListParams, items []T, key func(T) string, desc bool) ([]T, *NextPage, error) {
	page, err := paging.Window(p.Signer, scope, lp.Request(), items, key, desc)
	if err != nil {
		return nil, nil, err
	}
	var next *NextPage
	if page.Next != "" {
		next = &NextPage{Page: page.Next}
	}
	return page.Items, next, nil
}
