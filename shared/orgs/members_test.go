package orgs_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
)

// crew is an organization of seven members: alice (admin), bob, carol,
// erin and gina (read), dave (edit), frank (guest); olga is an outsider.
type crew struct {
	e                                                *env
	org                                              string
	alice, bob, carol, dave, erin, frank, gina, olga user
}

func newCrew(t *testing.T) *crew {
	e := newEnv(t)
	c := &crew{e: e}
	c.alice, c.bob, c.carol, c.dave = e.user("alice"), e.user("bob"), e.user("carol"), e.user("dave")
	c.erin, c.frank, c.gina, c.olga = e.user("erin"), e.user("frank"), e.user("gina"), e.user("olga")
	c.org = e.org(c.alice, "Acme", nil)
	// Added one by one, so join times follow this order.
	for _, m := range []struct {
		u user
		r model.Role
	}{{c.bob, model.RoleRead}, {c.carol, model.RoleRead}, {c.dave, model.RoleEdit}, {c.erin, model.RoleRead}, {c.frank, model.RoleGuest}, {c.gina, model.RoleRead}} {
		e.add(c.org, c.alice, m.u, m.r)
	}
	return c
}

// listRefusals are the refusals a list of the crew's organization at path
// answers (unknown: the same list of an organization that does not
// exist): without a token, to a guest and to a non-member, and for a
// limit out of range.
func (c *crew) listRefusals(path, unknown string) []testkit.Case {
	return []testkit.Case{
		{"401 without token", "", "GET", path, nil, 401, ""},
		{"403 for a guest", c.frank.Token, "GET", path, nil, 403, ""},
		{"404 for a non-member", c.olga.Token, "GET", path, nil, 404, ""},
		{"404 for an unknown organization", c.alice.Token, "GET", unknown, nil, 404, ""},
		{"400 limit 0", c.alice.Token, "GET", path + "?limit=0", nil, 400, ""},
		{"400 limit 1001", c.alice.Token, "GET", path + "?limit=1001", nil, 400, ""},
	}
}

func (c *crew) ids(us ...user) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.ID)
	}
	return out
}

