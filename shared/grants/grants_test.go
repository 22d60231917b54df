package grants_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// fixture: the organizations, spaces and collections families over an
// organization with a member of each role, and "mia" (role read).
type fixture struct {
	*testkit.API
	org, space, col, team string
}

func setup(t *testing.T) *fixture {
	a := testkit.NewAPI(t, testkit.New(t), []string{"orgs", "spaces", "collections", "search"}, testkit.Member("mia", model.RoleRead))
	f := &fixture{API: a, org: "/v1/orgs/" + a.Org.ID}
	admin := a.As(t, "admin")
	f.col = admin.Expect(http.StatusCreated, "POST", f.org+"/collections", map[string]any{"title": "Guides"}).Map(t)["id"].(string)
	f.space = admin.Expect(http.StatusCreated, "POST", f.org+"/spaces", map[string]any{"title": "Docs", "parent": f.col}).Map(t)["id"].(string)
	f.team = admin.Expect(http.StatusCreated, "PUT", f.org+"/teams", map[string]any{"title": "Writers"}).Map(t)["id"].(string)
	return f
}

// aggregate reads the aggregate of path as the admin, by user name.
func (f *fixture) aggregate(t *testing.T, path string) map[string]map[string]any {
	t.Helper()
	byName := map[string]map[string]any{}
	ids := map[string]string{}
	for name, u := range f.Users {
		ids[u.ID] = name
	}
	for _, it := range testkit.Items(t, f.As(t, "admin"), path+"/permissions/aggregate", 3) {
		name := ids[it["user"].(map[string]any)["id"].(string)]
		if _, twice := byName[name]; twice {
			t.Fatalf("%s listed twice", name)
		}
		byName[name] = it
	}
	return byName
}

func kinds(it map[string]any) []string {
	var out []string
	for _, s := range it["sources"].([]any) {
		m := s.(map[string]any)
		out = append(out, m["kind"].(string)+":"+m["permission"].(string))
	}
	slices.Sort(out)
	return out
}

// A member given read by a direct grant, edit through a team and admin
// through the organization is listed once, with admin and its three
// sources; a member with read and edit grants (no organization admin)
// gets edit; removing the team grant applies to their next request.
func TestAggregateListsEachUserOnceWithTheHighestRoleAndItsSources(t *testing.T) {
	f := setup(t)
	admin := f.As(t, "admin")
	sp := "/v1/spaces/" + f.space
	mia, adminID := f.Users["mia"].ID, f.Users["admin"].ID
	admin.Expect(http.StatusNoContent, "PUT", f.org+"/teams/"+f.team+"/members", map[string]any{"add": []any{adminID, mia}})
	admin.Expect(http.StatusNoContent, "POST", sp+"/permissions", map[string]any{"role": "read", "users": []any{adminID, mia}})
	admin.Expect(http.StatusNoContent, "POST", "/v1/collections/"+f.col+"/permissions", map[string]any{"role": "edit", "teams": []any{f.team}})

	got := f.aggregate(t, sp)
	if a := got["admin"]; a["permission"] != "admin" || !slices.Equal(kinds(a), []string{"organization:admin", "team:edit", "user:read"}) {
		t.Fatalf("admin: %v %v", a["permission"], kinds(a))
	}
	if m := got["mia"]; m["permission"] != "edit" || !slices.Equal(kinds(m), []string{"organization:read", "team:edit", "user:read"}) {
		t.Fatalf("mia: %v %v", m["permission"], kinds(m))
	}
	if _, ok := got["guest"]; ok {
		t.Fatal("a guest without grants is listed")
	}
	if _, ok := got[testkit.Outsider]; ok {
		t.Fatal("an outsider is listed")
	}
	edit := f.With(t, f.Tokens["mia"])
	edit.Expect(http.StatusOK, "GET", sp, nil)
	if p := edit.Expect(http.StatusOK, "GET", sp, nil).Map(t)["permissions"].(map[string]any); p["edit"] != true {
		t.Fatalf("mia cannot edit through her team: %v", p)
	}
	// The role filter.
	for _, it := range testkit.Items(t, admin, sp+"/permissions/aggregate?role=edit", 10) {
		if it["permission"] != "edit" {
			t.Fatalf("role=edit listed %v", it)
		}
	}

	admin.Expect(http.StatusResetContent, "DELETE", "/v1/collections/"+f.col+"/permissions/teams/"+f.team, nil)
	admin.Expect(http.StatusNoContent, "DELETE", "/v1/collections/"+f.col+"/permissions/teams/"+f.team, nil)
	if p := edit.Expect(http.StatusOK, "GET", sp, nil).Map(t)["permissions"].(map[string]any); p["edit"] != false || p["view"] != true {
		t.Fatalf("mia after the team grant is removed: %v", p)
	}
	if m := f.aggregate(t, sp)["mia"]; m["permission"] != "read" || slices.Contains(kinds(m), "team:edit") {
		t.Fatalf("mia after: %v %v", m["permission"], kinds(m))
	}
}

