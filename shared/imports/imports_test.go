package imports_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/imports"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

var pixel, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")

const layout = `<!doctype html><html><head><title>%s | Acme Docs</title><style>body{}</style></head>
<body><header><a href="/">Acme</a></header>
<nav><a href="/docs/">Home</a> <a href="/docs/guide">Guide</a> <a href="/docs/guide/install">Install</a> <a href="/docs/api">API</a> <a href="/about">About</a> <a href="https://elsewhere.example.com/x">Elsewhere</a></nav>
<main>%s</main>
<footer>© Acme <script>track()</script></footer></body></html>`

// site is a small documentation website.
func site(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	pages := map[string][2]string{
		"/docs/":              {"Home", `<h1>Welcome</h1><p>Read the <a href="guide">guide</a> first.</p><p><img src="/img/logo.png" alt="logo"></p>`},
		"/docs/guide":         {"Guide", `<h1>The guide</h1><p>Then <a href="/docs/guide/install#steps">install</a>.</p><ul><li>one</li><li>two</li></ul>`},
		"/docs/guide/install": {"Install", `<h1>Install</h1><h2 id="steps">Steps</h2><pre><code>make install</code></pre><p><a href="/docs/missing">Broken</a></p>`},
		"/docs/api":           {"API", `<h1>API</h1><p><strong>Bold</strong> and <em>italic</em>.</p>`},
		"/about":              {"About", `<h1>About us</h1><p>We write docs.</p>`},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/img/logo.png" {
			w.Header().Set("Content-Type", "image/png")
			w.Write(pixel)
			return
		}
		if r.URL.Path == "/raw.md" {
			w.Header().Set("Content-Type", "text/markdown")
			w.Write([]byte("---\ndescription: A raw page\n---\n\n# Raw page\n\nSome *markdown*.\n"))
			return
		}
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, layout, p[0], p[1])
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// pages reads a revision's pages: "path title" lines in tree order, and
// bodies by path.
func (f *fixture) pages(t *testing.T, revID string) ([]string, map[string]string, *content.Index) {
	t.Helper()
	repo := content.NewRepo(f.Kit.Deps)
	_, ix, err := repo.Load(f.Kit.Ctx, f.space, revID)
	if err != nil {
		t.Fatal(err)
	}
	paths := ix.Paths()
	var lines []string
	bodies := map[string]string{}
	ix.Walk(func(p *content.Page, _ int) bool {
		lines = append(lines, paths[p.ID]+" "+p.Title)
		b, err := repo.Document(f.Kit.Ctx, f.space, p.Document)
		if err != nil {
			t.Fatal(err)
		}
		bodies[paths[p.ID]] = b
		return true
	})
	return lines, bodies, ix
}

func TestWebsiteImportCrawlsNestsAndConverts(t *testing.T) {
	f := setup(t)
	srv, _ := site(t)
	res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/docs/", "website")
	if res["revision"] != f.Kit.Head(t, f.space) {
		t.Errorf("revision %v is not the space's head %s", res["revision"], f.Kit.Head(t, f.space))
	}
	// Found: the 5 pages and /docs/missing (and /, linked from every header).
	if res["importedResources"] != 5.0 || res["totalResources"] != 7.0 {
		t.Errorf("result %v, want 5 imported of 7 found", res)
	}
	// The two broken links are listed.
	if got := strings.Join(skippedOf(t, res, srv.URL), "|"); got != "/ unreadable|/docs/missing unreadable" {
		t.Errorf("skipped %q", got)
	}
	lines, bodies, ix := f.pages(t, res["revision"].(string))
	want := "docs Welcome|docs/guide The guide|docs/guide/install Install|docs/api API|about About us"
	if strings.Join(lines, "|") != want {
		t.Fatalf("pages %v\nwant %s", lines, want)
	}
	files := ix.Files()
	if len(files) != 1 || files[0].ContentType != "image/png" || files[0].Width != 1 {
		t.Fatalf("files %+v", files)
	}
	home := bodies["docs"]
	// Links between pages are /pages/<id> (docs/content.md).
	for _, want := range []string{"Read the [guide](/pages/" + ix.ByPath("docs/guide").ID + ") first.", "![logo](/files/" + files[0].ID + ")"} {
		if !strings.Contains(home, want) {
			t.Errorf("home body lacks %q:\n%s", want, home)
		}
	}
	for _, unwanted := range []string{"Acme Docs", "track()", "Elsewhere", "# Welcome", "©"} {
		if strings.Contains(home, unwanted) {
			t.Errorf("home body holds %q (navigation, title or script):\n%s", unwanted, home)
		}
	}
	if g := bodies["docs/guide"]; !strings.Contains(g, "[install](/pages/"+ix.ByPath("docs/guide/install").ID+"#steps)") || !strings.Contains(g, "- one") {
		t.Errorf("guide body:\n%s", g)
	}
	if in := bodies["docs/guide/install"]; !strings.Contains(in, "```\nmake install\n```") || !strings.Contains(in, "## Steps") {
		t.Errorf("install body:\n%s", in)
	}
	if api := bodies["docs/api"]; !strings.Contains(api, "**Bold** and *italic*") {
		t.Errorf("api body:\n%s", api)
	}
	// A second import adds pages after the first ones, with free slugs.
	res2 := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/about", "html")
	if res2["importedResources"] != 1.0 || res2["totalResources"] != 1.0 {
		t.Errorf("html import %v", res2)
	}
	lines, _, _ = f.pages(t, res2["revision"].(string))
	if lines[len(lines)-1] != "about-2 About us" || len(lines) != 6 {
		t.Errorf("pages after a second import %v", lines)
	}
}

