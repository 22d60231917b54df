package readerhttp_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/reader/readerhttp"
	"github.com/galleydocs/galley/shared/search"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestUnpublishedSiteIs404(t *testing.T) {
	f := standardSite(t, nil)
	f.body(t, http.StatusOK, f.base+"/")
	f.As(t, "admin").Expect(http.StatusOK, "POST", f.sitePth+"/unpublish", nil)
	for _, p := range []string{"/", "/blocks", "/blocks.md", "/llms.txt", "/sitemap.xml", "/robots.txt"} {
		html, _ := f.body(t, http.StatusNotFound, f.base+p)
		testkit.Contains(t, p, html, "<h1>Page not found</h1>")
		testkit.Lacks(t, p, html, "Acme Docs", "Introduction")
	}
}

func TestUnlistedSiteIsNotIndexed(t *testing.T) {
	f := standardSite(t, map[string]any{"visibility": "unlisted"})
	html, res := f.body(t, http.StatusOK, f.base+"/blocks")
	testkit.Contains(t, "unlisted page", html, `<meta name="robots" content="noindex">`)
	if res.Header.Get("X-Robots-Tag") != "noindex" {
		t.Errorf("X-Robots-Tag %q", res.Header.Get("X-Robots-Tag"))
	}
	f.body(t, http.StatusNotFound, f.base+"/sitemap.xml")
	robots, _ := f.body(t, http.StatusOK, f.base+"/robots.txt")
	if robots != "User-agent: *\nDisallow: /\n" {
		t.Errorf("robots.txt %q", robots)
	}
}

func TestShareLinkSite(t *testing.T) {
	f := standardSite(t, map[string]any{"visibility": "share-link"})
	f.body(t, http.StatusNotFound, f.base+"/")
	l := f.As(t, "admin").Expect(http.StatusCreated, "POST", f.sitePth+"/share-links", map[string]any{"name": "Partners"}).Map(t)
	// The link's published URL opens the site.
	pub := strings.TrimPrefix(l["urls"].(map[string]any)["published"].(string), "https://app.test")
	_, key, ok := strings.Cut(pub, "?shareKey=")
	if !ok || !strings.HasPrefix(pub, f.base) {
		t.Fatalf("published URL %s", pub)
	}
	html, res := f.body(t, http.StatusOK, pub)
	if cc := res.Header.Get("Cache-Control"); !strings.HasPrefix(cc, "private") {
		t.Errorf("Cache-Control %q", cc)
	}
	// Links carry the key.
	testkit.Contains(t, "share-link page", html, `href="`+f.base+`/blocks?shareKey=`+key+`"`)
	f.body(t, http.StatusNotFound, f.base+"/?shareKey=wrong")
	// The key given once is kept in a cookie for the site's URLs: a page
	// without the key in its URL opens with it.
	var kept *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "galley_share" {
			kept = c
		}
	}
	if kept == nil || kept.Value != key || kept.Path != f.base || !kept.HttpOnly || kept.SameSite != http.SameSiteLaxMode {
		t.Fatalf("share key cookie %+v (all: %v)", kept, res.Header.Values("Set-Cookie"))
	}
	if res := f.get(t, f.base+"/blocks", "Cookie", "galley_share="+key); res.StatusCode != http.StatusOK {
		t.Fatalf("a page with the kept key: %d", res.StatusCode)
	}
	if res := f.get(t, f.base+"/blocks", "Cookie", "galley_share=wrong"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("a page with a wrong kept key: %d", res.StatusCode)
	}
	// A deactivated link closes the site at once, given in the URL or kept.
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth+"/share-links/"+l["id"].(string), map[string]any{"active": false})
	f.body(t, http.StatusNotFound, pub)
	if res := f.get(t, f.base+"/blocks", "Cookie", "galley_share="+key); res.StatusCode != http.StatusNotFound {
		t.Fatalf("a page with the deactivated link's kept key: %d", res.StatusCode)
	}
}

