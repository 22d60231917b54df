package grants_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

// siteFixture: setup's families and the sites family, with the fixture's
// site (showing its space) and the team "Writers".
type siteFixture struct {
	*testkit.API
	org, site, team string
}

func siteSetup(t *testing.T, k *testkit.Kit) *siteFixture {
	a := testkit.NewAPI(t, k, []string{"orgs", "spaces", "collections", "sites"}, testkit.Member("mia", model.RoleRead))
	f := &siteFixture{API: a, org: "/v1/orgs/" + a.Org.ID}
	f.site = f.org + "/sites/" + a.Site(t)
	f.team = a.As(t, "admin").Expect(http.StatusCreated, "PUT", f.org+"/teams", map[string]any{"title": "Writers"}).Map(t)["id"].(string)
	return f
}

// siteAggregate reads the site's aggregate as the admin, by user name.
func (f *siteFixture) siteAggregate(t *testing.T, query string) map[string]map[string]any {
	t.Helper()
	ids := map[string]string{}
	for name, u := range f.Users {
		ids[u.ID] = name
	}
	byName := map[string]map[string]any{}
	for _, it := range testkit.Items(t, f.As(t, "admin"), f.site+"/permissions/aggregate"+query, 3) {
		name := ids[it["user"].(map[string]any)["id"].(string)]
		if _, twice := byName[name]; twice {
			t.Fatalf("%s listed twice", name)
		}
		byName[name] = it
	}
	return byName
}

func origin(it map[string]any) string {
	o := it["origin"].(map[string]any)
	if o["type"] == "site" {
		return "site:" + o["reason"].(string)
	}
	return o["type"].(string)
}

// The acceptance shape on a site, on both backends: the admin, given read
// by a grant and edit through a team, is listed once with admin and its
// three sources; a member of role read in the team gets edit, from the
// team; a guest in the team reaches the site through it alone. Removing
// the team grant applies to the next request: the guest's site is gone,
// from the site and from their list of sites.
func TestSiteAggregateAndGrantsApplyAtOnce(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := siteSetup(t, k)
		admin, guest := f.As(t, "admin"), f.As(t, "guest")
		adminID, mia, guestID := f.Users["admin"].ID, f.Users["mia"].ID, f.Users["guest"].ID
		guest.Expect(http.StatusNotFound, "GET", f.site, nil)
		admin.Expect(http.StatusNoContent, "PUT", f.org+"/teams/"+f.team+"/members", map[string]any{"add": []any{adminID, mia, guestID}})
		admin.Expect(http.StatusNoContent, "POST", f.site+"/permissions", map[string]any{"role": "read", "users": []any{adminID, mia}})
		admin.Expect(http.StatusNoContent, "POST", f.site+"/permissions", map[string]any{"role": "edit", "teams": []any{f.team}})

		got := f.siteAggregate(t, "")
		for name, want := range map[string]struct {
			level, origin string
			sources       []string
		}{
			"admin": {"admin", "organization", []string{"organization:admin", "team:edit", "user:read"}},
			"mia":   {"edit", "site:team", []string{"organization:read", "team:edit", "user:read"}},
			"guest": {"edit", "site:team", []string{"team:edit"}},
			"read":  {"read", "organization", []string{"organization:read"}},
		} {
			it := got[name]
			if it == nil || it["permission"] != want.level || origin(it) != want.origin || !slices.Equal(kinds(it), want.sources) {
				t.Fatalf("%s: %v", name, it)
			}
		}
		if _, ok := got[testkit.Outsider]; ok {
			t.Fatal("an outsider is listed")
		}
		for _, s := range got["guest"]["sources"].([]any) {
			if s.(map[string]any)["site"] != f.Site(t) || s.(map[string]any)["team"] != f.team {
				t.Fatalf("guest's source: %v", s)
			}
		}
		// Filters: role (guest: the organization's guests), team, search.
		if g := f.siteAggregate(t, "?role=edit"); len(g) != 3 || g["mia"] == nil || g["guest"] == nil || g["edit"] == nil {
			t.Fatalf("role=edit: %v", g)
		}
		if g := f.siteAggregate(t, "?role=guest"); len(g) != 1 || g["guest"] == nil {
			t.Fatalf("role=guest: %v", g)
		}
		if g := f.siteAggregate(t, "?team="+f.team); len(g) != 3 || g["read"] != nil {
			t.Fatalf("team: %v", g)
		}
		if g := f.siteAggregate(t, "?search=MIA"); len(g) != 1 || g["mia"] == nil {
			t.Fatalf("search: %v", g)
		}
		// Sorted by name, ascending and descending, over pages.
		asc := displayNames(testkit.Items(t, admin, f.site+"/permissions/aggregate?sort=name&order=asc", 2))
		desc := displayNames(testkit.Items(t, admin, f.site+"/permissions/aggregate?sort=name", 2))
		if !slices.IsSorted(asc) || len(asc) != len(got) {
			t.Fatalf("by name: %v", asc)
		}
		slices.Reverse(desc)
		if !slices.Equal(asc, desc) {
			t.Fatalf("by name, descending: %v", desc)
		}

		if p := guest.Expect(http.StatusOK, "GET", f.site, nil).Map(t)["permissions"].(map[string]any); p["view"] != true || p["create"] != false {
			t.Fatalf("guest's permissions: %v", p)
		}
		if ids := testkit.Field(testkit.Items(t, guest, f.org+"/sites", 10), "id"); !slices.Equal(ids, []string{f.Site(t)}) {
			t.Fatalf("guest's sites: %v", ids)
		}
		teams := testkit.Items(t, admin, f.site+"/permissions/teams", 10)
		if len(teams) != 1 || teams[0]["permission"] != "edit" || teams[0]["team"].(map[string]any)["id"] != f.team {
			t.Fatalf("teams: %v", teams)
		}

		admin.Expect(http.StatusResetContent, "DELETE", f.site+"/permissions/teams/"+f.team, nil)
		guest.Expect(http.StatusNotFound, "GET", f.site, nil)
		if ids := testkit.Field(testkit.Items(t, guest, f.org+"/sites", 10), "id"); len(ids) != 0 {
			t.Fatalf("guest's sites after the team grant went: %v", ids)
		}
		after := f.siteAggregate(t, "")
		if _, ok := after["guest"]; ok {
			t.Fatal("the guest is listed after the team grant went")
		}
		if m := after["mia"]; m["permission"] != "read" || slices.Contains(kinds(m), "team:edit") {
			t.Fatalf("mia after: %v %v", m["permission"], kinds(m))
		}
	})
}

