package readerhttp_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// customize sets the site's customization: the current settings with
// changes (each a top-level section, merged member by member).
func (f *fixture) customize(t testing.TB, changes map[string]map[string]any) {
	t.Helper()
	c := f.As(t, "admin")
	cur := c.Expect(http.StatusOK, "GET", f.sitePth+"/customization", nil).Map(t)
	delete(cur, "updatedAt")
	for section, members := range changes {
		m, _ := cur[section].(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		for k, v := range members {
			m[k] = v
		}
		cur[section] = m
	}
	c.Expect(http.StatusOK, "PUT", f.sitePth+"/customization", cur)
}

// siteCustomization are settings with header links of each style and
// kind of target (a URL, a page, a space in a menu), two with a
// condition, one with an unsafe URL; footer groups, copyright and logo;
// a font, straight corners, accent links, external links in new tabs, and
// French.
func siteCustomization(f *fixture) map[string]map[string]any {
	url := func(u string) map[string]any { return map[string]any{"kind": "url", "url": u} }
	return map[string]map[string]any{
		"header": {"links": []any{
			map[string]any{"title": "Website", "style": "link", "to": url("https://example.com/home"), "links": []any{}},
			map[string]any{"title": "API", "style": "button-primary", "to": map[string]any{"kind": "page", "page": f.pages["api"]}, "links": []any{}},
			map[string]any{"title": "More", "style": "button-secondary", "to": nil, "links": []any{
				map[string]any{"title": "Guide home", "to": map[string]any{"kind": "space", "space": f.space}},
				map[string]any{"title": "Status", "to": url("https://status.example.com")}}},
			map[string]any{"title": "Beta programme", "to": url("https://beta.example.com"), "links": []any{}, "condition": "visitor.claims.isBeta === true"},
			map[string]any{"title": "Everyone", "to": url("https://all.example.com"), "links": []any{}, "condition": "!visitor.claims.isBeta",
				"localizedTitle": map[string]any{"fr": "Pour tous"}},
			map[string]any{"title": "Sneaky", "to": url("javascript:alert(1)"), "links": []any{}},
		}},
		"footer": {
			"groups": []any{map[string]any{"title": "Company", "links": []any{
				map[string]any{"title": "About us", "to": url("https://example.com/about")},
				map[string]any{"title": "Start here", "to": map[string]any{"kind": "page", "page": f.pages["intro"]}}}}},
			"copyright": "© 2026 Acme Corp",
			"logo":      map[string]any{"light": "https://example.com/footer.png", "dark": "https://example.com/footer-dark.png"},
		},
		"styling":              {"font": "Merriweather", "corners": "straight", "links": "accent"},
		"externalLinks":        {"target": "blank"},
		"internationalization": {"locale": "fr"},
	}
}

// TestCustomizationRendered: the header's links (styles, menus, targets
// resolved to published URLs, conditions for the visitor), the footer,
// the font, corners, links' style, external links' target and the
// interface's language follow the site's settings.
func TestCustomizationRendered(t *testing.T) {
	f := standardSite(t, nil)
	before, _ := f.body(t, http.StatusOK, f.base+"/blocks")
	testkit.Contains(t, "default page", before, `placeholder="Search"`, "<small>Previous</small>", "On this page", `<a href="https://example.com">link</a>`)
	testkit.Lacks(t, "default page", before, `class="header-links"`, `class="footer-groups"`, "font-family:Merriweather", "--radius:0")

	f.customize(t, siteCustomization(f))
	html, _ := f.body(t, http.StatusOK, f.base+"/blocks")
	header := between(html, `<nav class="header-links"`, "</nav>")
	testkit.Contains(t, "header links", header,
		`<a class="hl-link" href="https://example.com/home" target="_blank" rel="noopener">Website</a>`,
		`<a class="hl-button-primary" href="`+f.base+`/reference/api">API</a>`,
		`<details class="menu"><summary class="hl-button-secondary">More</summary><ul><li><a class="hl-link" href="`+f.base+`/">Guide home</a></li>`,
		`<a class="hl-link" href="https://status.example.com" target="_blank" rel="noopener">Status</a>`,
		`>Pour tous</a>`)
	testkit.Lacks(t, "header links", header, "Beta programme", "Sneaky", "javascript")
	footer := between(html, `<footer class="site-footer">`, "</footer>")
	testkit.Contains(t, "footer", footer, `<nav aria-label="Company"><h2>Company</h2>`,
		`<a class="hl-link" href="https://example.com/about" target="_blank" rel="noopener">About us</a>`,
		`<a class="hl-link" href="`+f.base+`/">Start here</a>`, `<p class="copyright">© 2026 Acme Corp</p>`,
		`<img class="footer-logo logo-light" src="https://example.com/footer.png" alt="">`,
		`<img class="footer-logo logo-dark" src="https://example.com/footer-dark.png" alt="">`)
	testkit.Contains(t, "styles", html, `body{font-family:Merriweather,Georgia,`, `:root{--radius:0;`, `article a,.header-links a.hl-link,.site-footer a{color:var(--fg);text-decoration-color:var(--primary)}`)
	// External links of the content open in a new tab, the site's own don't.
	testkit.Contains(t, "content links", html, `<a href="https://example.com" target="_blank" rel="noopener">link</a>`, `<a href="`+f.base+`/">page link</a>`)
	// French interface.
	testkit.Contains(t, "French", html, `<html lang="fr">`, `aria-label="Rechercher dans ce site" placeholder="Rechercher"`, "<small>Précédent</small>",
		"<small>Suivant</small>", `<h2 id="outline-title">Sur cette page</h2>`, `<summary aria-controls="pages">Menu</summary>`, "Aller au contenu")
	testkit.Lacks(t, "French", html, "On this page", "<small>Previous</small>")

	// Circular corners, another font, Japanese; unknown locales read English.
	f.customize(t, map[string]map[string]any{"styling": {"corners": "circular", "font": "Inter"}, "internationalization": {"locale": "ja"}})
	html, _ = f.body(t, http.StatusOK, f.base+"/")
	testkit.Contains(t, "Japanese", html, `--button-radius:999px`, `body{font-family:Inter,system-ui`, "<small>次へ</small>", "メニュー", "本文へスキップ")
	f.customize(t, map[string]map[string]any{"internationalization": {"locale": "nl"}})
	html, _ = f.body(t, http.StatusOK, f.base+"/")
	testkit.Contains(t, "Dutch (English strings)", html, `<html lang="nl">`, "<small>Next</small>", `data-copy="Copy" data-copied="Copied"`)
	// The space's language comes before the site's locale; without it,
	// the locale again.
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, map[string]any{"language": "de"})
	html, _ = f.body(t, http.StatusOK, f.base+"/")
	testkit.Contains(t, "German space", html, `<html lang="de">`, "<small>Weiter</small>")
	testkit.Lacks(t, "German space", html, `<html lang="nl">`)
	// Arabic and Hebrew spaces read right to left, in their words; the
	// scripts' words are their elements' (copy buttons, results as you
	// type).
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, map[string]any{"language": "ar"})
	html, _ = f.body(t, http.StatusOK, f.base+"/blocks")
	testkit.Contains(t, "Arabic space", html, `<html lang="ar" dir="rtl">`, `placeholder="بحث"`, "<small>التالي</small>", `<nav class="sidebar" id="pages" aria-label="الصفحات">`,
		`data-copy="نسخ" data-copied="تم النسخ"`, `data-results="نتائج البحث" data-count="النتائج: %d" data-none="لا توجد صفحة مطابقة"`)
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, map[string]any{"language": "he"})
	html, _ = f.body(t, http.StatusOK, f.base+"/blocks")
	testkit.Contains(t, "Hebrew space", html, `<html lang="he" dir="rtl">`, `<h2 id="outline-title">בדף זה</h2>`, "דלג לתוכן")
	testkit.Lacks(t, "Hebrew space", html, "Skip to content")
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, `{"language":null}`)
	html, _ = f.body(t, http.StatusOK, f.base+"/")
	testkit.Contains(t, "space without a language", html, `<html lang="nl">`)

	// A visitor with the claim sees the conditional item, not its opposite.
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"visibility": "visitor-auth"})
	tok := f.visitorToken(t, map[string]any{"isBeta": true})
	html, _ = f.body(t, http.StatusOK, f.base+"/?jwt_token="+tok)
	header = between(html, `<nav class="header-links"`, "</nav>")
	testkit.Contains(t, "tester's header", header, "Beta programme")
	testkit.Lacks(t, "tester's header", header, "Everyone")
	// One script for the theme's choice, one for the page (copy
	// buttons, the theme's menu), one for search as you type, one for
	// insights.
	if n := len(html); n > 100<<10 || strings.Count(html, "<script") > 4 {
		t.Errorf("page of %d bytes with %d scripts", n, strings.Count(html, "<script"))
	}
}

