// Package storetest is the conformance suite of the storage port. Every
// adapter's tests call RunTests with a constructor of fresh, empty stores.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/galleydocs/galley/shared/store"
)

// NewStore returns a fresh, empty store; it registers its own cleanup.
type NewStore func(t *testing.T) store.Store

// RunTests runs the whole suite, each test on a fresh store.
func RunTests(t *testing.T, newStore NewStore) {
	tests := []struct {
		name string
		run  func(t *testing.T, s store.Store)
	}{
		{"GetMissingIsNotFound", testGetMissing},
		{"PutGetRoundTrip", testRoundTrip},
		{"PutIfNotExistsConflicts", testIfNotExists},
		{"PutIfVersion", testIfVersion},
		{"DeleteConditions", testDeleteConditions},
		{"TransactionFailsAsAWhole", testTransactionAtomic},
		{"TransactionCheckOp", testTransactionCheck},
		{"InvalidWritesRejected", testInvalidWrites},
		{"InvalidKeysRejected", testInvalidKeys},
		{"QueryOrderPrefixAndReverse", testQueryOrder},
		{"QueryPartitionIsolation", testPartitionIsolation},
		{"QueryPagingManyItems", testPaging},
		{"GSIQueryAndSparseness", testGSI},
		{"GSIPagingWithTiedSortKeys", testGSIPaging},
		{"InvalidQueriesRejected", testInvalidQueries},
		{"UpdateHelper", testUpdate},
		{"BatchGetInKeyOrderWithMissingKeys", testBatchGet},
		{"BatchGetBeyondOneAnswer", testBatchGetLarge},
		{"InvalidBatchGetsRejected", testInvalidBatchGets},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
	t.Run("Concurrency", func(t *testing.T) { runConcurrency(t, newStore) })
}

func runConcurrency(t *testing.T, newStore NewStore) {
	t.Run("ConcurrentUpdatesLoseNothing", func(t *testing.T) { testConcurrentUpdates(t, newStore(t)) })
	t.Run("ConcurrentCreatesOneWins", func(t *testing.T) { testConcurrentCreates(t, newStore(t)) })
	t.Run("ConcurrentTransactionsStayConsistent", func(t *testing.T) { testConcurrentTransfers(t, newStore(t)) })
}

var ctx = context.Background()

func item(pk, sk, data string) store.Item {
	return store.Item{PK: pk, SK: sk, Version: 1, Data: []byte(data)}
}

func mustWrite(t *testing.T, s store.Store, ops ...store.Op) {
	t.Helper()
	if err := s.Write(ctx, ops...); err != nil {
		t.Fatalf("write: %v", err)
	}
}

func mustGet(t *testing.T, s store.Store, pk, sk string) store.Item {
	t.Helper()
	it, err := s.Get(ctx, pk, sk)
	if err != nil {
		t.Fatalf("get %s/%s: %v", pk, sk, err)
	}
	return it
}

func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("err = %v, want %v", err, want)
	}
}

func testGetMissing(t *testing.T, s store.Store) {
	_, err := s.Get(ctx, "P", "S")
	wantErr(t, err, store.ErrNotFound)
}

func testRoundTrip(t *testing.T, s store.Store) {
	in := store.Item{PK: "ORG#1", SK: "ORG", GSI1PK: "G1", GSI1SK: "g1s", GSI2PK: "G2", GSI2SK: "g2s",
		Version: 7, Data: []byte(`{"title":"héllo ✓"}` + "\x00\xff")}
	mustWrite(t, s, store.Put(in, store.Always))
	got := mustGet(t, s, "ORG#1", "ORG")
	if got.PK != in.PK || got.SK != in.SK || got.GSI1PK != in.GSI1PK || got.GSI1SK != in.GSI1SK ||
		got.GSI2PK != in.GSI2PK || got.GSI2SK != in.GSI2SK || got.Version != in.Version || string(got.Data) != string(in.Data) {
		t.Fatalf("round trip: got %+v, want %+v", got, in)
	}
	// An unconditional put replaces the item, index keys included.
	mustWrite(t, s, store.Put(item("ORG#1", "ORG", "v2"), store.Always))
	got = mustGet(t, s, "ORG#1", "ORG")
	if string(got.Data) != "v2" || got.GSI1PK != "" {
		t.Fatalf("replace: got %+v", got)
	}
	p, err := s.Query(ctx, store.Query{Index: store.GSI1, PK: "G1", Limit: 10})
	if err != nil || len(p.Items) != 0 {
		t.Fatalf("replaced item still in GSI1: %v %v", p.Items, err)
	}
}