func TestListMembers(t *testing.T) {
	c := newCrew(t)
	e, base := c.e, "/v1/orgs/"+c.org+"/members"
	everyone := c.ids(c.alice, c.bob, c.carol, c.dave, c.erin, c.frank, c.gina)

	t.Run("200 seven members over pages of 3, newest first", func(t *testing.T) {
		e := e.on(t)
		got := e.collect(base, c.bob.Token, 3, byID)
		want := slices.Clone(everyone)
		slices.Reverse(want)
		if !slices.Equal(got, want) {
			t.Fatalf("listed %v, want %v", got, want)
		}
	})
	t.Run("200 oldest first with order asc", func(t *testing.T) {
		e := e.on(t)
		if got := e.collect(query(base, "order", "asc"), c.bob.Token, 3, byID); !slices.Equal(got, everyone) {
			t.Fatalf("listed %v, want %v", got, everyone)
		}
	})
	t.Run("200 member fields", func(t *testing.T) {
		e := e.on(t)
		for _, m := range e.must(200, "GET", base, c.alice.Token, nil).items() {
			if m["object"] != "member" || get(m, "user.id") != m["id"] || get(m, "user.object") != "user" || m["joinedAt"] == nil ||
				m["disabled"] != false || m["sso"] != false || m["teams"] != 0.0 || m["spaces"] != 0.0 {
				t.Fatalf("member %v", m)
			}
			if _, ok := m["role"]; !ok {
				t.Fatalf("role missing (must be null for guests): %v", m)
			}
			if m["id"] == c.frank.ID && m["role"] != nil {
				t.Fatalf("guest role %v, want null", m["role"])
			}
		}
	})
	t.Run("200 role filter over pages", func(t *testing.T) {
		e := e.on(t)
		got := e.collect(query(base, "role", "read", "order", "asc"), c.alice.Token, 3, byID)
		if want := c.ids(c.bob, c.carol, c.erin, c.gina); !slices.Equal(got, want) {
			t.Fatalf("listed %v, want %v", got, want)
		}
	})
	t.Run("200 role filter guest", func(t *testing.T) {
		e := e.on(t)
		if got := e.collect(query(base, "role", "guest"), c.alice.Token, 3, byID); !slices.Equal(got, c.ids(c.frank)) {
			t.Fatalf("listed %v", got)
		}
	})
	t.Run("200 search in display names and emails ignoring case", func(t *testing.T) {
		e := e.on(t)
		if got := e.collect(query(base, "search", "ERIN"), c.alice.Token, 3, byID); !slices.Equal(got, c.ids(c.erin)) {
			t.Fatalf("by name: %v", got)
		}
		got := e.collect(query(base, "search", "@example.COM", "order", "asc"), c.alice.Token, 3, byID)
		if !slices.Equal(got, everyone) {
			t.Fatalf("by email: %v", got)
		}
		if got := e.collect(query(base, "search", "zzz"), c.alice.Token, 3, byID); len(got) != 0 {
			t.Fatalf("no match: %v", got)
		}
	})
	t.Run("200 sort by lastSeenAt lists only members seen", func(t *testing.T) {
		e := e.on(t)
		e.must(200, "POST", "/v1/orgs/"+c.org+"/ping", c.dave.Token, nil)
		e.must(200, "POST", "/v1/orgs/"+c.org+"/ping", c.frank.Token, nil)
		e.must(200, "POST", "/v1/orgs/"+c.org+"/ping", c.bob.Token, nil)
		got := e.collect(query(base, "sort", "lastSeenAt"), c.alice.Token, 2, byID)
		if want := c.ids(c.bob, c.frank, c.dave); !slices.Equal(got, want) {
			t.Fatalf("listed %v, want %v", got, want)
		}
		for _, m := range e.must(200, "GET", query(base, "sort", "lastSeenAt"), c.alice.Token, nil).items() {
			if m["lastSeenAt"] == nil {
				t.Fatalf("member without lastSeenAt: %v", m)
			}
		}
	})

	plain := e.must(200, "GET", base+"?limit=3", c.alice.Token, nil).next()
	readers := e.must(200, "GET", query(base, "limit", "3", "role", "read"), c.alice.Token, nil).next()
	other := e.org(c.bob, "Bob's", map[user]model.Role{c.alice: model.RoleRead, c.carol: model.RoleRead, c.dave: model.RoleRead, c.erin: model.RoleRead})
	otherOrg := e.must(200, "GET", "/v1/orgs/"+other+"/members?limit=3", c.alice.Token, nil).next()
	if plain == "" || readers == "" || otherOrg == "" {
		t.Fatal("expected further pages")
	}
	testkit.Check(t, e.api, append(c.listRefusals(base, "/v1/orgs/nope/members"), []testkit.Case{
		{"401 with a bad token", "bad", "GET", base, nil, 401, ""},
		{"400 unknown role", c.alice.Token, "GET", base + "?role=owner", nil, 400, ""},
		{"400 unknown sort", c.alice.Token, "GET", base + "?sort=name", nil, 400, ""},
		{"400 unknown order", c.alice.Token, "GET", base + "?order=up", nil, 400, ""},
		{"400 tampered page token", c.alice.Token, "GET", query(base, "page", tamper(plain)), nil, 400, ""},
		{"400 tampered filtered page token", c.alice.Token, "GET", query(base, "role", "read", "page", tamper(readers)), nil, 400, ""},
		{"400 token of the filtered list on the plain one", c.alice.Token, "GET", query(base, "page", readers), nil, 400, ""},
		{"400 token of the plain list on the filtered one", c.alice.Token, "GET", query(base, "role", "read", "page", plain), nil, 400, ""},
		{"400 token with another order", c.alice.Token, "GET", query(base, "order", "asc", "page", plain), nil, 400, ""},
		{"400 token with another search", c.alice.Token, "GET", query(base, "role", "read", "search", "a", "page", readers), nil, 400, ""},
		{"400 token of another organization", c.alice.Token, "GET", query(base, "page", otherOrg), nil, 400, ""},
		{"400 token of another list", c.alice.Token, "GET", query("/v1/orgs", "page", plain), nil, 400, ""},
		{"200 token of its own list", c.alice.Token, "GET", query(base, "page", plain), nil, 200, ""},
	}...))
}