func TestCrawlBoundsCountWhatWasFound(t *testing.T) {
	f := setup(t)
	f.svc.Pages = 2
	srv, _ := site(t)
	res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/docs/", "website")
	if res["importedResources"] != 2.0 || res["totalResources"].(float64) < 6 {
		t.Errorf("bounded crawl %v, want 2 imported of at least 6 found", res)
	}
	f.svc.Pages, f.svc.Depth = 50, 0
	res = f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/docs/", "website")
	if res["importedResources"] != 1.0 {
		t.Errorf("depth 0: %v", res)
	}
}

func TestMarkdownZipAndWikiSources(t *testing.T) {
	f := setup(t)
	srv, _ := site(t)
	res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/raw.md", "markdown")
	lines, bodies, ix := f.pages(t, res["revision"].(string))
	if strings.Join(lines, "|") != "raw Raw page" || bodies["raw"] != "Some *markdown*.\n" || ix.Page(ix.Children("")[0]).Description != "A raw page" {
		t.Errorf("markdown import: %v %v", lines, bodies)
	}

	// A zip of a folder of markdown files with an image.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range map[string]string{
		"handbook/README.md":          "# Handbook\n\nSee [policies](policies/README.md).\n",
		"handbook/policies/README.md": "# Policies\n",
		"handbook/policies/leave.md":  "# Leave\n\n![chart](../_static/chart.png)\n",
		"handbook/_static/chart.png":  string(pixel),
		"handbook/.DS_Store":          "junk",
		"__MACOSX/handbook/._x":       "junk",
	} {
		w, _ := zw.Create(name)
		w.Write([]byte(data))
	}
	zw.Close()
	zipSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(buf.Bytes()) }))
	defer zipSrv.Close()
	res = f.importInto(t, "/v1/spaces/"+f.space+"/content/import", zipSrv.URL+"/handbook.zip", "zip")
	if res["importedResources"] != 3.0 || res["totalResources"] != 3.0 {
		t.Errorf("zip result %v", res)
	}
	lines, bodies, ix = f.pages(t, res["revision"].(string))
	if strings.Join(lines, "|") != "raw Raw page|handbook Handbook|policies Policies|policies/leave Leave" {
		t.Errorf("zip pages %v", lines)
	}
	if bodies["handbook"] != "See [policies](/pages/"+ix.ByPath("policies").ID+").\n" || !strings.Contains(bodies["policies/leave"], "![chart](/files/") || len(ix.Files()) != 1 {
		t.Errorf("zip bodies %v, files %v", bodies, ix.Files())
	}

	// A GitHub wiki: a Git repository of flat markdown pages.
	wiki := testenv.GitRepo(t, "repo.wiki", "master", map[string]string{"Home.md": "Welcome to the wiki.\n", "Getting-Started.md": "Install it.\n", "_Sidebar.md": "* [Home](Home)\n"})
	res = f.importInto(t, "/v1/spaces/"+f.space+"/content/import", wiki, "github-wiki")
	lines, _, _ = f.pages(t, res["revision"].(string))
	if got := strings.Join(lines[len(lines)-2:], "|"); got != "home Home|getting-started Getting Started" || res["importedResources"] != 2.0 {
		t.Errorf("wiki pages %v (%v)", lines, res)
	}
}