func testIfNotExists(t *testing.T, s store.Store) {
	mustWrite(t, s, store.Put(item("P", "S", "a"), store.IfNotExists))
	wantErr(t, s.Write(ctx, store.Put(item("P", "S", "b"), store.IfNotExists)), store.ErrConflict)
	if got := mustGet(t, s, "P", "S"); string(got.Data) != "a" {
		t.Fatalf("conflicting put overwrote: %q", got.Data)
	}
	wantErr(t, s.Write(ctx, store.Put(item("P", "other", "b"), store.IfExists)), store.ErrConflict)
}

func testIfVersion(t *testing.T, s store.Store) {
	mustWrite(t, s, store.Put(item("P", "S", "v1"), store.IfNotExists))
	next := item("P", "S", "v2")
	next.Version = 2
	wantErr(t, s.Write(ctx, store.PutIfVersion(next, 5)), store.ErrConflict)
	mustWrite(t, s, store.PutIfVersion(next, 1))
	if got := mustGet(t, s, "P", "S"); got.Version != 2 || string(got.Data) != "v2" {
		t.Fatalf("after versioned put: %+v", got)
	}
	wantErr(t, s.Write(ctx, store.PutIfVersion(next, 1)), store.ErrConflict)
	wantErr(t, s.Write(ctx, store.PutIfVersion(item("P", "none", "x"), 0)), store.ErrConflict)
}

func testDeleteConditions(t *testing.T, s store.Store) {
	wantErr(t, s.Write(ctx, store.Delete("P", "S", store.IfExists)), store.ErrConflict)
	mustWrite(t, s, store.Delete("P", "S", store.Always)) // deleting nothing is fine
	mustWrite(t, s, store.Put(item("P", "S", "a"), store.Always))
	wantErr(t, s.Write(ctx, store.DeleteIfVersion("P", "S", 3)), store.ErrConflict)
	mustWrite(t, s, store.DeleteIfVersion("P", "S", 1))
	_, err := s.Get(ctx, "P", "S")
	wantErr(t, err, store.ErrNotFound)
}

func testTransactionAtomic(t *testing.T, s store.Store) {
	mustWrite(t, s, store.Put(item("P", "taken", "x"), store.Always))
	mustWrite(t, s, store.Put(item("P", "gone", "x"), store.Always))
	err := s.Write(ctx,
		store.Put(item("P", "a", "a"), store.IfNotExists),
		store.Delete("P", "gone", store.IfExists),
		store.Put(item("P", "taken", "y"), store.IfNotExists),
	)
	wantErr(t, err, store.ErrConflict)
	if _, err := s.Get(ctx, "P", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("failed transaction wrote its first put: %v", err)
	}
	if got := mustGet(t, s, "P", "gone"); string(got.Data) != "x" {
		t.Fatalf("failed transaction changed an item")
	}
	mustWrite(t, s,
		store.Put(item("P", "a", "a"), store.IfNotExists),
		store.Delete("P", "gone", store.IfExists),
	)
	mustGet(t, s, "P", "a")
	_, err = s.Get(ctx, "P", "gone")
	wantErr(t, err, store.ErrNotFound)
}