func TestGetMember(t *testing.T) {
	c := newCrew(t)
	e := c.e
	p := func(u string) string { return "/v1/orgs/" + c.org + "/members/" + u }
	testkit.Check(t, e.api, []testkit.Case{
		{"200 for a reader", c.bob.Token, "GET", p(c.dave.ID), nil, 200, ""},
		{"200 for a guest reading themself", c.frank.Token, "GET", p(c.frank.ID), nil, 200, ""},
		{"403 for a guest reading another", c.frank.Token, "GET", p(c.dave.ID), nil, 403, ""},
		{"404 for a non-member", c.olga.Token, "GET", p(c.dave.ID), nil, 404, ""},
		{"404 for an unknown member", c.alice.Token, "GET", p("nobody"), nil, 404, ""},
		{"404 for a user who is not a member", c.alice.Token, "GET", p(c.olga.ID), nil, 404, ""},
		{"401 without token", "", "GET", p(c.dave.ID), nil, 401, ""},
	})
	m := e.must(200, "GET", p(c.dave.ID), c.alice.Token, nil).obj()
	if m["id"] != c.dave.ID || m["role"] != "edit" || get(m, "user.email") != c.dave.Email || get(m, "user.displayName") != "Dave Doe" {
		t.Fatalf("member %v", m)
	}
}

func TestUpdateMember(t *testing.T) {
	c := newCrew(t)
	e := c.e
	p := func(u string) string { return "/v1/orgs/" + c.org + "/members/" + u }
	for _, tc := range []struct {
		name, path, token string
		body              any
		want              int
		role              any // dave's role afterwards
	}{
		{"200 sets a role", p(c.dave.ID), c.alice.Token, map[string]any{"role": "review"}, 200, "review"},
		{"200 null makes a guest", p(c.dave.ID), c.alice.Token, map[string]any{"role": nil}, 200, nil},
		{"200 admin", p(c.dave.ID), c.alice.Token, map[string]any{"role": "admin"}, 200, "admin"},
		{"200 by the new admin", p(c.dave.ID), c.dave.Token, map[string]any{"role": "edit"}, 200, "edit"},
		{"400 unknown role", p(c.dave.ID), c.alice.Token, map[string]any{"role": "owner"}, 400, "edit"},
		{"400 without role", p(c.dave.ID), c.alice.Token, map[string]any{}, 400, "edit"},
		{"400 bad JSON", p(c.dave.ID), c.alice.Token, `{"role"`, 400, "edit"},
		{"403 for a non-admin", p(c.dave.ID), c.bob.Token, map[string]any{"role": "admin"}, 403, "edit"},
		{"403 for a member on themself", p(c.dave.ID), c.dave.Token, map[string]any{"role": "admin"}, 403, "edit"},
		{"404 for a non-member", p(c.dave.ID), c.olga.Token, map[string]any{"role": "read"}, 404, "edit"},
		{"404 for an unknown member", p("nobody"), c.alice.Token, map[string]any{"role": "read"}, 404, "edit"},
		{"409 demoting the last admin", p(c.alice.ID), c.alice.Token, map[string]any{"role": "create"}, 409, "edit"},
		{"401 without token", p(c.dave.ID), "", map[string]any{"role": "read"}, 401, "edit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := e.on(t)
			r := e.do("PATCH", tc.path, tc.token, tc.body)
			if r.Code != tc.want {
				t.Fatalf("status %d, want %d: %s", r.Code, tc.want, r.Raw)
			}
			if r.Code == 200 && r.obj()["role"] != tc.role {
				t.Fatalf("answered role %v, want %v", r.obj()["role"], tc.role)
			}
			if got := e.must(200, "GET", p(c.dave.ID), c.alice.Token, nil).obj()["role"]; got != tc.role {
				t.Fatalf("dave's role %v, want %v", got, tc.role)
			}
		})
	}
	t.Run("200 an admin steps down when another admin remains", func(t *testing.T) {
		e := e.on(t)
		e.must(200, "PATCH", p(c.bob.ID), c.alice.Token, map[string]any{"role": "admin"})
		e.must(200, "PATCH", p(c.alice.ID), c.alice.Token, map[string]any{"role": "read"})
		e.must(409, "PATCH", p(c.bob.ID), c.bob.Token, map[string]any{"role": "read"})
		e.must(403, "PATCH", p(c.alice.ID), c.alice.Token, map[string]any{"role": "admin"})
	})
}

