package readerhttp_test

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// The security headers of every kind of reader answer (docs/reader.md,
// "Security headers"): a page's Content-Security-Policy allows exactly its
// own script and style elements (by hash), frames by the site's own
// origins and those it names; other answers allow nothing; all carry
// Referrer-Policy and nosniff.

// policy parses a Content-Security-Policy into its directives.
func policy(t *testing.T, csp string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, d := range strings.Split(csp, ";") {
		f := strings.Fields(d)
		if len(f) == 0 {
			continue
		}
		if _, dup := out[f[0]]; dup {
			t.Errorf("directive %s twice in %q", f[0], csp)
		}
		out[f[0]] = f[1:]
	}
	return out
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

var (
	reScript = regexp.MustCompile(`(?s)<script[^>]*>(.*?)</script>`)
	reStyle  = regexp.MustCompile(`(?s)<style[^>]*>(.*?)</style>`)
)

// commonHeaders checks the headers every reader answer carries.
func commonHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	if got := h.Get("Referrer-Policy"); got != "strict-origin-when-cross-origin" {
		t.Errorf("%s: Referrer-Policy %q", what, got)
	}
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("%s: X-Content-Type-Options %q", what, got)
	}
}

// pagePolicy checks an HTML answer's policy against its body: every
// script and style element is allowed by its hash, and nothing else
// inline; it returns the directives.
func pagePolicy(t *testing.T, what, body string, h http.Header) map[string][]string {
	t.Helper()
	commonHeaders(t, what, h)
	p := policy(t, h.Get("Content-Security-Policy"))
	for name, want := range map[string][]string{
		"default-src": {"'none'"}, "base-uri": {"'none'"}, "form-action": {"'self'"}, "connect-src": {"'self'"},
		"img-src":   {"'self'", "https:", "data:"},
		"frame-src": {"https://www.youtube-nocookie.com", "https://player.vimeo.com", "https://www.loom.com"},
	} {
		if got := strings.Join(p[name], " "); got != strings.Join(want, " ") {
			t.Errorf("%s: %s %q, want %q", what, name, got, strings.Join(want, " "))
		}
	}
	for _, kind := range []struct {
		directive string
		re        *regexp.Regexp
	}{{"script-src", reScript}, {"style-src", reStyle}} {
		allowed := map[string]bool{}
		for _, src := range p[kind.directive] {
			if !strings.HasPrefix(src, "'sha256-") {
				t.Errorf("%s: %s allows %s (only hashes)", what, kind.directive, src)
			}
			allowed[src] = true
		}
		for _, m := range kind.re.FindAllStringSubmatch(body, -1) {
			if !allowed[sha(m[1])] {
				t.Errorf("%s: %s does not allow the element %.80q...", what, kind.directive, m[1])
			}
		}
	}
	// The page's style element, and the dark theme's when the visitor
	// chooses the theme (the default customization).
	want := 1 + strings.Count(body, `<style id="theme-dark"`)
	if n := len(reStyle.FindAllString(body, -1)); n != want || len(p["style-src"]) != want {
		t.Errorf("%s: %d style elements, %d style hashes; want %d each", what, n, len(p["style-src"]), want)
	}
	return p
}

// dataPolicy checks the headers of an answer that is not a page.
func dataPolicy(t *testing.T, what string, h http.Header) {
	t.Helper()
	commonHeaders(t, what, h)
	p := policy(t, h.Get("Content-Security-Policy"))
	if strings.Join(p["default-src"], " ") != "'none'" || strings.Join(p["frame-ancestors"], " ") != "'none'" {
		t.Errorf("%s: Content-Security-Policy %q, want default-src and frame-ancestors 'none'", what, h.Get("Content-Security-Policy"))
	}
}

