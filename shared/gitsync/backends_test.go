package gitsync_test

import (
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// Import, export and re-import on both storage backends.
func TestRoundTripOnBothBackends(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		f.git.repo(t, "docs", summaryRepo)
		f.git.repo(t, "copy", nil)
		first, second := f.space(t), f.space(t)
		f.importRepo(t, first, "docs", map[string]any{"repoProjectDirectory": "docs"})
		f.exportTo(t, first, "copy", "copy", nil)
		f.importRepo(t, second, "copy", nil)
		_, a, _ := f.head(t, first)
		_, b, _ := f.head(t, second)
		if strings.Join(keysOf(a), ",") != strings.Join(keysOf(b), ",") || len(a) != 6 {
			t.Fatalf("pages %v and %v", keysOf(a), keysOf(b))
		}
		for key, p := range a {
			if b[key] != p {
				t.Errorf("%s: %+v became %+v", key, p, b[key])
			}
		}
	})
}
