// Package boltstore implements the storage port on go.etcd.io/bbolt: the
// embedded store of local mode, one file under DATA_DIR.
//
// Layout: bucket "table" maps PK NUL SK to the encoded item; buckets "GSI1"
// and "GSI2" map IPK NUL ISK NUL PK NUL SK to nothing. NUL sorts below every
// other byte, so bytewise order of these keys is DynamoDB's order of the sort
// key within a partition (ties in an index broken by primary key).
package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/galleydocs/galley/shared/store"
	bolt "go.etcd.io/bbolt"
)

var (
	tableBucket = []byte("table")
	indexBucket = map[store.Index][]byte{store.GSI1: []byte("GSI1"), store.GSI2: []byte("GSI2")}
)

// Store is the bbolt adapter.
type Store struct {
	db    *bolt.DB
	cache *readCache
}

var _ store.Store = (*Store)(nil)

// Open opens (creating if needed) the store file at path.
func Open(path string) (*Store, error) {
	// No statistics: their counters are a lock taken by every read
	// transaction, and nothing reads them.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 5 * time.Second, NoStatistics: true})
	if err != nil {
		return nil, fmt.Errorf("open bolt store %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{tableBucket, indexBucket[store.GSI1], indexBucket[store.GSI2]} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("init bolt store: %w", err)
	}
	return &Store{db: db, cache: newReadCache()}, nil
}

// DB exposes the underlying database to adapters of other ports (the local
// queue) that keep their state in the same file, in buckets of their own:
// the table is written only by Write, which keeps the read cache exact.
func (s *Store) DB() *bolt.DB { return s.db }

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, pk, sk string) (store.Item, error) {
	if err := store.ValidateKey(pk, sk); err != nil {
		return store.Item{}, err
	}
	ck := store.ItemKey{PK: pk, SK: sk}
	e, ok, seq := s.cache.get(ck)
	if ok {
		if !e.found {
			return store.Item{}, store.ErrNotFound
		}
		return e.it, nil
	}
	var it store.Item
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(tableBucket).Get(primaryKey(pk, sk))
		if v == nil {
			return store.ErrNotFound
		}
		var err error
		it, err = decode(v)
		return err
	})
	if err == nil || errors.Is(err, store.ErrNotFound) {
		s.cache.put(seq, ck, it, err == nil)
	}
	return it, err
}

