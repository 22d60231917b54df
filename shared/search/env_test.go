package search_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/searchroot"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/search"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// served are the families of the fixture's API.
var served = []string{"spaces", "changerequests", "sites", "search"}

// fixture is an API with the spaces, change requests, sites and search
// families on a kit (testkit.NewAPI); its organization's spaces "Docs"
// (readable by members) and "Secret" (guests by default: the reader cannot
// read it); the outsider's organization's space "Other".
type fixture struct {
	*testkit.API
	svc                 *search.Service
	docs, secret, other string
}

func setup(t testing.TB) *fixture { return setupOn(t, testkit.New(t)) }

func setupOn(t testing.TB, k *testkit.Kit) *fixture {
	f := &fixture{API: testkit.NewAPI(t, k, served)}
	f.svc = searchroot.Service(f.Root)
	t.Cleanup(f.svc.Close)
	f.docs = f.NewSpace(t, "admin", f.Org.ID, "Docs")
	f.secret = f.NewSpace(t, "admin", f.Org.ID, "Secret")
	guests := ""
	if _, _, err := spaces.New(k.Deps).Update(f.Ctx("admin"), f.secret, spaces.Change{DefaultLevel: &guests}); err != nil {
		t.Fatal(err)
	}
	f.other = f.NewSpace(t, testkit.Outsider, f.Other.ID, "Other")
	return f
}

// restart serves the fixture as another process would: from a new root,
// whose search service holds nothing in memory.
func (f *fixture) restart(t testing.TB) {
	f.API.API = f.Serve(t, served, func(r *app.Root) { f.svc = searchroot.Service(r) })
	t.Cleanup(f.svc.Close)
}

// page is a page to seed: top level unless Parent is set.
type page struct {
	ID, Parent, Title, Body string
}

// seed makes a space's head a new revision holding pages (in order), as a
// merge would, without going through change requests (fast for large
// fixtures). It returns the revision's id.
func (f *fixture) seed(tb testing.TB, spaceID string, pages []page) string {
	tb.Helper()
	pos := content.Spread(len(pages))
	tree := &content.Tree{}
	bodies := map[string]string{}
	for i, p := range pages {
		tree.Pages = append(tree.Pages, content.Page{ID: p.ID, Parent: p.Parent, Pos: pos[i], Type: content.TypeDocument,
			Title: p.Title, Slug: document.Slug(p.Title, "page") + "-" + strings.ToLower(p.ID)})
		bodies[p.ID] = document.NormalizeBody(p.Body)
	}
	return f.Kit.Land(tb, spaceID, tree, bodies).ID
}

// search answers a search as the named user.
func (f *fixture) search(t testing.TB, user, path string) map[string]any {
	t.Helper()
	return f.As(t, user).Expect(http.StatusOK, "GET", path, nil).Map(t)
}
