package boltstore_test

import (
	"context"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/boltstore"
)

// A read that starts after a write has returned sees that write, through
// Get and BatchGet alike, however reads and writes interleave; and what a
// caller does to the data it got does not reach the next reader.
func TestReadCacheNeverServesOlderThanAFinishedWrite(t *testing.T) {
	s, err := boltstore.Open(filepath.Join(t.TempDir(), "galley.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	const writes = 300
	var done atomic.Int64 // the last version whose write returned
	put := func(v int64) {
		it := store.Item{PK: "P", SK: "S", Version: v, Data: []byte(strconv.FormatInt(v, 10))}
		ops := []store.Op{store.Put(it, store.Always)}
		if v%2 == 0 { // the absent key comes and goes
			ops = append(ops, store.Put(store.Item{PK: "P", SK: "gone", Version: v}, store.Always))
		} else {
			ops = append(ops, store.Delete("P", "gone", store.Always))
		}
		if err := s.Write(ctx, ops...); err != nil {
			t.Error(err)
		}
		done.Store(v)
	}
	put(1)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				min := done.Load()
				it, err := s.Get(ctx, "P", "S")
				if err != nil || it.Version < min || string(it.Data) != strconv.FormatInt(it.Version, 10) {
					t.Errorf("get: %+v %v, after version %d was written", it, err, min)
					return
				}
				it.Data[0] = 'x' // the caller's copy
				min = done.Load()
				items, err := s.BatchGet(ctx, []store.ItemKey{{PK: "P", SK: "gone"}, {PK: "P", SK: "S"}})
				if err != nil || items[1].Version < min || (items[0].PK != "" && items[0].Version < min) {
					t.Errorf("batch get: %+v %v, after version %d was written", items, err, min)
					return
				}
			}
		}()
	}
	for v := int64(2); v <= writes; v++ {
		put(v)
		// The writer reads its own writes, absence included.
		_, err := s.Get(ctx, "P", "gone")
		if (err == nil) != (v%2 == 0) {
			t.Fatalf("after write %d, gone: %v", v, err)
		}
	}
	close(stop)
	wg.Wait()
	it, err := s.Get(ctx, "P", "S")
	if err != nil || it.Version != writes {
		t.Fatalf("last: %+v %v", it, err)
	}
}
