package testkit

import (
	"context"
	"sync/atomic"

	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/store"
)

// CountingStore counts the storage round trips made through it: every
// call of the port's Get, Query and Write is one (benchmarks report them);
// BatchGets are counted apart (Reads includes them, Total does not).
type CountingStore struct {
	store.Store
	Gets, Queries, Writes, BatchGets atomic.Int64
}

func (c *CountingStore) BatchGet(ctx context.Context, keys []store.ItemKey) ([]store.Item, error) {
	c.BatchGets.Add(1)
	return c.Store.BatchGet(ctx, keys)
}

// Reads is the number of read round trips counted: gets, queries and
// batch gets.
func (c *CountingStore) Reads() int64 { return c.Gets.Load() + c.Queries.Load() + c.BatchGets.Load() }

func (c *CountingStore) Get(ctx context.Context, pk, sk string) (store.Item, error) {
	c.Gets.Add(1)
	return c.Store.Get(ctx, pk, sk)
}

func (c *CountingStore) Query(ctx context.Context, q store.Query) (store.Page, error) {
	c.Queries.Add(1)
	return c.Store.Query(ctx, q)
}

func (c *CountingStore) Write(ctx context.Context, ops ...store.Op) error {
	c.Writes.Add(1)
	return c.Store.Write(ctx, ops...)
}

// Reset sets the counts to zero.
func (c *CountingStore) Reset() {
	c.Gets.Store(0)
	c.Queries.Store(0)
	c.Writes.Store(0)
	c.BatchGets.Store(0)
}

// Total is the number of round trips counted.
func (c *CountingStore) Total() int64 { return c.Gets.Load() + c.Queries.Load() + c.Writes.Load() }

// CountingBlobs counts the blob reads and writes made through it.
type CountingBlobs struct {
	blob.Store
	Gets, Puts atomic.Int64
}

func (c *CountingBlobs) Get(ctx context.Context, key string) ([]byte, error) {
	c.Gets.Add(1)
	return c.Store.Get(ctx, key)
}

func (c *CountingBlobs) Put(ctx context.Context, key string, data []byte, contentType string) error {
	c.Puts.Add(1)
	return c.Store.Put(ctx, key, data, contentType)
}

// Reset sets the counts to zero.
func (c *CountingBlobs) Reset() { c.Gets.Store(0); c.Puts.Store(0) }