func TestRemoveMember(t *testing.T) {
	c := newCrew(t)
	e := c.e
	p := func(u string) string { return "/v1/orgs/" + c.org + "/members/" + u }
	for _, tc := range []struct {
		name, path, token string
		want              int
	}{
		{"401 without token", p(c.bob.ID), "", 401},
		{"403 for a non-admin removing another", p(c.bob.ID), c.dave.Token, 403},
		{"404 for a non-member", p(c.bob.ID), c.olga.Token, 404},
		{"404 for an unknown member", p("nobody"), c.alice.Token, 404},
		{"409 the last admin leaving", p(c.alice.ID), c.alice.Token, 409},
		{"204 an admin removes a member", p(c.bob.ID), c.alice.Token, 204},
		{"404 removing them again", p(c.bob.ID), c.alice.Token, 404},
		{"204 a guest leaves", p(c.frank.ID), c.frank.Token, 204},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := e.on(t)
			r := e.do("DELETE", tc.path, tc.token, nil)
			if r.Code != tc.want {
				t.Fatalf("status %d, want %d: %s", r.Code, tc.want, r.Raw)
			}
			if r.Code == 204 && len(r.Raw) != 0 {
				t.Fatalf("204 with a body %q", r.Raw)
			}
		})
	}
	t.Run("removed members lose the organization", func(t *testing.T) {
		e := e.on(t)
		e.must(404, "GET", "/v1/orgs/"+c.org, c.bob.Token, nil)
		e.must(404, "GET", "/v1/orgs/"+c.org, c.frank.Token, nil)
		for _, o := range e.must(200, "GET", "/v1/orgs", c.bob.Token, nil).items() {
			if o["id"] == c.org {
				t.Fatal("still listed in the removed member's organizations")
			}
		}
		got := e.collect("/v1/orgs/"+c.org+"/members", c.alice.Token, 10, byID)
		if !sameSet(got, c.ids(c.alice, c.carol, c.dave, c.erin, c.gina)) {
			t.Fatalf("members %v", got)
		}
	})
	t.Run("204 the last admin leaves once another admin exists", func(t *testing.T) {
		e := e.on(t)
		e.must(200, "PATCH", p(c.dave.ID), c.alice.Token, map[string]any{"role": "admin"})
		e.must(204, "DELETE", p(c.alice.ID), c.alice.Token, nil)
		e.must(409, "DELETE", p(c.dave.ID), c.dave.Token, nil)
	})
	t.Run("204 leaves every team, keeping the team counters", func(t *testing.T) {
		e := e.on(t)
		var teams []string
		for _, title := range []string{"Red", "Blue"} {
			teams = append(teams, e.must(201, "PUT", "/v1/orgs/"+c.org+"/teams", c.dave.Token,
				map[string]any{"title": title, "members": []string{c.carol.ID, c.erin.ID}}).obj()["id"].(string))
		}
		if n := e.must(200, "GET", p(c.carol.ID), c.dave.Token, nil).obj()["teams"]; n != 2.0 {
			t.Fatalf("carol's teams %v, want 2", n)
		}
		e.must(204, "DELETE", p(c.carol.ID), c.dave.Token, nil)
		for _, id := range teams {
			if n := e.must(200, "GET", "/v1/orgs/"+c.org+"/teams/"+id, c.dave.Token, nil).obj()["members"]; n != 1.0 {
				t.Fatalf("team members %v after removal, want 1", n)
			}
		}
		items, err := store.QueryAll(context.Background(), e.d.Store, store.Query{Index: store.GSI1, PK: keys.MemberTeams(c.org, c.carol.ID)})
		if err != nil || len(items) != 0 {
			t.Fatalf("%d team memberships left (%v)", len(items), err)
		}
	})
}