// A tint (styling.tint) colours the page and panel backgrounds in each
// theme; without one they are the theme's own.
func TestTintColoursTheBackgrounds(t *testing.T) {
	f := standardSite(t, nil)
	before, _ := f.body(t, http.StatusOK, f.base+"/blocks")
	testkit.Lacks(t, "untinted page", before, "}:root{--bg:#")
	f.customize(t, map[string]map[string]any{"styling": {"tint": map[string]any{"color": map[string]any{"light": "#ff0000", "dark": "#00ff00"}}}})
	html, _ := f.body(t, http.StatusOK, f.base+"/blocks")
	// #fff 4% toward red; the dark page 4% toward green, inside the dark
	// theme's style element (the default theme follows the system, and
	// the default lets visitors choose: theme.go).
	testkit.Contains(t, "tinted page", html, ":root{--bg:#fff5f5;--soft:#f7e3e5;", `<style id="theme-dark" media="(prefers-color-scheme: dark)">`, ":root{--bg:#131e16;--soft:#1c3221;")
}

// The sidebar's styles and the depth (styling.sidebar, styling.depth)
// are classes on the layout and the body, with their rules in the page's
// style sheet; the defaults add neither, so a site that sets nothing
// looks as before. A heading font (styling.headingFont) styles headings.
func TestSidebarAndDepthStyles(t *testing.T) {
	f := standardSite(t, nil)
	before, _ := f.body(t, http.StatusOK, f.base+"/blocks")
	testkit.Contains(t, "defaults", before, "<body>\n", `<div class="layout">`)
	testkit.Lacks(t, "defaults", before, "sidebar-filled", "sidebar-pill", "sidebar-line", "depth-flat", "h1,h2,h3,h4,h5,h6{font-family")
	for _, c := range []struct {
		background, list, depth string
		classes                 string
		rules                   []string
	}{
		{"filled", "pill", "flat", `<div class="layout sidebar-filled sidebar-pill">`,
			[]string{".sidebar-filled .sidebar{background:var(--soft);", ".sidebar-pill .sidebar a[aria-current]{background:var(--primary-text);color:var(--bg)}", ".depth-flat .search-pop"}},
		{"default", "line", "subtle", `<div class="layout sidebar-line">`,
			[]string{".sidebar-line .sidebar ul{border-inline-start:1px solid var(--line)}"}},
	} {
		f.customize(t, map[string]map[string]any{"styling": {"sidebar": map[string]any{"background": c.background, "list": c.list}, "depth": c.depth, "headingFont": "RobotoSlab"}})
		html, _ := f.body(t, http.StatusOK, f.base+"/blocks")
		testkit.Contains(t, c.classes, html, append(c.rules, c.classes, `h1,h2,h3,h4,h5,h6{font-family:"Roboto Slab"`)...)
		if flat := strings.Contains(html, `<body class="depth-flat">`); flat != (c.depth == "flat") {
			t.Errorf("depth %s: the body's class depth-flat is there: %t", c.depth, flat)
		}
		if c.background == "default" {
			testkit.Lacks(t, c.classes, html, "sidebar-filled", "sidebar-pill")
		}
	}
}
