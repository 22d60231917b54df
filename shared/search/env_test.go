package search_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/changerequestsroot"
	"github.com/galleydocs/galley/shared/app/roots/searchroot"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/search"
	"github.com/galleydocs/galley/shared/search/searchhttp"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// fixture is an API with the spaces, change requests and search families;
// an organization with an admin, a reader and a guest, and its spaces
// "Docs" (readable by members) and "Secret" (guests by default: the
// reader cannot read it); another organization with its space "Other".
type fixture struct {
	kit                            *testkit.Kit
	api                            *httpapi.API
	svc                            *search.Service
	org, otherOrg                  model.Organization
	docs, secret, other            string
	admin, reader, guest, outsider string
}

func setup(t testing.TB) *fixture { return setupOn(t, testkit.New(t)) }

func setupOn(t testing.TB, k *testkit.Kit) *fixture {
	f := &fixture{kit: k}
	f.svc = searchroot.Service(app.NewRoot(k.Deps))
	t.Cleanup(f.svc.Close)
	f.api = newAPI(f)
	ua, ta := k.User("alice")
	ur, tr := k.User("rita")
	ug, tg := k.User("gus")
	uo, to := k.User("olga")
	f.admin, f.reader, f.guest, f.outsider = ta, tr, tg, to
	f.org = k.Org("Acme", map[string]model.Role{ua.ID: model.RoleAdmin, ur.ID: model.RoleRead, ug.ID: model.RoleGuest})
	f.otherOrg = k.Org("Other", map[string]model.Role{uo.ID: model.RoleAdmin})
	f.docs = f.space(t, ua.ID, f.org.ID, "Docs")
	f.secret = f.space(t, ua.ID, f.org.ID, "Secret")
	guests := ""
	ctx := access.WithCaller(k.Ctx, access.Caller{UserID: ua.ID})
	if _, _, err := spaces.New(k.Deps).Update(ctx, f.secret, spaces.Change{DefaultLevel: &guests}); err != nil {
		t.Fatal(err)
	}
	f.other = f.space(t, uo.ID, f.otherOrg.ID, "Other")
	return f
}

// newAPI serves the fixture's families, with its search service.
func newAPI(f *fixture) *httpapi.API {
	k := f.kit
	api := httpapi.New(httpapi.Config{Auth: users.New(k.Deps), Logger: k.Deps.Logger, APIURL: "https://api.test", AppURL: "https://app.test"})
	spaceshttp.Register(api, spaces.New(k.Deps))
	changerequestsroot.Routes(api, app.NewRoot(k.Deps))
	searchhttp.Register(api, f.svc)
	return api
}

func (f *fixture) space(t testing.TB, userID, orgID, title string) string {
	t.Helper()
	ctx := access.WithCaller(f.kit.Ctx, access.Caller{UserID: userID})
	sp, _, err := spaces.New(f.kit.Deps).Create(ctx, orgID, spaces.Create{Title: title})
	if err != nil {
		t.Fatal(err)
	}
	return sp.ID
}

func (f *fixture) as(t testing.TB, token string) *apitest.Client {
	c := apitest.New(t, f.api)
	c.Token = token
	return c
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
	ctx := context.Background()
	repo := content.NewRepo(f.kit.Deps)
	pos := content.Spread(len(pages))
	tree := &content.Tree{}
	for i, p := range pages {
		h, err := repo.PutDocument(ctx, spaceID, document.NormalizeBody(p.Body))
		if err != nil {
			tb.Fatal(err)
		}
		tree.Pages = append(tree.Pages, content.Page{ID: p.ID, Parent: p.Parent, Pos: pos[i], Type: content.TypeDocument,
			Title: p.Title, Slug: document.Slug(p.Title, "page") + "-" + strings.ToLower(p.ID), Document: h})
	}
	k := keys.Space(spaceID)
	sp, _, err := records.Get[model.Space](ctx, f.kit.Deps.Store, k)
	if err != nil {
		tb.Fatal(err)
	}
	rev, err := repo.NewRevision(ctx, spaceID, content.RevisionEdits, []string{sp.Revision}, content.NewIndex(tree))
	if err != nil {
		tb.Fatal(err)
	}
	_, err = store.Update(ctx, f.kit.Deps.Store, k.PK, k.SK, func(old store.Item) (store.Item, []store.Op, error) {
		cur, err := records.Decode[model.Space](old)
		if err != nil {
			return old, nil, err
		}
		cur.Revision = rev.ID
		next := old
		next.Data = records.Item(k, cur, 0).Data
		return next, []store.Op{content.Put(rev)}, nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return rev.ID
}

func (f *fixture) search(t testing.TB, token, path string) map[string]any {
	t.Helper()
	return f.as(t, token).Expect(http.StatusOK, "GET", path, nil).Map(t)
}

func (f *fixture) spaceRevision(t testing.TB, spaceID string) string {
	t.Helper()
	sp, _, err := records.Get[model.Space](context.Background(), f.kit.Deps.Store, keys.Space(spaceID))
	if err != nil {
		t.Fatal(err)
	}
	return sp.Revision
}
