package readerhttp_test

// The reader in a real browser: Debian's Chromium, driven by chromedp
// (headless), with axe-core's WCAG 2 A/AA checks injected into the pages.
// One browser serves the whole test (TestBrowser's subtests, a tab each).
//
// Needs /usr/bin/chromium (infra/debian/install.sh) and axe-core
// (infra/node/install.sh, into $GALLEY_CACHE/node). Without them the test is
// skipped, or fails with GALLEY_REQUIRE_EMULATORS=1.
//
// Screenshots of the every-block page (light, dark, 390 px) are written to
// $GALLEY_ARTIFACTS when set, else .artifacts/reader/ at the module root.

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	cdppage "github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/galleydocs/galley/shared/testenv"
)

// chromiumPath is where Debian's chromium package puts the browser.
const chromiumPath = "/usr/bin/chromium"

// tabTimeout bounds each subtest's work in its tab.
const tabTimeout = 60 * time.Second

// browser is one headless Chromium and what the tests inject into pages.
type browser struct {
	ctx context.Context // the browser's context: a tab per chromedp.NewContext
	axe string          // axe.min.js
	srv *httptest.Server
}

// startBrowser starts Chromium, or stops t through testenv.Missing when it
// or axe-core is not installed. The browser is closed when t ends.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	exe := chromiumPath
	if _, err := os.Stat(exe); err != nil {
		p, err := exec.LookPath("chromium")
		if err != nil {
			testenv.Missing(t, "Chromium ("+chromiumPath+", Debian package chromium: run infra/debian/install.sh or apt-get install chromium)")
		}
		exe = p
	}
	axePath := filepath.Join(testenv.CacheDir(), "node", "node_modules", "axe-core", "axe.min.js")
	axe, err := os.ReadFile(axePath)
	if err != nil {
		testenv.Missing(t, "axe-core ("+axePath+", npm package axe-core pinned in infra/node/package.json: run infra/node/install.sh)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900),
	)
	if os.Geteuid() == 0 {
		// Chromium refuses to run as root with its sandbox.
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc() })
	start := time.Now()
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start %s: %v", exe, err)
	}
	t.Logf("chromium started in %v", time.Since(start).Round(time.Millisecond))
	return &browser{ctx: bctx, axe: string(axe)}
}

// tab opens a tab of the browser for t, closed when t ends. Every
// Content-Security-Policy violation its pages report fails t.
func (b *browser) tab(t *testing.T) context.Context {
	t.Helper()
	ctx, _ := b.tabCSP(t)
	return ctx
}

// cspBinding is the function through which pages report the violations
// of their Content-Security-Policy to the test.
const cspBinding = "galleyCSPViolation"

// cspReporter reports every securitypolicyviolation event of a document:
// installed in each document before its own scripts run (a script
// evaluated on a new document by DevTools is not subject to the page's
// policy).
const cspReporter = `document.addEventListener("securitypolicyviolation", function (e) {
	window.` + cspBinding + `(e.effectiveDirective + " blocked " + (e.blockedURI || "?") + (e.sample ? " (" + e.sample + ")" : "") + " in " + e.documentURI);
});`

// cspLog is the Content-Security-Policy violations a tab reported: the
// securitypolicyviolation events of its documents and the browser's own
// messages about them ("Refused to ... because it violates the following
// Content Security Policy directive"), in the order they came.
type cspLog struct {
	mu   sync.Mutex
	seen []string
}

// listen takes a tab's events (chromedp.WithListener: in order, on the
// goroutine reading them).
func (l *cspLog) listen(ev any) {
	var msg string
	switch e := ev.(type) {
	case *cdpruntime.EventBindingCalled:
		if e.Name == cspBinding {
			msg = "event: " + e.Payload
		}
	case *cdplog.EventEntryAdded:
		if strings.Contains(e.Entry.Text, "Content Security Policy") {
			msg = "browser: " + e.Entry.Text
		}
	}
	if msg != "" {
		l.mu.Lock()
		l.seen = append(l.seen, msg)
		l.mu.Unlock()
	}
}