func testTransactionCheck(t *testing.T, s store.Store) {
	mustWrite(t, s, store.Put(item("ORG#1", "ORG", "o"), store.Always))
	wantErr(t, s.Write(ctx,
		store.Check("ORG#2", "ORG", store.IfExists, 0),
		store.Put(item("SPACE#1", "SPACE", "s"), store.IfNotExists),
	), store.ErrConflict)
	if _, err := s.Get(ctx, "SPACE#1", "SPACE"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("write happened despite failed check: %v", err)
	}
	wantErr(t, s.Write(ctx, store.Check("ORG#1", "ORG", store.IfVersion, 9), store.Put(item("SPACE#1", "SPACE", "s"), store.Always)), store.ErrConflict)
	mustWrite(t, s,
		store.Check("ORG#1", "ORG", store.IfVersion, 1),
		store.Put(item("SPACE#1", "SPACE", "s"), store.IfNotExists),
	)
	if got := mustGet(t, s, "ORG#1", "ORG"); string(got.Data) != "o" {
		t.Fatalf("check op modified its item: %+v", got)
	}
}

func testInvalidWrites(t *testing.T, s store.Store) {
	wantErr(t, s.Write(ctx), store.ErrInvalid)
	wantErr(t, s.Write(ctx, store.Put(item("", "S", "x"), store.Always)), store.ErrInvalid)
	wantErr(t, s.Write(ctx, store.Put(item("P", "S", "x"), store.Always), store.Delete("P", "S", store.Always)), store.ErrInvalid)
	big := item("P", "big", strings.Repeat("x", store.MaxItemBytes))
	wantErr(t, s.Write(ctx, store.Put(big, store.Always)), store.ErrItemTooLarge)
	ops := make([]store.Op, store.MaxTransactionOps+1)
	for i := range ops {
		ops[i] = store.Put(item("P", strconv.Itoa(i), "x"), store.Always)
	}
	wantErr(t, s.Write(ctx, ops...), store.ErrInvalid)
	var heavy []store.Op
	for i := 0; i < 11; i++ { // 11 items of 390 KB: within the item limit, over the transaction's
		heavy = append(heavy, store.Put(item("P", fmt.Sprintf("heavy%d", i), strings.Repeat("x", 390*1024)), store.Always))
	}
	wantErr(t, s.Write(ctx, heavy...), store.ErrItemTooLarge)
	// The largest allowed transaction goes through.
	mustWrite(t, s, ops[:store.MaxTransactionOps]...)
	half := item("P", "half", "x")
	half.GSI1PK = "G"
	wantErr(t, s.Write(ctx, store.Put(half, store.Always)), store.ErrInvalid)
}

