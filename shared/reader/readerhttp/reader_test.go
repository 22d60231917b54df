package readerhttp_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/openapispecs/openapiworker"
	"github.com/galleydocs/galley/shared/testkit"
)

// between returns the part of s from the first start to the next end.
func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], end)
	if j < 0 {
		return s[i:]
	}
	return s[i : i+j+len(end)]
}

func TestTreeAndNavigation(t *testing.T) {
	f := standardSite(t, nil)
	root, res := f.body(t, http.StatusOK, f.base+"/")
	if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	testkit.Contains(t, "root", root, "<title>Introduction | Acme Docs</title>", "<h1>Introduction</h1>", `<meta property="og:title" content="Introduction">`,
		`<link rel="canonical" href="https://app.test`+f.base+`/">`)
	// The root is the first page; the page tree lists pages, the group
	// and its pages, not the hidden page, nor the child of a closed page.
	side := between(root, `<nav class="sidebar"`, "</nav>")
	testkit.Contains(t, "sidebar", side, `href="`+f.base+`/" aria-current="page">Introduction</a>`, `href="`+f.base+`/blocks">Blocks</a>`,
		`<span class="group-title">Reference</span>`, `href="`+f.base+`/reference/api">API</a>`, `href="`+f.base+`/reference/quiet">Quiet</a>`)
	testkit.Lacks(t, "sidebar", side, "Secret", "Child page")
	testkit.Contains(t, "root", root, `<a class="next" rel="next" href="`+f.base+`/blocks">`)
	testkit.Lacks(t, "root", root, `class="prev"`, `<meta name="robots"`)
	if res.Header.Get("X-Robots-Tag") != "" {
		t.Errorf("a public site's page has X-Robots-Tag %q", res.Header.Get("X-Robots-Tag"))
	}
	if c, ok := res.Header["Set-Cookie"]; ok {
		t.Errorf("a public site's page sets a cookie: %q", c)
	}
	// Blocks: its child is shown; breadcrumbs; the outline; previous/next.
	blocks, _ := f.body(t, http.StatusOK, f.base+"/blocks")
	side = between(blocks, `<nav class="sidebar"`, "</nav>")
	testkit.Contains(t, "blocks sidebar", side, `href="`+f.base+`/blocks" aria-current="page">Blocks</a><ul><li><a href="`+f.base+`/blocks/child-page">Child page</a>`)
	testkit.Contains(t, "blocks", blocks, `<p class="description">Every block</p>`, `<meta name="description" content="Every block">`,
		`<a class="prev" rel="prev" href="`+f.base+`/"><small>Previous</small><span>Introduction</span>`,
		`<a class="next" rel="next" href="`+f.base+`/blocks/child-page">`)
	outline := between(blocks, `<aside class="outline"`, "</aside>")
	testkit.Contains(t, "outline", outline, `<a href="#install">Install</a>`, `<a href="#sub-heading">Sub heading</a>`)
	testkit.Lacks(t, "outline", outline, "Step one") // headings inside blocks are not in the outline
	child, _ := f.body(t, http.StatusOK, f.base+"/blocks/child-page")
	crumbs := between(child, `<nav class="breadcrumbs"`, "</nav>")
	testkit.Contains(t, "breadcrumbs", crumbs, `<a href="`+f.base+`/blocks">Blocks</a>`, `<span aria-current="page">Child page</span>`)
	api, _ := f.body(t, http.StatusOK, f.base+"/reference/api")
	testkit.Contains(t, "group page breadcrumbs", between(api, `<nav class="breadcrumbs"`, "</nav>"), "<span>Reference</span>")
	// The entries kept rendered between pages (those off the current
	// branch) carry no other page's branch or mark.
	side = between(api, `<nav class="sidebar"`, "</nav>")
	testkit.Contains(t, "group page sidebar", side, `href="`+f.base+`/reference/api" aria-current="page">API</a>`, `href="`+f.base+`/blocks">Blocks</a></li>`)
	testkit.Lacks(t, "group page sidebar", side, "Child page", `href="`+f.base+`/blocks" aria-current`)
	root, _ = f.body(t, http.StatusOK, f.base+"/")
	if side = between(root, `<nav class="sidebar"`, "</nav>"); strings.Count(side, "aria-current") != 1 || strings.Contains(side, "Child page") {
		t.Errorf("root's sidebar after other pages: %s", side)
	}
	// A hidden page is served at its URL, out of navigation and order.
	secret, _ := f.body(t, http.StatusOK, f.base+"/secret")
	testkit.Contains(t, "hidden page", secret, "<h1>Secret</h1>")
	testkit.Lacks(t, "hidden page", secret, `class="next"`, `class="prev"`)
	// Unknown pages: 404 in HTML, in the site's look.
	nf, res := f.body(t, http.StatusNotFound, f.base+"/no/such/page")
	testkit.Contains(t, "404", nf, "<h1>Page not found</h1>", "Acme Docs", `<meta name="robots" content="noindex">`)
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || res.Header.Get("ETag") != "" {
		t.Errorf("404 headers %v", res.Header)
	}
	// Unknown sites too.
	nf, _ = f.body(t, http.StatusNotFound, "/sites/"+f.Org.ID+"/nope/")
	testkit.Contains(t, "unknown site", nf, "<h1>Page not found</h1>")
}

