package sso_test

import (
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

// Each SAML sign-in is one event of the organization's audit log: an
// accepted one by the person signing in (with, the first time, the
// membership it gives), a refused one (replayed, or answering another
// provider's request) by the system, on the provider.
func TestSignInsAreAudited(t *testing.T) {
	f := setup(t)
	p := newIdP(t, f)
	pr := p.provider(t, f, nil)
	second := p.provider(t, f, map[string]any{"label": "Second"})
	log := "/v1/orgs/" + f.Org.ID + "/audit-events"
	events := func() []map[string]any {
		return testkit.Items(t, f.With(t, f.admin), log, 100)
	}
	newer := func(before []map[string]any) []map[string]any {
		all := events()
		return all[:len(all)-len(before)] // newest first
	}
	check := func(e map[string]any, action, actor, target string) {
		t.Helper()
		if e["action"] != action || e["actor"].(map[string]any)["id"] != actor || e["target"].(map[string]any)["id"] != target {
			t.Errorf("event %v, want %s by %s on %s", e, action, actor, target)
		}
	}
	// once runs step and checks that it recorded exactly one event.
	once := func(what string, step func(), action, actor, target string) {
		t.Helper()
		before := events()
		step()
		if got := newer(before); len(got) != 1 {
			t.Errorf("%s: %d events, want 1: %v", what, len(got), got)
		} else {
			check(got[0], action, actor, target)
		}
	}

	before := events()
	response, acs := p.signIn(t, f, startURL(pr))
	tok := tokenOf(t, post(t, f, acs, response, http.StatusOK))
	uid := f.With(t, tok).Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t)["id"].(string)
	got := newer(before)
	if len(got) != 2 {
		t.Fatalf("first sign-in: %d events, want 2 (joined, signed in): %v", len(got), got)
	}
	check(got[0], model.AuditSignedIn, uid, pr["id"].(string))
	check(got[1], model.AuditMemberAdded, uid, uid)

	once("replay", func() { post(t, f, acs, response, http.StatusUnauthorized) }, model.AuditSignInFailed, "galley", pr["id"].(string))
	once("another provider's response", func() {
		response, _ := p.signIn(t, f, startURL(pr))
		post(t, f, second["service"].(map[string]any)["acsURL"].(string), response, http.StatusUnauthorized)
	}, model.AuditSignInFailed, "galley", second["id"].(string))
	// Signing in again records the sign-in only: the membership is there.
	once("second sign-in", func() {
		response, acs := p.signIn(t, f, startURL(pr))
		post(t, f, acs, response, http.StatusOK)
	}, model.AuditSignedIn, uid, pr["id"].(string))
}