// testInvalidKeys: every operation refuses a key that is empty, holds a
// NUL or is too long, in the table or an index, with ErrInvalidKey (the
// HTTP layer answers it 400); the longest keys go through.
func testInvalidKeys(t *testing.T, s store.Store) {
	longPK, longSK := strings.Repeat("p", store.MaxPartitionKeyBytes), strings.Repeat("s", store.MaxSortKeyBytes)
	bad := []store.ItemKey{{PK: "", SK: "S"}, {PK: "P", SK: ""}, {PK: "P\x00", SK: "S"}, {PK: "P", SK: "a\x00b"},
		{PK: longPK + "p", SK: "S"}, {PK: "P", SK: longSK + "s"}}
	for _, k := range bad {
		what := fmt.Sprintf("%.20q/%.20q", k.PK, k.SK)
		_, err := s.Get(ctx, k.PK, k.SK)
		if !errors.Is(err, store.ErrInvalidKey) {
			t.Errorf("Get %s: %v", what, err)
		}
		if _, err := s.BatchGet(ctx, []store.ItemKey{k}); !errors.Is(err, store.ErrInvalidKey) {
			t.Errorf("BatchGet %s: %v", what, err)
		}
		if err := s.Write(ctx, store.Put(item(k.PK, k.SK, "x"), store.Always)); !errors.Is(err, store.ErrInvalidKey) {
			t.Errorf("Put %s: %v", what, err)
		}
		if err := s.Write(ctx, store.Delete(k.PK, k.SK, store.Always)); !errors.Is(err, store.ErrInvalidKey) {
			t.Errorf("Delete %s: %v", what, err)
		}
		if k.PK == "" || k.SK == "" { // half an index key: a code error, not a key's
			continue
		}
		indexed := item("P", "indexed", "x")
		indexed.GSI1PK, indexed.GSI1SK = k.PK, k.SK
		if err := s.Write(ctx, store.Put(indexed, store.Always)); !errors.Is(err, store.ErrInvalidKey) {
			t.Errorf("Put with index key %s: %v", what, err)
		}
		if k.SK == "S" {
			if _, err := s.Query(ctx, store.Query{PK: k.PK, Limit: 1}); !errors.Is(err, store.ErrInvalidKey) {
				t.Errorf("Query %s: %v", what, err)
			}
		}
	}
	for _, prefix := range []string{"a\x00", longSK + "s"} {
		if _, err := s.Query(ctx, store.Query{PK: "P", SKPrefix: prefix, Limit: 1}); !errors.Is(err, store.ErrInvalidKey) {
			t.Errorf("Query with prefix %.20q: %v", prefix, err)
		}
	}
	// The longest keys, in the table and an index, are stored and read.
	longest := item(longPK, longSK, "x")
	longest.GSI1PK, longest.GSI1SK = longPK, longSK
	mustWrite(t, s, store.Put(longest, store.Always))
	if got := mustGet(t, s, longPK, longSK); string(got.Data) != "x" {
		t.Fatalf("longest key: %+v", got)
	}
	p, err := s.Query(ctx, store.Query{Index: store.GSI1, PK: longPK, Limit: 1})
	if err != nil || len(p.Items) != 1 || p.Items[0].SK != longSK {
		t.Fatalf("longest index key: %v, %d items", err, len(p.Items))
	}
}

func putN(t *testing.T, s store.Store, pk string, n int) {
	t.Helper()
	for i := 0; i < n; i += store.MaxTransactionOps {
		var ops []store.Op
		for j := i; j < n && j < i+store.MaxTransactionOps; j++ {
			ops = append(ops, store.Put(item(pk, fmt.Sprintf("ITEM#%05d", j), strconv.Itoa(j)), store.Always))
		}
		mustWrite(t, s, ops...)
	}
}

func sks(items []store.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.SK
	}
	return out
}

func testQueryOrder(t *testing.T, s store.Store) {
	mustWrite(t, s,
		store.Put(item("P", "B#2", ""), store.Always),
		store.Put(item("P", "A#1", ""), store.Always),
		store.Put(item("P", "B#1", ""), store.Always),
		store.Put(item("P", "B", ""), store.Always),
		store.Put(item("P", "C", ""), store.Always),
	)
	p, err := s.Query(ctx, store.Query{PK: "P", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sks(p.Items), ","); got != "A#1,B,B#1,B#2,C" || p.Next != nil {
		t.Fatalf("ascending = %s next=%v", got, p.Next)
	}
	p, _ = s.Query(ctx, store.Query{PK: "P", SKPrefix: "B#", Limit: 10})
	if got := strings.Join(sks(p.Items), ","); got != "B#1,B#2" {
		t.Fatalf("prefix = %s", got)
	}
	p, _ = s.Query(ctx, store.Query{PK: "P", SKPrefix: "B", Reverse: true, Limit: 10})
	if got := strings.Join(sks(p.Items), ","); got != "B#2,B#1,B" {
		t.Fatalf("reverse prefix = %s", got)
	}
	p, _ = s.Query(ctx, store.Query{PK: "P", Reverse: true, Limit: 2})
	if got := strings.Join(sks(p.Items), ","); got != "C,B#2" || p.Next == nil {
		t.Fatalf("reverse limited = %s next=%v", got, p.Next)
	}
	p, _ = s.Query(ctx, store.Query{PK: "P", SKPrefix: "Z", Limit: 10})
	if len(p.Items) != 0 || p.Next != nil {
		t.Fatalf("empty prefix query = %v", p)
	}
}

func testPartitionIsolation(t *testing.T, s store.Store) {
	mustWrite(t, s,
		store.Put(item("ORG#1", "A", ""), store.Always),
		store.Put(item("ORG#10", "A", ""), store.Always),
		store.Put(item("ORG#", "A", ""), store.Always),
	)
	p, err := s.Query(ctx, store.Query{PK: "ORG#1", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 1 || p.Items[0].PK != "ORG#1" {
		t.Fatalf("partition ORG#1 returned %+v", p.Items)
	}
}

func collect(t *testing.T, s store.Store, q store.Query) []store.Item {
	t.Helper()
	var all []store.Item
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatal("paging does not end")
		}
		p, err := s.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) > q.Limit {
			t.Fatalf("page of %d items, limit %d", len(p.Items), q.Limit)
		}
		if p.Next != nil && len(p.Items) == 0 {
			t.Fatal("empty page with a next key")
		}
		all = append(all, p.Items...)
		if p.Next == nil {
			return all
		}
		q.After = p.Next
	}
}