// BatchGet implements store.Store: one read transaction.
func (s *Store) BatchGet(ctx context.Context, keys []store.ItemKey) ([]store.Item, error) {
	if err := store.ValidateBatchGet(keys); err != nil {
		return nil, err
	}
	out := make([]store.Item, len(keys))
	var missed []int
	var seq uint64
	for i, k := range keys {
		e, ok, sq := s.cache.get(k)
		if !ok {
			if missed == nil {
				seq = sq
			}
			missed = append(missed, i)
			continue
		}
		if e.found {
			out[i] = e.it
		}
	}
	if len(missed) == 0 {
		return out, nil
	}
	err := s.db.View(func(tx *bolt.Tx) error {
		table := tx.Bucket(tableBucket)
		for _, i := range missed {
			k := keys[i]
			if v := table.Get(primaryKey(k.PK, k.SK)); v != nil {
				var err error
				if out[i], err = decode(v); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, i := range missed {
		s.cache.put(seq, keys[i], out[i], out[i].PK != "")
	}
	return out, nil
}

// Write implements store.Store.
func (s *Store) Write(ctx context.Context, ops ...store.Op) error {
	if err := store.Validate(ops); err != nil {
		return err
	}
	defer s.cache.wrote(ops)
	return s.db.Update(func(tx *bolt.Tx) error {
		table := tx.Bucket(tableBucket)
		olds := make([]*store.Item, len(ops))
		for i, op := range ops {
			if v := table.Get(primaryKey(op.Item.PK, op.Item.SK)); v != nil {
				old, err := decode(v)
				if err != nil {
					return err
				}
				olds[i] = &old
			}
			if !holds(op, olds[i]) {
				return fmt.Errorf("%w: %s/%s", store.ErrConflict, op.Item.PK, op.Item.SK)
			}
		}
		for i, op := range ops {
			if op.Kind == store.OpCheck {
				continue
			}
			if old := olds[i]; old != nil {
				if err := unindex(tx, *old); err != nil {
					return err
				}
			}
			pk := primaryKey(op.Item.PK, op.Item.SK)
			if op.Kind == store.OpDelete {
				if err := table.Delete(pk); err != nil {
					return err
				}
				continue
			}
			if err := table.Put(pk, encode(op.Item)); err != nil {
				return err
			}
			if err := index(tx, op.Item); err != nil {
				return err
			}
		}
		return nil
	})
}

func holds(op store.Op, old *store.Item) bool {
	switch op.Cond {
	case store.IfNotExists:
		return old == nil
	case store.IfExists:
		return old != nil
	case store.IfVersion:
		return old != nil && old.Version == op.Version
	}
	return true
}

// Query implements store.Store.
func (s *Store) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if err := store.ValidateQuery(q); err != nil {
		return store.Page{}, err
	}
	var page store.Page
	err := s.db.View(func(tx *bolt.Tx) error {
		table := tx.Bucket(tableBucket)
		var b *bolt.Bucket
		if q.Index == store.Table {
			b = table
		} else {
			b = tx.Bucket(indexBucket[q.Index])
		}
		prefix := join([]byte(q.PK), []byte(q.SKPrefix))
		var start []byte
		if q.After != nil {
			if q.Index == store.Table {
				start = primaryKey(q.After.PK, q.After.SK)
			} else {
				start = indexKey(q.After.IPK, q.After.ISK, q.After.PK, q.After.SK)
			}
		}
		c := b.Cursor()
		k, v := first(c, prefix, start, q.Reverse)
		for ; k != nil && bytes.HasPrefix(k, prefix); k, v = step(c, q.Reverse) {
			if len(page.Items) == q.Limit {
				last := page.Items[len(page.Items)-1]
				page.Next = &store.Key{PK: last.PK, SK: last.SK}
				if q.Index != store.Table {
					page.Next.IPK, page.Next.ISK = indexKeys(last, q.Index)
				}
				return nil
			}
			if q.Index != store.Table {
				pk, sk := splitIndexKey(k)
				v = table.Get(primaryKey(pk, sk))
				if v == nil {
					return fmt.Errorf("bolt store: index entry without item %s/%s", pk, sk)
				}
			}
			it, err := decode(v)
			if err != nil {
				return err
			}
			page.Items = append(page.Items, it)
		}
		return nil
	})
	return page, err
}

// first positions the cursor on the first key of the scan: the first (or, in
// reverse, last) key with the prefix, or the key just past start.
func first(c *bolt.Cursor, prefix, start []byte, reverse bool) ([]byte, []byte) {
	if !reverse {
		if start == nil {
			return c.Seek(prefix)
		}
		k, v := c.Seek(start)
		if bytes.Equal(k, start) {
			return c.Next()
		}
		return k, v
	}
	seek := start
	if seek == nil {
		// 0xFF never occurs in UTF-8, so this sorts after every key with the prefix.
		seek = append(append([]byte{}, prefix...), 0xFF)
	}
	k, _ := c.Seek(seek)
	if k == nil {
		return c.Last()
	}
	return c.Prev()
}

func step(c *bolt.Cursor, reverse bool) ([]byte, []byte) {
	if reverse {
		return c.Prev()
	}
	return c.Next()
}

func indexKeys(it store.Item, ix store.Index) (string, string) {
	if ix == store.GSI1 {
		return it.GSI1PK, it.GSI1SK
	}
	return it.GSI2PK, it.GSI2SK
}

func index(tx *bolt.Tx, it store.Item) error {
	for _, ix := range []store.Index{store.GSI1, store.GSI2} {
		if ipk, isk := indexKeys(it, ix); ipk != "" {
			if err := tx.Bucket(indexBucket[ix]).Put(indexKey(ipk, isk, it.PK, it.SK), []byte{}); err != nil {
				return err
			}
		}
	}
	return nil
}

func unindex(tx *bolt.Tx, it store.Item) error {
	for _, ix := range []store.Index{store.GSI1, store.GSI2} {
		if ipk, isk := indexKeys(it, ix); ipk != "" {
			if err := tx.Bucket(indexBucket[ix]).Delete(indexKey(ipk, isk, it.PK, it.SK)); err != nil {
				return err
			}
		}
	}
	return nil
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, []byte{0}) }

func primaryKey(pk, sk string) []byte { return join([]byte(pk), []byte(sk)) }

func indexKey(ipk, isk, pk, sk string) []byte {
	return join([]byte(ipk), []byte(isk), []byte(pk), []byte(sk))
}

func splitIndexKey(k []byte) (pk, sk string) {
	parts := bytes.Split(k, []byte{0})
	return string(parts[2]), string(parts[3])
}

// encode writes the item as length-prefixed fields.
func encode(it store.Item) []byte {
	b := make([]byte, 0, it.Size())
	for _, s := range []string{it.PK, it.SK, it.GSI1PK, it.GSI1SK, it.GSI2PK, it.GSI2SK} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendVarint(b, it.Version)
	return append(b, it.Data...)
}

var errCorrupt = errors.New("bolt store: corrupt item")

// decode reads an item written by encode. The keys share one string (one
// allocation instead of six: reads are the embedded store's hot path); the
// data is copied, as bbolt's memory is valid only within the transaction.
func decode(b []byte) (store.Item, error) {
	var bounds [6][2]int
	off := 0
	for i := range bounds {
		n, w := binary.Uvarint(b[off:])
		if w <= 0 || uint64(len(b)-off-w) < n {
			return store.Item{}, errCorrupt
		}
		bounds[i] = [2]int{off + w, off + w + int(n)}
		off += w + int(n)
	}
	v, w := binary.Varint(b[off:])
	if w <= 0 {
		return store.Item{}, errCorrupt
	}
	keys := string(b[:off])
	field := func(i int) string { return keys[bounds[i][0]:bounds[i][1]] }
	data := append([]byte(nil), b[off+w:]...)
	return store.Item{PK: field(0), SK: field(1), GSI1PK: field(2), GSI1SK: field(3),
		GSI2PK: field(4), GSI2SK: field(5), Version: v, Data: data}, nil
}
