package insights

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/boltstore"
)

// A job's new markers go in one transaction; when another job wrote one
// of them since they were read, the transaction fails and they are
// written one by one: only those this job wrote are counted.
func TestPutMarkersCountsOnlyTheirOwn(t *testing.T) {
	ctx := context.Background()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "galley.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := New(&deps.Deps{Store: st}, nil, nil)
	mine, theirs := keys.InsightsMarker("site", "2026-01-02", "v-c-a"), keys.InsightsMarker("site", "2026-01-02", "v-c-b")
	if err := st.Write(ctx, store.Put(records.Item(theirs, struct{}{}, 1), store.IfNotExists)); err != nil {
		t.Fatal(err)
	}
	d := &delta{}
	marks := []markFor{{kind: "v", d: d}, {kind: "s", d: d}}
	if err := s.putMarkers(ctx, marks, []keys.Key{mine, theirs}); err != nil {
		t.Fatal(err)
	}
	if d.visitors != 1 || d.sessions != 0 {
		t.Errorf("counted %d visitors and %d sessions, want the one marker written (1, 0)", d.visitors, d.sessions)
	}
	if _, err := st.Get(ctx, mine.PK, mine.SK); err != nil {
		t.Errorf("the new marker: %v", err)
	}
	// Both new: one transaction, both counted.
	d2 := &delta{}
	a, b := keys.InsightsMarker("site", "2026-01-02", "v-c-x"), keys.InsightsMarker("site", "2026-01-02", "s-c-y")
	if err := s.putMarkers(ctx, []markFor{{kind: "v", d: d2}, {kind: "s", d: d2}}, []keys.Key{a, b}); err != nil {
		t.Fatal(err)
	}
	if d2.visitors != 1 || d2.sessions != 1 {
		t.Errorf("counted %d visitors and %d sessions, want 1 and 1", d2.visitors, d2.sessions)
	}
}