func displayNames(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it["user"].(map[string]any)["displayName"].(string)
	}
	return out
}

// A guest given a role on a site by a grant does what the role allows on
// that site and nothing else: not more on it, not another site, not the
// spaces it shows.
func TestGuestWithASiteGrantReachesThatSiteOnly(t *testing.T) {
	f := siteSetup(t, testkit.New(t))
	admin, guest := f.As(t, "admin"), f.As(t, "guest")
	other := f.org + "/sites/" + admin.Expect(http.StatusCreated, "POST", f.org+"/sites", map[string]any{"title": "Other"}).Map(t)["id"].(string)
	guestID := f.Users["guest"].ID
	admin.Expect(http.StatusNoContent, "POST", f.site+"/permissions", map[string]any{"role": "create", "users": []any{guestID}})

	guest.Expect(http.StatusOK, "GET", f.site, nil)
	guest.Expect(http.StatusCreated, "POST", f.site+"/section-groups", map[string]any{"title": "Guides"})
	guest.Expect(http.StatusForbidden, "PATCH", f.site, map[string]any{"title": "Mine"})
	guest.Expect(http.StatusForbidden, "GET", f.site+"/share-links", nil)
	guest.Expect(http.StatusForbidden, "GET", f.site+"/permissions/users", nil)
	guest.Expect(http.StatusNotFound, "GET", other, nil)
	guest.Expect(http.StatusNotFound, "GET", "/v1/spaces/"+f.Space(t), nil)
	if ids := testkit.Field(testkit.Items(t, guest, f.org+"/sites", 10), "id"); !slices.Equal(ids, []string{f.Site(t)}) {
		t.Fatalf("guest's sites: %v", ids)
	}
	users := testkit.Items(t, admin, f.site+"/permissions/users", 10)
	if len(users) != 1 || users[0]["permission"] != "create" || users[0]["user"].(map[string]any)["id"] != guestID {
		t.Fatalf("users: %v", users)
	}

	// Admin by a grant: the site's settings and its permissions, still
	// nothing of the other site.
	admin.Expect(http.StatusNoContent, "PATCH", f.site+"/permissions/users/"+guestID, map[string]any{"role": "admin"})
	guest.Expect(http.StatusOK, "PATCH", f.site, map[string]any{"title": "Mine"})
	guest.Expect(http.StatusOK, "GET", f.site+"/permissions/aggregate", nil)
	guest.Expect(http.StatusNotFound, "GET", other+"/permissions/users", nil)

	admin.Expect(http.StatusResetContent, "DELETE", f.site+"/permissions/users/"+guestID, nil)
	admin.Expect(http.StatusNoContent, "DELETE", f.site+"/permissions/users/"+guestID, nil)
	guest.Expect(http.StatusNotFound, "GET", f.site, nil)
	admin.Expect(http.StatusNotFound, "PATCH", f.site+"/permissions/users/"+guestID, map[string]any{"role": "read"})

	// A member's level on a site is the highest of their role and grants.
	admin.Expect(http.StatusNoContent, "POST", f.site+"/permissions", map[string]any{"role": "admin", "users": []any{f.Users["read"].ID}})
	read := f.As(t, "read")
	read.Expect(http.StatusOK, "GET", f.site+"/share-links", nil)
	read.Expect(http.StatusForbidden, "GET", other+"/share-links", nil)
	// The grants go with the site.
	admin.Expect(http.StatusResetContent, "DELETE", f.site, nil)
	if got := f.siteAggregateOf(t, other); got["read"]["permission"] != "read" {
		t.Fatalf("read on the other site: %v", got["read"])
	}
}

