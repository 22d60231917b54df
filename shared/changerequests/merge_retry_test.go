package changerequests_test

import (
	"context"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/boltstore"
	"github.com/galleydocs/galley/shared/testkit"
)

// commentBurst is a store that, while bursts remain, lets another writer
// move the space's version just before each merge write (what a comment
// counted on the space does), so that the merge loses its race.
type commentBurst struct {
	store.Store
	spaceID string
	bursts  atomic.Int64
}

func (c *commentBurst) Write(ctx context.Context, ops ...store.Op) error {
	k := keys.Space(c.spaceID)
	for _, op := range ops {
		if op.Item.PK == k.PK && op.Item.SK == k.SK && op.Kind == store.OpPut && len(ops) > 1 && c.bursts.Add(-1) >= 0 {
			it, err := c.Store.Get(ctx, k.PK, k.SK)
			if err != nil {
				return err
			}
			it.Version++
			if err := c.Store.Write(ctx, store.PutIfVersion(it, it.Version-1)); err != nil {
				return err
			}
			break
		}
	}
	return c.Store.Write(ctx, ops...)
}

// A burst of comments during a merge makes it write again, not merge again:
// the three-way merge is kept across the retries its version guard causes.
func TestMergeRetriedForCommentsIsNotMadeAgain(t *testing.T) {
	merge := func(t *testing.T, bursts int64) int64 {
		bolt, err := boltstore.Open(filepath.Join(t.TempDir(), "galley.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bolt.Close() })
		st := &commentBurst{Store: bolt}
		k := testkit.NewOn(t, st)
		blobs := &testkit.CountingBlobs{Store: k.Deps.Blobs}
		k.Deps.Blobs = blobs
		f := setupOn(t, k)
		st.spaceID = f.space
		// Two requests from one base, each adding a page; the first merged,
		// the second's merge is a real three-way merge.
		f.create(t, f.editor, "one")
		f.author(t, f.editor, 1, insert("", "", "# One\n\nFirst."))
		f.create(t, f.editor, "two")
		f.author(t, f.editor, 2, insert("", "", "# Two\n\nSecond."))
		f.merge(t, 1, "merge")
		// A merge made writes its tree (and reads the trees it merges,
		// kept decoded since they were written here): counted by the
		// blobs it writes.
		before := blobs.Puts.Load()
		st.bursts.Store(bursts)
		f.merge(t, 2, "merge")
		if n := st.bursts.Load(); n > 0 {
			t.Fatalf("%d bursts left: the merge did not write", n)
		}
		if got := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space, nil).Map(t); got["id"] != f.space {
			t.Fatalf("space %v", got)
		}
		return blobs.Puts.Load() - before
	}
	calm, busy := merge(t, 0), merge(t, 3)
	if calm == 0 {
		t.Fatal("the merge wrote no objects: the test does not see merges being made")
	}
	if busy != calm {
		t.Errorf("a merge that lost 3 races to comments wrote %d objects, a calm one %d: it was made again", busy, calm)
	}
}
