package sso_test

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc/oidctest"
	"github.com/crewjam/saml"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sso"
	"github.com/galleydocs/galley/shared/testkit"
)

func (f *fixture) oidcBase() string { return "/v1/orgs/" + f.Org.ID + "/oidc" }

// oidcBody is a complete provider's body with extra fields set.
func oidcBody(extra map[string]any) map[string]any {
	b := map[string]any{"label": "Okta", "issuer": "https://acme.okta.example.com/", "clientId": "galley", "clientSecret": "a secret"}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

func TestOIDCProviderOperations(t *testing.T) {
	f := setup(t)
	res := f.With(t, f.admin).Expect(http.StatusCreated, "POST", f.oidcBase(), oidcBody(map[string]any{"defaultTeam": f.team, "defaultRole": "edit",
		"scopes": []string{"email", "groups"}, "claims": map[string]any{"groups": "roles"},
		"groupTeams": []map[string]any{{"group": "Engineering", "team": f.team, "role": "create"}}}))
	v := res.Map(t)
	for field, want := range map[string]any{"object": "oidc-provider", "label": "Okta", "issuer": "https://acme.okta.example.com", "clientId": "galley", "defaultRole": "edit"} {
		if v[field] != want {
			t.Errorf("%s = %v, want %v", field, v[field], want)
		}
	}
	if _, ok := v["clientSecret"]; ok || strings.Contains(string(res.Body), "a secret") {
		t.Errorf("the answer shows the client secret: %s", res.Body)
	}
	if got := fmt.Sprint(v["scopes"], v["claims"], v["groupTeams"]); got != fmt.Sprintf("[openid email groups] map[email:email groups:roles name:name] [map[group:Engineering role:create team:%s]]", f.team) {
		t.Errorf("scopes, claims, groupTeams: %s", got)
	}
	id := v["id"].(string)
	loc := v["urls"].(map[string]any)["location"].(string)
	svc := v["service"].(map[string]any)
	if res.Header.Get("Location") != loc || svc["redirectURI"] != loc+"/callback" || svc["startURL"] != loc+"/start" {
		t.Errorf("Location %q, urls %v, service %v", res.Header.Get("Location"), loc, svc)
	}
	// The secret is stored sealed.
	it, err := f.Kit.Deps.Store.Get(f.Kit.Ctx, keys.OIDCProvider(f.Org.ID, id).PK, keys.OIDCProvider(f.Org.ID, id).SK)
	if err != nil || strings.Contains(string(it.Data), "a secret") || !strings.Contains(string(it.Data), "sealedClientSecret") {
		t.Errorf("stored provider (%v): %s", err, it.Data)
	}

	one := f.oidcBase() + "/" + id
	if got := f.With(t, f.admin).Expect(http.StatusOK, "GET", one, nil).Map(t); got["id"] != id {
		t.Errorf("GET answers %v", got)
	}
	if n := f.With(t, f.admin).Expect(http.StatusOK, "GET", f.oidcBase(), nil).Map(t)["count"]; n != 1.0 {
		t.Errorf("count %v, want 1", n)
	}
	got := f.With(t, f.admin).Expect(http.StatusOK, "PATCH", one, map[string]any{"label": "Okta EU", "defaultTeam": nil, "defaultRole": nil,
		"groupTeams": nil, "claims": map[string]any{"groups": ""}, "clientSecret": "another"}).Map(t)
	if got["label"] != "Okta EU" || got["defaultTeam"] != nil || got["defaultRole"] != nil || len(got["groupTeams"].([]any)) != 0 ||
		got["claims"].(map[string]any)["groups"] != "groups" {
		t.Errorf("after PATCH: %v", got)
	}
	// The sign-in page lists it with its start URL.
	logins := f.With(t, "").Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/sso", nil).Map(t)["items"].([]any)
	if len(logins) != 1 || logins[0].(map[string]any)["startURL"] != loc+"/start" {
		t.Errorf("GET /sso lists %v, want the provider's start", logins)
	}
	f.Check(t, []testkit.Case{
		{"401NoTokenList", "", "GET", f.oidcBase(), nil, 401, ""},
		{"403CreatorList", f.creator, "GET", f.oidcBase(), nil, 403, ""},
		{"404OutsiderList", f.outsider, "GET", f.oidcBase(), nil, 404, ""},
		{"401NoTokenGet", "", "GET", one, nil, 401, ""},
		{"403ReaderGet", f.reader, "GET", one, nil, 403, ""},
		{"404OutsiderGet", f.outsider, "GET", one, nil, 404, ""},
		{"404UnknownGet", f.admin, "GET", f.oidcBase() + "/nope", nil, 404, ""},
		{"401NoTokenPatch", "", "PATCH", one, map[string]any{"label": "X"}, 401, ""},
		{"403CreatorPatch", f.creator, "PATCH", one, map[string]any{"label": "X"}, 403, ""},
		{"404OutsiderPatch", f.outsider, "PATCH", one, map[string]any{"label": "X"}, 404, ""},
		{"400PatchIssuer", f.admin, "PATCH", one, map[string]any{"issuer": "ftp://x"}, 400, "issuer"},
		{"400PatchGroupTeam", f.admin, "PATCH", one, map[string]any{"groupTeams": []map[string]any{{"group": "A", "team": f.otherTeam}}}, 400, "groupTeams[0].team"},
		{"401NoTokenDelete", "", "DELETE", one, nil, 401, ""},
		{"403GuestDelete", f.guest, "DELETE", one, nil, 403, ""},
		{"404OutsiderDelete", f.outsider, "DELETE", one, nil, 404, ""},
	})
	f.With(t, f.admin).Expect(http.StatusNoContent, "DELETE", one, nil)
	f.With(t, f.admin).Expect(http.StatusNotFound, "DELETE", one, nil)
}

func TestOIDCCreateRejects(t *testing.T) {
	f := setup(t)
	without := func(field string) map[string]any {
		b := oidcBody(nil)
		delete(b, field)
		return b
	}
	ok := oidcBody
	f.Check(t, []testkit.Case{
		{"400LabelMissing", f.admin, "POST", f.oidcBase(), without("label"), 400, "label"},
		{"400IssuerMissing", f.admin, "POST", f.oidcBase(), without("issuer"), 400, "issuer"},
		{"400ClientIDMissing", f.admin, "POST", f.oidcBase(), without("clientId"), 400, "clientId"},
		{"400ClientSecretMissing", f.admin, "POST", f.oidcBase(), without("clientSecret"), 400, "clientSecret"},
		{"400LabelBlank", f.admin, "POST", f.oidcBase(), ok(map[string]any{"label": "  "}), 400, "label"},
		{"400IssuerNotHTTP", f.admin, "POST", f.oidcBase(), ok(map[string]any{"issuer": "ftp://idp.example"}), 400, "issuer"},
		{"400IssuerWithQuery", f.admin, "POST", f.oidcBase(), ok(map[string]any{"issuer": "https://idp.example/?tenant=1"}), 400, "issuer"},
		{"400IssuerTooLong", f.admin, "POST", f.oidcBase(), ok(map[string]any{"issuer": "https://idp.example/" + strings.Repeat("a", 2048)}), 400, "issuer"},
		{"400ScopeWithSpace", f.admin, "POST", f.oidcBase(), ok(map[string]any{"scopes": []string{"email", "a b"}}), 400, "scopes[1]"},
		{"400ClaimTooLong", f.admin, "POST", f.oidcBase(), ok(map[string]any{"claims": map[string]any{"email": strings.Repeat("c", 101)}}), 400, "claims.email"},
		{"400DefaultTeamUnknown", f.admin, "POST", f.oidcBase(), ok(map[string]any{"defaultTeam": "nope"}), 400, "defaultTeam"},
		{"400DefaultRoleUnknown", f.admin, "POST", f.oidcBase(), ok(map[string]any{"defaultRole": "owner"}), 400, "defaultRole"},
		{"400GroupTeamOfAnotherOrganization", f.admin, "POST", f.oidcBase(), ok(map[string]any{"groupTeams": []map[string]any{{"group": "A", "team": f.otherTeam}}}), 400, "groupTeams[0].team"},
		{"400GroupTeamRoleUnknown", f.admin, "POST", f.oidcBase(), ok(map[string]any{"groupTeams": []map[string]any{{"group": "A", "team": f.team, "role": "owner"}}}), 400, "groupTeams[0].role"},
		{"400GroupEmpty", f.admin, "POST", f.oidcBase(), ok(map[string]any{"groupTeams": []map[string]any{{"group": "", "team": f.team}}}), 400, "groupTeams[0].group"},
		{"400GroupTeamTwice", f.admin, "POST", f.oidcBase(), ok(map[string]any{"groupTeams": []map[string]any{{"group": "A", "team": f.team}, {"group": "A", "team": f.team}}}), 400, "groupTeams[1].group"},
		{"401NoToken", "", "POST", f.oidcBase(), ok(nil), 401, ""},
		{"403Creator", f.creator, "POST", f.oidcBase(), ok(nil), 403, ""},
		{"404Outsider", f.outsider, "POST", f.oidcBase(), ok(nil), 404, ""},
	})
	if n := f.With(t, f.admin).Expect(http.StatusOK, "GET", f.oidcBase(), nil).Map(t)["count"]; n != 0.0 {
		t.Errorf("refused creations left %v providers", n)
	}
}

// The issuer's discovery happens at the first sign-in, not when the
// provider is saved, and goes through the guarded fetcher: a loopback
// issuer is refused unless FETCH_ALLOW_PRIVATE.
func TestOIDCDiscoveryIsGuardedAndLazy(t *testing.T) {
	f := setup(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1); http.NotFound(w, nil) }))
	t.Cleanup(srv.Close)
	pr := f.With(t, f.admin).Expect(http.StatusCreated, "POST", f.oidcBase(), oidcBody(map[string]any{"issuer": srv.URL})).Map(t)
	if hits.Load() != 0 {
		t.Errorf("saving the provider fetched its issuer %d times", hits.Load())
	}
	start, _ := url.Parse(pr["service"].(map[string]any)["startURL"].(string))
	body := f.With(t, "").Expect(http.StatusConflict, "GET", start.Path, nil).Body
	if hits.Load() != 0 || !strings.Contains(string(body), "discovery failed") {
		t.Errorf("a loopback issuer: %d requests, answer %s; want none, refused", hits.Load(), body)
	}
}

