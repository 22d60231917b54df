package sites_test

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/sites"
)

// TestPublishingAuthRights: a site's publishing auth is its
// administrators' only; the key is made on first read and kept.
func TestPublishingAuthRights(t *testing.T) {
	f := setup(t)
	path, _ := f.site(t, map[string]any{"title": "Docs"})
	auth := path + "/publishing/auth"
	a := f.as(t, f.admin)
	got := a.Expect(http.StatusOK, "GET", auth, nil).Map(t)
	key, _ := got["privateKey"].(string)
	if got["object"] != "publishing-auth" || got["backend"] != "custom" || len(key) < 40 {
		t.Fatalf("publishing auth = %v", got)
	}
	if again := a.Expect(http.StatusOK, "GET", auth, nil).Map(t); again["privateKey"] != key {
		t.Errorf("the key changed on a second read: %v", again)
	}
	for _, c := range []struct {
		who    string
		token  string
		status int
	}{{"creator", f.creator, http.StatusForbidden}, {"reader", f.reader, http.StatusForbidden}, {"guest", f.guest, http.StatusNotFound},
		{"outsider", f.outsider, http.StatusNotFound}, {"anonymous", "", http.StatusUnauthorized}} {
		t.Run(c.who, func(t *testing.T) {
			x := f.as(t, c.token)
			x.Expect(c.status, "GET", auth, nil)
			x.Expect(c.status, "PATCH", auth, map[string]any{"backend": "custom", "fallbackURL": "https://login.example.com/"})
			x.Expect(c.status, "POST", auth+"/regenerate", nil)
		})
	}
	got = a.Expect(http.StatusOK, "PATCH", auth, map[string]any{"backend": "custom", "fallbackURL": "https://login.example.com/docs"}).Map(t)
	if got["fallbackURL"] != "https://login.example.com/docs" || got["privateKey"] != key {
		t.Errorf("patched = %v", got)
	}
	a.Expect(http.StatusBadRequest, "PATCH", auth, map[string]any{"backend": "custom", "fallbackURL": "javascript:alert(1)"})
	got = a.Expect(http.StatusOK, "PATCH", auth, `{"backend":"custom","fallbackURL":null}`).Map(t)
	if _, ok := got["fallbackURL"]; ok {
		t.Errorf("fallbackURL not removed: %v", got)
	}
	got = a.Expect(http.StatusOK, "POST", auth+"/regenerate", nil).Map(t)
	if got["privateKey"] == key || got["privateKey"] == "" {
		t.Errorf("regenerated = %v", got)
	}
	a.Expect(http.StatusNotFound, "GET", f.sitesPath()+"/nosuchsite/publishing/auth", nil)
}

// signHS512 signs claims with another algorithm than HS256.
func signHS512(key, payload string) string {
	enc := base64.RawURLEncoding.EncodeToString
	in := enc([]byte(`{"alg":"HS512","typ":"JWT"}`)) + "." + enc([]byte(payload))
	m := hmac.New(sha512.New, []byte(key))
	m.Write([]byte(in))
	return in + "." + enc(m.Sum(nil))
}