func TestPingAndSSO(t *testing.T) {
	c := newCrew(t)
	e := c.e
	ping := "/v1/orgs/" + c.org + "/ping"
	t.Run("200 {} and lastSeenAt set", func(t *testing.T) {
		e := e.on(t)
		before := e.must(200, "GET", "/v1/orgs/"+c.org+"/members/"+c.frank.ID, c.alice.Token, nil).obj()
		if before["lastSeenAt"] != nil {
			t.Fatal("lastSeenAt set before any ping")
		}
		if r := e.must(200, "POST", ping, c.frank.Token, nil); strings.TrimSpace(string(r.Raw)) != "{}" {
			t.Fatalf("body %s, want {}", r.Raw)
		}
		after := e.must(200, "GET", "/v1/orgs/"+c.org+"/members/"+c.frank.ID, c.alice.Token, nil).obj()
		seen, err := time.Parse(time.RFC3339, after["lastSeenAt"].(string))
		if err != nil || seen.Before(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
			t.Fatalf("lastSeenAt %v (%v)", after["lastSeenAt"], err)
		}
	})
	e.must(404, "POST", ping, c.olga.Token, nil)
	e.must(404, "POST", "/v1/orgs/nope/ping", c.alice.Token, nil)
	e.must(401, "POST", ping, "", nil)

	sso := func(u string) string { return "/v1/orgs/" + c.org + "/members/" + u + "/sso" }
	t.Run("200 member becomes SSO", func(t *testing.T) {
		e := e.on(t)
		m := e.must(200, "POST", sso(c.bob.ID), c.alice.Token, nil).obj()
		if m["sso"] != true || m["id"] != c.bob.ID || m["object"] != "member" {
			t.Fatalf("member %v", m)
		}
		if e.must(200, "GET", "/v1/orgs/"+c.org+"/members/"+c.bob.ID, c.alice.Token, nil).obj()["sso"] != true {
			t.Fatal("sso not stored")
		}
	})
	e.must(403, "POST", sso(c.carol.ID), c.dave.Token, nil)
	e.must(404, "POST", sso(c.carol.ID), c.olga.Token, nil)
	e.must(404, "POST", sso("nobody"), c.alice.Token, nil)
	e.must(401, "POST", sso(c.carol.ID), "bad", nil)
}

// putSpace stores a space as the spaces family does: listed in its
// organization (GSI1) unless deleted.
func putSpace(t *testing.T, e *env, org, id, title string, deleted bool) {
	t.Helper()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sp := model.Space{ID: id, OrgID: org, Title: title, Visibility: "private", EditMode: "live", DefaultLevel: "inherit", CreatedAt: now, UpdatedAt: now}
	it := records.Item(keys.Space(id), sp, 1)
	if deleted {
		sp.DeletedAt = &now
		it = records.Item(keys.Space(id), sp, 1)
	} else {
		ik := keys.SpaceInOrg(org, id)
		it.GSI1PK, it.GSI1SK = ik.PK, ik.SK
	}
	if err := e.d.Store.Write(context.Background(), store.Put(it, store.IfNotExists)); err != nil {
		t.Fatal(err)
	}
}

