package readerhttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/galleydocs/galley/shared/reader"
	"github.com/galleydocs/galley/shared/testenv"
)

// mermaidAssets is the assets directory holding the pinned mermaid
// ($READER_ASSETS, else $GALLEY_CACHE/assets: go run ./functions/assets,
// which make test-deps runs), or t stops through testenv.Missing.
func mermaidAssets(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("READER_ASSETS")
	if dir == "" {
		dir = filepath.Join(testenv.CacheDir(), "assets")
	}
	if _, err := os.Stat(filepath.Join(dir, reader.MermaidDir, "mermaid.esm.min.mjs")); err != nil {
		testenv.Missing(t, "mermaid "+reader.MermaidVersion+" ("+dir+": run go run ./functions/assets -dir "+dir+")")
	}
	return dir
}

// A page with a Mermaid code block shows the diagram as an SVG drawn by
// the copy of mermaid the reader serves, under the page's policy (the
// tab fails on any violation), in light and dark, accessible; without
// JavaScript the source stays.
func TestBrowserDiagrams(t *testing.T) {
	dir := mermaidAssets(t)
	b := startBrowser(t)
	f, _ := diagramSite(t, dir)
	b.srv = httptest.NewServer(f.h)
	t.Cleanup(b.srv.Close)
	drawn := `(function(){var s=document.querySelector("figure.diagram-block .diagram svg");return !!s&&s.getBoundingClientRect().width>50&&!document.querySelector('figure[data-lang="mermaid"]')})()`

	t.Run("drawn", func(t *testing.T) {
		ctx := b.tab(t)
		b.open(t, ctx, f.base+"/flow")
		waitFor(t, ctx, drawn, "the diagram's SVG")
		text := eval[string](t, ctx, `document.querySelector("figure.diagram-block svg").textContent`)
		for _, want := range []string{"Start", "Ready?", "Ship", "Yes"} {
			if !strings.Contains(text, want) {
				t.Errorf("the diagram lacks %q: %q", want, text)
			}
		}
		// Only mermaid's entry and the chunks it needs, from the site (and
		// the page's own insights posts, to the site's ~gitbook/__evt).
		loaded := eval[[]string](t, ctx, `performance.getEntriesByType("resource").map(function(e){return e.name})`)
		for _, u := range loaded {
			if strings.HasSuffix(u, "/favicon.ico") || u == b.srv.URL+f.base+"/~gitbook/__evt" {
				continue // the browser's own request; insights
			}
			if !strings.HasPrefix(u, b.srv.URL+f.base+"/~assets/"+reader.MermaidDir+"/") {
				t.Errorf("the page loaded %s", u)
			}
		}
		t.Logf("mermaid: %d files, %d bytes transferred", len(loaded),
			eval[int](t, ctx, `performance.getEntriesByType("resource").reduce(function(n,e){return n+e.encodedBodySize},0)`))
		screenshot(t, ctx, "diagram-light.png")
		b.checkA11y(t, ctx, "diagram page, light")
	})

	t.Run("dark", func(t *testing.T) {
		ctx := b.tab(t)
		run(t, ctx, "dark", dark())
		b.open(t, ctx, f.base+"/flow")
		waitFor(t, ctx, drawn, "the diagram's SVG")
		screenshot(t, ctx, "diagram-dark.png")
		b.checkA11y(t, ctx, "diagram page, dark")
	})

	t.Run("a page without a diagram loads no mermaid", func(t *testing.T) {
		ctx := b.tab(t)
		b.open(t, ctx, f.base+"/")
		if n := eval[int](t, ctx, `performance.getEntriesByType("resource").length`); n != 0 {
			t.Errorf("the page loaded %d resources", n)
		}
	})

	t.Run("without JavaScript", func(t *testing.T) {
		ctx := b.tab(t)
		run(t, ctx, "disable scripts", command(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}))
		b.open(t, ctx, f.base+"/flow")
		src := eval[string](t, ctx, `document.querySelector('figure[data-lang="mermaid"] pre').textContent`)
		if !strings.Contains(src, "A[Start] --> B{Ready?}") || eval[bool](t, ctx, `!!document.querySelector("svg")`) {
			t.Errorf("without JavaScript: source %q, or a diagram drawn", src)
		}
	})
}

