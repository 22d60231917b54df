package orgs_test

import (
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

// The organization's invite links are listed to its admins, a page at a
// time, as GitBook's document shapes them.
func TestListInviteLinks(t *testing.T) {
	a := testkit.NewAPI(t, testkit.New(t), []string{"orgs"})
	path := "/v1/orgs/" + a.Org.ID + "/link-invites"
	admin := a.As(t, "admin")
	made := map[string]bool{}
	for _, role := range []string{"read", "edit", "admin"} {
		made[admin.Expect(201, "POST", path, map[string]any{"role": role}).Map(t)["id"].(string)] = true
	}
	items, tokens := testkit.Pages(t, admin, path, 2)
	if len(items) != 3 || len(tokens) != 1 {
		t.Fatalf("%d links in %d pages", len(items), len(tokens)+1)
	}
	for _, it := range items {
		if !made[it["id"].(string)] || it["object"] != "invite" || it["redundant"] != false {
			t.Errorf("link %v", it)
		}
	}
	a.Check(t, []testkit.Case{
		{"401 without token", "", "GET", path, nil, 401, ""},
		{"403 below admin", a.Tokens["create"], "GET", path, nil, 403, ""},
		{"404 for an outsider", a.Tokens[testkit.Outsider], "GET", path, nil, 404, ""},
		{"400 a bad limit", a.Tokens["admin"], "GET", path + "?limit=0", nil, 400, "limit"},
		{"400 a forged page", a.Tokens["admin"], "GET", path + "?page=forged", nil, 400, "page"},
	})
}

// POST .../join makes a user at one of the organization's email domains
// a member with its default role; anyone else gets 404, the organization
// being none of theirs.
func TestJoinByEmailDomain(t *testing.T) {
	a := testkit.NewAPI(t, testkit.New(t), []string{"orgs", "users"})
	org := "/v1/orgs/" + a.Org.ID
	a.As(t, "admin").Expect(200, "PATCH", org, map[string]any{"emailDomains": []string{"acme.test"}, "defaultRole": "comment"})
	admin := access.WithCaller(a.Kit.Ctx, access.Caller{UserID: "root", InstanceAdmin: true})
	newUser := func(email string) (string, string) {
		u, tok, err := users.New(a.Kit.Deps).Create(admin, email, "Someone")
		if err != nil {
			t.Fatal(err)
		}
		return u.ID, tok
	}
	carlID, carl := newUser("carl@ACME.test")
	_, olga := newUser("olga@elsewhere.test")
	a.Check(t, []testkit.Case{
		{"401 without token", "", "POST", org + "/join", nil, 401, ""},
		{"404 for a user at another domain", olga, "POST", org + "/join", nil, 404, ""},
		{"404 for an unknown organization", carl, "POST", "/v1/orgs/nope/join", nil, 404, ""},
		{"204 for a user at the domain (any case)", carl, "POST", org + "/join", nil, 204, ""},
		{"204 again, unchanged", carl, "POST", org + "/join", nil, 204, ""},
		{"204 for a member at another domain, unchanged", a.Tokens["read"], "POST", org + "/join", nil, 204, ""},
	})
	m := a.As(t, "admin").Expect(200, "GET", org+"/members/"+carlID, nil).Map(t)
	if m["role"] != "comment" {
		t.Fatalf("joined as %v, want the default role comment", m["role"])
	}
	if r := a.As(t, "admin").Expect(200, "GET", org+"/members/"+a.Users["read"].ID, nil).Map(t); r["role"] != "read" {
		t.Fatalf("a member's role changed by joining: %v", r["role"])
	}
	a.As(t, "admin").Expect(200, "PATCH", org, map[string]any{"emailDomains": []string{}})
	a.WithToken(t, olga).Expect(404, "POST", org+"/join", nil)
}