func TestMemberSpaces(t *testing.T) {
	c := newCrew(t)
	e := c.e
	for _, id := range []string{"s1", "s2", "s3"} {
		putSpace(t, e, c.org, id, "Space "+id, false)
	}
	putSpace(t, e, c.org, "s0", "Deleted", true)
	p := func(u string) string { return "/v1/orgs/" + c.org + "/members/" + u + "/spaces" }
	t.Run("200 every live space at the member's role, newest first, over pages", func(t *testing.T) {
		e := e.on(t)
		got := e.collect(p(c.dave.ID), c.alice.Token, 2, func(m map[string]any) string {
			if m["permission"] != "edit" || get(m, "space.object") != "space" || get(m, "space.permissions.edit") != true {
				t.Fatalf("item %v", m)
			}
			return get(m, "space.id").(string)
		})
		if want := []string{"s3", "s2", "s1"}; !slices.Equal(got, want) {
			t.Fatalf("listed %v, want %v", got, want)
		}
	})
	t.Run("200 order asc", func(t *testing.T) {
		e := e.on(t)
		got := e.collect(query(p(c.bob.ID), "order", "asc"), c.bob.Token, 2, func(m map[string]any) string { return get(m, "space.id").(string) })
		if want := []string{"s1", "s2", "s3"}; !slices.Equal(got, want) {
			t.Fatalf("listed %v, want %v", got, want)
		}
	})
	t.Run("200 none for a guest", func(t *testing.T) {
		e := e.on(t)
		if items := e.must(200, "GET", p(c.frank.ID), c.frank.Token, nil).items(); len(items) != 0 {
			t.Fatalf("guest reaches %d spaces", len(items))
		}
	})
	tok := e.must(200, "GET", p(c.dave.ID)+"?limit=1", c.alice.Token, nil).next()
	testkit.Check(t, e.api, []testkit.Case{
		{"403 for a guest reading another's", c.frank.Token, "GET", p(c.dave.ID), nil, 403, ""},
		{"404 for a non-member", c.olga.Token, "GET", p(c.dave.ID), nil, 404, ""},
		{"404 for an unknown member", c.alice.Token, "GET", p("nobody"), nil, 404, ""},
		{"400 limit 0", c.alice.Token, "GET", p(c.dave.ID) + "?limit=0", nil, 400, ""},
		{"400 limit 1001", c.alice.Token, "GET", p(c.dave.ID) + "?limit=1001", nil, 400, ""},
		{"400 tampered token", c.alice.Token, "GET", query(p(c.dave.ID), "page", tamper(tok)), nil, 400, ""},
		{"400 token of another member's list", c.alice.Token, "GET", query(p(c.bob.ID), "page", tok), nil, 400, ""},
		{"400 token with another order", c.alice.Token, "GET", query(p(c.dave.ID), "order", "asc", "page", tok), nil, 400, ""},
		{"401 without token", "", "GET", p(c.dave.ID), nil, 401, ""},
	})
}

