package orgs_test

import (
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/model"
)

// familyRoutes lists the organizations family's operations with their
// path parameters filled in, and a valid body for each write.
func familyRoutes(e *env, org, userID, team, invite string) []struct{ method, path string } {
	var out []struct{ method, path string }
	r := strings.NewReplacer("{organizationId}", org, "{userId}", userID, "{teamId}", team, "{inviteId}", invite, "{emailDomain}", "acme.test")
	for _, rt := range e.api.Routes() {
		if strings.HasPrefix(rt.Path, "/v1/orgs") || strings.HasPrefix(rt.Path, "/v1/email-domains") {
			out = append(out, struct{ method, path string }{rt.Method, r.Replace(rt.Path)})
		}
	}
	return out
}

// validBody is a body each write accepts (so that a refusal comes from
// authorization, not validation).
func validBody(method, path string, u user) any {
	switch {
	case method == "POST" && path == "/v1/orgs":
		return map[string]any{"title": "Acme"}
	case method == "PATCH" && strings.Contains(path, "/teams/"):
		return map[string]any{"title": "Blue"}
	case method == "PUT" && strings.HasSuffix(path, "/members"):
		return map[string]any{"add": []any{}}
	case method == "PUT" && strings.Contains(path, "/members/"):
		return map[string]any{"role": "member"}
	case method == "PUT":
		return map[string]any{"title": "Blue"}
	case method == "PATCH" && (strings.Contains(path, "/members/") || strings.Contains(path, "/link-invites/")):
		return map[string]any{"role": "read"}
	case method == "PATCH":
		return map[string]any{"title": "Renamed"}
	case method == "POST" && strings.HasSuffix(path, "/link-invites"):
		return map[string]any{"role": "read"}
	case method == "POST" && strings.HasSuffix(path, "/invites"):
		return map[string]any{"emails": []any{u.Email}}
	}
	return nil
}

func TestEveryOperationNeedsAToken(t *testing.T) {
	e := newEnv(t)
	alice := e.user("alice")
	org := e.org(alice, "Acme", nil)
	routes := familyRoutes(e, org, alice.ID, "t1", "i1")
	if len(routes) != 30 {
		t.Fatalf("%d operations registered, want 30", len(routes))
	}
	for _, rt := range routes {
		for _, token := range []string{"", "gly_unknown"} {
			name := "401 " + rt.method + " " + rt.path + " token=" + token
			t.Run(name, func(t *testing.T) {
				e := e.on(t)
				if r := e.do(rt.method, rt.path, token, validBody(rt.method, rt.path, alice)); r.Code != 401 {
					t.Fatalf("status %d: %s", r.Code, r.Raw)
				}
			})
		}
	}
}

func TestOutsidersGetNotFoundEverywhere(t *testing.T) {
	e := newEnv(t)
	alice, bob, olga := e.user("alice"), e.user("bob"), e.user("olga")
	org := e.org(alice, "Acme", map[user]model.Role{bob: model.RoleRead})
	team := e.must(201, "PUT", "/v1/orgs/"+org+"/teams", alice.Token, map[string]any{"title": "Red", "members": []string{bob.ID}}).obj()["id"].(string)
	invite := e.must(201, "POST", "/v1/orgs/"+org+"/link-invites", alice.Token, map[string]any{"role": "read"}).obj()["id"].(string)
	for _, rt := range familyRoutes(e, org, bob.ID, team, invite) {
		if !strings.HasPrefix(rt.path, "/v1/orgs/"+org) || strings.HasSuffix(rt.path, "/invites/"+invite) {
			continue // not of one organization, or open to any holder of the link
		}
		t.Run("404 "+rt.method+" "+rt.path, func(t *testing.T) {
			e := e.on(t)
			if r := e.do(rt.method, rt.path, olga.Token, validBody(rt.method, rt.path, olga)); r.Code != 404 {
				t.Fatalf("status %d: %s", r.Code, r.Raw)
			}
		})
	}
	// Nothing changed for the members.
	if o := e.must(200, "GET", "/v1/orgs/"+org, alice.Token, nil).obj(); o["title"] != "Acme" {
		t.Fatalf("organization changed: %v", o)
	}
	if tm := e.must(200, "GET", "/v1/orgs/"+org+"/teams/"+team, alice.Token, nil).obj(); tm["title"] != "Red" || tm["members"] != 1.0 {
		t.Fatalf("team changed: %v", tm)
	}
	e.must(200, "GET", "/v1/orgs/"+org+"/members/"+bob.ID, alice.Token, nil)
	e.must(200, "GET", "/v1/orgs/"+org+"/link-invites/"+invite, alice.Token, nil)
}