func TestSectionsAndVariants(t *testing.T) {
	f, first, second := sectionsSite(t)
	root, _ := f.body(t, http.StatusOK, f.base+"/")
	top := between(root, `<nav class="sections"`, "</nav>")
	testkit.Contains(t, "sections", top, `href="`+f.base+`/`+first+`/" aria-current="true">`, `href="`+f.base+`/`+second+`/">Ops</a>`)
	variants := between(root, `<details class="menu variants">`, "</details>")
	testkit.Contains(t, "variants", variants, `aria-current="true">Guide</a>`, ">Guide v2</a>", ">API reference</a>")
	href := regexp.MustCompile(`href="([^"]+)">Guide v2</a>`).FindStringSubmatch(variants)
	if href == nil {
		t.Fatalf("no variant link in %s", variants)
	}
	v, _ := f.body(t, http.StatusOK, href[1])
	testkit.Contains(t, "variant", v, "<h1>Home v2</h1>", `<summary aria-label="Variant: Guide v2">Guide v2</summary>`)
	api, _ := f.body(t, http.StatusOK, f.base+"/"+second+"/")
	testkit.Contains(t, "section", api, "<h1>Running</h1>", `href="`+f.base+`/`+second+`/" aria-current="true">Ops</a>`)
	testkit.Lacks(t, "section", api, `class="menu variants"`)
}

// A page's layout flags and cover, from its frontmatter: a full cover, a
// title kept for screen readers only, no outline, no previous/next links.
func TestLayoutFlagsAndCover(t *testing.T) {
	f := newFixture(t)
	f.space, f.pages = f.newSpace(t, "Guide",
		page("landing", "", "---\ncover: https://x.test/cover.png\nlayout:\n  title:\n    visible: false\n  cover:\n    visible: true\n    size: full\n"+
			"  outline:\n    visible: false\n  pagination:\n    visible: false\n---\n# Landing\n\n## Part\n\nText.\n"),
		page("next", "", "# Next\n\n## Part two\n\nMore.\n"))
	f.publish(t, "Acme Docs", map[string]any{"basename": "docs"})
	landing, _ := f.body(t, http.StatusOK, f.base+"/")
	testkit.Contains(t, "landing", landing, `<img class="cover cover-full" src="https://x.test/cover.png" alt="">`,
		`<h1 class="visually-hidden">Landing</h1>`)
	testkit.Lacks(t, "landing", landing, `class="outline"`, `class="pagination"`)
	next, _ := f.body(t, http.StatusOK, f.base+"/next")
	testkit.Contains(t, "next", next, "<h1>Next</h1>", `class="outline"`, `class="pagination"`)
	testkit.Lacks(t, "next", next, `class="cover`)
}