// A guest reaches content only through grants: the space appears in
// their lists and search once granted, and disappears when the grant goes.
func TestGuestsReachContentOnlyThroughGrants(t *testing.T) {
	f := setup(t)
	admin, guest := f.As(t, "admin"), f.As(t, "guest")
	sp := "/v1/spaces/" + f.space
	guest.Expect(http.StatusNotFound, "GET", sp, nil)
	admin.Expect(http.StatusNoContent, "POST", sp+"/permissions", map[string]any{"role": "comment", "users": []any{f.Users["guest"].ID}})
	if p := guest.Expect(http.StatusOK, "GET", sp, nil).Map(t)["permissions"].(map[string]any); p["comment"] != true || p["edit"] != false {
		t.Fatalf("guest's permissions: %v", p)
	}
	if ids := testkit.Field(testkit.Items(t, guest, f.org+"/spaces", 10), "id"); !slices.Equal(ids, []string{f.space}) {
		t.Fatalf("guest's spaces: %v", ids)
	}
	users := testkit.Items(t, admin, sp+"/permissions/users", 10)
	if len(users) != 1 || users[0]["permission"] != "comment" || users[0]["user"].(map[string]any)["id"] != f.Users["guest"].ID {
		t.Fatalf("users: %v", users)
	}
	admin.Expect(http.StatusNoContent, "PATCH", sp+"/permissions/users/"+f.Users["guest"].ID, map[string]any{"role": "edit"})
	if p := guest.Expect(http.StatusOK, "GET", sp, nil).Map(t)["permissions"].(map[string]any); p["edit"] != true {
		t.Fatalf("guest's permissions after PATCH: %v", p)
	}
	admin.Expect(http.StatusResetContent, "DELETE", sp+"/permissions/users/"+f.Users["guest"].ID, nil)
	guest.Expect(http.StatusNotFound, "GET", sp, nil)
	if ids := testkit.Field(testkit.Items(t, guest, f.org+"/spaces", 10), "id"); len(ids) != 0 {
		t.Fatalf("guest's spaces after removal: %v", ids)
	}
}

func TestTeamPermissionsList(t *testing.T) {
	f := setup(t)
	admin := f.As(t, "admin")
	c := "/v1/collections/" + f.col
	admin.Expect(http.StatusNoContent, "POST", c+"/permissions", map[string]any{"role": "review", "teams": []any{f.team}})
	teams := testkit.Items(t, admin, c+"/permissions/teams", 10)
	if len(teams) != 1 || teams[0]["permission"] != "review" || teams[0]["team"].(map[string]any)["id"] != f.team {
		t.Fatalf("teams: %v", teams)
	}
	admin.Expect(http.StatusNoContent, "PATCH", c+"/permissions/teams/"+f.team, map[string]any{"role": "read"})
	if teams := testkit.Items(t, admin, c+"/permissions/teams", 10); teams[0]["permission"] != "read" {
		t.Fatalf("teams after PATCH: %v", teams)
	}
	if n := f.With(t, f.Tokens["admin"]).Expect(http.StatusOK, "GET", f.org+"/teams/"+f.team, nil).Map(t)["spaces"]; n != 0.0 {
		t.Fatalf("a collection grant counted as a space: %v", n)
	}
}