func TestMapClaims(t *testing.T) {
	p := model.OIDCProvider{}
	custom := model.OIDCProvider{EmailClaim: "upn", NameClaim: "display", GroupsClaim: "roles"}
	for _, c := range []struct {
		name   string
		p      model.OIDCProvider
		claims map[string]any
		want   string // fmt of Identity, or "error: <part>"
	}{
		{"defaults", p, map[string]any{"email": " Ada@Example.COM ", "name": "Ada L", "groups": []any{"A", "B", 3, ""}}, "ada@example.com|Ada L|[A B]"},
		{"given and family names", p, map[string]any{"email": "ada@example.com", "given_name": "Ada", "family_name": "Lovelace"}, "ada@example.com|Ada Lovelace|[]"},
		{"no name: the local part", p, map[string]any{"email": "ada@example.com"}, "ada@example.com|ada|[]"},
		{"one group as a string", p, map[string]any{"email": "ada@example.com", "groups": "A"}, "ada@example.com|ada|[A]"},
		{"custom claims", custom, map[string]any{"upn": "ada@example.com", "display": "Ada", "roles": []any{"R"}, "email": "x@y.z", "groups": []any{"G"}}, "ada@example.com|Ada|[R]"},
		{"verified", p, map[string]any{"email": "ada@example.com", "email_verified": true}, "ada@example.com|ada|[]"},
		{"no email", p, map[string]any{"name": "Ada"}, `error: "email" claim`},
		{"not an address", p, map[string]any{"email": "ada"}, `error: "email" claim`},
		{"email claim not a string", p, map[string]any{"email": []any{"ada@example.com"}}, `error: "email" claim`},
		{"unverified", p, map[string]any{"email": "ada@example.com", "email_verified": false}, "error: not verified"},
	} {
		t.Run(c.name, func(t *testing.T) {
			id, err := sso.MapClaims(c.p, c.claims)
			got := fmt.Sprintf("%s|%s|%v", id.Email, id.Name, id.Groups)
			if id.Groups == nil {
				got = fmt.Sprintf("%s|%s|[]", id.Email, id.Name)
			}
			if err != nil {
				if !strings.HasPrefix(c.want, "error: ") || !strings.Contains(err.Error(), strings.TrimPrefix(c.want, "error: ")) {
					t.Errorf("error %v, want %s", err, c.want)
				}
				return
			}
			if got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

// Groups to teams with SAML: the groups attribute's values; membership of
// mapped teams follows them at each sign-in, unmapped teams are left
// alone, a mapped role raises the member's role and never lowers it.
func TestSAMLGroupsFollowTeams(t *testing.T) {
	f := setup(t)
	orgURL := "/v1/orgs/" + f.Org.ID
	writers := f.With(t, f.admin).Expect(http.StatusCreated, "PUT", orgURL+"/teams", map[string]any{"title": "Writers"}).Map(t)["id"].(string)
	unmapped := f.With(t, f.admin).Expect(http.StatusCreated, "PUT", orgURL+"/teams", map[string]any{"title": "Unmapped"}).Map(t)["id"].(string)
	p := newIdP(t, f)
	pr := p.provider(t, f, map[string]any{"defaultRole": "read", "defaultTeam": writers, "groupsAttribute": "memberOf", "groupTeams": []map[string]any{
		{"group": "eng", "team": f.team}, {"group": "docs", "team": writers, "role": "review"}}})
	if pr["groupsAttribute"] != "memberOf" || len(pr["groupTeams"].([]any)) != 2 {
		t.Fatalf("provider %v", pr)
	}
	groups := func(gs ...string) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.bend = func(req *saml.IdpAuthnRequest) {
			at := saml.Attribute{Name: "memberOf", NameFormat: "urn:oasis:names:tc:SAML:2.0:attrname-format:basic"}
			for _, g := range gs {
				at.Values = append(at.Values, saml.AttributeValue{Type: "xs:string", Value: g})
			}
			req.Assertion.AttributeStatements = append(req.Assertion.AttributeStatements, saml.AttributeStatement{Attributes: []saml.Attribute{at}})
		}
	}
	signIn := func() string {
		response, acs := p.signIn(t, f, startURL(pr))
		tok := tokenOf(t, post(t, f, acs, response, http.StatusOK))
		return f.With(t, tok).Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t)["id"].(string)
	}
	state := func(uid string) string {
		m := f.With(t, f.admin).Expect(http.StatusOK, "GET", orgURL+"/members/"+uid, nil).Map(t)
		var teams []string
		for _, it := range f.With(t, f.admin).Expect(http.StatusOK, "GET", orgURL+"/members/"+uid+"/teams", nil).Map(t)["items"].([]any) {
			teams = append(teams, it.(map[string]any)["team"].(map[string]any)["title"].(string))
		}
		slices.Sort(teams)
		return fmt.Sprintf("%v %v", m["role"], teams)
	}

	groups("eng", "docs", "sales")
	uid := signIn()
	if got := state(uid); got != "review [Engineers Writers]" {
		t.Errorf("groups eng, docs: %s; want review (docs's), Engineers and Writers", got)
	}
	// Put in an unmapped team by hand, and made admin by hand.
	f.With(t, f.admin).Expect(http.StatusNoContent, "PUT", orgURL+"/teams/"+unmapped+"/members/"+uid, nil)
	f.With(t, f.admin).Expect(http.StatusOK, "PATCH", orgURL+"/members/"+uid, map[string]any{"role": "admin"})
	// docs taken away: Writers left, though it is the default team (the
	// mapping decides mapped teams), Unmapped kept, admin kept.
	groups("eng")
	if signIn(); state(uid) != "admin [Engineers Unmapped]" {
		t.Errorf("groups eng: %s; want admin [Engineers Unmapped]", state(uid))
	}
	// No groups at all: every mapped team left.
	groups()
	if signIn(); state(uid) != "admin [Unmapped]" {
		t.Errorf("no groups: %s; want admin [Unmapped]", state(uid))
	}
	// The changes are in the audit log, by the member.
	var added, removed int
	for _, e := range testkit.Items(t, f.With(t, f.admin), orgURL+"/audit-events", 100) {
		if e["actor"].(map[string]any)["id"] != uid {
			continue
		}
		switch e["action"] {
		case model.AuditTeamMemberAdded:
			added++
		case model.AuditTeamMemberRemoved:
			removed++
		}
	}
	if added != 2 || removed != 2 {
		t.Errorf("audit: %d team additions, %d removals by the member; want 2, 2", added, removed)
	}
}

// opIdP is an OpenID Connect provider for tests: go-oidc's oidctest
// server (discovery, keys) and a token endpoint answering an ID token
// signed with its key, whose claims the test sets from the nonce of the
// authorization request.
type opIdP struct {
	srv    *httptest.Server
	key    *rsa.PrivateKey
	claims func(nonce string) map[string]any
	nonce  atomic.Value
}

func newOpIdP(t *testing.T) *opIdP {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p := &opIdP{key: key}
	o := &oidctest.Server{PublicKeys: []oidctest.PublicKey{{PublicKey: key.Public(), KeyID: "k1", Algorithm: "RS256"}}}
	mux := http.NewServeMux()
	mux.Handle("/", o)
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || r.Form.Get("code_verifier") == "" || r.Form.Get("code") != "the-code" {
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
		claims, _ := json.Marshal(p.claims(p.nonce.Load().(string)))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "at", "token_type": "Bearer",
			"id_token": oidctest.SignIDToken(key, "k1", "RS256", string(claims))})
	})
	p.srv = httptest.NewServer(mux)
	o.SetIssuer(p.srv.URL)
	t.Cleanup(p.srv.Close)
	return p
}