// take returns the violations reported so far, once the tab's pending
// events have come, and forgets them.
func (l *cspLog) take(ctx context.Context) []string {
	// A task queued after the violations' events: its answer comes after
	// their reports, which the listener has then taken. (Bounded: a tab
	// whose scripts are disabled may run no timer; its violations are the
	// browser's messages, sent before the answer anyway.)
	flush, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, _ = chromedp.Run(flush, chromedp.Evaluate[bool](`new Promise(function (ok) { setTimeout(function () { ok(true) }, 0) })`, chromedp.EvalAwaitPromise))
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.seen
	l.seen = nil
	return out
}

// tabCSP is tab, with the log of the violations its pages report: what a
// subtest takes from it is not counted against it. opts add to the tab's
// context (more listeners).
func (b *browser) tabCSP(t *testing.T, opts ...chromedp.ContextOption) (context.Context, *cspLog) {
	t.Helper()
	l := &cspLog{}
	ctx, cancel := chromedp.NewContext(b.ctx, append([]chromedp.ContextOption{chromedp.WithListener(l.listen)}, opts...)...)
	ctx, cancelTimeout := context.WithTimeout(ctx, tabTimeout)
	t.Cleanup(func() { cancelTimeout(); cancel() })
	run(t, ctx, "report CSP violations", command(cdpruntime.AddBinding, cdpruntime.AddBindingParams{Name: cspBinding}),
		command(cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: cspReporter}))
	// Before the tab closes (cleanups run last first).
	t.Cleanup(func() {
		if v := l.take(ctx); len(v) > 0 {
			t.Errorf("%d Content-Security-Policy violations:\n  %s", len(v), strings.Join(v, "\n  "))
		}
	})
	return ctx, l
}

// run runs steps in ctx, failing t on an error.
func run(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		t.Fatalf("%.200s: %v", expr, err)
	}
	return v
}

// command is an action sending one DevTools protocol command to the tab.
func command[P, R any](c cdp.Command[P, R], params P) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, c, params)
		return err
	})
}

// open navigates to the site's path and waits for the page.
func (b *browser) open(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	run(t, ctx, "open "+path, chromedp.Navigate(b.srv.URL+path), chromedp.WaitReady(chromedp.CSS("body")))
}

// follow clicks the link sel and waits until the browser is at a path
// ending with suffix, its document loaded; it checks the page's heading.
func follow(t *testing.T, ctx context.Context, sel, suffix, heading string) {
	t.Helper()
	before := eval[string](t, ctx, "location.pathname")
	run(t, ctx, "click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
	deadline := time.Now().Add(10 * time.Second)
	var state string
	for {
		// Evaluation fails while the next document replaces this one.
		var err error
		state, err = chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + "|" + document.readyState`))
		if err == nil {
			path, ready, _ := strings.Cut(state, "|")
			if path != before && strings.HasSuffix(path, suffix) && ready == "complete" {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("click %s: at %q (from %s), want a path ending with %q", sel, state, before, suffix)
		}
		time.Sleep(20 * time.Millisecond)
	}
	h1 := eval[string](t, ctx, `document.querySelector("h1").textContent`)
	if strings.TrimSpace(h1) != heading {
		t.Errorf("after clicking %s: heading %q, want %q", sel, h1, heading)
	}
}

// waitFor waits until the JavaScript expression cond is true in the page.
func waitFor(t *testing.T, ctx context.Context, cond, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		// Evaluation fails while a next document replaces this one.
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// visible says whether the element sel is shown: it has a box, and neither
// it nor an ancestor is hidden (checkVisibility: display, visibility, and
// the content of a closed <details>, which keeps its boxes but is not
// rendered).
func visible(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	return eval[bool](t, ctx, fmt.Sprintf(`(function(){var e=document.querySelector(%q);if(!e)throw new Error("no element "+%q);var r=e.getBoundingClientRect();return e.checkVisibility({visibilityProperty:true})&&r.width>0&&r.height>0})()`, sel, sel))
}

// violation is what axe-core reports of a rule a page breaks.
type violation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		HTML    string `json:"html"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// checkA11y runs axe-core's WCAG 2 A and AA rules on the page in ctx and
// fails t on any violation of serious or critical impact.
func (b *browser) checkA11y(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	if !eval[bool](t, ctx, b.axe+";typeof axe === 'object'") {
		t.Fatalf("%s: axe-core did not load", what)
	}
	vs := eval[[]violation](t, ctx,
		`axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa"]}, resultTypes: ["violations"]}).then(r => r.violations)`,
		chromedp.EvalAwaitPromise)
	var bad []string
	for _, v := range vs {
		if v.Impact != "serious" && v.Impact != "critical" {
			t.Logf("%s: axe %s (%s): %s, %d elements", what, v.ID, v.Impact, v.Help, len(v.Nodes))
			continue
		}
		s := fmt.Sprintf("%s (%s): %s", v.ID, v.Impact, v.Help)
		for i, n := range v.Nodes {
			if i == 5 {
				s += fmt.Sprintf("\n    ... %d more", len(v.Nodes)-i)
				break
			}
			s += fmt.Sprintf("\n    %v %.200s\n      %s", n.Target, n.HTML, strings.ReplaceAll(n.Summary, "\n", "\n      "))
		}
		bad = append(bad, s)
	}
	if len(bad) > 0 {
		t.Errorf("%s: %d serious or critical axe-core violations (WCAG 2 A/AA):\n  %s", what, len(bad), strings.Join(bad, "\n  "))
	}
}

// grantClipboard lets the test server's pages read and write the
// clipboard (the copy buttons' tests read back what they copied).
func (b *browser) grantClipboard(t *testing.T, ctx context.Context) {
	t.Helper()
	for _, perm := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: perm}, Setting: cdpbrowser.PermissionSettingGranted, Origin: b.srv.URL,
		}); err != nil {
			t.Fatalf("grant %s: %v", perm, err)
		}
	}
}

