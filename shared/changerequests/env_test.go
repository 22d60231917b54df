package changerequests_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/changerequestsroot"
	"github.com/galleydocs/galley/shared/app/roots/contentroot"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// fixture is an API with the spaces, content and change requests families,
// an organization with a member of each role, and one space.
type fixture struct {
	kit                                              *testkit.Kit
	api                                              *httpapi.API
	org                                              model.Organization
	space                                            string
	admin, editor, reviewer, reader, guest, outsider string
	editorID, reviewerID, readerID                   string
}

func setup(t testing.TB) *fixture { return setupOn(t, testkit.New(t)) }

func setupOn(t testing.TB, k *testkit.Kit) *fixture {
	api := httpapi.New(httpapi.Config{Auth: users.New(k.Deps), Logger: k.Deps.Logger, APIURL: "https://api.test", AppURL: "https://app.test"})
	spaceshttp.Register(api, spaces.New(k.Deps))
	// Routes: content computed from the organization's OpenAPI specs.
	contentroot.Routes(api, app.NewRoot(k.Deps))
	changerequestsroot.Routes(api, app.NewRoot(k.Deps))
	f := &fixture{kit: k, api: api}
	ua, ta := k.User("alice")
	ue, te := k.User("eddie")
	uv, tv := k.User("vera")
	ur, tr := k.User("rita")
	ug, tg := k.User("gus")
	_, to := k.User("olga")
	f.admin, f.editor, f.reviewer, f.reader, f.guest, f.outsider = ta, te, tv, tr, tg, to
	f.editorID, f.reviewerID, f.readerID = ue.ID, uv.ID, ur.ID
	f.org = k.Org("Acme", map[string]model.Role{ua.ID: model.RoleAdmin, ue.ID: model.RoleEdit, uv.ID: model.RoleReview,
		ur.ID: model.RoleRead, ug.ID: model.RoleGuest})
	ctx := access.WithCaller(k.Ctx, access.Caller{UserID: ua.ID})
	sp, _, err := spaces.New(k.Deps).Create(ctx, f.org.ID, spaces.Create{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	f.space = sp.ID
	return f
}

func (f *fixture) as(t testing.TB, token string) *apitest.Client {
	c := apitest.New(t, f.api)
	c.Token = token
	return c
}

func (f *fixture) crs() string { return "/v1/spaces/" + f.space + "/change-requests" }

func (f *fixture) cr(id any) string { return fmt.Sprintf("%s/%v", f.crs(), id) }

// create opens a change request as token and returns it.
func (f *fixture) create(t testing.TB, token, subject string) map[string]any {
	t.Helper()
	return f.as(t, token).Expect(http.StatusCreated, "POST", f.crs(), map[string]any{"subject": subject}).Map(t)
}

// spaceOf reads the space.
func (f *fixture) spaceOf(t testing.TB) map[string]any {
	t.Helper()
	return f.as(t, f.admin).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space, nil).Map(t)
}

// author applies changes to a request and returns the answer.
func (f *fixture) author(t testing.TB, token string, id any, changes ...map[string]any) map[string]any {
	t.Helper()
	return f.as(t, token).Expect(http.StatusOK, "POST", f.cr(id)+"/content?compat=false", map[string]any{"changes": changes}).Map(t)
}

func insert(ref, into, markdown string) map[string]any {
	c := map[string]any{"operation": "insert_page", "document": map[string]any{"markdown": markdown}}
	if ref != "" {
		c["ref"] = ref
	}
	if into != "" {
		c["into"] = into
	}
	return c
}
