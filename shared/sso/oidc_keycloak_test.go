package sso_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// tamperer rewrites the JSON answers of Keycloak's token endpoint, as
// seen by Galley through a proxy: the man in the middle of the negative
// cases (nil: answers pass unchanged).
type tamperer struct {
	mu sync.Mutex
	fn func(map[string]any)
}

func (tp *tamperer) set(fn func(map[string]any)) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.fn = fn
}

func (tp *tamperer) modify(res *http.Response) error {
	tp.mu.Lock()
	fn := tp.fn
	tp.mu.Unlock()
	if fn == nil || !strings.HasSuffix(res.Request.URL.Path, "/protocol/openid-connect/token") {
		return nil
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err == nil {
		fn(m)
		body, _ = json.Marshal(m)
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	res.ContentLength = int64(len(body))
	res.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}

// keycloakOIDC signs in through Keycloak's OpenID Connect: a realm with a
// confidential client that requires PKCE (S256) and sends the groups
// claim, a user in groups A and B mapped to two teams; Galley reaches
// Keycloak through a proxy (Keycloak names its issuer after the Host it is
// asked at) that can alter the token endpoint's answers. Then: a sign-in,
// the refusals (a replayed callback, a code replayed with another
// sign-in's state, a tampered ID token, an ID token of another client, an
// authorization request without nonce), and the groups followed when one
// is taken away in Keycloak.
func keycloakOIDC(t *testing.T, kc *testenv.Keycloak) {
	started := time.Now()
	defer func() { t.Logf("OIDC test after Keycloak's start %s", time.Since(started).Round(100*time.Millisecond)) }()
	logs := &syncBuffer{}
	k := testkit.New(t, testkit.Clock(time.Now(), time.Millisecond))
	k.Deps.Logger = slog.New(slog.NewTextHandler(logs, nil))
	k.Deps.FetchAllowPrivate = true // Keycloak is on loopback
	f := setupOn(t, k)
	srv := httptest.NewServer(f.API.API.Handler())
	t.Cleanup(srv.Close)
	g := newWeb(t)
	api := srv.URL
	orgURL := api + "/v1/orgs/" + f.Org.ID
	teamA := f.team
	teamB := g.json(http.StatusCreated, "PUT", orgURL+"/teams", f.admin, map[string]any{"title": "Writers"})["id"].(string)

	target, _ := url.Parse(kc.Endpoint)
	tamper := &tamperer{}
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:        func(r *httputil.ProxyRequest) { r.SetURL(target); r.Out.Host = r.In.Host },
		ModifyResponse: tamper.modify})
	t.Cleanup(proxy.Close)
	const realm = "galley-oidc"
	issuer := proxy.URL + "/realms/" + realm

	// Galley's provider first: its redirect URI is Keycloak's client's.
	const clientID, clientSecret = "galley", "a client secret of Keycloak's"
	pr := g.json(http.StatusCreated, "POST", orgURL+"/oidc", f.admin, map[string]any{
		"label": "Keycloak", "issuer": issuer, "clientId": clientID, "clientSecret": clientSecret, "defaultRole": "read",
		"groupTeams": []map[string]any{{"group": "A", "team": teamA}, {"group": "B", "team": teamB, "role": "edit"}}})
	if _, ok := pr["clientSecret"]; ok || strings.Contains(logs.String(), clientSecret) {
		t.Errorf("the client secret is shown or logged: %v", pr)
	}
	svc := pr["service"].(map[string]any)
	start, redirectURI := svc["startURL"].(string), svc["redirectURI"].(string)

	admin := &keycloakAdmin{w: newWeb(t), kc: kc}
	admin.do(http.StatusCreated, "POST", "/realms", map[string]any{"realm": realm, "enabled": true})
	for _, grp := range []string{"A", "B"} {
		admin.do(http.StatusCreated, "POST", "/realms/"+realm+"/groups", map[string]any{"name": grp})
	}
	const username, password, email = "grace", "another horse battery", "grace@cobol.example"
	admin.do(http.StatusCreated, "POST", "/realms/"+realm+"/users", map[string]any{
		"username": username, "email": email, "emailVerified": true, "firstName": "Grace", "lastName": "Hopper", "enabled": true,
		"groups":      []string{"/A", "/B"},
		"credentials": []map[string]any{{"type": "password", "value": password, "temporary": false}}})
	admin.do(http.StatusCreated, "POST", "/realms/"+realm+"/clients", map[string]any{
		"clientId": clientID, "secret": clientSecret, "protocol": "openid-connect", "publicClient": false, "standardFlowEnabled": true,
		"directAccessGrantsEnabled": false, "redirectUris": []string{redirectURI},
		"attributes": map[string]any{"pkce.code.challenge.method": "S256"},
		"protocolMappers": []map[string]any{{"name": "groups", "protocol": "openid-connect", "protocolMapper": "oidc-group-membership-mapper",
			"config": map[string]any{"claim.name": "groups", "full.path": "false", "id.token.claim": "true", "access.token.claim": "false", "userinfo.token.claim": "false"}}}})
	// Another client of the realm, whose ID tokens name another audience.
	admin.do(http.StatusCreated, "POST", "/realms/"+realm+"/clients", map[string]any{
		"clientId": "other", "protocol": "openid-connect", "publicClient": true, "directAccessGrantsEnabled": true, "standardFlowEnabled": false})

	// login signs in at Keycloak in browser b from Galley's start
	// (alter may change the authorization URL) and returns the callback
	// URL Keycloak redirects to, and the sign-in cookie Galley set.
	login := func(t *testing.T, b *web, alter func(url.Values)) (callback, cookie string) {
		t.Helper()
		res, _ := b.do(http.StatusFound, "GET", start, "", nil)
		for _, c := range res.Cookies() {
			if c.Name == "galley_oidc" {
				cookie = c.Value
				if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || !strings.HasSuffix(c.Path, "/callback") {
					t.Errorf("the sign-in cookie: HttpOnly %v, SameSite %v, Path %q", c.HttpOnly, c.SameSite, c.Path)
				}
			}
		}
		auth, err := url.Parse(res.Header.Get("Location"))
		if err != nil || !strings.HasPrefix(auth.String(), issuer+"/") {
			t.Fatalf("Galley's start redirects to %q, want Keycloak's authorization endpoint", res.Header.Get("Location"))
		}
		q := auth.Query()
		for _, p := range []string{"state", "nonce", "code_challenge"} {
			if q.Get(p) == "" {
				t.Errorf("the authorization request has no %s: %s", p, auth)
			}
		}
		if q.Get("code_challenge_method") != "S256" || q.Get("response_type") != "code" || !slices.Contains(strings.Fields(q.Get("scope")), "openid") || cookie == "" {
			t.Errorf("the authorization request %s (cookie %q): want the code flow, PKCE S256, scope openid, a sign-in cookie", auth, cookie)
		}
		if alter != nil {
			alter(q)
			auth.RawQuery = q.Encode()
		}
		res, page := keycloakSignIn(t, b, auth.String(), username, password)
		loc := res.Header.Get("Location")
		if res.StatusCode != http.StatusFound || !strings.HasPrefix(loc, redirectURI+"?") {
			t.Fatalf("Keycloak's answer to the sign-in: %d to %q, want a redirect to %s: %.2000s", res.StatusCode, loc, redirectURI, page)
		}
		return loc, cookie
	}
	// refused checks a callback's refusal: 401 naming want, logged with
	// the reason and without the secrets.
	refused := func(t *testing.T, b *web, callback, want string, headers ...string) {
		t.Helper()
		before := len(logs.String())
		_, body := b.do(http.StatusUnauthorized, "GET", callback, "", nil, headers...)
		logged := logs.String()[before:]
		t.Logf("refused: %s; logged: %s", body, strings.TrimSpace(logged))
		if !strings.Contains(string(body), want) || !strings.Contains(logged, "oidc sign-in refused") || !strings.Contains(logged, want) {
			t.Errorf("the refusal does not answer and log %q: %s / %s", want, body, logged)
		}
		if strings.Contains(logged, clientSecret) || strings.Contains(logged, password) {
			t.Errorf("the log holds a secret: %s", logged)
		}
	}

	// A sign-in.
	b := newWeb(t)
	callback, cookie := login(t, b, nil)
	_, page := b.do(http.StatusOK, "GET", callback, "", nil)
	tok := tokenOf(t, page)
	me := g.json(http.StatusOK, "GET", api+"/v1/user", tok, nil)
	if me["email"] != email || me["displayName"] != "Grace Hopper" {
		t.Errorf("signed in as %v (%v), want %s, Grace Hopper", me["email"], me["displayName"], email)
	}
	uid := me["id"].(string)
	g.do(http.StatusOK, "GET", orgURL, tok, nil)
	g.do(http.StatusNotFound, "GET", api+"/v1/orgs/"+f.Other.ID, tok, nil)
	member := func() (role any, teams []string) {
		m := g.json(http.StatusOK, "GET", orgURL+"/members/"+uid, f.admin, nil)
		for _, it := range g.json(http.StatusOK, "GET", orgURL+"/members/"+uid+"/teams", f.admin, nil)["items"].([]any) {
			teams = append(teams, it.(map[string]any)["team"].(map[string]any)["id"].(string))
		}
		slices.Sort(teams)
		if m["sso"] != true {
			t.Errorf("the member is not an SSO member: %v", m)
		}
		return m["role"], teams
	}
	want := []string{teamA, teamB}
	slices.Sort(want)
	if role, teams := member(); role != "edit" || !slices.Equal(teams, want) {
		t.Errorf("after signing in with groups A and B: role %v, teams %v; want edit (B's, above the default read), %v", role, teams, want)
	}

	t.Run("a replayed callback is refused", func(t *testing.T) {
		// Same browser: the callback cleared its cookie.
		refused(t, b, callback, "cookie is missing")
		// With the cookie kept: the state was used.
		refused(t, newWeb(t), callback, "already used", "Cookie", "galley_oidc="+cookie)
	})
	t.Run("a code replayed with another sign-in's state is refused", func(t *testing.T) {
		b := newWeb(t)
		fresh, _ := login(t, b, nil)
		u, _ := url.Parse(fresh)
		old, _ := url.Parse(callback)
		q := u.Query()
		q.Set("code", old.Query().Get("code"))
		u.RawQuery = q.Encode()
		refused(t, b, u.String(), "invalid_grant")
	})
	t.Run("a tampered ID token is refused", func(t *testing.T) {
		tamper.set(func(m map[string]any) {
			parts := strings.Split(m["id_token"].(string), ".")
			c := "A"
			if parts[2][0] == 'A' {
				c = "B"
			}
			parts[2] = c + parts[2][1:]
			m["id_token"] = strings.Join(parts, ".")
		})
		defer tamper.set(nil)
		b := newWeb(t)
		cb, _ := login(t, b, nil)
		refused(t, b, cb, "signature")
	})
	t.Run("an ID token of another client is refused", func(t *testing.T) {
		other := g.json(http.StatusOK, "POST", issuer+"/protocol/openid-connect/token", "", url.Values{
			"grant_type": {"password"}, "client_id": {"other"}, "username": {username}, "password": {password}, "scope": {"openid"}})
		tamper.set(func(m map[string]any) { m["id_token"] = other["id_token"] })
		defer tamper.set(nil)
		b := newWeb(t)
		cb, _ := login(t, b, nil)
		refused(t, b, cb, "audience")
	})
	t.Run("an ID token without nonce is refused", func(t *testing.T) {
		b := newWeb(t)
		cb, _ := login(t, b, func(q url.Values) { q.Del("nonce") })
		refused(t, b, cb, "no nonce")
	})

	// B taken away in Keycloak: the next sign-in leaves B's team; the
	// role B raised stays (a sign-in never lowers a role).
	var users []map[string]any
	if err := json.Unmarshal(admin.do(http.StatusOK, "GET", "/realms/"+realm+"/users?exact=true&username="+username, nil), &users); err != nil || len(users) != 1 {
		t.Fatalf("Keycloak's user: %v %v", err, users)
	}
	var groups []map[string]any
	if err := json.Unmarshal(admin.do(http.StatusOK, "GET", "/realms/"+realm+"/groups?search=B&exact=true", nil), &groups); err != nil || len(groups) != 1 {
		t.Fatalf("Keycloak's group B: %v %v", err, groups)
	}
	admin.do(http.StatusNoContent, "DELETE", "/realms/"+realm+"/users/"+users[0]["id"].(string)+"/groups/"+groups[0]["id"].(string), nil)
	b = newWeb(t)
	callback, _ = login(t, b, nil)
	_, page = b.do(http.StatusOK, "GET", callback, "", nil)
	if me := g.json(http.StatusOK, "GET", api+"/v1/user", tokenOf(t, page), nil); me["id"] != uid {
		t.Errorf("signed in again as %v, want %s", me["id"], uid)
	}
	if role, teams := member(); role != "edit" || !slices.Equal(teams, []string{teamA}) {
		t.Errorf("after B was taken away: role %v, teams %v; want edit (kept), only A's team %s", role, teams, teamA)
	}
	// Each sign-in and each refusal is in the audit log, on the provider.
	count := map[any]int{}
	for _, e := range testkit.Items(t, f.With(t, f.admin), "/v1/orgs/"+f.Org.ID+"/audit-events", 100) {
		if e["target"].(map[string]any)["id"] == pr["id"] {
			count[e["action"]]++
		}
	}
	if count[model.AuditSignedIn] != 2 || count[model.AuditSignInFailed] != 6 {
		t.Errorf("audit events on the provider: %v; want 2 sign-ins, 6 refusals", count)
	}
}