func TestAuthorizationAndValidation(t *testing.T) {
	f := setup(t)
	sp, col := "/v1/spaces/"+f.space, "/v1/collections/"+f.col
	tok := f.Tokens
	mia, guest := f.Users["mia"].ID, f.Users["guest"].ID
	var cases []testkit.Case
	for _, base := range []string{sp, col} {
		cases = append(cases, authCases(tok, base, mia, f.team)...)
	}
	cases = append(cases,
		testkit.Case{Name: "400 role null", Token: tok["admin"], Method: "POST", Path: sp + "/permissions", Body: map[string]any{"role": nil, "users": []any{mia}}, Status: 400, Field: "role"},
		testkit.Case{Name: "400 role unknown", Token: tok["admin"], Method: "POST", Path: sp + "/permissions", Body: map[string]any{"role": "owner", "users": []any{mia}}, Status: 400, Field: "role"},
		testkit.Case{Name: "400 no one", Token: tok["admin"], Method: "POST", Path: sp + "/permissions", Body: map[string]any{"role": "read"}, Status: 400, Field: "users"},
		testkit.Case{Name: "400 a non-member", Token: tok["admin"], Method: "POST", Path: sp + "/permissions", Body: map[string]any{"role": "read", "users": []any{guest, f.Users[testkit.Outsider].ID}}, Status: 400, Field: "users[1]"},
		testkit.Case{Name: "400 an empty id, twice", Token: tok["admin"], Method: "POST", Path: sp + "/permissions", Body: map[string]any{"role": "read", "users": []any{"", ""}}, Status: 400, Field: "users[0]"},
		testkit.Case{Name: "a member named twice", Token: tok["admin"], Method: "POST", Path: sp + "/permissions", Body: map[string]any{"role": "read", "users": []any{guest, guest}}, Status: 204},
		testkit.Case{Name: "400 another organization's team", Token: tok["admin"], Method: "POST", Path: col + "/permissions", Body: map[string]any{"role": "read", "teams": []any{"nosuchteam"}}, Status: 400, Field: "teams[0]"},
		testkit.Case{Name: "400 PATCH role null", Token: tok["admin"], Method: "PATCH", Path: sp + "/permissions/users/" + mia, Body: map[string]any{"role": nil}, Status: 400, Field: "role"},
		testkit.Case{Name: "400 aggregate role", Token: tok["admin"], Method: "GET", Path: sp + "/permissions/aggregate?role=owner", Status: 400, Field: "role"},
		testkit.Case{Name: "400 page token", Token: tok["admin"], Method: "GET", Path: sp + "/permissions/users?page=bad", Status: 400, Field: "page"},
		// An admin of the space by a grant manages its permissions.
		testkit.Case{Name: "grant admin to create", Token: tok["admin"], Method: "POST", Path: sp + "/permissions", Body: map[string]any{"role": "admin", "users": []any{f.Users["create"].ID}}, Status: 204},
		testkit.Case{Name: "admin by grant lists", Token: tok["create"], Method: "GET", Path: sp + "/permissions/users", Status: 200},
		testkit.Case{Name: "admin by grant is not admin of the collection", Token: tok["create"], Method: "GET", Path: col + "/permissions/users", Status: 403},
	)
	f.Check(t, cases)
}

// authCases call the eight permissions operations of the content at base
// (on mia's grant and the team's) without a token, as an outsider, a
// guest, a member of role create and the admin.
func authCases(tok map[string]string, base, mia, team string) []testkit.Case {
	var cases []testkit.Case
	for _, op := range []struct {
		method, path string
		body         any
		ok           int
	}{
		{"POST", "/permissions", map[string]any{"role": "read", "users": []any{mia}}, 204},
		{"GET", "/permissions/users", nil, 200},
		{"GET", "/permissions/teams", nil, 200},
		{"GET", "/permissions/aggregate", nil, 200},
		{"PATCH", "/permissions/users/" + mia, map[string]any{"role": "edit"}, 204},
		{"PATCH", "/permissions/teams/" + team, map[string]any{"role": "edit"}, 404},
		{"DELETE", "/permissions/users/" + mia, nil, 205},
		{"DELETE", "/permissions/teams/" + team, nil, 204},
	} {
		n, p := op.method+" "+base+op.path, base+op.path
		cases = append(cases,
			testkit.Case{Name: "401 no token " + n, Method: op.method, Path: p, Body: op.body, Status: 401},
			testkit.Case{Name: "404 outsider " + n, Token: tok[testkit.Outsider], Method: op.method, Path: p, Body: op.body, Status: 404},
			testkit.Case{Name: "404 guest " + n, Token: tok["guest"], Method: op.method, Path: p, Body: op.body, Status: 404},
			testkit.Case{Name: "403 create " + n, Token: tok["create"], Method: op.method, Path: p, Body: op.body, Status: 403},
			testkit.Case{Name: "admin " + n, Token: tok["admin"], Method: op.method, Path: p, Body: op.body, Status: op.ok},
		)
	}
	return cases
}