func testPaging(t *testing.T, s store.Store) {
	const n = 257
	putN(t, s, "P", n)
	putN(t, s, "Q", 3)
	for _, reverse := range []bool{false, true} {
		for _, limit := range []int{1, 7, 100, 257, 1000} {
			all := collect(t, s, store.Query{PK: "P", Limit: limit, Reverse: reverse})
			if len(all) != n {
				t.Fatalf("limit %d reverse %v: %d items, want %d", limit, reverse, len(all), n)
			}
			for i, it := range all {
				want := i
				if reverse {
					want = n - 1 - i
				}
				if it.SK != fmt.Sprintf("ITEM#%05d", want) {
					t.Fatalf("limit %d reverse %v: item %d is %s", limit, reverse, i, it.SK)
				}
			}
		}
	}
	// Resuming after a key deleted meanwhile continues from where it was.
	p, err := s.Query(ctx, store.Query{PK: "P", Limit: 10})
	if err != nil || p.Next == nil {
		t.Fatalf("first page: %v, next %v", err, p.Next)
	}
	mustWrite(t, s, store.Delete("P", p.Next.SK, store.IfExists))
	p2, _ := s.Query(ctx, store.Query{PK: "P", Limit: 1, After: p.Next})
	if len(p2.Items) != 1 || p2.Items[0].SK != "ITEM#00010" {
		t.Fatalf("resume after deleted key: %v", sks(p2.Items))
	}
}

func indexed(pk, sk, g1pk, g1sk, g2pk, g2sk string) store.Item {
	it := item(pk, sk, sk)
	it.GSI1PK, it.GSI1SK, it.GSI2PK, it.GSI2SK = g1pk, g1sk, g2pk, g2sk
	return it
}

