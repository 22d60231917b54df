package content_test

import (
	"testing"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// fixture is the content family's API on a kit (testkit.NewAPI), with the
// space "Docs" of its organization.
type fixture struct {
	*testkit.API
	space string
}

func setup(t *testing.T) *fixture { return setupOn(t, testkit.New(t)) }

func setupOn(t *testing.T, k *testkit.Kit) *fixture {
	a := testkit.NewAPI(t, k, []string{"content"})
	return &fixture{API: a, space: a.Space(t)}
}

// seed makes a revision of the given pages (bodies by page id) and files,
// and moves the space's head to it.
func (f *fixture) seed(t *testing.T, pages []content.Page, bodies map[string]string, files []content.File) model.Revision {
	t.Helper()
	return f.Kit.Land(t, f.space, &content.Tree{Pages: pages, Files: files}, bodies)
}
