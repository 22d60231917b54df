package storetest

import (
	"context"
	"sync/atomic"

	"github.com/galleydocs/galley/shared/store"
)

// Counting is a store that counts the calls made through it: each is one
// storage round trip (on DynamoDB, one request; a BatchGet that DynamoDB
// answers in parts takes more, which this does not see). Benchmarks and
// tests use it to bound what a request costs.
type Counting struct {
	store.Store
	gets, batchGets, queries, writes atomic.Int64
}

var _ store.Store = (*Counting)(nil)

// NewCounting wraps s.
func NewCounting(s store.Store) *Counting { return &Counting{Store: s} }

// Calls is the number of calls of each kind since the last Reset.
type Calls struct {
	Gets, BatchGets, Queries, Writes int64
}

// Total is every call.
func (c Calls) Total() int64 { return c.Gets + c.BatchGets + c.Queries + c.Writes }

// Calls returns the counts.
func (c *Counting) Calls() Calls {
	return Calls{Gets: c.gets.Load(), BatchGets: c.batchGets.Load(), Queries: c.queries.Load(), Writes: c.writes.Load()}
}

// Reset zeroes the counts.
func (c *Counting) Reset() {
	c.gets.Store(0)
	c.batchGets.Store(0)
	c.queries.Store(0)
	c.writes.Store(0)
}

// Get implements store.Store.
func (c *Counting) Get(ctx context.Context, pk, sk string) (store.Item, error) {
	c.gets.Add(1)
	return c.Store.Get(ctx, pk, sk)
}

// BatchGet implements store.Store.
func (c *Counting) BatchGet(ctx context.Context, keys []store.ItemKey) ([]store.Item, error) {
	c.batchGets.Add(1)
	return c.Store.BatchGet(ctx, keys)
}

// Query implements store.Store.
func (c *Counting) Query(ctx context.Context, q store.Query) (store.Page, error) {
	c.queries.Add(1)
	return c.Store.Query(ctx, q)
}

// Write implements store.Store.
func (c *Counting) Write(ctx context.Context, ops ...store.Op) error {
	c.writes.Add(1)
	return c.Store.Write(ctx, ops...)
}
