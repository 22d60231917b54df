package orgs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestCreateOrganization(t *testing.T) {
	e := newEnv(t)
	alice := e.user("alice")
	long := strings.Repeat("x", 256)
	testkit.Check(t, e.api, []testkit.Case{
		{"401 without token", "", "POST", "/v1/orgs", map[string]any{"title": "Acme"}, 401, ""},
		{"401 with a bad token", "gly_nope", "POST", "/v1/orgs", map[string]any{"title": "Acme"}, 401, ""},
		{"400 without title", alice.Token, "POST", "/v1/orgs", map[string]any{}, 400, "title"},
		{"400 title of 1 character", alice.Token, "POST", "/v1/orgs", map[string]any{"title": "A"}, 400, "title"},
		{"400 title of 256 characters", alice.Token, "POST", "/v1/orgs", map[string]any{"title": long}, 400, "title"},
		{"400 title of spaces only", alice.Token, "POST", "/v1/orgs", map[string]any{"title": "    "}, 400, "title"},
		{"400 hostname of 2 characters", alice.Token, "POST", "/v1/orgs", map[string]any{"title": "Acme", "hostname": "ab"}, 400, "hostname"},
		{"400 hostname of 33 characters", alice.Token, "POST", "/v1/orgs", map[string]any{"title": "Acme", "hostname": strings.Repeat("a", 33)}, 400, "hostname"},
		{"400 hostname not a DNS label", alice.Token, "POST", "/v1/orgs", map[string]any{"title": "Acme", "hostname": "a_b c"}, 400, "hostname"},
		{"400 unknown type", alice.Token, "POST", "/v1/orgs", map[string]any{"title": "Acme", "type": "company"}, 400, "type"},
		{"400 unknown useCase", alice.Token, "POST", "/v1/orgs", map[string]any{"title": "Acme", "useCase": "fun"}, 400, "useCase"},
		{"400 invalid email domain", alice.Token, "POST", "/v1/orgs", map[string]any{"title": "Acme", "emailDomains": []string{"acme.com", "not a domain"}}, 400, "emailDomains[1]"},
		{"400 unknown field", alice.Token, "POST", "/v1/orgs", map[string]any{"title": "Acme", "color": "red"}, 400, "color"},
		{"400 bad JSON", alice.Token, "POST", "/v1/orgs", `{"title": "Acme"`, 400, ""},
	})
	if n := len(e.must(200, "GET", "/v1/orgs", alice.Token, nil).items()); n != 0 {
		t.Fatalf("refused creations left %d organizations", n)
	}

	t.Run("201 with defaults, the caller admin", func(t *testing.T) {
		e := e.on(t)
		o := e.must(201, "POST", "/v1/orgs", alice.Token, map[string]any{"title": "  Acme  "}).obj()
		id := o["id"].(string)
		want := map[string]any{"object": "organization", "title": "Acme", "type": "business", "plan": "free_2024",
			"inviteLinks": true, "sso": false, "ai": false, "trial.status": "notapplicable", "defaultRole": nil,
			"urls.location": "https://api.test/v1/orgs/" + id, "urls.app": "https://app.test/o/" + id,
			"permissions.admin": true, "permissions.view": true, "permissions.listMembers": true, "permissions.ownTeam": false}
		for k, v := range want {
			if got := get(o, k); got != v {
				t.Errorf("%s = %v, want %v", k, got, v)
			}
		}
		if d, ok := o["emailDomains"].([]any); !ok || len(d) != 0 {
			t.Errorf("emailDomains = %v, want []", o["emailDomains"])
		}
		if o["createdAt"] == nil || o["hostname"] != nil {
			t.Errorf("createdAt %v, hostname %v", o["createdAt"], o["hostname"])
		}
		m := e.must(200, "GET", "/v1/orgs/"+id+"/members/"+alice.ID, alice.Token, nil).obj()
		if m["role"] != "admin" {
			t.Errorf("creator's role %v, want admin", m["role"])
		}
	})
	t.Run("201 with every field, domains normalized", func(t *testing.T) {
		e := e.on(t)
		o := e.must(201, "POST", "/v1/orgs", alice.Token, map[string]any{"title": "Open", "type": "community", "useCase": "docsSite",
			"communityType": "openSource", "emailDomains": []string{"Open.ORG", "open.org", "@docs.open.org"}, "hostname": "Open-Docs"}).obj()
		if o["type"] != "community" || o["useCase"] != "docsSite" || o["communityType"] != "openSource" || o["hostname"] != "open-docs" {
			t.Errorf("fields not kept: %v", o)
		}
		if d := o["emailDomains"].([]any); len(d) != 2 || d[0] != "open.org" || d[1] != "docs.open.org" {
			t.Errorf("emailDomains = %v", d)
		}
	})
}

