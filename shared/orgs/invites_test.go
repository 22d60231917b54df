package orgs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestInviteUsers(t *testing.T) {
	e := newEnv(t)
	alice, bob, carol, dave, erin, rita, olga := e.user("alice"), e.user("bob"), e.user("carol"), e.user("dave"), e.user("erin"), e.user("rita"), e.user("olga")
	org := e.org(alice, "Acme", map[user]model.Role{rita: model.RoleRead})
	path := "/v1/orgs/" + org + "/invites"
	role := func(u user) any {
		r := e.do("GET", "/v1/orgs/"+org+"/members/"+u.ID, alice.Token, nil)
		if r.Code == 404 {
			return "not a member"
		}
		return r.obj()["role"]
	}
	for _, tc := range []struct {
		name, token string
		body        any
		want        int
		inMessage   string
	}{
		{"401 without token", "", map[string]any{"emails": []any{bob.Email}}, 401, ""},
		{"403 for a non-admin", rita.Token, map[string]any{"emails": []any{bob.Email}}, 403, ""},
		{"404 for a non-member", olga.Token, map[string]any{"emails": []any{bob.Email}}, 404, ""},
		{"400 without emails", alice.Token, map[string]any{"role": "read"}, 400, "emails"},
		{"400 empty emails", alice.Token, map[string]any{"emails": []any{}}, 400, "emails"},
		{"400 an address of no user, nobody added", alice.Token, map[string]any{"emails": []any{bob.Email, "ghost@example.com"}}, 400, "emails[1]"},
		{"400 unknown role", alice.Token, map[string]any{"emails": []any{bob.Email}, "role": "owner"}, 400, "role"},
		{"400 unknown role of one address", alice.Token, map[string]any{"emails": []any{map[string]any{"email": bob.Email, "role": "boss"}}}, 400, "emails[0]"},
		{"400 object form without role", alice.Token, map[string]any{"emails": []any{map[string]any{"email": bob.Email}}}, 400, "emails[0]"},
		{"400 address neither string nor object", alice.Token, map[string]any{"emails": []any{3}}, 400, "emails[0]"},
		{"400 bad JSON", alice.Token, `{"emails": [`, 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := e.on(t)
			r := e.do("POST", path, tc.token, tc.body)
			if r.Code != tc.want {
				t.Fatalf("status %d, want %d: %s", r.Code, tc.want, r.Raw)
			}
			if tc.inMessage != "" && !strings.Contains(r.message(), tc.inMessage) {
				t.Fatalf("message %q does not name %q", r.message(), tc.inMessage)
			}
			if got := role(bob); got != "not a member" {
				t.Fatalf("bob became a member (%v) through a refused invitation", got)
			}
		})
	}
	t.Run("200 both forms, own roles override, SSO", func(t *testing.T) {
		e := e.on(t)
		r := e.must(200, "POST", path, alice.Token, map[string]any{"role": "edit", "sso": true, "emails": []any{
			strings.ToUpper(bob.Email), map[string]any{"email": carol.Email, "role": nil}, map[string]any{"email": dave.Email, "role": "admin"}, bob.Email,
		}}).obj()
		users, _ := r["users"].([]any)
		if r["invited"] != 3.0 || len(users) != 3 || users[0] != bob.ID || users[1] != carol.ID || users[2] != dave.ID {
			t.Fatalf("answer %v", r)
		}
		if role(bob) != "edit" || role(carol) != nil || role(dave) != "admin" {
			t.Fatalf("roles %v %v %v", role(bob), role(carol), role(dave))
		}
		if m := e.must(200, "GET", "/v1/orgs/"+org+"/members/"+bob.ID, alice.Token, nil).obj(); m["sso"] != true {
			t.Fatalf("not an SSO member: %v", m)
		}
	})
	t.Run("200 existing members unchanged and not counted", func(t *testing.T) {
		e := e.on(t)
		r := e.must(200, "POST", path, alice.Token, map[string]any{"role": "read", "emails": []any{bob.Email, rita.Email, erin.Email}}).obj()
		if r["invited"] != 1.0 || !slices.Equal(r["users"].([]any), []any{erin.ID}) {
			t.Fatalf("answer %v", r)
		}
		if role(bob) != "edit" || role(erin) != "read" {
			t.Fatalf("roles %v %v", role(bob), role(erin))
		}
	})
	t.Run("200 without role: the organization's default role", func(t *testing.T) {
		e := e.on(t)
		e.must(200, "PATCH", "/v1/orgs/"+org, alice.Token, map[string]any{"defaultRole": "comment"})
		e.must(200, "POST", path, alice.Token, map[string]any{"emails": []any{olga.Email}})
		if role(olga) != "comment" {
			t.Fatalf("role %v, want the default comment", role(olga))
		}
	})
}