func (f *siteFixture) siteAggregateOf(t *testing.T, site string) map[string]map[string]any {
	saved := f.site
	defer func() { f.site = saved }()
	f.site = site
	return f.siteAggregate(t, "")
}

func TestSitePermissionsAuthorizationAndValidation(t *testing.T) {
	f := siteSetup(t, testkit.New(t))
	tok := f.Tokens
	mia, guest := f.Users["mia"].ID, f.Users["guest"].ID
	cases := authCases(tok, f.site, mia, f.team)
	inv := f.site + "/permissions"
	cases = append(cases,
		testkit.Case{Name: "404 unknown site", Token: tok["admin"], Method: "GET", Path: f.org + "/sites/nosuch/permissions/users", Status: 404},
		testkit.Case{Name: "404 site of another organization", Token: tok[testkit.Outsider], Method: "GET", Path: "/v1/orgs/" + f.Other.ID + "/sites/" + f.Site(t) + "/permissions/users", Status: 404},
		testkit.Case{Name: "400 role null", Token: tok["admin"], Method: "POST", Path: inv, Body: map[string]any{"role": nil, "users": []any{mia}}, Status: 400, Field: "role"},
		testkit.Case{Name: "400 role unknown", Token: tok["admin"], Method: "POST", Path: inv, Body: map[string]any{"role": "owner", "users": []any{mia}}, Status: 400, Field: "role"},
		testkit.Case{Name: "400 no one", Token: tok["admin"], Method: "POST", Path: inv, Body: map[string]any{"role": "read"}, Status: 400, Field: "users"},
		testkit.Case{Name: "400 a non-member", Token: tok["admin"], Method: "POST", Path: inv, Body: map[string]any{"role": "read", "users": []any{guest, f.Users[testkit.Outsider].ID}}, Status: 400, Field: "users[1]"},
		testkit.Case{Name: "400 another organization's team", Token: tok["admin"], Method: "POST", Path: inv, Body: map[string]any{"role": "read", "teams": []any{"nosuchteam"}}, Status: 400, Field: "teams[0]"},
		testkit.Case{Name: "400 PATCH role null", Token: tok["admin"], Method: "PATCH", Path: inv + "/users/" + mia, Body: map[string]any{"role": nil}, Status: 400, Field: "role"},
		testkit.Case{Name: "400 PATCH team role unknown", Token: tok["admin"], Method: "PATCH", Path: inv + "/teams/" + f.team, Body: map[string]any{"role": "owner"}, Status: 400, Field: "role"},
		testkit.Case{Name: "400 aggregate role", Token: tok["admin"], Method: "GET", Path: inv + "/aggregate?role=owner", Status: 400, Field: "role"},
		testkit.Case{Name: "400 aggregate sort", Token: tok["admin"], Method: "GET", Path: inv + "/aggregate?sort=email", Status: 400, Field: "sort"},
		testkit.Case{Name: "400 aggregate order", Token: tok["admin"], Method: "GET", Path: inv + "/aggregate?order=up", Status: 400, Field: "order"},
		testkit.Case{Name: "400 page token", Token: tok["admin"], Method: "GET", Path: inv + "/users?page=bad", Status: 400, Field: "page"},
	)
	f.Check(t, cases)
}
