package imports_test

import (
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/app/roots/importsroot"
	"github.com/galleydocs/galley/shared/imports"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// fixture is the imports family's API on a kit (testkit.NewAPI), with its
// service and the space "Docs"; imports may fetch from loopback (the
// tests' servers).
type fixture struct {
	*testkit.API
	svc   *imports.Service
	space string
}

func setup(t testing.TB) *fixture { return setupOn(t, testkit.New(t)) }

// setupOn builds the fixture on a kit (a storage backend).
func setupOn(t testing.TB, k *testkit.Kit) *fixture {
	k.Deps.FetchAllowPrivate = true
	a := testkit.NewAPI(t, k, []string{"imports"})
	return &fixture{API: a, svc: importsroot.Service(a.Root), space: a.Space(t)}
}

// importInto imports url from source at path as the editor.
func (f *fixture) importInto(t *testing.T, path, url, source string) map[string]any {
	t.Helper()
	return f.As(t, "edit").Expect(http.StatusCreated, "POST", path, map[string]any{"url": url, "source": source}).Map(t)
}