func TestInviteLinks(t *testing.T) {
	e := newEnv(t)
	alice, rita, joe, olga := e.user("alice"), e.user("rita"), e.user("joe"), e.user("olga")
	org := e.org(alice, "Acme", map[user]model.Role{rita: model.RoleRead})
	base := "/v1/orgs/" + org + "/link-invites"

	t.Run("201 create with a role", func(t *testing.T) {
		e := e.on(t)
		inv := e.must(201, "POST", base, alice.Token, map[string]any{"role": "edit"}).obj()
		if inv["object"] != "invite" || inv["role"] != "edit" || inv["redundant"] != false || len(inv["id"].(string)) < 20 {
			t.Fatalf("invite %v", inv)
		}
	})
	t.Run("201 create with role null (guests)", func(t *testing.T) {
		e := e.on(t)
		inv := e.must(201, "POST", base, alice.Token, map[string]any{"role": nil}).obj()
		if v, ok := inv["role"]; !ok || v != nil {
			t.Fatalf("invite %v, want role null", inv)
		}
	})
	testkit.Check(t, e.api, []testkit.Case{
		{"400 unknown role", alice.Token, "POST", base, map[string]any{"role": "owner"}, 400, ""},
		{"400 without role", alice.Token, "POST", base, map[string]any{}, 400, ""},
		{"400 bad JSON", alice.Token, "POST", base, "{", 400, ""},
		{"403 for a non-admin", rita.Token, "POST", base, map[string]any{"role": "read"}, 403, ""},
		{"404 for a non-member", olga.Token, "POST", base, map[string]any{"role": "read"}, 404, ""},
		{"401 without token", "", "POST", base, map[string]any{"role": "read"}, 401, ""},
	})

	id := e.must(201, "POST", base, alice.Token, map[string]any{"role": "comment"}).obj()["id"].(string)
	p := base + "/" + id
	for _, tc := range []struct {
		name, method, path, token string
		body                      any
		want                      int
		role                      any // the invite's role afterwards
	}{
		{"200 get", "GET", p, alice.Token, nil, 200, "comment"},
		{"403 get by a non-admin", "GET", p, rita.Token, nil, 403, "comment"},
		{"404 get by a non-member", "GET", p, olga.Token, nil, 404, "comment"},
		{"404 get an unknown invite", "GET", base + "/nope", alice.Token, nil, 404, "comment"},
		{"401 get without token", "GET", p, "", nil, 401, "comment"},
		{"200 patch the role", "PATCH", p, alice.Token, map[string]any{"role": "review"}, 200, "review"},
		{"200 patch the role to null", "PATCH", p, alice.Token, map[string]any{"role": nil}, 200, nil},
		{"200 patch the role back", "PATCH", p, alice.Token, map[string]any{"role": "read"}, 200, "read"},
		{"400 patch an unknown role", "PATCH", p, alice.Token, map[string]any{"role": "owner"}, 400, "read"},
		{"400 patch without role", "PATCH", p, alice.Token, map[string]any{}, 400, "read"},
		{"403 patch by a non-admin", "PATCH", p, rita.Token, map[string]any{"role": "admin"}, 403, "read"},
		{"404 patch an unknown invite", "PATCH", base + "/nope", alice.Token, map[string]any{"role": "admin"}, 404, "read"},
		{"403 delete by a non-admin", "DELETE", p, rita.Token, nil, 403, "read"},
		{"404 delete by a non-member", "DELETE", p, olga.Token, nil, 404, "read"},
		{"204 delete an unknown invite", "DELETE", base + "/nope", alice.Token, nil, 204, "read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := e.on(t)
			r := e.do(tc.method, tc.path, tc.token, tc.body)
			if r.Code != tc.want {
				t.Fatalf("status %d, want %d: %s", r.Code, tc.want, r.Raw)
			}
			if got := e.must(200, "GET", p, alice.Token, nil).obj()["role"]; got != tc.role {
				t.Fatalf("invite role %v, want %v", got, tc.role)
			}
		})
	}

	join := "/v1/orgs/" + org + "/invites/" + id
	t.Run("200 {} joins with the invite's role", func(t *testing.T) {
		e := e.on(t)
		if r := e.must(200, "POST", join, joe.Token, nil); strings.TrimSpace(string(r.Raw)) != "{}" {
			t.Fatalf("body %s", r.Raw)
		}
		if m := e.must(200, "GET", "/v1/orgs/"+org+"/members/"+joe.ID, alice.Token, nil).obj(); m["role"] != "read" {
			t.Fatalf("member %v", m)
		}
	})
	t.Run("200 a member joining again is unchanged", func(t *testing.T) {
		e := e.on(t)
		e.must(200, "POST", join, alice.Token, nil)
		if m := e.must(200, "GET", "/v1/orgs/"+org+"/members/"+alice.ID, alice.Token, nil).obj(); m["role"] != "admin" {
			t.Fatalf("admin became %v", m["role"])
		}
	})
	e.must(404, "POST", "/v1/orgs/"+org+"/invites/nope", olga.Token, nil)
	e.must(404, "POST", "/v1/orgs/nope/invites/"+id, olga.Token, nil)
	e.must(401, "POST", join, "", nil)
	t.Run("403 while invite links are disabled", func(t *testing.T) {
		e := e.on(t)
		e.must(200, "PATCH", "/v1/orgs/"+org, alice.Token, map[string]any{"inviteLinks": false})
		e.must(403, "POST", join, olga.Token, nil)
		e.must(404, "GET", "/v1/orgs/"+org, olga.Token, nil)
		e.must(200, "PATCH", "/v1/orgs/"+org, alice.Token, map[string]any{"inviteLinks": true})
		e.must(200, "POST", join, olga.Token, nil)
		e.must(200, "GET", "/v1/orgs/"+org, olga.Token, nil)
	})
	t.Run("205 delete, then the link is gone", func(t *testing.T) {
		e := e.on(t)
		if r := e.must(205, "DELETE", p, alice.Token, nil); len(r.Raw) != 0 {
			t.Fatalf("205 with body %q", r.Raw)
		}
		e.must(404, "GET", p, alice.Token, nil)
		e.must(204, "DELETE", p, alice.Token, nil) // nothing to remove any more
		e.must(404, "POST", join, e.user("late").Token, nil)
	})
}
