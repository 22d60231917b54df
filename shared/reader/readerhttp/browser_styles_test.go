package readerhttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The sidebar's styles and the depth (styling.sidebar, styling.depth)
// apply in the browser: a filled page tree has a background, the current
// page is a pill of the primary colour or a line's coloured part (on its
// right in a right-to-left space), flat lies the results' list flat; and
// axe-core finds no serious or critical violation in light and dark.
// Each settings' pages are other pages of the site: the browser keeps a
// page a minute (Cache-Control).
func TestBrowserSidebarStyles(t *testing.T) {
	b := startBrowser(t)
	f := standardSite(t, nil)
	b.srv = httptest.NewServer(f.h)
	t.Cleanup(b.srv.Close)
	current := `document.querySelector('nav.sidebar a[aria-current="page"]')`
	style := func(t *testing.T, ctx context.Context, el, prop string) string {
		t.Helper()
		return eval[string](t, ctx, `getComputedStyle(`+el+`).`+prop)
	}
	// The results' list is made by the script on the first answer: one
	// is made here, as the script makes it, to read its style.
	popShadow := func(t *testing.T, ctx context.Context) string {
		t.Helper()
		return eval[string](t, ctx, `(function(){var d=document.createElement("div");d.className="search-pop";document.querySelector("form.search").appendChild(d);var s=getComputedStyle(d).boxShadow;d.remove();return s})()`)
	}
	ctx := b.tab(t)
	b.open(t, ctx, f.base+"/blocks")
	if bg := style(t, ctx, "document.querySelector('nav.sidebar')", "backgroundColor"); bg != "rgba(0, 0, 0, 0)" {
		t.Errorf("default sidebar background %s, want none", bg)
	}
	if s := popShadow(t, ctx); s == "none" {
		t.Error("default (subtle) depth: the results' list has no shadow")
	}
	defaultCurrent := style(t, ctx, current, "backgroundColor")

	styled := func(bg, list, depth string) {
		t.Helper()
		f.customize(t, map[string]map[string]any{"styling": {"sidebar": map[string]any{"background": bg, "list": list}, "depth": depth}})
	}
	styled("filled", "pill", "flat")
	for _, theme := range []string{"light", "dark"} {
		t.Run("filled pill flat "+theme, func(t *testing.T) {
			ctx := b.themedTab(t, theme)
			b.open(t, ctx, f.base+"/blocks/child-page")
			if bg := style(t, ctx, "document.querySelector('nav.sidebar')", "backgroundColor"); bg == "rgba(0, 0, 0, 0)" {
				t.Error("filled: the page tree has no background")
			}
			cur, page := style(t, ctx, current, "backgroundColor"), style(t, ctx, "document.body", "backgroundColor")
			if cur == defaultCurrent || cur == page || style(t, ctx, current, "color") != page {
				t.Errorf("pill: the current page's background %s (default %s), its text %s, the page %s", cur, defaultCurrent, style(t, ctx, current, "color"), page)
			}
			if r := eval[float64](t, ctx, `parseFloat(getComputedStyle(`+current+`).borderTopLeftRadius)`); r < 100 {
				t.Errorf("pill: corner radius %.0f px", r)
			}
			if s := popShadow(t, ctx); s != "none" {
				t.Errorf("flat: the results' list has the shadow %s", s)
			}
			screenshot(t, ctx, "sidebar-pill-"+theme+".png")
			b.checkA11y(t, ctx, "filled sidebar, pill list, flat, "+theme)
		})
	}
	styled("default", "line", "subtle")
	for _, theme := range []string{"light", "dark"} {
		t.Run("line "+theme, func(t *testing.T) {
			ctx := b.themedTab(t, theme)
			b.open(t, ctx, f.base+"/reference/api")
			if w := style(t, ctx, current, "borderLeftWidth"); w != "2px" {
				t.Errorf("line: the current page's line is %s wide", w)
			}
			if c, line := style(t, ctx, current, "borderLeftColor"), style(t, ctx, "document.querySelector('nav.sidebar ul')", "borderLeftColor"); c == line || c == "rgba(0, 0, 0, 0)" {
				t.Errorf("line: the current page's part %s, the line %s", c, line)
			}
			screenshot(t, ctx, "sidebar-line-"+theme+".png")
			b.checkA11y(t, ctx, "line list, "+theme)
		})
	}
	// Right to left: the line is on the items' right.
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, map[string]any{"language": "ar"})
	ctx = b.tab(t)
	b.open(t, ctx, f.base+"/")
	if r, l := style(t, ctx, current, "borderRightWidth"), style(t, ctx, current, "borderLeftWidth"); r != "2px" || l != "0px" {
		t.Errorf("right to left: the current page's borders right %s, left %s", r, l)
	}
	b.checkA11y(t, ctx, "line list, right to left")
}