func TestSitemapAndRobots(t *testing.T) {
	f := standardSite(t, nil)
	sm, res := f.body(t, http.StatusOK, f.base+"/sitemap.xml")
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/xml") {
		t.Errorf("Content-Type %q", res.Header.Get("Content-Type"))
	}
	abs := "https://app.test" + f.base
	testkit.Contains(t, "sitemap", sm, "<loc>"+abs+"/</loc>", "<loc>"+abs+"/blocks</loc>", "<loc>"+abs+"/blocks/child-page</loc>", "<loc>"+abs+"/reference/api</loc>")
	// Hidden and noindex pages are not listed; each page once.
	testkit.Lacks(t, "sitemap", sm, "secret", "quiet", "<loc>"+abs+"/introduction</loc>")
	if n := strings.Count(sm, "<url>"); n != 4 {
		t.Errorf("%d urls in %s", n, sm)
	}
	robots, _ := f.body(t, http.StatusOK, f.base+"/robots.txt")
	if robots != "User-agent: *\nAllow: /\n\nSitemap: "+abs+"/sitemap.xml\n" {
		t.Errorf("robots.txt %q", robots)
	}
}

func TestMarkdownAndLLMs(t *testing.T) {
	f := standardSite(t, nil)
	md, res := f.body(t, http.StatusOK, f.base+"/blocks/child-page.md")
	if res.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
		t.Errorf("Content-Type %q", res.Header.Get("Content-Type"))
	}
	testkit.Contains(t, "markdown", md, "# Child page", "A child.")
	testkit.Lacks(t, "markdown", md, "<html")
	html, _ := f.body(t, http.StatusOK, f.base+"/blocks/child-page")
	testkit.Contains(t, "page", html, `<link rel="alternate" type="text/markdown" href="`+f.base+`/blocks/child-page.md">`)
	llms, _ := f.body(t, http.StatusOK, f.base+"/llms.txt")
	abs := "https://app.test" + f.base
	testkit.Contains(t, "llms.txt", llms, "# Acme Docs\n", "\n## Guide\n", "- [Introduction]("+abs+"/introduction.md)\n",
		"- [Blocks]("+abs+"/blocks.md): Every block\n", "- [Child page]("+abs+"/blocks/child-page.md)\n")
	testkit.Lacks(t, "llms.txt", llms, "Secret")
	full, _ := f.body(t, http.StatusOK, f.base+"/llms-full.txt")
	testkit.Contains(t, "llms-full.txt", full, "# Acme Docs\n", "Source: "+abs+"/introduction\n\n# Introduction\n\nWelcome.",
		"Source: "+abs+"/blocks/child-page\n\n# Child page\n\nA child.\n")
	testkit.Lacks(t, "llms-full.txt", full, "Secret", "Not in navigation")
	// agentsContext: excluded closes them.
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"agentsContext": "excluded"})
	f.body(t, http.StatusNotFound, f.base+"/blocks/child-page.md")
	f.body(t, http.StatusNotFound, f.base+"/llms.txt")
	f.body(t, http.StatusNotFound, f.base+"/llms-full.txt")
	html, _ = f.body(t, http.StatusOK, f.base+"/blocks/child-page")
	testkit.Lacks(t, "page", html, "text/markdown")
}

