package readerhttp_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app/roots/orgsroot"
)

// With SITES_DOMAIN set, an organization holding a hostname publishes its
// sites with a basename at https://<hostname>.<SITES_DOMAIN>/<basename>:
// the API's published URLs say so, the reader serves them through the
// proxy route (the wildcard domain's proxy forwards with X-Forwarded-Host),
// canonical URLs point there also from the public URL, and the URL
// resolves; other hosts under the domain, other basenames and an
// organization's former hostname find nothing.
func TestOrganizationHostname(t *testing.T) {
	f := standardSite(t, nil)
	f.Kit.Deps.SitesDomain = "sites.test"
	orgsroot.Routes(f.API.API, f.Root)
	c := f.As(t, "admin")
	c.Expect(http.StatusOK, "PATCH", "/v1/orgs/"+f.Org.ID, map[string]any{"hostname": "acme"})
	site := c.Expect(http.StatusOK, "GET", f.sitePth, nil).Map(t)
	if got := site["urls"].(map[string]any)["published"]; got != "https://acme.sites.test/docs" {
		t.Fatalf("urls.published = %v", got)
	}
	read := func(path, host string) (int, string) {
		res := f.get(t, path, "X-Forwarded-Host", host)
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	code, body := read("/~proxy/docs/blocks", "acme.sites.test")
	if code != http.StatusOK || !strings.Contains(body, `<link rel="canonical" href="https://acme.sites.test/docs/blocks">`) ||
		!strings.Contains(body, `href="/docs/blocks/child-page"`) {
		t.Fatalf("a page at the organization's hostname: %d\n%.3000s", code, body)
	}
	if body, _ := f.body(t, http.StatusOK, f.base+"/blocks"); !strings.Contains(body, `<link rel="canonical" href="https://acme.sites.test/docs/blocks">`) {
		t.Fatalf("the public URL's canonical link:\n%.3000s", body)
	}
	res := c.Expect(http.StatusOK, "GET", "/v1/urls/published?url="+url.QueryEscape("https://acme.sites.test/docs/blocks"), nil).Map(t)
	if res["site"] != strings.TrimPrefix(f.sitePth, "/v1/orgs/"+f.Org.ID+"/sites/") || res["pathname"] != "blocks" {
		t.Fatalf("resolved: %v", res)
	}
	for _, r := range []struct{ path, host string }{
		{"/~proxy/docs/blocks", "other.sites.test"},
		{"/~proxy/docs/blocks", "x.acme.sites.test"},
		{"/~proxy/handbook/blocks", "acme.sites.test"},
		{"/~proxy/", "acme.sites.test"},
	} {
		if code, body := read(r.path, r.host); code != http.StatusNotFound {
			t.Errorf("GET %s at %s: %d, want 404\n%.300s", r.path, r.host, code, body)
		}
	}
	// A new hostname: the old one names nothing any more.
	c.Expect(http.StatusOK, "PATCH", "/v1/orgs/"+f.Org.ID, map[string]any{"hostname": "acme-docs"})
	if code, _ := read("/~proxy/docs/blocks", "acme.sites.test"); code != http.StatusNotFound {
		t.Errorf("the old hostname after the change: %d", code)
	}
	if code, _ := read("/~proxy/docs/blocks", "acme-docs.sites.test"); code != http.StatusOK {
		t.Errorf("the new hostname: %d", code)
	}
	site = c.Expect(http.StatusOK, "GET", f.sitePth, nil).Map(t)
	if got := site["urls"].(map[string]any)["published"]; got != "https://acme-docs.sites.test/docs" {
		t.Fatalf("urls.published after the change = %v", got)
	}
	// Without SITES_DOMAIN, hostnames publish nothing.
	f.Kit.Deps.SitesDomain = ""
	site = c.Expect(http.StatusOK, "GET", f.sitePth, nil).Map(t)
	if got := site["urls"].(map[string]any)["published"]; got != "https://app.test"+f.base {
		t.Fatalf("urls.published without SITES_DOMAIN = %v", got)
	}
}
