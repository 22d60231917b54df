package collections_test

import (
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

// fixture is an organization "Acme" with an admin, a creator, a reader and
// a guest, an outsider, and "Other" where only the admin is an admin.
type fixture struct {
	kit                                     *testkit.Kit
	api                                     *httpapi.API
	org, other                              model.Organization
	users                                   map[string]model.User
	admin, creator, reader, guest, outsider string // tokens
}

func setup(t *testing.T) *fixture {
	k := testkit.New(t)
	a := testkit.NewAPI(t, k, []string{"spaces", "collections"}, testkit.AlsoInOther("admin", "create"))
	tok := a.Tokens
	f := &fixture{kit: k, api: a.API, org: a.Org, other: a.Other, admin: tok["admin"], creator: tok["create"],
		reader: tok["read"], guest: tok["guest"], outsider: tok[testkit.Outsider],
		users: map[string]model.User{"alice": a.Users["admin"], "carol": a.Users["create"], "rita": a.Users["read"],
			"gus": a.Users["guest"], "olga": a.Users[testkit.Outsider]}}
	return f
}

func (f *fixture) as(t *testing.T, token string) *apitest.Client {
	return testkit.Client(t, f.api, token)
}

// collection creates a collection as the admin ("" parent: top level).
func (f *fixture) collection(t *testing.T, title, parent string) string {
	t.Helper()
	return f.create(t, "collections", title, parent)
}

// space creates a space as the admin ("" parent: top level).
func (f *fixture) space(t *testing.T, title, parent string) string {
	t.Helper()
	return f.create(t, "spaces", title, parent)
}

// create creates a collection or a space (kind: the organization's list it
// joins) as the admin, and returns its id.
func (f *fixture) create(t *testing.T, kind, title, parent string) string {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	return f.as(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/"+kind, body).Map(t)["id"].(string)
}

// all reads every page of a list with the given page size
// (testkit.Pages) and returns the items' values of field.
func (f *fixture) all(t *testing.T, token, path string, limit int, field string) []string {
	t.Helper()
	items, _ := testkit.Pages(t, f.as(t, token), path, limit)
	return testkit.Field(items, field)
}

// titles maps ids to titles for readable failures.
func (f *fixture) titles(t *testing.T, ids []string, kind string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = f.as(t, f.admin).Expect(http.StatusOK, "GET", "/v1/"+kind+"/"+id, nil).Map(t)["title"].(string)
	}
	return out
}
