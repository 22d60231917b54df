package sites_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// backends runs fn on each storage backend.
func backends(t *testing.T, fn func(t *testing.T, f *fixture)) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) { fn(t, newFixture(t, k)) })
}

// fixture is an API with the spaces and sites families on one store, an
// organization with a member of each kind, and an outsider who administers
// an organization of their own.
type fixture struct {
	t                                       *testing.T
	kit                                     *testkit.Kit
	api                                     *httpapi.API
	org, other                              model.Organization
	admin, creator, reader, guest, outsider string // tokens
	adminID                                 string
}

func newFixture(t *testing.T, k *testkit.Kit) *fixture {
	a := testkit.NewAPI(t, k, []string{"spaces", "sites"})
	tok := a.Tokens
	return &fixture{t: t, kit: k, api: a.API, org: a.Org, other: a.Other, admin: tok["admin"], creator: tok["create"],
		reader: tok["read"], guest: tok["guest"], outsider: tok[testkit.Outsider], adminID: a.Users["admin"].ID}
}

func setup(t *testing.T) *fixture { return newFixture(t, testkit.New(t)) }

func (f *fixture) as(t *testing.T, token string) *apitest.Client {
	return testkit.Client(t, f.api, token)
}

// sitesPath is the organization's sites collection.
func (f *fixture) sitesPath() string { return "/v1/orgs/" + f.org.ID + "/sites" }

// space creates a space in the organization and returns its id.
func (f *fixture) space(t *testing.T, title string) string {
	t.Helper()
	return f.as(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/spaces", map[string]any{"title": title}).Map(t)["id"].(string)
}

// site creates a site (as the admin) and returns its path.
func (f *fixture) site(t *testing.T, body map[string]any) (string, map[string]any) {
	t.Helper()
	s := f.as(t, f.admin).Expect(http.StatusCreated, "POST", f.sitesPath(), body).Map(t)
	return f.sitesPath() + "/" + s["id"].(string), s
}

// list reads every page of a list, limit items at a time (testkit.Pages),
// and returns the items.
func (f *fixture) list(t *testing.T, token, path string, limit int) []map[string]any {
	t.Helper()
	items, _ := testkit.Pages(t, f.as(t, token), path, limit)
	return items
}

// ids returns the ids of items.
func ids(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it["id"].(string)
	}
	return out
}

func field(items []map[string]any, name string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i], _ = it[name].(string)
	}
	return out
}

func join(s []string) string { return strings.Join(s, ",") }

// mentions fails unless an error answer names field.
func mentions(t *testing.T, res apitest.Response, field string) {
	t.Helper()
	if !strings.Contains(string(res.Body), field) {
		t.Errorf("error does not name %q: %s", field, res.Body)
	}
}

// storeItems reads every item of a table partition.
func storeItems(f *fixture, pk string) ([]store.Item, error) {
	return store.QueryAll(f.kit.Ctx, f.kit.Deps.Store, store.Query{PK: pk})
}

// sampleSchema is a valid adaptive schema.
func sampleSchema() map[string]any {
	return map[string]any{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type":    "object",
		"properties": map[string]any{
			"isBetaUser": map[string]any{"type": "boolean", "description": "In the beta program"},
			"isAdmin":    map[string]any{"type": "boolean", "description": "An administrator"},
			"unsigned": map[string]any{"type": "object", "description": "Unsigned claims of the site visitor.",
				"properties":           map[string]any{"prefersDark": map[string]any{"type": "boolean", "description": "Dark mode"}},
				"additionalProperties": false},
		},
		"additionalProperties": false,
	}
}
