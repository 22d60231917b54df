package records_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

type note struct {
	Title string   `json:"title"`
	Tags  []string `json:"tags"`
}

// A memo answers as Decode does, for the same bytes and for new ones;
// callers share nothing (through clone); it stays within its bound; and
// bad bytes fail as Decode fails.
func TestMemoDecodesAsDecode(t *testing.T) {
	m := records.NewMemo(2, func(n note) note { n.Tags = slices.Clone(n.Tags); return n })
	a := store.Item{PK: "P", SK: "a", Data: []byte(`{"title":"A","tags":["x"]}`)}
	b := store.Item{PK: "P", SK: "b", Data: []byte(`{"title":"B","tags":["y"]}`)}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, it := range []store.Item{a, b, a} {
				got, err := m.Decode(it)
				want, _ := records.Decode[note](it)
				if err != nil || got.Title != want.Title || !slices.Equal(got.Tags, want.Tags) {
					t.Errorf("Decode(%s) = %+v, %v; want %+v", it.Data, got, err, want)
				}
			}
		}()
	}
	wg.Wait()
	got, _ := m.Decode(a)
	got.Tags[0] = "changed"
	if again, _ := m.Decode(a); again.Tags[0] != "x" {
		t.Fatalf("a caller changed the memo: %+v", again)
	}
	// A third record: the oldest goes, and decoding it again still works.
	if c, err := m.Decode(store.Item{Data: []byte(`{"title":"C"}`)}); err != nil || c.Title != "C" {
		t.Fatalf("C: %+v %v", c, err)
	}
	if a2, err := m.Decode(a); err != nil || a2.Title != "A" {
		t.Fatalf("A again: %+v %v", a2, err)
	}
	if _, err := m.Decode(store.Item{Data: []byte(`{"title":`)}); err == nil {
		t.Fatal("bad bytes decoded")
	}
}