func TestMemberTeams(t *testing.T) {
	c := newCrew(t)
	e := c.e
	var ids []string
	for _, title := range []string{"Docs writers", "Reviewers", "API docs"} {
		ids = append(ids, e.must(201, "PUT", "/v1/orgs/"+c.org+"/teams", c.alice.Token,
			map[string]any{"title": title, "members": []string{c.dave.ID, c.frank.ID}}).obj()["id"].(string))
	}
	e.must(201, "PUT", "/v1/orgs/"+c.org+"/teams", c.alice.Token, map[string]any{"title": "Others", "members": []string{c.bob.ID}})
	p := func(u string) string { return "/v1/orgs/" + c.org + "/members/" + u + "/teams" }
	teamID := func(m map[string]any) string {
		if get(m, "member.role") != "member" || get(m, "team.object") != "team" {
			t.Fatalf("item %v", m)
		}
		return get(m, "team.id").(string)
	}
	t.Run("the member's record lists their teams as it counts them", func(t *testing.T) {
		// Authorization reads the teams' grants from this list without
		// querying the member's teams (access.Viewer.teamGrants).
		m, _, err := records.Get[model.Member](context.Background(), e.d.Store, keys.Member(c.org, c.dave.ID))
		if err != nil || m.Teams != 3 || !slices.Equal(m.TeamIDs, ids) {
			t.Fatalf("dave's record: %d teams, ids %v (%v), want %v", m.Teams, m.TeamIDs, err, ids)
		}
	})
	t.Run("200 the member's teams over pages", func(t *testing.T) {
		e := e.on(t)
		if got := e.collect(p(c.dave.ID), c.bob.Token, 2, teamID); !slices.Equal(got, ids) {
			t.Fatalf("listed %v, want %v", got, ids)
		}
	})
	t.Run("200 title filter ignoring case", func(t *testing.T) {
		e := e.on(t)
		if got := e.collect(query(p(c.dave.ID), "title", "DOCS"), c.bob.Token, 1, teamID); !slices.Equal(got, []string{ids[0], ids[2]}) {
			t.Fatalf("listed %v", got)
		}
	})
	t.Run("200 a guest reads their own teams", func(t *testing.T) {
		e := e.on(t)
		if got := e.collect(p(c.frank.ID), c.frank.Token, 5, teamID); len(got) != 3 {
			t.Fatalf("listed %v", got)
		}
	})
	tok := e.must(200, "GET", p(c.dave.ID)+"?limit=1", c.alice.Token, nil).next()
	testkit.Check(t, e.api, []testkit.Case{
		{"403 for a guest reading another's", c.frank.Token, "GET", p(c.dave.ID), nil, 403, ""},
		{"404 for a non-member", c.olga.Token, "GET", p(c.dave.ID), nil, 404, ""},
		{"404 for an unknown member", c.alice.Token, "GET", p("nobody"), nil, 404, ""},
		{"400 limit 0", c.alice.Token, "GET", p(c.dave.ID) + "?limit=0", nil, 400, ""},
		{"400 tampered token", c.alice.Token, "GET", query(p(c.dave.ID), "page", tamper(tok)), nil, 400, ""},
		{"400 token with another title filter", c.alice.Token, "GET", query(p(c.dave.ID), "title", "docs", "page", tok), nil, 400, ""},
		{"400 token of another member's list", c.alice.Token, "GET", query(p(c.frank.ID), "page", tok), nil, 400, ""},
		{"401 without token", "", "GET", p(c.dave.ID), nil, 401, ""},
	})
	// Leaving a team (its deletion) keeps the list in step.
	e.must(204, "DELETE", "/v1/orgs/"+c.org+"/teams/"+ids[1], c.alice.Token, nil)
	m, _, err := records.Get[model.Member](context.Background(), e.d.Store, keys.Member(c.org, c.dave.ID))
	if err != nil || m.Teams != 2 || !slices.Equal(m.TeamIDs, []string{ids[0], ids[2]}) {
		t.Fatalf("dave's record after a team's deletion: %d teams, ids %v (%v)", m.Teams, m.TeamIDs, err)
	}
}

func TestConcurrentDemotionsKeepAnAdmin(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	org := e.org(alice, "Acme", map[user]model.Role{bob: model.RoleAdmin})
	p := func(u user) string { return "/v1/orgs/" + org + "/members/" + u.ID }
	for round := 0; round < 10; round++ {
		codes := make(chan int, 2)
		var wg sync.WaitGroup
		for _, pair := range [][2]user{{alice, bob}, {bob, alice}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes <- e.send("PATCH", p(pair[1]), pair[0].Token, map[string]any{"role": "read"})
			}()
		}
		wg.Wait()
		close(codes)
		ok := 0
		for code := range codes {
			switch code {
			case 200:
				ok++
			case 403, 409:
			default:
				t.Fatalf("round %d: status %d", round, code)
			}
		}
		var admins []user
		for _, u := range []user{alice, bob} {
			if e.must(200, "GET", p(u), alice.Token, nil).obj()["role"] == "admin" {
				admins = append(admins, u)
			}
		}
		if len(admins) != 1 || ok != 1 {
			t.Fatalf("round %d: %d demotions succeeded, %d admins left", round, ok, len(admins))
		}
		for _, u := range []user{alice, bob} {
			if u != admins[0] {
				e.must(200, "PATCH", p(u), admins[0].Token, map[string]any{"role": "admin"})
			}
		}
	}
}
