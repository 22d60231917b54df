package imports_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/importsroot"
	"github.com/galleydocs/galley/shared/imports"
)

// generatorSite serves pages as Sphinx (Alabaster), MkDocs Material and
// Docusaurus write them (testdata).
func generatorSite(t *testing.T) *httptest.Server {
	t.Helper()
	files := map[string]string{
		"/sphinx/quickstart.html": "testdata/sphinx-quickstart.html",
		"/gadget/configuration/":  "testdata/mkdocs-configuration.html",
		"/sprocket/docs/intro":    "testdata/docusaurus-intro.html",
	}
	// A hand-written page: <pre><code class="language-x">, VitePress's
	// header anchors, a table without a header section.
	plain := `<!doctype html><html><head><title>Plain page</title></head><body>
<div class="VPNav"><nav><a href="/">Home</a></nav></div>
<div class="content"><article>
<h1 id="plain-page" tabindex="-1">Plain page <a class="header-anchor" href="#plain-page" aria-label="Permalink to &quot;Plain page&quot;">&#8203;</a></h1>
<h2 id="usage">Usage from C# <a href="#usage">#</a></h2>
<pre><code class="language-go">fmt.Println("a | b")
</code></pre>
<table><tr><td>Key</td><td>Value</td></tr><tr><td>x</td><td>1 | 2</td></tr></table>
</article></div>
<div class="VPDocFooter"><a class="edit-link" href="https://github.com/x/edit">Edit this page on GitHub</a></div>
</body></html>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/plain" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(plain))
			return
		}
		name, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		data, err := os.ReadFile(name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// importPage imports one page of the generators' site and answers its
// "path title" line and its body.
func importPage(t *testing.T, f *fixture, url string) (string, string) {
	t.Helper()
	res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", url, "html")
	lines, bodies, _ := f.pages(t, res["revision"].(string))
	last := lines[len(lines)-1]
	return last, bodies[strings.SplitN(last, " ", 2)[0]]
}

// checkBody fails for each text wanted missing from a body and each text
// unwanted in it.
func checkBody(t *testing.T, name, body string, want, unwanted []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("%s lacks %q:\n%s", name, w, body)
		}
	}
	for _, u := range unwanted {
		if strings.Contains(body, u) {
			t.Errorf("%s holds %q:\n%s", name, u, body)
		}
	}
}

// Pages as the generators write them read like their sources: what the
// page says is kept, as GitBook's markdown, and the generator's chrome
// (navigation, permalinks, copy buttons, footers) is left out.
func TestGeneratorPagesReadLikeTheirSource(t *testing.T) {
	cases := []struct {
		name, path, line string
		want, unwanted   []string
	}{
		// Sphinx (Alabaster): headerlinks, highlight-<lang> divs (one with a
		// line number table), admonitions (a custom title kept), a docutils
		// table with a pipe in a cell, the related bar, sidebar, search box
		// and footer.
		{"sphinx", "/sphinx/quickstart.html", "quickstart Quickstart", []string{
			"Install the `widget` package, then read the [API reference](<site>/sphinx/api.html).",
			"{% hint style=\"info\" %}\nWidget needs Python 3.9 or later.\n{% endhint %}",
			"\n## Installing\n",
			"```python\nimport widget\nwidget.run()\n```",
			"```shell-session\n$ pip install widget\n$ widget --version\n```",
			"{% hint style=\"warning\" %}\nDeprecated since version 2.0: The `--legacy` flag.\n{% endhint %}",
			"{% hint style=\"warning\" %}\nDo not run it as root.\n{% endhint %}",
			"{% hint style=\"info\" %}\n**Beware of dragons**\n\nThey bite.\n{% endhint %}",
			"{% hint style=\"info\" %}\n[The Widget book](https://example.com/widget-book)\n{% endhint %}",
			"\n## Options\n",
			"| Option | Meaning |\n|---|---|\n| `--fast` | Skip the checks |\n| `--mode` | Either a \\| b |\n| `--log` | Where logs go:<br>• `stderr` (the default)<br>• a file |\n| `--retry` | (1) wait<br>(2) try again |",
		}, []string{
			"¶", "Note", "Warning", "See also", "Navigation", "Related Topics", "Quick search", "Previous:", "General Index",
			"Widget 2.1 documentation", "Powered by", "Page source", "©", "searchbox", "1\n2",
		}},
		// MkDocs Material: headerlinks (¶ and #), "language-x highlight" divs
		// (one with a line number table and a file name), admonitions and a
		// collapsible one, a plain <details> (an expandable), a table, the
		// header, both sidebars, the edit button, the feedback form, the
		// source file facts and the footer.
		{"mkdocs", "/gadget/configuration/", "configuration Configuration", []string{
			"Gadget reads `gadget.yml`.",
			"{% hint style=\"success\" %}\nStart from the example below.\n{% endhint %}",
			"```yaml\nname: gadget\nport: 8080\n```",
			"\n## Settings\n",
			"| Setting | Default |\n|---|---|\n| `port` | 8080 |\n| `name` | none |",
			"{% hint style=\"warning\" %}\nPorts below 1024 need root.\n{% endhint %}",
			"<details>\n\n<summary>Full example</summary>\n\nEvery setting, with its default.\n\n</details>",
			"{% hint style=\"danger\" %}\n**Breaking change in 2.0**\n\nThe `host` setting is gone.\n{% endhint %}",
			"```python\nimport gadget\ngadget.serve()\n```",
		}, []string{
			"¶", "Settings#", "Tip", "Warning", "Gadget Docs", "Skip to content", "Table of contents", "Home", "Edit this page",
			"Was this page helpful", "Last update", "March 3, 2024", "Back to top", "Previous", "Made with", "1\n2",
		}},
		// Docusaurus 3: the title in the doc's header, hash-links, Prism code
		// blocks (one with line numbers) and their copy buttons, theme
		// admonitions (a custom title kept), a table, the navbar, the
		// sidebar, breadcrumbs, the mobile and desktop tables of contents,
		// "edit this page", the pagination and the footer.
		{"docusaurus", "/sprocket/docs/intro", "intro Getting started", []string{
			"Sprocket turns gears.",
			"{% hint style=\"info\" %}\nSprocket 3 needs Node 18.\n{% endhint %}",
			"\n## Install\n",
			"```bash\nnpm install sprocket\nnpx sprocket init\n```",
			"```js\nexport default { teeth: 12 };\n// spin it\n```",
			"{% hint style=\"danger\" %}\n**Take care**\n\nNever oil a running sprocket.\n{% endhint %}",
			"| Flag | Effect |\n|---|---|\n| `--fast` | Spin faster |",
		}, []string{
			"\u200b", "Getting started", "Skip to main content", "Tutorial", "Configuration", "Next", "Edit this page",
			"On this page", "Copy", "Copyright", "info\n", "Install\n\n- ", "1export", "2//",
		}},
		// A hand-written page: its <article>, a <pre><code class="language-x">
		// block, permalinks without a class, a table without a header
		// section (its first row is the header).
		{"plain", "/plain", "plain Plain page", []string{
			"## Usage from C\\#\n", // the title's "#", escaped as markdown wants it
			"```go\nfmt.Println(\"a | b\")\n```",
			"| Key | Value |\n|---|---|\n| x | 1 \\| 2 |",
		}, []string{" #\n", "\u200b", "Home", "Edit this page"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := setup(t)
			srv := generatorSite(t)
			line, body := importPage(t, f, srv.URL+tc.path)
			if line != tc.line {
				t.Errorf("page %q, want %s", line, tc.line)
			}
			for i, w := range tc.want {
				tc.want[i] = strings.ReplaceAll(w, "<site>", srv.URL)
			}
			checkBody(t, tc.name, body, tc.want, tc.unwanted)
		})
	}
}

