package boltstore

import (
	"sync"

	"github.com/galleydocs/galley/shared/store"
)

// Limits of the read cache.
const (
	cacheBytes    = 32 << 20 // past this, the cache starts afresh
	cacheItemSize = 64 << 10 // larger items are not kept
)

// readCache keeps the items (and the absence of items) that Get and
// BatchGet read, so that reading them again costs no bbolt transaction.
//
// It is exact, not a cache with a lifetime: bbolt lets one process open a
// file, and every write to the table goes through Store.Write, which drops
// the keys it wrote once it has committed. A read that raced with a write
// keeps what it read only if no write ended while it read (seq did not
// move), so a value older than a finished write is never kept; a read
// concurrent with an unfinished write may see either value, as without the
// cache.
type readCache struct {
	mu    sync.RWMutex
	seq   uint64 // counts the writes that ended
	items map[store.ItemKey]cached
	bytes int
}

type cached struct {
	it    store.Item
	found bool
}

func newReadCache() *readCache { return &readCache{items: map[store.ItemKey]cached{}} }

// keySize is what a key counts against cacheBytes.
func keySize(k store.ItemKey) int { return len(k.PK) + len(k.SK) }

// get returns what is kept for the key, and the write count to pass to put.
func (c *readCache) get(k store.ItemKey) (cached, bool, uint64) {
	c.mu.RLock()
	e, ok := c.items[k]
	seq := c.seq
	c.mu.RUnlock()
	if ok && e.found {
		e.it.Data = append([]byte(nil), e.it.Data...) // callers own what they get
	}
	return e, ok, seq
}

// put keeps what a read that started at write count seq found.
func (c *readCache) put(seq uint64, k store.ItemKey, it store.Item, found bool) {
	size := keySize(k) + it.Size()
	if size > cacheItemSize {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seq != seq {
		return // a write ended meanwhile: what was read may be older
	}
	if c.bytes+size > cacheBytes {
		c.items, c.bytes = map[store.ItemKey]cached{}, 0
	}
	if found {
		it.Data = append([]byte(nil), it.Data...)
	}
	if old, ok := c.items[k]; ok {
		c.bytes -= keySize(k) + old.it.Size()
	}
	c.items[k] = cached{it: it, found: found}
	c.bytes += size
}

// wrote drops the keys of a write that ended (committed or not).
func (c *readCache) wrote(ops []store.Op) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	for _, op := range ops {
		k := store.ItemKey{PK: op.Item.PK, SK: op.Item.SK}
		if old, ok := c.items[k]; ok {
			c.bytes -= keySize(k) + old.it.Size()
			delete(c.items, k)
		}
	}
}