// dark emulates prefers-color-scheme: dark.
func dark() chromedp.Action[chromedp.Void] {
	return command(emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
	})
}

// narrow emulates a 390 px wide phone.
func narrow() chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)
}

// artifactsDir is where the screenshots go: $GALLEY_ARTIFACTS, else
// .artifacts/reader at the module root.
func artifactsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("GALLEY_ARTIFACTS")
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		root := wd
		for {
			if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
				break
			}
			parent := filepath.Dir(root)
			if parent == root {
				t.Fatalf("no go.mod above %s", wd)
			}
			root = parent
		}
		dir = filepath.Join(root, ".artifacts", "reader")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// screenshot writes a PNG of the whole page.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100: PNG
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(artifactsDir(t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// luminance is the relative luminance (WCAG) of a CSS rgb()/rgba() colour.
func luminance(t *testing.T, css string) float64 {
	t.Helper()
	m := regexp.MustCompile(`^rgba?\((\d+), (\d+), (\d+)`).FindStringSubmatch(css)
	if m == nil {
		t.Fatalf("colour %q is not rgb()", css)
	}
	var l [3]float64
	for i := range l {
		v, _ := strconv.Atoi(m[i+1])
		c := float64(v) / 255
		if c <= 0.03928 {
			l[i] = c / 12.92
		} else {
			l[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

// sectionsSite is standardSite with a second site space in the default
// level (a variant: Guide v2) and two sections (API, Ops); it returns the
// sections' paths.
func sectionsSite(t *testing.T) (f *fixture, first, second string) {
	f = standardSite(t, nil)
	v2, _ := f.newSpace(t, "Guide v2", page("home", "", "# Home v2\n\nThe second version.\n"))
	apiSpace, _ := f.newSpace(t, "API reference", page("ops", "", "# Operations\n\nEndpoints.\n"))
	opsSpace, _ := f.newSpace(t, "Operations", page("run", "", "# Running\n\nHow to run.\n"))
	c := f.As(t, "admin")
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/site-spaces", map[string]any{"spaceId": v2})
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/sections", map[string]any{"spaceId": apiSpace, "title": "API"})
	c.Expect(http.StatusCreated, "POST", f.sitePth+"/sections", map[string]any{"spaceId": opsSpace, "title": "Ops"})
	secs := c.Expect(http.StatusOK, "GET", f.sitePth+"/sections", nil).Map(t)["items"].([]any)
	if len(secs) != 2 {
		t.Fatalf("%d sections", len(secs))
	}
	return f, secs[0].(map[string]any)["path"].(string), secs[1].(map[string]any)["path"].(string)
}

func TestBrowser(t *testing.T) {
	b := startBrowser(t)
	f, first, second := sectionsSite(t)
	// Header links (a link, a button, a menu) and a footer, in every
	// screenshot and every accessibility check.
	f.customize(t, map[string]map[string]any{
		"header": {"links": []any{
			map[string]any{"title": "Website", "style": "link", "to": map[string]any{"kind": "url", "url": "https://example.com/"}, "links": []any{}},
			map[string]any{"title": "Get the API", "style": "button-primary", "to": map[string]any{"kind": "page", "page": f.pages["api"]}, "links": []any{}},
			map[string]any{"title": "More", "style": "button-secondary", "to": nil, "links": []any{
				map[string]any{"title": "Guide home", "to": map[string]any{"kind": "space", "space": f.space}},
				map[string]any{"title": "Status", "to": map[string]any{"kind": "url", "url": "https://status.example.com/"}}}},
		}},
		"footer": {"groups": []any{
			map[string]any{"title": "Product", "links": []any{
				map[string]any{"title": "Start here", "to": map[string]any{"kind": "page", "page": f.pages["intro"]}},
				map[string]any{"title": "Changelog", "to": map[string]any{"kind": "url", "url": "https://example.com/changes"}}}},
			map[string]any{"title": "Company", "links": []any{
				map[string]any{"title": "About us", "to": map[string]any{"kind": "url", "url": "https://example.com/about"}}}},
		}, "copyright": "© 2026 Acme Corp"},
	})
	b.srv = httptest.NewServer(f.h)
	t.Cleanup(b.srv.Close)
	blocks := f.base + "/" + first + "/blocks"

	t.Run("navigation", func(t *testing.T) {
		ctx := b.tab(t)
		b.open(t, ctx, f.base+"/")
		// Sections: the top navigation.
		follow(t, ctx, `nav.sections a[href$="/`+second+`/"]`, "/"+second+"/", "Running")
		follow(t, ctx, `nav.sections a[href$="/`+first+`/"]`, "/"+first+"/", "Introduction")
		// Variants: a menu that opens, then a link.
		if visible(t, ctx, `details.variants ul`) {
			t.Error("the variant menu is open before a click")
		}
		run(t, ctx, "open the variant menu", chromedp.Click(chromedp.CSS(`details.variants > summary`)))
		if !visible(t, ctx, `details.variants ul`) {
			t.Fatal("the variant menu did not open")
		}
		follow(t, ctx, `details.variants a:not([aria-current])`, "/", "Home v2")
		summary := eval[string](t, ctx, `document.querySelector("details.variants > summary").textContent`)
		if summary != "Guide v2" {
			t.Errorf("variant menu says %q after switching, want Guide v2", summary)
		}
		// The page tree, the content link and previous/next.
		b.open(t, ctx, f.base+"/")
		follow(t, ctx, `nav.sidebar a[href$="/blocks"]`, "/blocks", "Blocks")
		follow(t, ctx, `nav.sidebar a[href$="/blocks/child-page"]`, "/blocks/child-page", "Child page")
		follow(t, ctx, `nav.breadcrumbs a[href$="/blocks"]`, "/blocks", "Blocks")
		follow(t, ctx, `nav.sidebar a[href$="/api"]`, "/api", "API")
		follow(t, ctx, `nav.pagination a[rel=prev]`, "/blocks/child-page", "Child page")
		follow(t, ctx, `nav.pagination a[rel=next]`, "/api", "API")
		b.open(t, ctx, f.base+"/")
		follow(t, ctx, `article a[href$="/blocks"]`, "/blocks", "Blocks")
		current := eval[string](t, ctx, `document.querySelector('nav.sidebar a[aria-current="page"]').textContent`)
		if current != "Blocks" {
			t.Errorf("the tree marks %q as the current page, want Blocks", current)
		}
	})

	t.Run("header links and footer", func(t *testing.T) {
		ctx := b.tab(t)
		b.open(t, ctx, blocks)
		for _, sel := range []string{`nav.header-links a.hl-link[href="https://example.com/"]`, `nav.header-links a.hl-button-primary`,
			`nav.header-links details.menu > summary`, `footer .footer-groups nav[aria-label="Product"]`, `footer .copyright`} {
			if !visible(t, ctx, sel) {
				t.Errorf("%s is not visible", sel)
			}
		}
		if visible(t, ctx, `nav.header-links details.menu ul`) {
			t.Error("the header's menu is open before a click")
		}
		run(t, ctx, "open the header's menu", chromedp.Click(chromedp.CSS(`nav.header-links details.menu > summary`)))
		if !visible(t, ctx, `nav.header-links details.menu a[href$="/`+first+`/"]`) {
			t.Fatal("the header's menu did not open")
		}
		follow(t, ctx, `nav.header-links details.menu a[href$="/`+first+`/"]`, "/"+first+"/", "Introduction")
		follow(t, ctx, `nav.header-links a.hl-button-primary`, "/reference/api", "API")
		follow(t, ctx, `footer nav a[href$="/`+first+`/"]`, "/"+first+"/", "Introduction")
	})

	t.Run("tabs and expandables", func(t *testing.T) {
		ctx := b.tab(t)
		b.open(t, ctx, blocks)
		p0, p1 := `label[for="tabs-1-0"] + .tab-panel`, `label[for="tabs-1-1"] + .tab-panel`
		if !visible(t, ctx, p0) || visible(t, ctx, p1) {
			t.Fatal("the first tab's panel should show, alone")
		}
		run(t, ctx, "click the second tab", chromedp.Click(chromedp.CSS(`label[for="tabs-1-1"]`)))
		if visible(t, ctx, p0) || !visible(t, ctx, p1) {
			t.Error("after clicking the second tab, its panel should show, alone")
		}
		// The keyboard moves between tabs too (radio buttons).
		run(t, ctx, "arrow left", chromedp.Focus(chromedp.CSS(`#tabs-1-1`)), chromedp.KeyEvent(kb.ArrowLeft))
		if !visible(t, ctx, p0) || visible(t, ctx, p1) {
			t.Error("after ArrowLeft on the second tab, the first tab's panel should show, alone")
		}
		body := `details.expandable > p`
		if visible(t, ctx, body) {
			t.Fatal("the expandable is open before a click")
		}
		run(t, ctx, "open the expandable", chromedp.Click(chromedp.CSS(`details.expandable > summary`)))
		if !visible(t, ctx, body) {
			t.Error("the expandable did not open")
		}
	})

	t.Run("task lists", func(t *testing.T) {
		ctx := b.tab(t)
		b.open(t, ctx, blocks)
		// Each task's checkbox is on the line of its text.
		off := eval[[]float64](t, ctx, `Array.prototype.map.call(document.querySelectorAll(".tasks > li"), li => Math.abs(li.querySelector("input").getBoundingClientRect().bottom - li.querySelector("p").getBoundingClientRect().bottom))`)
		if len(off) != 2 {
			t.Fatalf("%d tasks, want 2", len(off))
		}
		for i, d := range off {
			if d > 12 {
				t.Errorf("task %d: its checkbox is %.0f px off its text's line", i+1, d)
			}
		}
	})

	t.Run("copy button needs JavaScript", func(t *testing.T) {
		ctx := b.tab(t)
		b.open(t, ctx, blocks)
		n := eval[int](t, ctx, `document.querySelectorAll("button.copy").length`)
		if n == 0 {
			t.Fatal("no copy button on the every-block page")
		}
		if !visible(t, ctx, `button.copy`) {
			t.Error("with JavaScript, the copy button is hidden")
		}
		// It copies the code, without the line numbers.
		b.grantClipboard(t, ctx)
		run(t, ctx, "click Copy", chromedp.Click(chromedp.CSS(`figure.code[data-lang="go"] button.copy`), chromedp.NodeVisible))
		// The label changes when the clipboard has taken the text.
		label := eval[string](t, ctx, `new Promise(ok => { const b = document.querySelector('figure.code[data-lang="go"] button.copy'); let n = 0; const f = () => b.textContent === "Copied" || ++n > 100 ? ok(b.textContent) : setTimeout(f, 10); f() })`, chromedp.EvalAwaitPromise)
		if label != "Copied" {
			t.Errorf("after a click the copy button says %q, want Copied", label)
		}
		copied := eval[string](t, ctx, `navigator.clipboard.readText()`, chromedp.EvalAwaitPromise)
		if want := "package main\n\nfunc main() {}"; copied != want {
			t.Errorf("copied %q, want %q", copied, want)
		}
		// Without JavaScript the button stays hidden: the code is plain text.
		noJS := b.tab(t)
		run(t, noJS, "disable scripts", command(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}))
		b.open(t, noJS, blocks)
		buttons := eval[int](t, noJS, `document.querySelectorAll("button.copy").length`)
		shown := eval[int](t, noJS, `Array.prototype.filter.call(document.querySelectorAll("button.copy"), b => b.getBoundingClientRect().width > 0).length`)
		if buttons != n || shown != 0 {
			t.Errorf("without JavaScript: %d copy buttons, %d shown; want %d, none shown", buttons, shown, n)
		}
	})

	t.Run("dark theme", func(t *testing.T) {
		ctx := b.tab(t)
		b.open(t, ctx, blocks)
		light := eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`)
		screenshot(t, ctx, "blocks-light.png")
		run(t, ctx, "prefers-color-scheme: dark", dark())
		dk := eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`)
		fg := eval[string](t, ctx, `getComputedStyle(document.body).color`)
		if l := luminance(t, light); l < 0.8 {
			t.Errorf("light theme: background %s (luminance %.2f) is not light", light, l)
		}
		if l := luminance(t, dk); l > 0.05 {
			t.Errorf("dark theme: background %s (luminance %.2f) is not dark", dk, l)
		}
		if l := luminance(t, fg); l < 0.6 {
			t.Errorf("dark theme: text %s (luminance %.2f) is not light", fg, l)
		}
		screenshot(t, ctx, "blocks-dark.png")
	})

	t.Run("narrow viewport menu", func(t *testing.T) {
		ctx := b.tab(t)
		run(t, ctx, "390 px viewport", narrow())
		b.open(t, ctx, blocks)
		width := eval[int](t, ctx, `window.innerWidth`)
		scroll := eval[int](t, ctx, `document.documentElement.scrollWidth`)
		if width != 390 {
			t.Fatalf("viewport %d px wide, want 390", width)
		}
		if scroll > width {
			wide := eval[[]string](t, ctx, `Array.prototype.filter.call(document.querySelectorAll("body *"), e => e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName.toLowerCase() + (e.className ? "." + e.className : "")).slice(0, 10)`)
			t.Errorf("the page scrolls sideways at 390 px: %d px wide; too wide: %v", scroll, wide)
		}
		screenshot(t, ctx, "blocks-narrow.png")
		tree := `nav.sidebar a[href$="/api"]`
		if !visible(t, ctx, tree) {
			if !eval[bool](t, ctx, `!!document.querySelector(".nav-toggle")`) {
				t.Fatal("at 390 px the page tree is hidden and there is no menu button")
			}
			if !visible(t, ctx, `.nav-toggle > summary`) {
				t.Fatal("at 390 px the menu button is not visible")
			}
			run(t, ctx, "open the menu", chromedp.Click(chromedp.CSS(`.nav-toggle > summary`)))
			if !visible(t, ctx, tree) {
				t.Fatal("at 390 px the menu button does not show the page tree")
			}
		}
		// The results as you type fit the phone's width.
		run(t, ctx, "type in the search box", chromedp.Click(chromedp.CSS(`form.search input[name=q]`)), chromedp.SendKeys(chromedp.CSS(`form.search input[name=q]`), "child"))
		waitFor(t, ctx, `!!document.querySelector("#search-results [role=option]")`, "results as you type")
		if r := eval[[]float64](t, ctx, `(function(){var b=document.querySelector(".search-pop").getBoundingClientRect();return [b.left,b.right]})()`); r[0] < 0 || r[1] > float64(width) {
			t.Errorf("at 390 px the results span %v, outside the viewport", r)
		}
		run(t, ctx, "Escape", chromedp.KeyEvent(kb.Escape))
		b.checkA11y(t, ctx, "every-block page, 390 px, menu open")
		screenshot(t, ctx, "blocks-narrow-menu.png")
		follow(t, ctx, tree, "/api", "API")
	})

	t.Run("search as you type", func(t *testing.T) {
		ctx := b.tab(t)
		b.open(t, ctx, blocks)
		box := `form.search input[name=q]`
		if role := eval[string](t, ctx, `document.querySelector("`+box+`").getAttribute("role") || ""`); role != "combobox" {
			t.Fatalf("the search box's role is %q, want combobox", role)
		}
		run(t, ctx, "type in the search box", chromedp.Click(chromedp.CSS(box)), chromedp.SendKeys(chromedp.CSS(box), "child"))
		waitFor(t, ctx, `Array.prototype.some.call(document.querySelectorAll("#search-results [role=option] .search-title"), e => e.textContent === "Child page")`, "a result Child page")
		if !visible(t, ctx, `#search-results`) {
			t.Fatal("the results are not shown")
		}
		if exp := eval[string](t, ctx, `document.querySelector("`+box+`").getAttribute("aria-expanded")`); exp != "true" {
			t.Errorf("aria-expanded %q with the results open", exp)
		}
		group := eval[string](t, ctx, `document.querySelector("#search-results [role=group] .search-group-title").textContent`)
		if !strings.Contains(group, "Guide") {
			t.Errorf("the results' group is %q, want the site space Guide", group)
		}
		b.checkA11y(t, ctx, "every-block page, search results open")
		screenshot(t, ctx, "search-results.png")
		run(t, ctx, "prefers-color-scheme: dark", dark())
		b.checkA11y(t, ctx, "every-block page, search results open (dark)")
		// Escape closes the list; ArrowDown opens it again.
		run(t, ctx, "Escape", chromedp.KeyEvent(kb.Escape))
		if visible(t, ctx, `#search-results`) || eval[string](t, ctx, `document.querySelector("`+box+`").getAttribute("aria-expanded")`) != "false" {
			t.Error("Escape did not close the results")
		}
		if v := eval[string](t, ctx, `document.querySelector("`+box+`").value`); v != "child" {
			t.Errorf("Escape with the results open changed the query to %q", v)
		}
		at := eval[int](t, ctx, `Array.prototype.findIndex.call(document.querySelectorAll("#search-results [role=option]"), o => o.querySelector(".search-title").textContent === "Child page")`)
		for i := 0; i <= at; i++ {
			run(t, ctx, "ArrowDown", chromedp.KeyEvent(kb.ArrowDown))
		}
		active := eval[string](t, ctx, `(function(){var id=document.querySelector("`+box+`").getAttribute("aria-activedescendant");var o=id&&document.getElementById(id);return o&&o.getAttribute("aria-selected")==="true"?o.querySelector(".search-title").textContent:""})()`)
		if active != "Child page" {
			t.Fatalf("after %d ArrowDown the active option is %q, want Child page", at+1, active)
		}
		run(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
		waitFor(t, ctx, `location.pathname.endsWith("/blocks/child-page") && document.readyState === "complete"`, "the page Child page")
		if h1 := eval[string](t, ctx, `document.querySelector("h1").textContent`); strings.TrimSpace(h1) != "Child page" {
			t.Errorf("after Enter on a result: heading %q", h1)
		}
		// Without JavaScript the box is the plain form: no combobox, and
		// Enter leads to the results page.
		noJS := b.tab(t)
		run(t, noJS, "disable scripts", command(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}))
		b.open(t, noJS, blocks)
		if eval[bool](t, noJS, `document.querySelector("`+box+`").hasAttribute("role") || !!document.querySelector("#search-results")`) {
			t.Error("without JavaScript the search box is a combobox")
		}
		run(t, noJS, "type and press Enter", chromedp.Click(chromedp.CSS(box)), chromedp.SendKeys(chromedp.CSS(box), "child"), chromedp.KeyEvent(kb.Enter))
		waitFor(t, noJS, `location.pathname.endsWith("/~search") && location.search === "?q=child" && document.readyState === "complete"`, "the results page")
		if n := eval[int](t, noJS, `Array.prototype.filter.call(document.querySelectorAll("main a"), a => a.textContent === "Child page").length`); n != 1 {
			t.Errorf("the results page links Child page %d times, want once", n)
		}
	})

	t.Run("content security policy", func(t *testing.T) {
		// Every subtest's tab fails on a violation (tabCSP): the pages'
		// own scripts and styles all run under the policy. Here: the
		// page's own rules apply, and what the policy does not allow is
		// refused, and reported (the check above can fail).
		ctx, csp := b.tabCSP(t)
		b.open(t, ctx, blocks)
		if w := eval[string](t, ctx, `getComputedStyle(document.querySelector(".columns > .column.w-50")).flexBasis`); w != "50%" {
			t.Errorf("the 50%% column's flex-basis is %q", w)
		}
		if a := eval[string](t, ctx, `getComputedStyle(document.querySelector("th.align-center")).textAlign`); a != "center" {
			t.Errorf("the centred column's heading is aligned %q", a)
		}
		if v := csp.take(ctx); len(v) > 0 {
			t.Fatalf("the every-block page reports violations:\n  %s", strings.Join(v, "\n  "))
		}
		bg := eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`)
		eval[bool](t, ctx, `(function () {
			var s = document.createElement("script"); s.textContent = "window.injected = true"; document.body.appendChild(s);
			var st = document.createElement("style"); st.textContent = "body { background: rgb(255, 0, 0) !important }"; document.head.appendChild(st);
			var d = document.createElement("div"); d.setAttribute("style", "display: none"); d.id = "styled"; document.body.appendChild(d);
			var i = document.createElement("iframe"); i.src = "https://example.com/"; document.body.appendChild(i);
			return true })()`)
		if eval[bool](t, ctx, `window.injected === true`) {
			t.Error("an injected inline script ran")
		}
		if got := eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`); got != bg {
			t.Errorf("an injected style element applied: background %s, was %s", got, bg)
		}
		if got := eval[string](t, ctx, `getComputedStyle(document.getElementById("styled")).display`); got == "none" {
			t.Error("a style attribute applied")
		}
		v := strings.Join(csp.take(ctx), "\n")
		for _, d := range []string{"script-src-elem", "style-src-elem", "style-src-attr", "frame-src"} {
			if !strings.Contains(v, "event: "+d+" blocked") {
				t.Errorf("no %s violation reported; reported:\n%s", d, v)
			}
		}
	})

	t.Run("framing", func(t *testing.T) {
		// A page of another origin frames the every-block page: refused
		// by default (the site's own origins only), shown once the site
		// names that origin (frameAncestors). Each framing asks its own
		// URL of the page (a query it ignores): the browser keeps a page
		// a minute (max-age=60), with the policy it came with.
		framer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><title>framer</title><iframe src="%s%s?%s"></iframe>`+
				`<script>document.querySelector("iframe").onload = function () { document.title = "loaded" }</script>`, b.srv.URL, blocks, r.URL.RawQuery)
		}))
		t.Cleanup(framer.Close)
		frame := func(t *testing.T, query string) (string, []string) {
			ctx, csp := b.tabCSP(t)
			run(t, ctx, "open the framing page", chromedp.Navigate(framer.URL+"/?"+query))
			waitFor(t, ctx, `document.title === "loaded"`, "the frame's load")
			tree, err := chromedp.Call(ctx, cdppage.GetFrameTree, cdp.Empty{})
			if err != nil {
				t.Fatal(err)
			}
			if len(tree.FrameTree.ChildFrames) != 1 {
				t.Fatalf("%d frames", len(tree.FrameTree.ChildFrames))
			}
			return tree.FrameTree.ChildFrames[0].Frame.URL, csp.take(ctx)
		}
		url, v := frame(t, "first")
		if url == b.srv.URL+blocks+"?first" || !strings.Contains(strings.Join(v, "\n"), "frame-ancestors") {
			t.Errorf("framed by another origin by default: the frame is at %s; violations: %v", url, v)
		}
		f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"frameAncestors": []string{framer.URL}})
		t.Cleanup(func() { f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth, `{"frameAncestors":null}`) })
		if url, v := frame(t, "second"); url != b.srv.URL+blocks+"?second" || len(v) > 0 {
			t.Errorf("framed by an origin the site names: the frame is at %s; violations: %v", url, v)
		}
	})

	t.Run("accessibility", func(t *testing.T) {
		pages := []struct{ name, path string }{
			{"root", f.base + "/"},
			{"every-block page", blocks},
			{"child page", blocks + "/child-page"},
			{"section", f.base + "/" + second + "/"},
			{"not found", f.base + "/nope"},
		}
		for _, scheme := range []string{"light", "dark"} {
			for _, p := range pages {
				t.Run(scheme+"/"+p.name, func(t *testing.T) {
					ctx := b.tab(t)
					if scheme == "dark" {
						run(t, ctx, "prefers-color-scheme: dark", dark())
					}
					b.open(t, ctx, p.path)
					b.checkA11y(t, ctx, p.name+" ("+scheme+")")
				})
			}
		}
	})
}