// Refusals the Keycloak test cannot make Keycloak produce: an expired ID
// token, another nonce, another issuer; and a sign-in cookie of another
// provider. Each answers 401 naming the reason.
func TestOIDCRefusesExpiredTokensAndOtherNonces(t *testing.T) {
	k := testkit.New(t, testkit.Clock(time.Now(), time.Millisecond)) // the tokens' times are the machine's
	k.Deps.FetchAllowPrivate = true
	f := setupOn(t, k)
	p := newOpIdP(t)
	pr := f.With(t, f.admin).Expect(http.StatusCreated, "POST", f.oidcBase(), oidcBody(map[string]any{"issuer": p.srv.URL})).Map(t)
	other := f.With(t, f.admin).Expect(http.StatusCreated, "POST", f.oidcBase(), oidcBody(map[string]any{"issuer": p.srv.URL, "label": "Other"})).Map(t)
	path := func(pr map[string]any, key string) string {
		u, _ := url.Parse(pr["service"].(map[string]any)[key].(string))
		return u.Path
	}
	// start begins a sign-in through pr: the callback's query and cookie.
	start := func(pr map[string]any) (string, string) {
		res := f.With(t, "").Expect(http.StatusFound, "GET", path(pr, "startURL"), nil)
		auth, _ := url.Parse(res.Header.Get("Location"))
		p.nonce.Store(auth.Query().Get("nonce"))
		cookie := ""
		for _, c := range (&http.Response{Header: res.Header}).Cookies() {
			cookie = c.Value
		}
		return "?code=the-code&state=" + url.QueryEscape(auth.Query().Get("state")), cookie
	}
	good := func(nonce string) map[string]any {
		now := time.Now()
		return map[string]any{"iss": p.srv.URL, "aud": "galley", "sub": "u1", "iat": now.Unix(), "exp": now.Add(time.Minute).Unix(),
			"nonce": nonce, "email": "lin@example.com"}
	}
	for _, c := range []struct {
		name   string
		claims func(nonce string) map[string]any
		other  bool // the callback of another provider, with this one's cookie
		want   string
	}{
		{"expired", func(n string) map[string]any {
			m := good(n)
			m["exp"] = time.Now().Add(-time.Hour).Unix()
			return m
		}, false, "expired"},
		{"another nonce", func(n string) map[string]any { return good(n + "x") }, false, "nonce is not this sign-in's"},
		{"another issuer", func(n string) map[string]any {
			m := good(n)
			m["iss"] = "https://elsewhere.example.com"
			return m
		}, false, "issued by a different provider"},
		{"another provider's cookie", good, true, "not one Galley sealed for this provider"},
		{"good", good, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p.claims = c.claims
			q, cookie := start(pr)
			cb := path(pr, "redirectURI")
			if c.other {
				cb = path(other, "redirectURI")
			}
			if c.want == "" {
				page := f.With(t, "").Expect(http.StatusOK, "GET", cb+q, nil, "Cookie", "galley_oidc="+cookie).Body
				if me := f.With(t, tokenOf(t, page)).Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t); me["email"] != "lin@example.com" {
					t.Errorf("signed in as %v", me)
				}
				return
			}
			body := f.With(t, "").Expect(http.StatusUnauthorized, "GET", cb+q, nil, "Cookie", "galley_oidc="+cookie).Body
			if !strings.Contains(string(body), c.want) {
				t.Errorf("refusal %s, want %q", body, c.want)
			}
		})
	}
	f.Check(t, []testkit.Case{
		{"400NoState", "", "GET", path(pr, "redirectURI") + "?code=c", nil, 400, "state"},
		{"400NoCode", "", "GET", path(pr, "redirectURI") + "?state=s", nil, 400, "code"},
		{"404UnknownProvider", "", "GET", f.oidcBase() + "/nope/callback?code=c&state=s", nil, 404, ""},
		{"401ProviderError", "", "GET", path(pr, "redirectURI") + "?error=access_denied&error_description=no", nil, 401, "access_denied"},
	})
}
