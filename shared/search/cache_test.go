package search

import (
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

func buildOne(title string) func(context.Context, string) error {
	return func(ctx context.Context, dir string) error {
		return Build(ctx, dir, AnalysisDefault, []Page{{ID: "p", Title: title, Body: "text\n"}})
	}
}

func TestCacheKeepsAnEvictedIndexOpenUntilItsLastUse(t *testing.T) {
	c := NewCache(1)
	defer c.Close()
	ctx := context.Background()
	a, err := c.Acquire(ctx, "a", buildOne("alpha"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Acquire(ctx, "b", buildOne("beta"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 1 {
		t.Fatalf("%d indexes held, want 1", c.Len())
	}
	// a is evicted but in use: it still answers.
	if hits, err := Pages(ctx, a.Index(), "alpha", 0, 10); err != nil || hits.Total != 1 {
		t.Fatalf("evicted index in use: %v, %v", hits, err)
	}
	dir := a.e.dir
	a.Release()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the evicted index's directory is still there after its last use: %v", err)
	}
	b.Release()
	if _, err := os.Stat(b.e.dir); err != nil {
		t.Errorf("the cached index's directory is gone: %v", err)
	}
}

func TestCacheLoadsAnIndexOnceForConcurrentRequests(t *testing.T) {
	c := NewCache(4)
	defer c.Close()
	var loads atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h, err := c.Acquire(context.Background(), "k", func(ctx context.Context, dir string) error {
				loads.Add(1)
				return buildOne("kappa")(ctx, dir)
			})
			if err != nil {
				t.Error(err)
				return
			}
			defer h.Release()
			if hits, err := Pages(context.Background(), h.Index(), "kappa", 0, 10); err != nil || hits.Total != 1 {
				t.Errorf("search: %v, %v", hits, err)
			}
		}()
	}
	wg.Wait()
	if n := loads.Load(); n != 1 {
		t.Errorf("%d loads, want 1", n)
	}
}

func TestCacheDoesNotKeepAFailedLoad(t *testing.T) {
	c := NewCache(4)
	defer c.Close()
	boom := errors.New("boom")
	if _, err := c.Acquire(context.Background(), "k", func(context.Context, string) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	h, err := c.Acquire(context.Background(), "k", buildOne("kappa"))
	if err != nil {
		t.Fatalf("the next request loads again: %v", err)
	}
	h.Release()
}
