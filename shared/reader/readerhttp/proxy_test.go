package readerhttp_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// A site with a proxy origin is read through the reverse proxy serving
// it: the proxy forwards https://example.com/docs/<path> as
// /~proxy/docs/<path> with X-Forwarded-Host: example.com, and the pages'
// links are under the proxy origin. A host that is not the site's proxy
// finds nothing; a request without the header, or with a malformed host,
// is refused.
func TestProxyOrigin(t *testing.T) {
	f := standardSite(t, map[string]any{"proxy": "example.com/docs"})
	read := func(path, host string) (int, string, http.Header) {
		var hs []string
		if host != "" {
			hs = []string{"X-Forwarded-Host", host}
		}
		res := f.get(t, path, hs...)
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), res.Header
	}
	code, body, _ := read("/~proxy/docs/blocks", "example.com")
	if code != http.StatusOK || !strings.Contains(body, "<h1") || !strings.Contains(body, `href="/docs/blocks/child-page"`) ||
		!strings.Contains(body, `<link rel="canonical" href="https://example.com/docs/blocks">`) {
		t.Fatalf("a page through the proxy: %d\n%.3000s", code, body)
	}
	if strings.Contains(body, "https://app.test/sites/") {
		t.Fatalf("a proxied page links to the public URL:\n%.3000s", body)
	}
	if code, body, _ = read("/~proxy/docs/", "Example.COM"); code != http.StatusOK || !strings.Contains(body, "Introduction") {
		t.Fatalf("the site's root through the proxy (host in capitals): %d\n%.1000s", code, body)
	}
	if code, body, _ = read("/~proxy/docs/blocks.md", "example.com"); code != http.StatusOK || !strings.Contains(body, "# Blocks") || strings.Contains(body, "<html") {
		t.Fatalf("a page as markdown through the proxy: %d\n%.300s", code, body)
	}
	for _, c := range []struct {
		path, host string
		want       int
	}{
		{"/~proxy/docs/blocks", "other.example", http.StatusNotFound},
		{"/~proxy/help/blocks", "example.com", http.StatusNotFound},
		{"/~proxy/docs/blocks", "", http.StatusBadRequest},
		{"/~proxy/docs/blocks", "exa mple.com", http.StatusBadRequest},
		{"/~proxy/docs/blocks", "example.com:80x", http.StatusBadRequest},
	} {
		if code, body, _ := read(c.path, c.host); code != c.want {
			t.Errorf("GET %s (X-Forwarded-Host %q): %d, want %d\n%.300s", c.path, c.host, code, c.want, body)
		}
	}
	// The site's public URL still answers; its pages' canonical URLs are
	// the proxy origin's (the site's published URLs).
	if body, _ := f.body(t, http.StatusOK, f.base+"/blocks"); !strings.Contains(body, `<link rel="canonical" href="https://example.com/docs/blocks">`) {
		t.Fatalf("the public URL's canonical link:\n%.3000s", body)
	}
}