func TestChangeRequestImportLeavesTheSpace(t *testing.T) {
	f := setup(t)
	srv, _ := site(t)
	crs := changerequestswire.Service(f.Root)
	ctx := f.Ctx("edit")
	cr, _, err := crs.Create(ctx, f.space, changerequests.Create{Subject: "Import"})
	if err != nil {
		t.Fatal(err)
	}
	head := f.Kit.Head(t, f.space)
	res := f.importInto(t, fmt.Sprintf("/v1/spaces/%s/change-requests/%d/content/import", f.space, cr.Number), srv.URL+"/docs/api", "html")
	if f.Kit.Head(t, f.space) != head {
		t.Error("a change request import moved the space's head")
	}
	got, _, err := crs.Get(ctx, f.space, cr.ID)
	if err != nil || got.Revision != res["revision"] {
		t.Fatalf("request revision %s, import %v (%v)", got.Revision, res["revision"], err)
	}
	lines, _, _ := f.pages(t, got.Revision)
	if strings.Join(lines, "|") != "api API" {
		t.Errorf("request pages %v", lines)
	}
	// A merged request accepts no import.
	if _, err := crs.Merge(f.Ctx("edit"), f.space, cr.ID); err == nil {
		f.As(t, "edit").Expect(http.StatusConflict, "POST", fmt.Sprintf("/v1/spaces/%s/change-requests/%s/content/import", f.space, cr.ID),
			map[string]any{"url": srv.URL + "/docs/api", "source": "html"})
	}
}

func TestRejects(t *testing.T) {
	f := setup(t)
	srv, hits := site(t)
	path := "/v1/spaces/" + f.space + "/content/import"
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	cases := []struct {
		name, user string
		body       any
		status     int
		field      string
	}{
		{"400UnsupportedSource", "edit", map[string]any{"url": srv.URL + "/docs/", "source": "notion"}, 400, "source"},
		{"400UnknownSource", "edit", map[string]any{"url": srv.URL + "/docs/", "source": "word"}, 400, "source"},
		{"400NoURL", "edit", map[string]any{"source": "website"}, 400, "url"},
		{"400NotHTTP", "edit", map[string]any{"url": "ftp://example.com/x", "source": "html"}, 400, "url"},
		{"400Unreachable", "edit", map[string]any{"url": closed.URL + "/x", "source": "html"}, 400, "url"},
		{"400NotFound", "edit", map[string]any{"url": srv.URL + "/nope", "source": "html"}, 400, "url"},
		{"400NotHTML", "edit", map[string]any{"url": srv.URL + "/img/logo.png", "source": "html"}, 400, "url"},
		{"400NotAZip", "edit", map[string]any{"url": srv.URL + "/docs/", "source": "zip"}, 400, "url"},
		{"400URLTooLong", "edit", map[string]any{"url": "https://example.com/" + strings.Repeat("a", 2040), "source": "html"}, 400, "url"},
		{"401NoToken", "", map[string]any{"url": srv.URL + "/docs/", "source": "html"}, 401, ""},
		{"403Reader", "read", map[string]any{"url": srv.URL + "/docs/", "source": "html"}, 403, ""},
		{"404Outsider", testkit.Outsider, map[string]any{"url": srv.URL + "/docs/", "source": "html"}, 404, ""},
	}
	head := f.Kit.Head(t, f.space)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := f.As(t, tc.user).Expect(tc.status, "POST", path, tc.body)
			if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
	f.As(t, "edit").Expect(http.StatusNotFound, "POST", "/v1/spaces/"+f.space+"/change-requests/nope/content/import", map[string]any{"url": srv.URL + "/docs/", "source": "html"})
	f.As(t, testkit.Outsider).Expect(http.StatusNotFound, "POST", "/v1/spaces/"+f.space+"/change-requests/1/content/import", map[string]any{"url": srv.URL + "/docs/", "source": "html"})
	if f.Kit.Head(t, f.space) != head {
		t.Error("a rejected import changed the space")
	}
	// Without FETCH_ALLOW_PRIVATE a loopback site is refused, unreached.
	f.Kit.Deps.FetchAllowPrivate = false
	before := hits.Load()
	for _, u := range []string{srv.URL + "/docs/", strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/docs/", "http://169.254.169.254/latest/meta-data/"} {
		res := f.As(t, "edit").Expect(http.StatusBadRequest, "POST", path, map[string]any{"url": u, "source": "website"})
		if !strings.Contains(string(res.Body), "not public") {
			t.Errorf("%s: %s", u, res.Body)
		}
	}
	if hits.Load() != before {
		t.Error("the loopback site was reached")
	}
}