// A computed API reference page reads as in the API: its generated tag
// pages are in the page tree, each showing its operations.
func TestComputedAPIPages(t *testing.T) {
	f := newFixture(t)
	ctx := f.Ctx("admin")
	spec := `{"openapi":"3.0.3","info":{"title":"Pets","version":"1"},"paths":{` +
		`"/pets":{"get":{"tags":["pets"],"summary":"List pets","parameters":[{"$ref":"#/components/parameters/limit"}],` +
		`"responses":{"200":{"description":"The pets","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Pet"}}}}}}},` +
		`"post":{"tags":["pets"],"summary":"Add a pet","requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}},"responses":{"201":{"description":"Made"}}}},` +
		`"/stores":{"get":{"tags":["stores"],"summary":"List stores","responses":{"200":{"description":"OK"}}}}},` +
		`"components":{"parameters":{"limit":{"name":"limit","in":"query","required":true,"description":"How many","schema":{"type":"integer"}}},` +
		`"schemas":{"Pet":{"type":"object","properties":{"name":{"type":"string"}}}}}}`
	if _, _, err := openapispecs.New(f.Kit.Deps, openapiworker.Parse).Create(ctx, f.Org.ID, "pets", openapispecs.Source{Text: spec}); err != nil {
		t.Fatal(err)
	}
	f.space, f.pages = f.newSpace(t, "API",
		page("intro", "", "# Welcome\n\nThe API.\n"),
		map[string]any{"operation": "insert_page", "ref": "ref", "type": "computed", "title": "Reference",
			"computed": map[string]any{"type": "builtin:openapi", "dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "pets"}}}}})
	f.publish(t, "Pets Docs", map[string]any{"basename": "docs"})
	root, _ := f.body(t, http.StatusOK, f.base+"/")
	side := between(root, `<nav class="sidebar"`, "</nav>")
	testkit.Contains(t, "sidebar", side, ">Reference</a>")
	ref, _ := f.body(t, http.StatusOK, f.base+"/reference")
	testkit.Contains(t, "reference", between(ref, `<nav class="sidebar"`, "</nav>"), ">pets</a>", ">stores</a>")
	pets, _ := f.body(t, http.StatusOK, f.base+"/reference/pets")
	testkit.Contains(t, "pets", pets, `<span class="method method-get">GET</span> <code class="api-path">/pets</code>`,
		`<span class="method method-post">POST</span> <code class="api-path">/pets</code>`)
	testkit.Lacks(t, "pets", between(pets, "<article>", "</article>"), "/stores")
	// Each operation with its details, from the spec's document.
	testkit.Contains(t, "operation details", pets, `<div class="card-title">List pets</div>`,
		`<tr><td><code>limit</code> <span class="required">required</span></td><td>query</td><td><code>integer</code></td><td>How many</td></tr>`,
		`<li><code>200</code> The pets: <code>Pet[]</code><div class="table"><table class="api-params api-fields"><caption>Response 200 fields</caption>`,
		`<tr><td class="depth-0"><code>name</code></td><td><code>string</code></td><td></td></tr>`,
		"<figcaption class=\"code-title\">Example (made from the schema)</figcaption><pre tabindex=\"0\"><code>[\n  {\n    &#34;name&#34;: &#34;string&#34;\n  }\n]</code></pre>",
		`<strong>Request body</strong> <span class="required">required</span> <code>application/json</code>: <code>Pet</code>`)
	// The site's MCP getPage (the search function) reads a generated page
	// as its .md serves it.
	md, _ := f.body(t, http.StatusOK, f.base+"/reference/pets.md")
	testkit.Contains(t, "generated page's markdown", md, "/pets")
	ans, _ := f.mcpPost(t, http.StatusOK, f.base+"/~gitbook/mcp", callTool(1, "getPage", map[string]any{"url": "reference/pets"}))
	if text, isErr := toolText(t, ans); isErr || text != md {
		t.Errorf("getPage of a generated page: %v %q, want %q", isErr, text, md)
	}
}