func TestSecurityHeaders(t *testing.T) {
	f := standardSite(t, nil)
	own := "'self' https://app.test"
	pages := map[string]string{"root": f.base + "/", "every-block page": f.base + "/blocks", "child page": f.base + "/blocks/child-page"}
	for what, path := range pages {
		body, res := f.body(t, http.StatusOK, path)
		p := pagePolicy(t, what, body, res.Header)
		if got := strings.Join(p["frame-ancestors"], " "); got != own {
			t.Errorf("%s: frame-ancestors %q, want %q", what, got, own)
		}
		// The theme's choice (the default customization lets visitors
		// choose), the copy buttons', the results as you type, insights.
		if len(p["script-src"]) != 4 || len(reScript.FindAllString(body, -1)) != 4 {
			t.Errorf("%s: script-src %v for %d scripts, want the four scripts'", what, p["script-src"], len(reScript.FindAllString(body, -1)))
		}
	}
	// The site's colours are in the style element: another site's hash
	// differs.
	blocks, res := f.body(t, http.StatusOK, f.base+"/blocks")
	f.customize(t, map[string]map[string]any{"styling": {"primaryColor": map[string]any{"light": "#aa0000", "dark": "#ff8888"}}})
	tinted, res2 := f.body(t, http.StatusOK, f.base+"/blocks")
	pagePolicy(t, "customized page", tinted, res2.Header)
	if policy(t, res.Header.Get("Content-Security-Policy"))["style-src"][0] == policy(t, res2.Header.Get("Content-Security-Policy"))["style-src"][0] || blocks == tinted {
		t.Error("a customized colour left the page's style hash unchanged")
	}
	// A 304 carries no policy (the cached page's holds), the other headers.
	rev := f.get(t, f.base+"/blocks", "If-None-Match", res2.Header.Get("ETag"))
	if rev.StatusCode != http.StatusNotModified || rev.Header.Get("Content-Security-Policy") != "" {
		t.Errorf("revalidated: %d, Content-Security-Policy %q; want 304 without one", rev.StatusCode, rev.Header.Get("Content-Security-Policy"))
	}
	commonHeaders(t, "304", rev.Header)
	// Error pages: the site's own 404 frames as its pages; an unknown
	// site's, by Galley's origin only.
	body, res := f.body(t, http.StatusNotFound, f.base+"/nope")
	if got := strings.Join(pagePolicy(t, "404 of the site", body, res.Header)["frame-ancestors"], " "); got != own {
		t.Errorf("404 of the site: frame-ancestors %q", got)
	}
	body, res = f.body(t, http.StatusNotFound, "/sites/"+f.Org.ID+"/nope/")
	if got := strings.Join(pagePolicy(t, "404 of no site", body, res.Header)["frame-ancestors"], " "); got != "'self'" {
		t.Errorf("404 of no site: frame-ancestors %q", got)
	}
	// Answers that are not pages.
	for _, path := range []string{f.base + "/blocks.md", f.base + "/llms.txt", f.base + "/llms-full.txt", f.base + "/sitemap.xml", f.base + "/robots.txt"} {
		_, res := f.body(t, http.StatusOK, path)
		dataPolicy(t, path, res.Header)
	}
	// The search page (the search function's): its style element by hash,
	// framed as the site's pages; the results as you type allow nothing.
	body, res = f.body(t, http.StatusOK, f.base+"/~search?q=child")
	commonHeaders(t, "search page", res.Header)
	sp := policy(t, res.Header.Get("Content-Security-Policy"))
	styles := reStyle.FindAllStringSubmatch(body, -1)
	if len(styles) != 1 || strings.Join(sp["style-src"], " ") != sha(styles[0][1]) || strings.Join(sp["default-src"], " ") != "'none'" ||
		strings.Join(sp["frame-ancestors"], " ") != own || strings.Join(sp["form-action"], " ") != "'self'" || strings.Contains(body, "<script") {
		t.Errorf("search page: Content-Security-Policy %q", res.Header.Get("Content-Security-Policy"))
	}
	_, res = f.body(t, http.StatusOK, f.base+"/~search?q=child&format=json")
	dataPolicy(t, "results as you type", res.Header)
	// The MCP endpoint.
	_, res = f.mcpPost(t, http.StatusOK, f.base+"/~gitbook/mcp", rpc(1, "ping", nil))
	dataPolicy(t, "MCP", res.Header)
	r := f.get(t, f.base+"/~gitbook/mcp")
	if r.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET MCP: %d", r.StatusCode)
	}
	dataPolicy(t, "MCP GET", r.Header)
}

// frame-ancestors is the site's own origins (the public URL's, the
// published root's: a proxy origin) and those the site names
// (frameAncestors); a change of the setting changes the pages' ETag, so a
// cached page is not revalidated with the old policy.
func TestFrameAncestors(t *testing.T) {
	f := standardSite(t, map[string]any{"proxy": "example.com/docs"})
	ancestors := func(path string, headers ...string) (string, *http.Response) {
		t.Helper()
		res := f.get(t, path, headers...)
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", path, res.StatusCode)
		}
		return strings.Join(pagePolicy(t, path, string(b), res.Header)["frame-ancestors"], " "), res
	}
	want := "'self' https://app.test https://example.com"
	if got, _ := ancestors(f.base + "/blocks"); got != want {
		t.Errorf("frame-ancestors %q, want %q", got, want)
	}
	got, res := ancestors("/~proxy/docs/blocks", "X-Forwarded-Host", "example.com")
	if got != want {
		t.Errorf("through the proxy: frame-ancestors %q, want %q", got, want)
	}
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"frameAncestors": []string{"https://App.Example.net", "http://localhost:3000"}})
	if rev := f.get(t, "/~proxy/docs/blocks", "X-Forwarded-Host", "example.com", "If-None-Match", res.Header.Get("ETag")); rev.StatusCode != http.StatusOK {
		t.Errorf("after the setting changed, the page revalidates with %d, want 200", rev.StatusCode)
	}
	want += " https://app.example.net http://localhost:3000"
	if got, _ := ancestors(f.base + "/blocks"); got != want {
		t.Errorf("with frameAncestors: %q, want %q", got, want)
	}
	res = f.get(t, f.base+"/~search?q=child")
	if sp := policy(t, res.Header.Get("Content-Security-Policy")); strings.Join(sp["frame-ancestors"], " ") != want {
		t.Errorf("search page with frameAncestors: %q, want %q", sp["frame-ancestors"], want)
	}
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth, `{"frameAncestors":null}`)
	if got, _ := ancestors(f.base + "/blocks"); got != "'self' https://app.test https://example.com" {
		t.Errorf("after null: %q", got)
	}
}