func testGSI(t *testing.T, s store.Store) {
	mustWrite(t, s,
		store.Put(indexed("ORG#1", "MEMBER#u1", "USER#u1", "ORG#1", "", ""), store.Always),
		store.Put(indexed("ORG#2", "MEMBER#u1", "USER#u1", "ORG#2", "MEMBERS#2", "2024"), store.Always),
		store.Put(indexed("ORG#2", "MEMBER#u2", "USER#u2", "ORG#2", "MEMBERS#2", "2023"), store.Always),
		store.Put(item("ORG#3", "MEMBER#u1", "not indexed"), store.Always),
	)
	p, err := s.Query(ctx, store.Query{Index: store.GSI1, PK: "USER#u1", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 2 || p.Items[0].PK != "ORG#1" || p.Items[1].PK != "ORG#2" {
		t.Fatalf("GSI1 items: %+v", p.Items)
	}
	if string(p.Items[1].Data) != "MEMBER#u1" || p.Items[1].GSI2SK != "2024" {
		t.Fatalf("GSI query does not return the whole item: %+v", p.Items[1])
	}
	p, _ = s.Query(ctx, store.Query{Index: store.GSI2, PK: "MEMBERS#2", Limit: 10})
	if len(p.Items) != 2 || p.Items[0].SK != "MEMBER#u2" {
		t.Fatalf("GSI2 order: %+v", p.Items)
	}
	// Moving an item in the index and taking it out of it.
	moved := indexed("ORG#2", "MEMBER#u1", "USER#u9", "ORG#2", "", "")
	mustWrite(t, s, store.Put(moved, store.IfExists))
	p, _ = s.Query(ctx, store.Query{Index: store.GSI1, PK: "USER#u1", Limit: 10})
	if len(p.Items) != 1 {
		t.Fatalf("old index entry left behind: %+v", p.Items)
	}
	p, _ = s.Query(ctx, store.Query{Index: store.GSI2, PK: "MEMBERS#2", Limit: 10})
	if len(p.Items) != 1 || p.Items[0].SK != "MEMBER#u2" {
		t.Fatalf("sparse GSI2 after removal: %+v", p.Items)
	}
	mustWrite(t, s, store.Delete("ORG#2", "MEMBER#u2", store.IfExists))
	p, _ = s.Query(ctx, store.Query{Index: store.GSI2, PK: "MEMBERS#2", Limit: 10})
	if len(p.Items) != 0 {
		t.Fatalf("deleted item still in GSI2: %+v", p.Items)
	}
	p, _ = s.Query(ctx, store.Query{Index: store.GSI1, PK: "USER#u9", SKPrefix: "ORG#", Reverse: true, Limit: 10})
	if len(p.Items) != 1 {
		t.Fatalf("GSI1 prefix query: %+v", p.Items)
	}
}

func testGSIPaging(t *testing.T, s store.Store) {
	// 60 items in one index partition, in groups sharing a sort key.
	const n = 60
	var ops []store.Op
	for i := 0; i < n; i++ {
		ops = append(ops, store.Put(indexed(fmt.Sprintf("SPACE#%03d", i), "SPACE", "ORG#1#SPACES", fmt.Sprintf("T%02d", i/4), "", ""), store.Always))
	}
	mustWrite(t, s, ops...)
	for _, reverse := range []bool{false, true} {
		all := collect(t, s, store.Query{Index: store.GSI1, PK: "ORG#1#SPACES", Limit: 3, Reverse: reverse})
		if len(all) != n {
			t.Fatalf("reverse %v: %d items, want %d", reverse, len(all), n)
		}
		seen := map[string]bool{}
		for i, it := range all {
			if seen[it.PK] {
				t.Fatalf("item %s returned twice", it.PK)
			}
			seen[it.PK] = true
			if i > 0 {
				prev := all[i-1].GSI1SK
				if (!reverse && prev > it.GSI1SK) || (reverse && prev < it.GSI1SK) {
					t.Fatalf("out of order at %d: %s then %s", i, prev, it.GSI1SK)
				}
			}
		}
	}
}

func testInvalidQueries(t *testing.T, s store.Store) {
	for name, q := range map[string]store.Query{
		"no partition": {Limit: 1},
		"zero limit":   {PK: "P"},
		"huge limit":   {PK: "P", Limit: store.MaxQueryLimit + 1},
		"bad index":    {Index: "GSI9", PK: "P", Limit: 1},
		"foreign key":  {PK: "P", Limit: 1, After: &store.Key{PK: "Q", SK: "S"}},
	} {
		if _, err := s.Query(ctx, q); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
}

func testUpdate(t *testing.T, s store.Store) {
	_, err := store.Update(ctx, s, "P", "S", func(it store.Item) (store.Item, []store.Op, error) { return it, nil, nil })
	wantErr(t, err, store.ErrNotFound)
	mustWrite(t, s, store.Put(item("P", "S", "0"), store.IfNotExists))
	got, err := store.Update(ctx, s, "P", "S", func(it store.Item) (store.Item, []store.Op, error) {
		it.Data = []byte("1")
		return it, []store.Op{store.Put(item("P", "side", "effect"), store.IfNotExists)}, nil
	})
	if err != nil || got.Version != 2 || string(got.Data) != "1" {
		t.Fatalf("update = %+v, %v", got, err)
	}
	mustGet(t, s, "P", "side")
	// An extra operation whose condition fails fails the whole update.
	_, err = store.Update(ctx, s, "P", "S", func(it store.Item) (store.Item, []store.Op, error) {
		it.Data = []byte("2")
		return it, []store.Op{store.Put(item("P", "side", "again"), store.IfNotExists)}, nil
	})
	wantErr(t, err, store.ErrConflict)
	if got := mustGet(t, s, "P", "S"); string(got.Data) != "1" {
		t.Fatalf("failed update wrote: %q", got.Data)
	}
	boom := errors.New("boom")
	_, err = store.Update(ctx, s, "P", "S", func(store.Item) (store.Item, []store.Op, error) { return store.Item{}, nil, boom })
	wantErr(t, err, boom)
}

func testConcurrentUpdates(t *testing.T, s store.Store) {
	mustWrite(t, s, store.Put(item("COUNTER", "C", "0"), store.IfNotExists))
	const writers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				_, err := store.Update(ctx, s, "COUNTER", "C", func(it store.Item) (store.Item, []store.Op, error) {
					n, _ := strconv.Atoi(string(it.Data))
					it.Data = []byte(strconv.Itoa(n + 1))
					return it, nil, nil
				})
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("concurrent update: %v", err)
		}
	}
	got := mustGet(t, s, "COUNTER", "C")
	if string(got.Data) != strconv.Itoa(writers*each) || got.Version != writers*each+1 {
		t.Fatalf("counter = %s (version %d), want %d", got.Data, got.Version, writers*each)
	}
}

func testConcurrentCreates(t *testing.T, s store.Store) {
	const writers = 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, conflicts := 0, 0
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			err := s.Write(ctx, store.Put(item("EMAIL#a@b.c", "EMAIL", strconv.Itoa(w)), store.IfNotExists))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.Is(err, store.ErrConflict):
				conflicts++
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}(w)
	}
	wg.Wait()
	if wins != 1 || conflicts != writers-1 {
		t.Fatalf("wins=%d conflicts=%d, want 1 and %d", wins, conflicts, writers-1)
	}
}