func TestETagAndNotModified(t *testing.T) {
	f := standardSite(t, nil)
	_, res := f.body(t, http.StatusOK, f.base+"/blocks")
	etag := res.Header.Get("ETag")
	if !strings.HasPrefix(etag, `"`) || len(etag) < 10 {
		t.Fatalf("ETag %q", etag)
	}
	if cc := res.Header.Get("Cache-Control"); cc != readerhttp.PublicCacheControl {
		t.Errorf("Cache-Control %q", cc)
	}
	again := f.get(t, f.base+"/blocks", "If-None-Match", etag)
	b, _ := io.ReadAll(again.Body)
	if again.StatusCode != http.StatusNotModified || len(b) != 0 || again.Header.Get("ETag") != etag {
		t.Errorf("revalidation: %d, %d bytes, ETag %q", again.StatusCode, len(b), again.Header.Get("ETag"))
	}
	// Another page has another validator.
	_, other := f.body(t, http.StatusOK, f.base+"/blocks/child-page")
	if other.Header.Get("ETag") == etag {
		t.Error("two pages share an ETag")
	}
	if f.get(t, f.base+"/blocks/child-page", "If-None-Match", etag).StatusCode != http.StatusOK {
		t.Error("another page's ETag answered 304")
	}
	// A new revision changes it.
	c := f.As(t, "admin")
	crs := "/v1/spaces/" + f.space + "/change-requests"
	n := c.Expect(http.StatusCreated, "POST", crs, map[string]any{"subject": "edit"}).Map(t)["number"]
	cr := crs + "/" + jsonNumber(n)
	c.Expect(http.StatusOK, "POST", cr+"/content?compat=false", map[string]any{"changes": []map[string]any{
		{"operation": "update_page", "page": f.pages["blocks"], "document": map[string]any{"markdown": "# Blocks\n\nShorter now.\n"}}}})
	c.Expect(http.StatusOK, "POST", cr+"/merge", nil)
	changed := f.get(t, f.base+"/blocks", "If-None-Match", etag)
	b, _ = io.ReadAll(changed.Body)
	if changed.StatusCode != http.StatusOK || !strings.Contains(string(b), "Shorter now.") || changed.Header.Get("ETag") == etag {
		t.Errorf("after a merge: %d, ETag %q", changed.StatusCode, changed.Header.Get("ETag"))
	}
	// So does the site's customization.
	etag = changed.Header.Get("ETag")
	c.Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"title": "Acme Handbook"})
	if res := f.get(t, f.base+"/blocks", "If-None-Match", etag); res.StatusCode != http.StatusOK {
		t.Errorf("after a rename: %d", res.StatusCode)
	}
}