// use makes the fixture's API answer with an imports service bounded by c.
func (f *fixture) use(t *testing.T, c imports.Config) {
	f.API.API = f.Serve(t, []string{"imports"}, func(r *app.Root) {
		f.svc = app.Service(r, func() *imports.Service { return imports.NewWithConfig(r.Deps, importsroot.Needs(r), c) })
	})
}

// manyPages serves a site whose home links to n pages.
func manyPages(t *testing.T, n int) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/" {
			fmt.Fprint(w, "<html><body><main><h1>Home</h1><ul>")
			for i := 1; i <= n; i++ {
				fmt.Fprintf(w, `<li><a href="/p%d">Page %d</a></li>`, i, i)
			}
			fmt.Fprint(w, "</ul></main></body></html>")
			return
		}
		fmt.Fprintf(w, "<html><body><main><h1>Page %s</h1><p>Text.</p></main></body></html>", strings.TrimPrefix(r.URL.Path, "/p"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The default page limit is 500 (a site of 80 pages imports whole), a
// configured one bounds the crawl, and totalResources counts what was
// found beyond it.
func TestPageLimitAndTotalResources(t *testing.T) {
	f := setup(t)
	if f.svc.Pages != imports.MaxPages || imports.MaxPages != 500 {
		t.Fatalf("default page limit %d, MaxPages %d; want 500", f.svc.Pages, imports.MaxPages)
	}
	srv := manyPages(t, 80)
	res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/", "website")
	if res["importedResources"] != 81.0 || res["totalResources"] != 81.0 {
		t.Errorf("default limit: %v, want 81 of 81", res)
	}
	f.use(t, imports.Config{Pages: 10})
	res = f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/", "website")
	if res["importedResources"] != 10.0 || res["totalResources"] != 81.0 {
		t.Errorf("limit 10: %v, want 10 imported of 81 found", res)
	}
	lines, _, _ := f.pages(t, res["revision"].(string))
	if got := lines[len(lines)-10:]; got[0] != "home-2 Home" || got[9] != "home-2/p9 Page 9" {
		t.Errorf("pages of the bounded import %v", got)
	}
}

// A zip above the former 20 MB bound imports; one above MaxArchiveBytes
// answers 413.
func TestLargeZip(t *testing.T) {
	f := setup(t)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("docs/README.md")
	w.Write([]byte("# Big\n\nA large archive.\n"))
	w, _ = zw.CreateHeader(&zip.FileHeader{Name: "docs/data/blob.bin", Method: zip.Store})
	rng := rand.NewChaCha8([32]byte{1})
	io.CopyN(w, rng, 24<<20) // incompressible: the archive is over 24 MB
	zw.Close()
	big := buf.Bytes()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/too-large.zip" {
			io.CopyN(w, zeros{}, imports.MaxArchiveBytes+1)
			return
		}
		w.Write(big)
	}))
	defer srv.Close()
	if len(big) <= 20<<20 {
		t.Fatalf("archive of %d bytes", len(big))
	}
	res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/big.zip", "zip")
	lines, bodies, _ := f.pages(t, res["revision"].(string))
	if strings.Join(lines, "|") != "big Big" || bodies["big"] != "A large archive.\n" {
		t.Errorf("large zip: %v %v (%v)", lines, bodies, res)
	}
	r := f.As(t, "edit").Expect(http.StatusRequestEntityTooLarge, "POST", "/v1/spaces/"+f.space+"/content/import",
		map[string]any{"url": srv.URL + "/too-large.zip", "source": "zip"})
	if !strings.Contains(string(r.Body), "too large") {
		t.Errorf("too large a zip: %s", r.Body)
	}
}

