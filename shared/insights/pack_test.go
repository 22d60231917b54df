package insights_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app/wire/insightswire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/insights"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
)

// packsFail is a store whose writes of day packs fail (a worker whose
// packing failed: throttled, or its process ended).
type packsFail struct{ store.Store }

func (s packsFail) Write(ctx context.Context, ops ...store.Op) error {
	for _, op := range ops {
		if strings.HasPrefix(op.Item.SK, "PACK#") {
			return errors.New("pack writes refused")
		}
	}
	return s.Store.Write(ctx, ops...)
}

// TestFailedPackingIsRetried: the first job of a site's new day packs
// the closed days; when that packing fails, the site's next job packs
// them, once the failed packing's lease (5 minutes) has passed.
func TestFailedPackingIsRetried(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		clock := k.SkewClock()
		// An hour into a day: the jumps below stay within the day.
		now := k.Deps.Clock()
		clock.Jump(now.Truncate(24 * time.Hour).Add(25 * time.Hour).Sub(now))
		f := setup(t, k)
		s := insightswire.Service(f.Root)
		d := *k.Deps
		d.Store = packsFail{k.Deps.Store}
		failing := insights.New(&d, siteswire.Service(f.Root), nil)
		reader := access.WithCaller(k.Ctx, f.Caller("read"))
		apply := func(svc *insights.Service) {
			t.Helper()
			if err := s.Track(reader, f.Org.ID, f.site, []insights.Event{{Type: insights.PageView, URL: "https://x.test/docs/a", Page: "p1", Space: "sp1"}},
				insights.Visitor{Addr: "10.0.0.1", UserAgent: "A"}); err != nil {
				t.Fatal(err)
			}
			for _, j := range f.q.Take() {
				if err := svc.Apply(k.Ctx, j); err != nil {
					t.Fatal(err)
				}
			}
		}
		first := k.Deps.Clock()
		// The day the fourth day's first job packs (the third's packed
		// the first).
		closed := []string{insights.Day(first.AddDate(0, 0, 1))}
		packed := func() []string {
			t.Helper()
			var out []string
			for _, day := range closed {
				days, err := s.ValidPacks(k.Ctx, f.site, day[:len("2006-01")])
				if err != nil {
					t.Fatal(err)
				}
				if slices.Contains(days, day) {
					out = append(out, day)
				}
			}
			return out
		}
		// Three days of events, then the fourth's first job, whose
		// packing of the second fails.
		for day := 0; day < 3; day++ {
			if day > 0 {
				clock.Jump(24 * time.Hour)
			}
			apply(s)
		}
		clock.Jump(24 * time.Hour)
		apply(failing)
		if got := packed(); len(got) != 0 {
			t.Fatalf("days %v packed through a store refusing packs", got)
		}
		// Within the lease: not packed again yet.
		clock.Jump(time.Minute)
		apply(s)
		if got := packed(); len(got) != 0 {
			t.Fatalf("days %v packed again within the failed packing's lease", got)
		}
		clock.Jump(10 * time.Minute)
		apply(s)
		if got := packed(); !slices.Equal(got, closed) {
			t.Fatalf("days packed %v, want %v: the next job past the lease packs them", got, closed)
		}
	})
}