func sign(t *testing.T, key string, claims map[string]any) string {
	t.Helper()
	tok, err := sites.SignVisitorToken(key, claims)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestVisitorAuthResolve: a visitor-auth site's URL resolves with a valid
// visitor token only; its claims decide which site spaces are shown.
func TestVisitorAuthResolve(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		path, _, ss, _ := f.docsSite(t)
		a := f.as(t, f.admin)
		a.Expect(http.StatusOK, "PATCH", path, map[string]any{"visibility": "visitor-auth"})
		key := a.Expect(http.StatusOK, "GET", path+"/publishing/auth", nil).Map(t)["privateKey"].(string)
		u := "https://app.test/sites/" + f.org.ID + "/docs/api/intro"
		exp := float64(f.kit.Deps.Clock().Add(time.Hour).Unix())
		with := func(tok string) string { return u + "?jwt_token=" + url.QueryEscape(tok) }
		good := sign(t, key, map[string]any{"exp": exp, "isBeta": true})
		f.resolve(t, http.StatusUnauthorized, u)
		for name, tok := range map[string]string{
			"expired":     sign(t, key, map[string]any{"exp": float64(f.kit.Deps.Clock().Add(-time.Second).Unix())}),
			"no exp":      sign(t, key, map[string]any{"isBeta": true}),
			"not yet":     sign(t, key, map[string]any{"exp": exp, "nbf": exp}),
			"other key":   sign(t, key+"x", map[string]any{"exp": exp}),
			"tampered":    good[:strings.LastIndex(good, ".")-2] + "xx" + good[strings.LastIndex(good, "."):],
			"bad sig":     good[:len(good)-3] + "AAA",
			"HS512":       signHS512(key, `{"exp":`+strconv.FormatInt(int64(exp), 10)+`}`),
			"alg none":    base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none"}`)) + "." + strings.Split(good, ".")[1] + ".",
			"not a token": "abc",
		} {
			t.Run(name, func(t *testing.T) { f.resolve(t, http.StatusUnauthorized, with(tok)) })
		}
		m := f.resolve(t, http.StatusOK, with(good))
		if m["siteSpace"] != ss[1] || m["pathname"] != "intro" {
			t.Errorf("resolved = %v", m)
		}
		// As GitBook's renderer sends it: the visitor's token in the body.
		res := f.as(t, "").Expect(http.StatusOK, "POST", "/v1/urls/published", map[string]any{"url": u, "visitor": map[string]any{"jwtToken": good}}).Map(t)
		if res["siteSpace"] != ss[1] {
			t.Errorf("resolved with visitor.jwtToken = %v", res)
		}
		// A condition on the API site space: shown to a visitor with the
		// claim only; the others reach the default site space.
		a.Expect(http.StatusOK, "PATCH", path+"/site-spaces/"+ss[1], map[string]any{"condition": "visitor.claims.isBeta === true"})
		if m := f.resolve(t, http.StatusOK, with(good)); m["siteSpace"] != ss[1] {
			t.Errorf("beta visitor: %v", m)
		}
		plain := sign(t, key, map[string]any{"exp": exp, "isBeta": false})
		if m := f.resolve(t, http.StatusOK, with(plain)); m["siteSpace"] != ss[0] || m["pathname"] != "api/intro" {
			t.Errorf("visitor without the claim: %v", m)
		}
		// Regenerating the key stops the old tokens.
		a.Expect(http.StatusOK, "POST", path+"/publishing/auth/regenerate", nil)
		f.resolve(t, http.StatusUnauthorized, with(good))
	})
}

// TestConditionalSections: sections whose condition fails are left out of
// what a URL resolves to, on public sites too (anonymous visitors have no
// claims); unsigned claims come from the URL when the schema declares them.
func TestConditionalSections(t *testing.T) {
	f := setup(t)
	sa, sb := f.space(t, "Guide"), f.space(t, "Beta")
	path, _ := f.site(t, map[string]any{"title": "Docs"})
	a := f.as(t, f.admin)
	a.Expect(http.StatusCreated, "POST", path+"/sections", map[string]any{"spaceId": sa, "title": "Guide"})
	b := a.Expect(http.StatusCreated, "POST", path+"/sections", map[string]any{"spaceId": sb, "title": "Beta"}).Map(t)["id"].(string)
	a.Expect(http.StatusOK, "PATCH", path+"/sections/"+b, map[string]any{"path": "beta", "condition": "visitor.claims.unsigned.prefersDark === true || visitor.claims.isAdmin"})
	a.Expect(http.StatusOK, "PATCH", path, map[string]any{"basename": "docs"})
	a.Expect(http.StatusOK, "PUT", path+"/adaptive-schema", map[string]any{"jsonSchema": sampleSchema()})
	a.Expect(http.StatusOK, "POST", path+"/publish", nil)
	u := "https://app.test/sites/" + f.org.ID + "/docs/beta/"
	if m := f.resolve(t, http.StatusOK, u); m["siteSection"] == b || m["pathname"] != "beta" {
		t.Errorf("anonymous visitor: %v", m)
	}
	if m := f.resolve(t, http.StatusOK, u+"?visitor.prefersDark=true"); m["siteSection"] != b || m["pathname"] != "" {
		t.Errorf("visitor with the unsigned claim: %v", m)
	}
	// Undeclared or ill-typed unsigned claims are ignored.
	for _, q := range []string{"?visitor.isAdmin=true", "?visitor.prefersDark=yes", "?visitor.other=true"} {
		if m := f.resolve(t, http.StatusOK, u+q); m["siteSection"] == b {
			t.Errorf("%s: %v", q, m)
		}
	}
	// The structure read with a visitor's token names only what they were
	// shown: the anonymous visitor's token does not name the Beta section.
	for token, want := range map[string]bool{
		f.resolve(t, http.StatusOK, u)["apiToken"].(string):                             false,
		f.resolve(t, http.StatusOK, u+"?visitor.prefersDark=true")["apiToken"].(string): true,
	} {
		body := string(f.as(t, token).Expect(http.StatusOK, "GET", path+"/structure", nil).Body)
		if strings.Contains(body, b) != want || strings.Contains(body, sb) != want || !strings.Contains(body, sa) {
			t.Errorf("structure with a visitor's token (Beta shown: %v): %s", want, body)
		}
	}
}