// An Arabic site space reads right to left: the document's direction,
// the page tree on the right of the content, the interface in Arabic, and
// no serious accessibility violation.
func TestBrowserRightToLeft(t *testing.T) {
	b := startBrowser(t)
	f := standardSite(t, nil)
	// The space's language (GitBook's Space.language): the customization's
	// locale has no right-to-left language in GitBook's list.
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, map[string]any{"language": "ar"})
	b.srv = httptest.NewServer(f.h)
	t.Cleanup(b.srv.Close)
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			ctx := b.themedTab(t, theme)
			b.open(t, ctx, f.base+"/blocks")
			if d := eval[string](t, ctx, `getComputedStyle(document.body).direction`); d != "rtl" {
				t.Errorf("computed direction %q, want rtl", d)
			}
			side := eval[[]float64](t, ctx, `(function(){var s=document.querySelector("nav.sidebar").getBoundingClientRect(),m=document.querySelector("main").getBoundingClientRect();return [s.left,s.right,m.left,m.right]})()`)
			if side[0] < side[3] {
				t.Errorf("the page tree (%v..%v) is not right of the content (%v..%v)", side[0], side[1], side[2], side[3])
			}
			// Nothing sticks out sideways (an element placed off screen
			// on the left widens a right-to-left page).
			if w := eval[[]int](t, ctx, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`); w[0] > w[1] {
				t.Errorf("the page is %d px wide in a %d px window", w[0], w[1])
			}
			if got := eval[string](t, ctx, `document.querySelector("form.search input").getAttribute("placeholder")`); got != "بحث" {
				t.Errorf("search box placeholder %q, want Arabic", got)
			}
			// Code stays left to right.
			if d := eval[string](t, ctx, `getComputedStyle(document.querySelector("figure.code pre")).direction`); d != "ltr" {
				t.Errorf("a code block's direction %q, want ltr", d)
			}
			screenshot(t, ctx, "rtl-"+theme+".png")
			b.checkA11y(t, ctx, "Arabic page, "+theme)
		})
	}
}

// The announcement banner and the page actions: "Copy page" puts the
// page's Markdown (its .md) on the clipboard, the links are there, and
// axe-core finds no serious or critical violation in light and dark.
func TestBrowserPageActions(t *testing.T) {
	b := startBrowser(t)
	f := standardSite(t, nil)
	f.customize(t, map[string]map[string]any{
		"announcement": {"enabled": true, "message": "Version 2 is out", "style": "warning",
			"link": map[string]any{"title": "Read the API", "to": map[string]any{"kind": "page", "page": f.pages["api"]}}},
		"pageActions": {"items": []any{"markdown", "external-ai"}},
	})
	b.srv = httptest.NewServer(f.h)
	t.Cleanup(b.srv.Close)
	md, _ := f.body(t, http.StatusOK, f.base+"/blocks.md")
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			ctx := b.themedTab(t, theme)
			b.open(t, ctx, f.base+"/blocks")
			for _, sel := range []string{"aside.announcement a", "nav.page-actions button.copy-page", `nav.page-actions a[type="text/markdown"]`, `nav.page-actions a[href^="https://claude.ai/"]`} {
				if !visible(t, ctx, sel) {
					t.Errorf("%s is not visible", sel)
				}
			}
			b.checkA11y(t, ctx, "page with an announcement and page actions, "+theme)
			if theme == "dark" {
				return
			}
			screenshot(t, ctx, "page-actions.png")
			b.grantClipboard(t, ctx)
			run(t, ctx, "click Copy page", chromedp.Click(chromedp.CSS(`button.copy-page`), chromedp.NodeVisible))
			waitFor(t, ctx, `document.querySelector("button.copy-page").textContent === "Copied"`, "Copy page to say Copied")
			if copied := eval[string](t, ctx, `navigator.clipboard.readText()`, chromedp.EvalAwaitPromise); copied != md {
				t.Errorf("copied %.200q, want the page's .md %.200q", copied, md)
			}
			follow(t, ctx, "aside.announcement a", "/reference/api", "API")
		})
	}
}

// themedTab is a tab (b.tab) in the light theme, or the dark one
// (prefers-color-scheme emulated) when theme is "dark".
func (b *browser) themedTab(t *testing.T, theme string) context.Context {
	t.Helper()
	ctx := b.tab(t)
	if theme == "dark" {
		run(t, ctx, "dark", dark())
	}
	return ctx
}

// The theme toggle: the visitor's choice shows at once, stays after a
// reload (localStorage, no cookie), wins over the system's theme both
// ways, and "System" follows the system again; axe-core passes with dark
// chosen.
func TestBrowserThemeToggle(t *testing.T) {
	b := startBrowser(t)
	f := standardSite(t, nil)
	b.srv = httptest.NewServer(f.h)
	t.Cleanup(b.srv.Close)
	bg := func(t *testing.T, ctx context.Context) float64 {
		return luminance(t, eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`))
	}
	choose := func(t *testing.T, ctx context.Context, v string) {
		t.Helper()
		run(t, ctx, "choose "+v, chromedp.SetValue(chromedp.CSS("select.theme-choice"), v),
			chromedp.Evaluate[chromedp.Void](`document.querySelector("select.theme-choice").dispatchEvent(new Event("change"))`))
	}
	ctx := b.tab(t)
	b.open(t, ctx, f.base+"/blocks")
	if !visible(t, ctx, "select.theme-choice") || bg(t, ctx) < 0.5 {
		t.Fatal("a light system: no theme menu, or not light")
	}
	choose(t, ctx, "dark")
	if l := bg(t, ctx); l > 0.1 {
		t.Errorf("dark chosen: background luminance %.2f", l)
	}
	b.open(t, ctx, f.base+"/blocks/child-page")
	if l := bg(t, ctx); l > 0.1 || eval[string](t, ctx, `document.querySelector("select.theme-choice").value`) != "dark" {
		t.Errorf("after a reload: luminance %.2f, the menu says %q", l, eval[string](t, ctx, `document.querySelector("select.theme-choice").value`))
	}
	if c := eval[string](t, ctx, `document.cookie`); c != "" {
		t.Errorf("the choice left cookies %q", c)
	}
	b.checkA11y(t, ctx, "dark chosen in a light system")
	// In a dark system, light chosen is light; System is dark again.
	run(t, ctx, "dark system", dark())
	choose(t, ctx, "light")
	if l := bg(t, ctx); l < 0.5 {
		t.Errorf("light chosen in a dark system: luminance %.2f", l)
	}
	b.checkA11y(t, ctx, "light chosen in a dark system")
	choose(t, ctx, "system")
	if l := bg(t, ctx); l > 0.1 {
		t.Errorf("System in a dark system: luminance %.2f", l)
	}
}