func TestTeamMembers(t *testing.T) {
	f := setup(t)
	admin := f.As(t, "admin")
	tm := f.org + "/teams/" + f.team + "/members"
	mia, read := f.Users["mia"].ID, f.Users["read"].ID
	admin.Expect(http.StatusNoContent, "PUT", tm+"/"+mia, map[string]any{"role": "owner"})
	admin.Expect(http.StatusNoContent, "PUT", tm, map[string]any{"add": []any{"read@example.com", f.Users["edit"].ID}, "remove": []any{f.Users["edit"].ID}})
	list := testkit.Items(t, admin, tm, 1)
	roles := map[string]string{}
	for _, it := range list {
		roles[it["organization"].(map[string]any)["id"].(string)] = it["team"].(map[string]any)["role"].(string)
	}
	if len(roles) != 2 || roles[mia] != "owner" || roles[read] != "member" {
		t.Fatalf("team members: %v", roles)
	}
	teams := testkit.Items(t, f.As(t, "mia"), f.org+"/members/"+mia+"/teams", 10)
	if len(teams) != 1 || teams[0]["member"].(map[string]any)["role"] != "owner" {
		t.Fatalf("mia's teams: %v", teams)
	}
	admin.Expect(http.StatusNoContent, "PUT", tm, map[string]any{"memberships": map[string]any{mia: map[string]any{"role": "member"}}})
	if n := admin.Expect(http.StatusOK, "GET", f.org+"/teams/"+f.team, nil).Map(t)["members"]; n != 2.0 {
		t.Fatalf("members counted: %v", n)
	}
	admin.Expect(http.StatusResetContent, "DELETE", tm+"/"+read, nil)
	admin.Expect(http.StatusNoContent, "DELETE", tm+"/"+read, nil)
	if n := admin.Expect(http.StatusOK, "GET", f.org+"/members/"+read, nil).Map(t)["teams"]; n != 0.0 {
		t.Fatalf("read's teams counted: %v", n)
	}
	f.Check(t, []testkit.Case{
		{"401 list", "", "GET", tm, nil, 401, ""},
		{"404 outsider list", f.Tokens[testkit.Outsider], "GET", tm, nil, 404, ""},
		{"403 guest list", f.Tokens["guest"], "GET", tm, nil, 403, ""},
		{"200 read list", f.Tokens["read"], "GET", tm, nil, 200, ""},
		{"403 create add", f.Tokens["create"], "PUT", tm + "/" + read, nil, 403, ""},
		{"404 outsider add", f.Tokens[testkit.Outsider], "PUT", tm + "/" + read, nil, 404, ""},
		{"401 add", "", "PUT", tm + "/" + read, nil, 401, ""},
		{"403 create update", f.Tokens["create"], "PUT", tm, map[string]any{}, 403, ""},
		{"403 create remove", f.Tokens["create"], "DELETE", tm + "/" + mia, nil, 403, ""},
		{"404 add a non-member", f.Tokens["admin"], "PUT", tm + "/" + f.Users[testkit.Outsider].ID, nil, 404, ""},
		{"404 unknown team", f.Tokens["admin"], "GET", f.org + "/teams/nosuch/members", nil, 404, ""},
		{"400 add names the field", f.Tokens["admin"], "PUT", tm, map[string]any{"add": []any{mia, "nobody@example.com"}}, 400, "add[1]"},
		{"400 memberships role", f.Tokens["admin"], "PUT", tm, map[string]any{"memberships": map[string]any{mia: map[string]any{"role": "boss"}}}, 400, "role"},
		{"400 add role", f.Tokens["admin"], "PUT", tm + "/" + mia, map[string]any{"role": "boss"}, 400, "role"},
	})
}
