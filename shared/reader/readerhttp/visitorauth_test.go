package readerhttp_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/testkit"
)

// visitorToken signs a visitor token for the fixture's site.
func (f *fixture) visitorToken(t *testing.T, claims map[string]any) string {
	t.Helper()
	key := f.As(t, "admin").Expect(http.StatusOK, "GET", f.sitePth+"/publishing/auth", nil).Map(t)["privateKey"].(string)
	if _, ok := claims["exp"]; !ok {
		claims["exp"] = f.Kit.Deps.Clock().Add(time.Hour).Unix()
	}
	tok, err := sites.SignVisitorToken(key, claims)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// getWith requests a published URL with cookies.
func (f *fixture) getWith(t *testing.T, want int, path string, cookies ...*http.Cookie) (string, *http.Response) {
	t.Helper()
	var pairs []string
	for _, c := range cookies {
		pairs = append(pairs, c.Name+"="+c.Value)
	}
	res := f.get(t, path, "Cookie", strings.Join(pairs, "; "))
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("GET %s: %d, want %d\n%.1000s", path, res.StatusCode, want, b)
	}
	return string(b), res
}

func TestVisitorAuthSite(t *testing.T) {
	f := standardSite(t, map[string]any{"visibility": "visitor-auth"})
	html, res := f.body(t, http.StatusUnauthorized, f.base+"/blocks")
	testkit.Contains(t, "401 page", html, "<h1>Sign in required</h1>")
	testkit.Lacks(t, "401 page", html, "Introduction", "Acme Docs")
	if res.Header.Get("Cache-Control") != "no-store" || len(res.Cookies()) != 0 {
		t.Errorf("401 headers %v", res.Header)
	}
	tok := f.visitorToken(t, map[string]any{"sub": "v1"})
	html, res = f.body(t, http.StatusOK, f.base+"/blocks?jwt_token="+url.QueryEscape(tok))
	testkit.Contains(t, "page with token", html, "Acme Docs", `href="`+f.base+`/blocks/child-page"`)
	var kept *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "galley_visitor" {
			kept = c
		}
	}
	if kept == nil || kept.Value != tok || !kept.HttpOnly || !kept.Secure || kept.SameSite != http.SameSiteLaxMode || kept.Path != f.base {
		t.Fatalf("cookie %+v (headers %v)", kept, res.Header)
	}
	if cc := res.Header.Get("Cache-Control"); !strings.HasPrefix(cc, "private") {
		t.Errorf("Cache-Control %q", cc)
	}
	// Following a link: the cookie alone opens the site.
	html, res = f.getWith(t, http.StatusOK, f.base+"/blocks/child-page", kept)
	testkit.Contains(t, "page by cookie", html, "A child.")
	if len(res.Cookies()) != 0 {
		t.Errorf("cookie set again: %v", res.Cookies())
	}
	// Refused tokens: expired, or signed with a key since replaced.
	expired := f.visitorToken(t, map[string]any{"exp": f.Kit.Deps.Clock().Add(-time.Minute).Unix()})
	f.body(t, http.StatusUnauthorized, f.base+"/?jwt_token="+url.QueryEscape(expired))
	f.As(t, "admin").Expect(http.StatusOK, "POST", f.sitePth+"/publishing/auth/regenerate", nil)
	f.getWith(t, http.StatusUnauthorized, f.base+"/blocks", kept)
	// With a fallback URL, visitors without a token are sent there.
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth+"/publishing/auth", map[string]any{"backend": "custom", "fallbackURL": "https://login.example.com/docs"})
	_, res = f.body(t, http.StatusFound, f.base+"/blocks")
	if res.Header.Get("Location") != "https://login.example.com/docs" {
		t.Errorf("Location %q", res.Header.Get("Location"))
	}
}

// TestConditionalSectionInReader: a section shown only to visitors whose
// token has the claim: others do not see it in the navigation, and its
// URL is 404 for them.
func TestConditionalSectionInReader(t *testing.T) {
	f := standardSite(t, map[string]any{"visibility": "visitor-auth"})
	beta, _ := f.newSpace(t, "Beta", page("b", "", "# Beta notes\n\nFor testers.\n"))
	c := f.As(t, "admin")
	// The site's first section takes its root site spaces (and Extra); the second
	// shows Beta alone, to testers.
	extra, _ := f.newSpace(t, "Extra", page("e", "", "# Extra\n\nMore.\n"))
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/sections", map[string]any{"spaceId": extra, "title": "Guide"})
	betaID := c.Expect(http.StatusCreated, "POST", f.sitePth+"/sections", map[string]any{"spaceId": beta, "title": "Beta"}).Map(t)["id"].(string)
	c.Expect(http.StatusOK, "PATCH", f.sitePth+"/sections/"+betaID, map[string]any{"path": "testers", "condition": "visitor.claims.isBeta === true"})
	tester := f.visitorToken(t, map[string]any{"isBeta": true})
	other := f.visitorToken(t, map[string]any{"isBeta": false})
	html, _ := f.body(t, http.StatusOK, f.base+"/?jwt_token="+url.QueryEscape(tester))
	testkit.Contains(t, "tester's navigation", html, `href="`+f.base+`/testers/"`)
	html, _ = f.body(t, http.StatusOK, f.base+"/testers/?jwt_token="+url.QueryEscape(tester))
	testkit.Contains(t, "tester", html, "Beta notes")
	html, _ = f.body(t, http.StatusOK, f.base+"/?jwt_token="+url.QueryEscape(other))
	testkit.Lacks(t, "other visitor's navigation", html, f.base+"/testers", "Beta notes")
	f.body(t, http.StatusNotFound, f.base+"/testers/?jwt_token="+url.QueryEscape(other))
	f.body(t, http.StatusNotFound, f.base+"/testers/b.md?jwt_token="+url.QueryEscape(other))
}