func TestListOrganizations(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	var mine []string
	for _, title := range []string{"One", "Two", "Three", "Four", "Five"} {
		mine = append(mine, e.org(alice, title, nil))
	}
	theirs := e.org(bob, "Bob's", nil)
	guestOf := e.org(bob, "Bob's guests", map[user]model.Role{alice: model.RoleGuest})
	mine = append(mine, guestOf)

	t.Run("200 every organization of the caller over pages, no other", func(t *testing.T) {
		e := e.on(t)
		got := e.collect("/v1/orgs", alice.Token, 2, byID)
		if !sameSet(got, mine) {
			t.Fatalf("listed %v, want %v", got, mine)
		}
		for _, id := range got {
			if id == theirs {
				t.Fatal("lists an organization the caller is not a member of")
			}
		}
	})
	t.Run("200 guest membership with guest permissions", func(t *testing.T) {
		e := e.on(t)
		for _, o := range e.must(200, "GET", "/v1/orgs?limit=1000", alice.Token, nil).items() {
			if o["id"] == guestOf && (get(o, "permissions.view") != true || get(o, "permissions.listMembers") != false || get(o, "permissions.admin") != false) {
				t.Fatalf("guest permissions %v", o["permissions"])
			}
		}
	})
	first := e.must(200, "GET", "/v1/orgs?limit=2", alice.Token, nil)
	bobs := e.must(200, "GET", "/v1/orgs?limit=1", bob.Token, nil)
	testkit.Check(t, e.api, []testkit.Case{
		{"401 without token", "", "GET", "/v1/orgs", nil, 401, ""},
		{"401 with a bad token", "nope", "GET", "/v1/orgs", nil, 401, ""},
		{"400 limit 0", alice.Token, "GET", "/v1/orgs?limit=0", nil, 400, ""},
		{"400 limit 1001", alice.Token, "GET", "/v1/orgs?limit=1001", nil, 400, ""},
		{"400 limit not a number", alice.Token, "GET", "/v1/orgs?limit=x", nil, 400, ""},
		{"400 tampered page token", alice.Token, "GET", query("/v1/orgs", "page", tamper(first.next())), nil, 400, ""},
		{"400 page token of another user's list", alice.Token, "GET", query("/v1/orgs", "page", bobs.next()), nil, 400, ""},
		{"400 garbage page token", alice.Token, "GET", "/v1/orgs?page=abc", nil, 400, ""},
		{"200 limit 1000", alice.Token, "GET", "/v1/orgs?limit=1000", nil, 200, ""},
	})
	if bobs.next() == "" || first.next() == "" {
		t.Fatal("expected further pages")
	}
}

func TestGetOrganization(t *testing.T) {
	e := newEnv(t)
	alice, rita, gus, olga := e.user("alice"), e.user("rita"), e.user("gus"), e.user("olga")
	org := e.org(alice, "Acme", map[user]model.Role{rita: model.RoleRead, gus: model.RoleGuest})
	for _, tc := range []struct {
		name, path, token string
		want              int
		admin             bool
	}{
		{"200 for an admin", "/v1/orgs/" + org, alice.Token, 200, true},
		{"200 for a reader", "/v1/orgs/" + org, rita.Token, 200, false},
		{"200 for a guest", "/v1/orgs/" + org, gus.Token, 200, false},
		{"404 for a non-member", "/v1/orgs/" + org, olga.Token, 404, false},
		{"404 for an unknown id", "/v1/orgs/nope", alice.Token, 404, false},
		{"401 without token", "/v1/orgs/" + org, "", 401, false},
		{"401 with a bad token", "/v1/orgs/" + org, "bad", 401, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := e.on(t)
			r := e.do("GET", tc.path, tc.token, nil)
			if r.Code != tc.want {
				t.Fatalf("status %d, want %d: %s", r.Code, tc.want, r.Raw)
			}
			if r.Code == 200 {
				o := r.obj()
				if o["id"] != org || get(o, "permissions.admin") != tc.admin {
					t.Fatalf("id %v admin %v", o["id"], get(o, "permissions.admin"))
				}
			}
		})
	}
}