// skippedOf reads an import's answer's skipped pages as "path reason"
// lines (the path from the site's URL).
func skippedOf(t *testing.T, res map[string]any, site string) []string {
	t.Helper()
	list, ok := res["skipped"].([]any)
	if !ok {
		t.Fatalf("no skipped list in %v", res)
	}
	var out []string
	for _, s := range list {
		m := s.(map[string]any)
		out = append(out, strings.TrimPrefix(m["url"].(string), site)+" "+m["reason"].(string))
	}
	if res["skippedResources"] != float64(len(out)) {
		t.Errorf("skippedResources %v, %d listed", res["skippedResources"], len(out))
	}
	return out
}

// A page whose markdown is over 1 MiB, or whose HTML is over 2 MB, is
// left out of a website import, which imports the others and lists it;
// links to it become links to its URL, and pages under it in URL path
// move up. A single page too large answers 413.
func TestPagesTooLargeAreLeftOut(t *testing.T) {
	f := setup(t)
	para := "<p>" + strings.Repeat("word ", 20) + "</p>\n"
	big := strings.Repeat(para, 12000) // about 1.2 MB of HTML and of markdown
	pages := map[string]string{
		"/":          `<h1>Home</h1><p><a href="/big">Big</a> <a href="/big/child">Child</a> <a href="/huge">Huge</a></p>`,
		"/big":       `<h1>Big</h1>` + big,
		"/big/child": `<h1>Child</h1><p>Back to <a href="/big#top">big</a> and <a href="/">home</a>.</p>`,
		"/huge":      `<h1>Huge</h1>` + strings.Repeat(para, 22000), // over 2 MB
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><body><main>%s</main></body></html>", p)
	}))
	defer srv.Close()
	if len(pages["/huge"]) <= imports.MaxPageBytes || len(big) >= imports.MaxPageBytes {
		t.Fatalf("pages of %d and %d bytes", len(big), len(pages["/huge"]))
	}
	res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/", "website")
	if got := strings.Join(skippedOf(t, res, srv.URL), "|"); got != "/huge too-large|/big too-large" {
		t.Errorf("skipped %q, want /huge then /big, too large", got)
	}
	if res["importedResources"] != 2.0 || res["totalResources"] != 4.0 {
		t.Errorf("result %v, want 2 imported of 4 found", res)
	}
	lines, bodies, ix := f.pages(t, res["revision"].(string))
	// The child nests under the closest page above it that is imported.
	if strings.Join(lines, "|") != "home Home|home/child Child" {
		t.Fatalf("pages %v", lines)
	}
	if want := "Back to [big](" + srv.URL + "/big#top) and [home](/pages/" + ix.ByPath("home").ID + ")."; !strings.Contains(bodies["home/child"], want) {
		t.Errorf("child body lacks %q:\n%s", want, bodies["home/child"])
	}
	if want := "[Big](" + srv.URL + "/big) [Child](/pages/" + ix.ByPath("home/child").ID + ")"; !strings.Contains(bodies["home"], want) {
		t.Errorf("home body lacks %q:\n%s", want, bodies["home"])
	}
	r := f.As(t, "edit").Expect(http.StatusRequestEntityTooLarge, "POST", "/v1/spaces/"+f.space+"/content/import",
		map[string]any{"url": srv.URL + "/big", "source": "html"})
	if !strings.Contains(string(r.Body), "1048576 bytes") {
		t.Errorf("a single page too large: %s", r.Body)
	}
}

// A website import lands as the space's head on both storage backends.
func TestWebsiteImportOnBothBackends(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		srv, _ := site(t)
		res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/docs/", "website")
		if res["revision"] != f.Kit.Head(t, f.space) || res["importedResources"] != 5.0 {
			t.Fatalf("import %v, head %s", res, f.Kit.Head(t, f.space))
		}
		lines, _, ix := f.pages(t, f.Kit.Head(t, f.space))
		if len(lines) != 5 || len(ix.Files()) != 1 || !strings.HasPrefix(lines[0], "docs ") {
			t.Errorf("pages %v, files %d", lines, len(ix.Files()))
		}
	})
}