// A zip of more pages than MaxArchivePages (the default bound: the import
// answers within the request) answers 413 with the count and the way to
// import it, and changes nothing; one of MaxArchivePages imports whole.
func TestZipOfTooManyPages(t *testing.T) {
	f := setup(t)
	over, at := zipOfPages(t, imports.MaxArchivePages+1), zipOfPages(t, imports.MaxArchivePages)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/over.zip" {
			w.Write(over)
			return
		}
		w.Write(at)
	}))
	defer srv.Close()
	path := "/v1/spaces/" + f.space + "/content/import"
	head := f.Kit.Head(t, f.space)
	r := f.As(t, "edit").Expect(http.StatusRequestEntityTooLarge, "POST", path, map[string]any{"url": srv.URL + "/over.zip", "source": "zip"})
	if want := fmt.Sprintf("the archive has %d pages", imports.MaxArchivePages+1); !strings.Contains(string(r.Body), want) || !strings.Contains(string(r.Body), "Git Sync") {
		t.Errorf("too many pages: %s", r.Body)
	}
	if now := f.Kit.Head(t, f.space); now != head {
		t.Errorf("a refused import changed the space's revision: %v, then %v", head, now)
	}
	res := f.importInto(t, path, srv.URL+"/at.zip", "zip")
	if res["importedResources"] != float64(imports.MaxArchivePages) {
		t.Errorf("an archive of %d pages: %v", imports.MaxArchivePages, res)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