func TestUpdateOrganization(t *testing.T) {
	e := newEnv(t)
	alice, rita, olga := e.user("alice"), e.user("rita"), e.user("olga")
	org := e.org(alice, "Acme", map[user]model.Role{rita: model.RoleRead})
	path := "/v1/orgs/" + org
	for _, tc := range []struct {
		name, token string
		body        any
		want        int
		check       map[string]any // dotted path -> value expected afterwards
	}{
		{"200 title", alice.Token, map[string]any{"title": "Acme Inc"}, 200, map[string]any{"title": "Acme Inc"}},
		{"200 defaultRole", alice.Token, map[string]any{"defaultRole": "read"}, 200, map[string]any{"defaultRole": "read"}},
		{"200 defaultRole null makes guests", alice.Token, map[string]any{"defaultRole": nil}, 200, map[string]any{"defaultRole": nil}},
		{"200 defaultContent", alice.Token, map[string]any{"defaultContent": map[string]any{"type": "site", "site": "site1"}}, 200,
			map[string]any{"defaultContent.site": "site1", "defaultContent.type": "site"}},
		{"200 defaultContent null removes it", alice.Token, map[string]any{"defaultContent": nil}, 200, map[string]any{"defaultContent": nil}},
		{"200 logo", alice.Token, map[string]any{"logo": "https://cdn.test/logo.png"}, 200, map[string]any{"urls.logo": "https://cdn.test/logo.png"}},
		{"200 logo null removes it", alice.Token, map[string]any{"logo": nil}, 200, map[string]any{"urls.logo": nil}},
		{"200 flags", alice.Token, map[string]any{"sso": true, "ai": true, "inviteLinks": false}, 200, map[string]any{"sso": true, "ai": true, "inviteLinks": false}},
		{"200 hostname", alice.Token, map[string]any{"hostname": "acme"}, 200, map[string]any{"hostname": "acme"}},
		{"200 empty body changes nothing", alice.Token, map[string]any{}, 200, map[string]any{"title": "Acme Inc", "hostname": "acme"}},
		{"400 title of 1 character", alice.Token, map[string]any{"title": "A"}, 400, nil},
		{"400 title of 256 characters", alice.Token, map[string]any{"title": strings.Repeat("t", 256)}, 400, nil},
		{"400 title null", alice.Token, map[string]any{"title": nil}, 400, nil},
		{"400 hostname of 2 characters", alice.Token, map[string]any{"hostname": "ab"}, 400, nil},
		{"400 hostname of 33 characters", alice.Token, map[string]any{"hostname": strings.Repeat("h", 33)}, 400, nil},
		{"400 unknown defaultRole", alice.Token, map[string]any{"defaultRole": "owner"}, 400, nil},
		{"400 defaultContent of another type", alice.Token, map[string]any{"defaultContent": map[string]any{"type": "space", "site": "x"}}, 400, nil},
		{"400 logo not an absolute URL", alice.Token, map[string]any{"logo": "logo.png"}, 400, nil},
		{"400 logo of 2049 characters", alice.Token, map[string]any{"logo": "https://x.test/" + strings.Repeat("l", 2034)}, 400, nil},
		{"400 bad JSON", alice.Token, `{"title":`, 400, nil},
		{"400 sso not a boolean", alice.Token, map[string]any{"sso": "yes"}, 400, nil},
		{"403 for a reader", rita.Token, map[string]any{"title": "Mine"}, 403, nil},
		{"404 for a non-member", olga.Token, map[string]any{"title": "Mine"}, 404, nil},
		{"401 without token", "", map[string]any{"title": "Mine"}, 401, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := e.on(t)
			r := e.do("PATCH", path, tc.token, tc.body)
			if r.Code != tc.want {
				t.Fatalf("status %d, want %d: %s", r.Code, tc.want, r.Raw)
			}
			o := e.must(200, "GET", path, alice.Token, nil).obj()
			for k, v := range tc.check {
				if got := get(o, k); got != v {
					t.Errorf("%s = %v, want %v", k, got, v)
				}
			}
			if o["title"] == "Mine" {
				t.Fatal("a refused change was applied")
			}
		})
	}
	t.Run("404 for an unknown organization", func(t *testing.T) {
		e := e.on(t)
		e.must(404, "PATCH", "/v1/orgs/unknown", alice.Token, map[string]any{"title": "Nope"})
	})
	t.Run("200 emailDomains keep the domain index in step", func(t *testing.T) {
		e := e.on(t)
		listed := func(domain string) int {
			return len(e.must(200, "GET", "/v1/email-domains/"+domain+"/orgs", alice.Token, nil).obj()["organizations"].([]any))
		}
		e.must(200, "PATCH", path, alice.Token, map[string]any{"emailDomains": []string{"a.test", "b.test"}})
		if listed("a.test") != 1 || listed("b.test") != 1 || listed("c.test") != 0 {
			t.Fatal("domains not indexed after setting them")
		}
		o := e.must(200, "PATCH", path, alice.Token, map[string]any{"emailDomains": []string{"b.test", "C.test"}}).obj()
		if d := o["emailDomains"].([]any); len(d) != 2 || d[0] != "b.test" || d[1] != "c.test" {
			t.Fatalf("emailDomains %v", d)
		}
		if listed("a.test") != 0 || listed("b.test") != 1 || listed("c.test") != 1 {
			t.Fatal("index not in step after replacing the domains")
		}
		e.must(200, "PATCH", path, alice.Token, map[string]any{"emailDomains": []string{}})
		if listed("b.test") != 0 || listed("c.test") != 0 {
			t.Fatal("index not emptied with the domains")
		}
		e.must(400, "PATCH", path, alice.Token, map[string]any{"emailDomains": nil})
		e.must(400, "PATCH", path, alice.Token, map[string]any{"emailDomains": []string{"ok.test", "bad"}})
	})
}