// The site's redirects answer unknown paths: a page of the site space
// permanently, an external URL with the wildcard's rest temporarily;
// known pages are never redirected.
func TestRedirects(t *testing.T) {
	f := standardSite(t, nil)
	c := f.As(t, "admin")
	ss := c.Expect(http.StatusOK, "GET", f.sitePth+"/site-spaces", nil).Map(t)["items"].([]any)[0].(map[string]any)["id"].(string)
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/redirects", map[string]any{"source": "/old-api", "permanent": true,
		"destination": map[string]any{"kind": "site-page", "siteSpaceId": ss, "pageId": f.pages["api"]}})
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/redirects", map[string]any{"source": "/ext/*", "captureWildcard": true,
		"destination": map[string]any{"kind": "external", "url": "https://example.com/x"}})
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/redirects", map[string]any{"source": "/blocks", "permanent": true,
		"destination": map[string]any{"kind": "external", "url": "https://example.com/never"}})
	res := f.get(t, f.base+"/old-api")
	if res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != f.base+"/reference/api" {
		t.Errorf("/old-api: %d Location %q", res.StatusCode, res.Header.Get("Location"))
	}
	res = f.get(t, f.base+"/ext/a/b")
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "https://example.com/x/a/b" {
		t.Errorf("/ext/a/b: %d Location %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res := f.get(t, f.base+"/blocks"); res.StatusCode != http.StatusOK {
		t.Errorf("a page with a redirect of its own path: %d", res.StatusCode)
	}
	f.body(t, http.StatusNotFound, f.base+"/nowhere")
}

// The search box leads to the site's search page, which works without
// JavaScript: results by site space and page, linked to their published
// URLs; only published sites, in the visitor's view.
func TestSearchPage(t *testing.T) {
	f := standardSite(t, nil)
	root, _ := f.body(t, http.StatusOK, f.base+"/")
	testkit.Contains(t, "root", root, `<form class="search" role="search" action="`+f.base+`/~search" method="get"><input type="search" name="q" aria-label="Search this site"`)
	res, _ := f.body(t, http.StatusOK, f.base+"/~search?q=welcome")
	testkit.Contains(t, "results", res, "<h2>Guide</h2>", `<a href="`+f.base+`/introduction">Introduction</a>`, `value="welcome"`)
	none, _ := f.body(t, http.StatusOK, f.base+"/~search?q=zzzqqq")
	testkit.Contains(t, "no results", none, "No page matches")
	empty, _ := f.body(t, http.StatusOK, f.base+"/~search")
	testkit.Lacks(t, "empty query", empty, "<h2>", "No page matches")
	// The results as you type: JSON, by format=json or Accept.
	for _, r := range []struct {
		path   string
		header []string
	}{{f.base + "/~search?q=welcome&format=json", nil}, {f.base + "/~search?q=welcome", []string{"Accept", "application/json"}}} {
		res := f.get(t, r.path, r.header...)
		var got struct {
			Query  string `json:"query"`
			Groups []struct {
				Title string `json:"title"`
				Pages []struct {
					Title, URL string
					Sections   []struct{ Heading, URL, Excerpt string }
				} `json:"pages"`
			} `json:"groups"`
		}
		if err := json.NewDecoder(res.Body).Decode(&got); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s %v: %d %v", r.path, r.header, res.StatusCode, err)
		}
		if ct := res.Header.Get("Content-Type"); ct != "application/json" || res.Header.Get("Cache-Control") != "private, no-store" {
			t.Errorf("JSON results: Content-Type %q, Cache-Control %q", ct, res.Header.Get("Cache-Control"))
		}
		if got.Query != "welcome" || len(got.Groups) != 1 || got.Groups[0].Title != "Guide" || len(got.Groups[0].Pages) != 1 ||
			got.Groups[0].Pages[0].Title != "Introduction" || got.Groups[0].Pages[0].URL != f.base+"/introduction" {
			t.Errorf("JSON results: %+v", got)
		}
	}
	// A browser's own request (Accept: text/html...) is the page.
	if res := f.get(t, f.base+"/~search?q=welcome", "Accept", "text/html,application/json;q=0.9"); !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("Accept text/html: %s", res.Header.Get("Content-Type"))
	}
	f.As(t, "admin").Expect(http.StatusOK, "POST", f.sitePth+"/unpublish", nil)
	f.body(t, http.StatusNotFound, f.base+"/~search?q=welcome")
	if res := f.get(t, f.base+"/~search?q=welcome&format=json"); res.StatusCode != http.StatusNotFound || res.Header.Get("Content-Type") != "application/json" {
		t.Errorf("JSON results of an unpublished site: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
}

// The results as you type are bounded: at most search.MaxSuggestResults
// pages, search.MaxSuggestSections sections each; the page shows more.
func TestSearchJSONBounded(t *testing.T) {
	f := newFixture(t)
	var changes []map[string]any
	for i := range 12 {
		md := fmt.Sprintf("# Widget %d\n\nA widget.\n", i)
		for j := range 5 {
			md += fmt.Sprintf("\n## Part %d\n\nMore widget text.\n", j)
		}
		changes = append(changes, page(fmt.Sprintf("p%d", i), "", md))
	}
	f.space, _ = f.newSpace(t, "Widgets", changes...)
	f.publish(t, "Widgets site", map[string]any{"basename": "w"})
	res := f.get(t, "/sites/"+f.Org.ID+"/w/~search?q=widget&format=json")
	var got struct {
		Groups []struct {
			Pages []struct{ Sections []any } `json:"pages"`
		} `json:"groups"`
	}
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || len(got.Groups) != 1 {
		t.Fatalf("%d %v %+v", res.StatusCode, err, got)
	}
	if n := len(got.Groups[0].Pages); n != search.MaxSuggestResults {
		t.Errorf("%d pages, want %d", n, search.MaxSuggestResults)
	}
	for _, p := range got.Groups[0].Pages {
		if len(p.Sections) > search.MaxSuggestSections {
			t.Errorf("%d sections", len(p.Sections))
		}
	}
	html, _ := f.body(t, http.StatusOK, "/sites/"+f.Org.ID+"/w/~search?q=widget")
	if n, want := strings.Count(html, ">Widget "), min(12, search.PagesPerSpace); n != want {
		t.Errorf("the page shows %d pages, want %d", n, want)
	}
}
