package imports_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/imports"
	"github.com/galleydocs/galley/shared/testenv"
)

// Real Sphinx sites, as Debian installs them (infra/debian/install.sh).
const (
	flaskDocs  = "/usr/share/doc/python-flask-doc/html"
	python3Doc = "/usr/share/doc/python3.11/html"
)

// sphinxSite serves an installed Sphinx site's HTML on loopback, as a web
// server would, and tells which HTML pages it served.
func sphinxSite(t *testing.T, dir, pkg string) (*httptest.Server, func() []string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		testenv.Missing(t, "the HTML documentation of Debian package "+pkg+" ("+dir+"; make test-deps installs it: infra/debian/install.sh)")
	}
	var mu sync.Mutex
	served := map[string]bool{}
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		if path.Ext(p) == ".html" {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err == nil {
				mu.Lock()
				served[p] = true
				mu.Unlock()
			}
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		var out []string
		for p := range served {
			out = append(out, p)
		}
		sort.Strings(out)
		return out
	}
}

// Sphinx writes every code block as <div class="highlight-LANG
// notranslate"><div class="highlight"><pre>: the wrapper declares the
// block's language (its own, the page's ".. highlight::" or the project's
// highlight_language, "default" when the project sets none).
var (
	reSphinxBlock = regexp.MustCompile(`<div class="[^"]*\bhighlight-[a-z0-9_+-]+[^"]*"[^>]*><div class="highlight"><pre`)
	rePre         = regexp.MustCompile(`<pre[ >]`)
)

// fences are the languages of a markdown body's fenced code blocks, ""
// for a fence without one.
func fences(md string) []string {
	var out []string
	open := ""
	for _, line := range strings.Split(md, "\n") {
		l := strings.TrimLeft(line, " >") // in lists and block quotes too
		run := len(l) - len(strings.TrimLeft(l, "`"))
		if run < 3 {
			continue
		}
		if open == "" {
			open = l[:run]
			out = append(out, strings.TrimSpace(l[run:]))
		} else if run >= len(open) && strings.TrimSpace(l[run:]) == "" {
			open = ""
		}
	}
	return out
}

// checkCodeLanguages compares the code blocks of an imported Sphinx
// site's pages (files, under dir) with the fences of the imported
// markdown (bodies): as many, and a language on every one whose source
// declares one; none of the names left as Sphinx writes them where
// GitBook and Galley's reader know another.
func checkCodeLanguages(t *testing.T, dir string, files []string, bodies map[string]string) {
	t.Helper()
	blocks, declared := 0, 0
	for _, p := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		blocks += len(rePre.FindAll(data, -1))
		declared += len(reSphinxBlock.FindAll(data, -1))
	}
	kept, total := 0, 0
	langs := map[string]int{}
	for _, b := range bodies {
		for _, l := range fences(b) {
			total++
			langs[l]++
			if l != "" {
				kept++
			}
		}
	}
	t.Logf("%d pages, %d imported; %d code blocks, %d declaring a language; %d fences, %d with a language: %v",
		len(files), len(bodies), blocks, declared, total, kept, langs)
	if declared == 0 || total != blocks || kept != declared {
		t.Errorf("%d code blocks (%d declaring a language) became %d fences, %d with a language", blocks, declared, total, kept)
	}
	for _, raw := range []string{"default", "none", "python3", "pycon", "pytb", "console", "html+jinja"} {
		if langs[raw] > 0 {
			t.Errorf("%d fences of language %q", langs[raw], raw)
		}
	}
}

// Importing the Flask documentation (Debian's python-flask-doc, Sphinx)
// keeps a language on every code block whose source declares one: those
// in the project's default language (highlight-default) are python, or
// text where Sphinx found they were not Python.
func TestFlaskDocsKeepTheirCodeLanguages(t *testing.T) {
	f := setup(t)
	srv, served := sphinxSite(t, flaskDocs, "python-flask-doc")
	res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/", "website")
	_, bodies, _ := f.pages(t, res["revision"].(string))
	if len(bodies) != len(served()) {
		t.Errorf("%d pages imported, %d read", len(bodies), len(served()))
	}
	checkCodeLanguages(t, flaskDocs, served(), bodies)
	quickstart := ""
	for p, b := range bodies {
		if strings.HasSuffix(p, "quickstart") {
			quickstart = b
		}
	}
	checkBody(t, "quickstart", quickstart, []string{
		"```python\nfrom flask import Flask\n\napp = Flask(__name__)\n", // highlight-default
		"```text\n$ flask run --host=0.0.0.0\n```",                      // highlight-default, not Python
		"```django\n<!doctype html>\n<title>Hello from Flask</title>",   // highlight-html+jinja
	}, nil)
}

// Sphinx's code block languages, named as GitBook and the reader know
// them: highlight-default is python when Pygments coloured the block,
// text when Sphinx left it plain (it did not lex as Python). docutils'
// sidebars (an info hint) and footnotes (asides) are kept.
func TestSphinxCodeLanguagesSidebarsAndFootnotes(t *testing.T) {
	f := setup(t)
	block := func(lang, code string) string {
		return `<div class="highlight-` + lang + ` notranslate"><div class="highlight"><pre><span></span>` + code + "\n</pre></div></div>\n"
	}
	body := block("default", `<span class="n">app</span><span class="o">.</span><span class="n">run</span><span class="p">()</span>`) +
		block("default", `$ flask run`) +
		block("none", `plain`) +
		block("text", `text`) +
		block("pycon", `<span class="gp">&gt;&gt;&gt; </span><span class="mi">1</span>`) +
		block("pytb", `<span class="gt">Traceback</span>`) +
		block("html+jinja", `<span class="cp">{{</span>`) +
		block("console", `<span class="gp">$ </span>ls`) +
		block("c", `<span class="kt">int</span>`) +
		block("guess", `guessed`) +
		"<pre>bare</pre>" +
		`<aside class="sidebar"><p class="sidebar-title">Hello</p><p>Side text.</p></aside>` +
		`<aside class="footnote-list brackets"><aside class="footnote brackets" id="f1" role="note"><span class="label">[1]</span><p>Foot text.</p></aside></aside>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<html><head><title>Code</title></head><body><div class="body" role="main"><h1>Code</h1>%s</div></body></html>`, body)
	}))
	defer srv.Close()
	_, md := importPage(t, f, srv.URL+"/code.html")
	got := strings.Join(fences(md), ",")
	if want := "python,text,text,text,python,python,django,shell-session,c,,"; got != want {
		t.Errorf("languages %q, want %q:\n%s", got, want, md)
	}
	checkBody(t, "code", md, []string{"{% hint style=\"info\" %}\n**Hello**\n\nSide text.\n{% endhint %}", "Foot text."}, nil)
}

