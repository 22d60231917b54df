package readerhttp_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// TestExternalLinksInNavigation: the site's external links are in the
// top navigation where the structure puts them (top level, in a group's
// menu), but draft ones and those whose condition fails for the visitor.
func TestExternalLinksInNavigation(t *testing.T) {
	f := standardSite(t, nil)
	c := f.As(t, "admin")
	extra, _ := f.newSpace(t, "Extra", page("e", "", "# Extra\n\nMore.\n"))
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/sections", map[string]any{"spaceId": extra, "title": "More"})
	g := c.Expect(http.StatusCreated, "POST", f.sitePth+"/section-groups", map[string]any{"title": "Elsewhere"}).Map(t)["id"].(string)
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/external-links", map[string]any{"title": "Status page", "url": "https://status.example.com/"})
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/external-links", map[string]any{"title": "Community", "url": "https://forum.example.com/", "parent": g})
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/external-links", map[string]any{"title": "Unreleased", "url": "https://next.example.com/", "draft": true})
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/external-links", map[string]any{"title": "Beta forum", "url": "https://beta.example.com/", "condition": "visitor.claims.beta === true"})

	html, _ := f.body(t, http.StatusOK, f.base+"/")
	nav := html[strings.Index(html, `<nav class="sections"`):]
	nav = nav[:strings.Index(nav, "</nav>")]
	testkit.Contains(t, "navigation", nav, `<a href="https://status.example.com/">Status page</a>`, "<summary>Elsewhere</summary>",
		`<a href="https://forum.example.com/">Community</a>`)
	testkit.Lacks(t, "navigation", nav, "Unreleased", "Beta forum")
	if strings.Index(nav, "Status page") < strings.Index(nav, "Elsewhere") {
		t.Errorf("the link added last is before the group: %s", nav)
	}
	// With the claim, unsigned (no schema declares it: it stays hidden).
	html, _ = f.body(t, http.StatusOK, f.base+"/?visitor.beta=true")
	testkit.Lacks(t, "with an undeclared claim", html, "Beta forum")
}

// TestPreviewInReader: a member's preview URL opens an unpublished site in
// the reader, keeps its token in a cookie for the site's links, and shows
// the draft links; without it the site is 404.
func TestPreviewInReader(t *testing.T) {
	f := standardSite(t, nil)
	c := f.As(t, "admin")
	extra, _ := f.newSpace(t, "Extra", page("e", "", "# Extra\n\nMore.\n"))
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/sections", map[string]any{"spaceId": extra, "title": "More"})
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/external-links", map[string]any{"title": "Unreleased", "url": "https://next.example.com/", "draft": true})
	c.Expect(http.StatusOK, "POST", f.sitePth+"/unpublish", nil)
	f.body(t, http.StatusNotFound, f.base+"/")

	u := f.As(t, "read").Expect(http.StatusOK, "GET", f.sitePth+"/publishing/preview", nil).Map(t)["url"].(string)
	p, err := url.Parse(u)
	if err != nil || !strings.HasPrefix(p.Path, f.base+"/") {
		t.Fatalf("preview URL %s (site at %s)", u, f.base)
	}
	html, res := f.body(t, http.StatusOK, p.RequestURI())
	testkit.Contains(t, "preview", html, "Acme Docs", "Introduction", "Unreleased")
	var kept *http.Cookie
	for _, ck := range res.Cookies() {
		if ck.Name == "galley_preview" {
			kept = ck
		}
	}
	if kept == nil || kept.Value != p.Query().Get("preview") || !kept.HttpOnly || kept.Path != f.base {
		t.Fatalf("cookie %+v", kept)
	}
	if cc, robots := res.Header.Get("Cache-Control"), res.Header.Get("X-Robots-Tag"); !strings.HasPrefix(cc, "private") || robots != "noindex" {
		t.Errorf("Cache-Control %q, X-Robots-Tag %q", cc, robots)
	}
	html, _ = f.getWith(t, http.StatusOK, f.base+"/blocks", kept)
	testkit.Contains(t, "a page by the cookie", html, "Every block")
	// Without drafts.
	u = f.As(t, "read").Expect(http.StatusOK, "GET", f.sitePth+"/publishing/preview?draft=false", nil).Map(t)["url"].(string)
	p, _ = url.Parse(u)
	html, _ = f.body(t, http.StatusOK, p.RequestURI())
	testkit.Lacks(t, "preview without drafts", html, "Unreleased")
	// A made-up token opens nothing.
	f.body(t, http.StatusNotFound, f.base+"/?preview=abc.def.ghi")
}
