package search

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
)

// Cache keeps the indexes this process opened last, open, in a temporary
// directory: a query on a cached revision reads no storage at all. An
// index is loaded once however many requests want it at the same moment;
// an index evicted while queries use it is closed when the last one ends.
type Cache struct {
	max int

	mu      sync.Mutex
	base    string
	entries map[string]*entry
	tick    uint64
	seq     int
}

type entry struct {
	key   string
	ready chan struct{}
	idx   bleve.Index
	dir   string
	err   error
	refs  int
	used  uint64
	gone  bool
}

// NewCache returns a cache of at most max open indexes.
func NewCache(max int) *Cache {
	return &Cache{max: max, entries: map[string]*entry{}}
}

// Handle is an index in use; Release it when done.
type Handle struct {
	c *Cache
	e *entry
}

// Index is the open index.
func (h *Handle) Index() bleve.Index { return h.e.idx }

// Release ends the use of the index.
func (h *Handle) Release() {
	h.c.mu.Lock()
	defer h.c.mu.Unlock()
	h.e.refs--
	h.c.closeIfIdle(h.e)
}

// Acquire returns the index of key, calling load to fill a fresh
// directory (which must then hold the index) when it is not open.
func (c *Cache) Acquire(ctx context.Context, key string, load func(ctx context.Context, dir string) error) (*Handle, error) {
	c.mu.Lock()
	c.tick++
	e, ok := c.entries[key]
	if ok {
		e.refs++
		e.used = c.tick
		c.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			(&Handle{c, e}).Release()
			return nil, ctx.Err()
		}
		if e.err != nil {
			(&Handle{c, e}).Release()
			return nil, e.err
		}
		return &Handle{c, e}, nil
	}
	dir, err := c.newDir(key)
	if err != nil {
		c.mu.Unlock()
		return nil, err
	}
	e = &entry{key: key, ready: make(chan struct{}), dir: dir, refs: 1, used: c.tick}
	c.entries[key] = e
	c.evict()
	c.mu.Unlock()

	err = load(ctx, dir)
	if err == nil {
		e.idx, err = Open(dir)
	}
	e.err = err
	close(e.ready)
	if err != nil {
		c.mu.Lock()
		if c.entries[key] == e {
			delete(c.entries, key)
		}
		e.gone = true
		e.refs--
		c.closeIfIdle(e)
		c.mu.Unlock()
		return nil, err
	}
	return &Handle{c, e}, nil
}

// newDir names a fresh directory for an index (not created).
func (c *Cache) newDir(key string) (string, error) {
	if c.base == "" {
		base, err := os.MkdirTemp("", "galley-search-")
		if err != nil {
			return "", err
		}
		c.base = base
	}
	c.seq++
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, key)
	return filepath.Join(c.base, safe+"-"+strconv.Itoa(c.seq)), nil
}

// evict drops the least recently used entries beyond max.
func (c *Cache) evict() {
	for len(c.entries) > c.max {
		var old *entry
		for _, e := range c.entries {
			if old == nil || e.used < old.used {
				old = e
			}
		}
		delete(c.entries, old.key)
		old.gone = true
		c.closeIfIdle(old)
	}
}

func (c *Cache) closeIfIdle(e *entry) {
	if !e.gone || e.refs > 0 {
		return
	}
	select {
	case <-e.ready:
	default:
		return // still loading: its loader releases it
	}
	if e.idx != nil {
		_ = e.idx.Close()
	}
	_ = os.RemoveAll(e.dir)
}

// Len is the number of indexes held.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// Close closes every idle index and removes the cache's directory; it is
// for tests and orderly shutdowns.
func (c *Cache) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		delete(c.entries, k)
		e.gone = true
		c.closeIfIdle(e)
	}
	if c.base != "" {
		_ = os.RemoveAll(c.base)
		c.base = ""
	}
}