// The website import of the Python 3.11 documentation (Debian's
// python3.11-doc, Sphinx, 530 HTML pages) completes with its pages, with
// the default page and depth bounds (a longer fetching budget, so that a
// busy machine does not cut the crawl): Sphinx's generated index and
// search pages are left out unread, a page too large is left out, and the
// answer lists both.
func TestPythonDocsImportWhole(t *testing.T) {
	f := setup(t)
	srv, served := sphinxSite(t, python3Doc, "python3.11-doc")
	f.use(t, imports.Config{Budget: 10 * time.Minute})
	start := time.Now()
	res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/", "website")
	took := time.Since(start)
	reasons := map[string][]string{}
	for _, s := range skippedOf(t, res, srv.URL) {
		p, reason, _ := strings.Cut(s, " ")
		reasons[reason] = append(reasons[reason], p)
	}
	t.Logf("import in %s: %v imported of %v found, %v skipped: %v; %d HTML pages read",
		took.Round(time.Millisecond), res["importedResources"], res["totalResources"], res["skippedResources"], reasons, len(served()))
	// Left out: the index and search pages Sphinx generates, unread; the
	// full table of contents (contents.html, 2.6 MB); the changelog,
	// which Debian leaves out (a broken link).
	if got := strings.Join(reasons[imports.SkipGenerated], " "); got != "/genindex.html /py-modindex.html /search.html" {
		t.Errorf("generated pages left out: %s", got)
	}
	if got := strings.Join(reasons[imports.SkipTooLarge], " "); got != "/contents.html" {
		t.Errorf("pages too large: %s", got)
	}
	var imported []string
	for _, p := range served() {
		if strings.Contains(p, "genindex") || strings.Contains(p, "modindex") || p == "/search.html" {
			t.Errorf("%s was read", p)
		}
		if !slices.Contains(reasons[imports.SkipTooLarge], p) {
			imported = append(imported, p)
		}
	}
	// Every other page linked from the site is imported: 493 of its 530
	// HTML files (4 are linked from no page).
	_, bodies, _ := f.pages(t, res["revision"].(string))
	if res["importedResources"] != float64(len(imported)) || len(bodies) != len(imported) || len(imported) < 490 {
		t.Errorf("%v imported, %d pages, %d pages read and not left out", res["importedResources"], len(bodies), len(imported))
	}
	checkCodeLanguages(t, python3Doc, imported, bodies)
}

// On a Sphinx site (Sphinx 7 and older heads), the pages Sphinx generates
// (general index and its letters, domain indices, search page, viewcode's
// sources; both builders' URLs) are left out unread and listed; on
// another site pages of those names are pages like any other.
func TestSphinxGeneratedPagesAreLeftOut(t *testing.T) {
	f := setup(t)
	heads := map[string]string{
		"new": `<script src="_static/documentation_options.js?v=5929fcd5"></script>`,
		"old": `<script id="documentation_options" data-url_root="./" src="_static/documentation_options.js"></script>`,
		"not": `<script src="/app.js"></script>`,
	}
	names := []string{"genindex.html", "genindex-A.html", "genindex-all.html", "py-modindex.html", "c-modindex.html",
		"search.html", "_modules/widget.html", "modindex/", "api.html"}
	var mu sync.Mutex
	var read []string
	reads := func() string {
		mu.Lock()
		defer mu.Unlock()
		out := strings.Join(read, " ")
		read = nil
		return out
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		site, page, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		if page != "index.html" && !slices.Contains(names, page) {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		read = append(read, page)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<html><head><title>%s</title>%s</head><body><div class="body" role="main"><h1>%s</h1><p>`, page, heads[site], page)
		for _, n := range names {
			fmt.Fprintf(w, `<a href="/%s/%s">%s</a> `, site, n, n)
		}
		fmt.Fprint(w, `</p></div></body></html>`)
	}))
	defer srv.Close()
	for _, site := range []string{"new", "old"} {
		res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/"+site+"/index.html", "website")
		want := "genindex.html generated|genindex-A.html generated|genindex-all.html generated|py-modindex.html generated|" +
			"c-modindex.html generated|search.html generated|_modules/widget.html generated|modindex/ generated"
		if got := strings.Join(skippedOf(t, res, srv.URL+"/"+site+"/"), "|"); got != want {
			t.Errorf("%s: skipped %q\nwant %q", site, got, want)
		}
		if got := reads(); got != "index.html api.html" || res["importedResources"] != 2.0 || res["totalResources"] != 10.0 {
			t.Errorf("%s: read %s; %v", site, got, res)
		}
	}
	res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/not/index.html", "website")
	if res["importedResources"] != 10.0 || len(skippedOf(t, res, srv.URL)) != 0 {
		t.Errorf("not Sphinx: %v", res)
	}
}