// testConcurrentTransfers moves units between two accounts in transactions
// guarded by versions; the total never changes.
func testConcurrentTransfers(t *testing.T, s store.Store) {
	mustWrite(t, s, store.Put(item("ACC", "a", "100"), store.Always), store.Put(item("ACC", "b", "100"), store.Always))
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			from, to := "a", "b"
			if w%2 == 1 {
				from, to = to, from
			}
			for done := 0; done < 5; {
				fa, err1 := s.Get(ctx, "ACC", from)
				ta, err2 := s.Get(ctx, "ACC", to)
				if err1 != nil || err2 != nil {
					t.Errorf("get: %v %v", err1, err2)
					return
				}
				fv, _ := strconv.Atoi(string(fa.Data))
				tv, _ := strconv.Atoi(string(ta.Data))
				nf, nt := fa, ta
				nf.Data, nf.Version = []byte(strconv.Itoa(fv-1)), fa.Version+1
				nt.Data, nt.Version = []byte(strconv.Itoa(tv+1)), ta.Version+1
				err := s.Write(ctx, store.PutIfVersion(nf, fa.Version), store.PutIfVersion(nt, ta.Version))
				if err == nil {
					done++
				} else if !errors.Is(err, store.ErrConflict) {
					t.Errorf("transfer: %v", err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	a, _ := strconv.Atoi(string(mustGet(t, s, "ACC", "a").Data))
	b, _ := strconv.Atoi(string(mustGet(t, s, "ACC", "b").Data))
	if a+b != 200 || a != 100 {
		t.Fatalf("a=%d b=%d, want 100 and 100", a, b)
	}
}

func testBatchGet(t *testing.T, s store.Store) {
	in := store.Item{PK: "ORG#1", SK: "ORG", GSI1PK: "G1", GSI1SK: "g1s", GSI2PK: "G2", GSI2SK: "g2s", Version: 7, Data: []byte("org\x00\xff")}
	mustWrite(t, s, store.Put(in, store.Always))
	var keys []store.ItemKey
	for i := 0; i < store.MaxBatchGetKeys-1; i++ {
		pk := fmt.Sprintf("P%d", i%7)
		if i%3 == 0 {
			mustWrite(t, s, store.Put(item(pk, strconv.Itoa(i), "d"+strconv.Itoa(i)), store.Always))
		}
		keys = append(keys, store.ItemKey{PK: pk, SK: strconv.Itoa(i)})
	}
	keys = append(keys[:40], append([]store.ItemKey{{PK: "ORG#1", SK: "ORG"}}, keys[40:]...)...)
	got, err := s.BatchGet(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(keys) {
		t.Fatalf("%d items for %d keys", len(got), len(keys))
	}
	for i, k := range keys {
		it := got[i]
		switch {
		case k.PK == "ORG#1":
			if it.PK != in.PK || it.SK != in.SK || it.GSI1PK != in.GSI1PK || it.GSI1SK != in.GSI1SK ||
				it.GSI2PK != in.GSI2PK || it.GSI2SK != in.GSI2SK || it.Version != in.Version || string(it.Data) != string(in.Data) {
				t.Fatalf("key %d: got %+v, want %+v", i, it, in)
			}
		case k.SK != "" && mustAtoi(t, k.SK)%3 == 0:
			if it.PK != k.PK || it.SK != k.SK || string(it.Data) != "d"+k.SK || it.Version != 1 {
				t.Fatalf("key %d (%s/%s): got %+v", i, k.PK, k.SK, it)
			}
		default:
			if it.PK != "" {
				t.Fatalf("key %d (%s/%s) has no item, got %+v", i, k.PK, k.SK, it)
			}
		}
	}
	if got, err := s.BatchGet(ctx, nil); err != nil || len(got) != 0 {
		t.Fatalf("empty batch: %v %v", got, err)
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// testBatchGetLarge reads more than one answer holds (DynamoDB answers at
// most 16 MB and leaves the rest unprocessed).
func testBatchGetLarge(t *testing.T, s store.Store) {
	const n = 45 // 45 items of 390 KB: about 17 MB
	var keys []store.ItemKey
	for i := 0; i < n; i++ {
		it := item("BIG", fmt.Sprintf("%03d", i), fmt.Sprintf("%03d", i)+strings.Repeat("x", 390*1024))
		mustWrite(t, s, store.Put(it, store.Always))
		keys = append(keys, store.ItemKey{PK: "BIG", SK: it.SK})
	}
	got, err := s.BatchGet(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	for i, it := range got {
		if it.SK != keys[i].SK || !strings.HasPrefix(string(it.Data), keys[i].SK) || len(it.Data) != 3+390*1024 {
			t.Fatalf("item %d: %s/%s, %d bytes", i, it.PK, it.SK, len(it.Data))
		}
	}
}

func testInvalidBatchGets(t *testing.T, s store.Store) {
	_, err := s.BatchGet(ctx, []store.ItemKey{{PK: "", SK: "S"}})
	wantErr(t, err, store.ErrInvalid)
	_, err = s.BatchGet(ctx, []store.ItemKey{{PK: "P", SK: "S"}, {PK: "P", SK: "S"}})
	wantErr(t, err, store.ErrInvalid)
	keys := make([]store.ItemKey, store.MaxBatchGetKeys+1)
	for i := range keys {
		keys[i] = store.ItemKey{PK: "P", SK: strconv.Itoa(i)}
	}
	_, err = s.BatchGet(ctx, keys)
	wantErr(t, err, store.ErrInvalid)
	if _, err := s.BatchGet(ctx, keys[:store.MaxBatchGetKeys]); err != nil {
		t.Fatalf("the largest batch: %v", err)
	}
}