func TestOrganizationsOfEmailDomain(t *testing.T) {
	e := newEnv(t)
	alice := e.user("alice@acme.test")
	carl := e.user("carl@acme.test")  // at the domain, not a member
	olga := e.user("olga@other.test") // neither
	org := e.must(201, "POST", "/v1/orgs", alice.Token, map[string]any{"title": "Acme", "emailDomains": []string{"acme.test"}}).obj()["id"].(string)
	e.org(olga, "Other", nil) // lists no domain
	for _, tc := range []struct {
		name, domain, token string
		want                int
		orgs                int
		admin               bool
	}{
		{"200 a member sees it with their permissions", "acme.test", alice.Token, 200, 1, true},
		{"200 a user at the domain sees it without permissions", "acme.test", carl.Token, 200, 1, false},
		{"200 domain matched ignoring case", "ACME.test", carl.Token, 200, 1, false},
		{"200 anyone else gets an empty list", "acme.test", olga.Token, 200, 0, false},
		{"200 a domain of no organization", "nobody.test", alice.Token, 200, 0, false},
		{"400 not a domain", "localhost", alice.Token, 400, 0, false},
		{"401 without token", "acme.test", "", 401, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := e.on(t)
			r := e.do("GET", "/v1/email-domains/"+tc.domain+"/orgs", tc.token, nil)
			if r.Code != tc.want {
				t.Fatalf("status %d, want %d: %s", r.Code, tc.want, r.Raw)
			}
			if r.Code != 200 {
				return
			}
			os := r.obj()["organizations"].([]any)
			if len(os) != tc.orgs {
				t.Fatalf("%d organizations, want %d", len(os), tc.orgs)
			}
			if tc.orgs == 1 {
				o := os[0].(map[string]any)
				if o["id"] != org || get(o, "permissions.admin") != tc.admin || get(o, "permissions.view") != tc.admin {
					t.Fatalf("organization %v permissions %v", o["id"], o["permissions"])
				}
			}
		})
	}
}

// An organization's hostname is its own: another organization cannot take
// it (409 naming hostname, at creation and by PATCH); changing or removing
// it frees the old one; HostnameOrg finds the holder.
func TestHostnamesAreUnique(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	a := e.must(201, "POST", "/v1/orgs", alice.Token, map[string]any{"title": "Acme", "hostname": "acme"}).obj()["id"].(string)
	b := e.org(bob, "Bobs", nil)
	holder := func(h string) string {
		t.Helper()
		id, err := orgs.HostnameOrg(context.Background(), e.d.Store, h)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	if holder("acme") != a {
		t.Fatalf("acme is held by %q, want %s", holder("acme"), a)
	}
	for _, r := range []*struct {
		method, path string
		body         map[string]any
	}{
		{"POST", "/v1/orgs", map[string]any{"title": "Copycat", "hostname": "ACME"}},
		{"PATCH", "/v1/orgs/" + b, map[string]any{"hostname": "acme"}},
	} {
		res := e.do(r.method, r.path, bob.Token, r.body)
		if res.Code != 409 || !strings.Contains(string(res.Raw), "hostname") {
			t.Fatalf("%s %s taking acme: %d %s", r.method, r.path, res.Code, res.Raw)
		}
	}
	// The holder may set it again; changing it frees the old one.
	e.must(200, "PATCH", "/v1/orgs/"+a, alice.Token, map[string]any{"hostname": "acme"})
	e.must(200, "PATCH", "/v1/orgs/"+a, alice.Token, map[string]any{"hostname": "acme-docs"})
	if holder("acme") != "" || holder("acme-docs") != a {
		t.Fatalf("after the change: acme held by %q, acme-docs by %q", holder("acme"), holder("acme-docs"))
	}
	e.must(200, "PATCH", "/v1/orgs/"+b, bob.Token, map[string]any{"hostname": "acme"})
	if holder("acme") != b {
		t.Fatalf("acme is held by %q, want %s", holder("acme"), b)
	}
}
