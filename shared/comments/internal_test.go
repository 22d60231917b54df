package comments

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/boltstore"
)

func TestReactLimits(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var rs []model.Reaction
	for i := 0; i < MaxEmojis; i++ {
		var err error
		if rs, err = react(rs, "u1", now, []string{fmt.Sprintf("e%d", i)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := react(rs, "u1", now, []string{"one-more"}, nil); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("emoji %d: %v, want invalid", MaxEmojis+1, err)
	}
	if again, err := react(rs, "u2", now, []string{"e0"}, nil); err != nil || len(again[0].Users) != 2 || len(rs[0].Users) != 1 {
		t.Fatalf("another user on an existing emoji: %v %v (input changed: %v)", again[0].Users, err, rs[0].Users)
	}
	full := []model.Reaction{{Emoji: "x"}}
	for u := 0; u < MaxReactions; u++ {
		full[0].Users = append(full[0].Users, model.ReactionUser{UserID: fmt.Sprintf("u%d", u), ReactedAt: now})
	}
	if _, err := react(full, "late", now, []string{"x"}, nil); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("reaction %d: %v, want conflict", MaxReactions+1, err)
	}
	if out, err := react(full, "u0", now, nil, []string{"x"}); err != nil || len(out[0].Users) != MaxReactions-1 {
		t.Fatalf("removing from a full comment: %v", err)
	}
}

// TestScanStopsAfterMaxExamined: a filter that matches little reads at most
// about maxExamined items per request and answers a short page with a
// position to resume from; following the positions finds every match.
func TestScanStopsAfterMaxExamined(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "galley.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	thread := keys.CommentThread("s1", "")
	const total = 2*maxExamined + 300
	var ops []store.Op
	for i := 0; i < total; i++ {
		c := model.Comment{ID: fmt.Sprintf("c%05d", i), SpaceID: "s1", PostedBy: "other", Status: model.CommentOpen}
		if i%1000 == 999 {
			c.PostedBy = "rare"
		}
		ops = append(ops, store.Put(commentItem(thread, c, 1), store.IfNotExists))
		if len(ops) == store.MaxTransactionOps {
			if err := st.Write(ctx, ops...); err != nil {
				t.Fatal(err)
			}
			ops = nil
		}
	}
	if len(ops) > 0 {
		if err := st.Write(ctx, ops...); err != nil {
			t.Fatal(err)
		}
	}
	keep := func(c model.Comment) bool { return c.PostedBy == "rare" }
	q := store.Query{PK: thread, SKPrefix: keys.CommentPrefix}
	var found []string
	for requests := 1; ; requests++ {
		got, next, err := scan(ctx, st, q, 10, true, keep)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range got {
			found = append(found, c.ID)
		}
		if next == nil {
			if requests < 2 {
				t.Fatalf("%d items scanned in one request", total)
			}
			break
		}
		q.After = next
		if requests > 10 {
			t.Fatal("scan does not end")
		}
	}
	if len(found) != total/1000 {
		t.Fatalf("found %v, want %d", found, total/1000)
	}
}
