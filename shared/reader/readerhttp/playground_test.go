package readerhttp_test

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/openapispecs/openapiworker"
	"github.com/galleydocs/galley/shared/testkit"
)

// playgroundSpec is a spec whose servers are the given URLs (a {host}
// variable's default: 127.0.0.1), with a
// bearer scheme, a GET with path, query and header parameters and a POST
// with a body.
func playgroundSpec(servers ...string) string {
	var list []map[string]any
	for i, s := range servers {
		srv := map[string]any{"url": s, "description": []string{"With CORS", "Without CORS"}[i%2]}
		if strings.Contains(s, "{host}") {
			srv["variables"] = map[string]any{"host": map[string]any{"default": "127.0.0.1"}}
		}
		list = append(list, srv)
	}
	srv, _ := json.Marshal(list)
	return `{"openapi":"3.0.3","info":{"title":"Pets","version":"1"},"servers":` + string(srv) + `,
	"components":{"securitySchemes":{"bearerAuth":{"type":"http","scheme":"bearer"}}},"security":[{"bearerAuth":[]}],
	"paths":{
	  "/pets/{petId}":{"get":{"tags":["pets"],"summary":"Get a pet","parameters":[
	    {"name":"petId","in":"path","required":true,"schema":{"type":"string"},"example":"rex"},
	    {"name":"verbose","in":"query","schema":{"type":"boolean","default":false}},
	    {"name":"X-Trace","in":"header","schema":{"type":"string"},"example":"t-1"}],"responses":{"200":{"description":"The pet"}}}},
	  "/pets":{"post":{"tags":["pets"],"summary":"Add a pet","requestBody":{"content":{"application/json":{"schema":{"type":"object",
	    "properties":{"name":{"type":"string","example":"Rex"}}}}}},"responses":{"201":{"description":"Made"}}}}}}`
}

// playgroundSite publishes a space with the spec's computed reference
// (its tag page: /reference/pets) and a page with an OpenAPI block
// (/block), and a page without one (/).
func playgroundSite(t *testing.T, servers ...string) *fixture {
	t.Helper()
	return specSite(t, playgroundSpec(servers...))
}

// specSite publishes a site over a space showing the organization's spec
// "pets" (spec, made here): a plain page (/), a page with the operation
// POST /pets as an OpenAPI block (/block) and the spec's computed
// reference (/reference).
func specSite(t *testing.T, spec string) *fixture {
	t.Helper()
	f := newFixture(t)
	if _, _, err := openapispecs.New(f.Kit.Deps, openapiworker.Parse).Create(f.Ctx("admin"), f.Org.ID, "pets", openapispecs.Source{Text: spec}); err != nil {
		t.Fatal(err)
	}
	f.space, f.pages = f.newSpace(t, "API",
		page("intro", "", "# Welcome\n\nThe API.\n"),
		page("block", "", "# Block\n\n{% openapi-operation spec=\"pets\" path=\"/pets\" method=\"post\" %}\n"),
		map[string]any{"operation": "insert_page", "ref": "ref", "type": "computed", "title": "Reference",
			"computed": map[string]any{"type": "builtin:openapi", "dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "pets"}}}}})
	f.publish(t, "Pets Docs", map[string]any{"basename": "docs"})
	return f
}

var reSnippet = regexp.MustCompile(`(?s)<code class="pg-snippet" data-lang="([a-z]+)">(.*?)</code>`)

// A page with operations has their playgrounds and a policy letting its
// scripts call the spec's servers (and its own origin), its playground
// script allowed by hash; a page without keeps connect-src 'self'.
func TestPlaygroundPages(t *testing.T) {
	f := playgroundSite(t, "https://api.example.com/v1", "http://127.0.0.1:9")
	for _, path := range []string{f.base + "/reference/pets", f.base + "/block"} {
		body, res := f.body(t, http.StatusOK, path)
		p := policy(t, res.Header.Get("Content-Security-Policy"))
		if got := strings.Join(p["connect-src"], " "); got != "'self' https://api.example.com http://127.0.0.1:9" {
			t.Errorf("%s: connect-src %q", path, got)
		}
		allowed := map[string]bool{}
		for _, s := range p["script-src"] {
			allowed[s] = true
		}
		scripts := reScript.FindAllStringSubmatch(body, -1)
		if len(scripts) != 5 || len(p["script-src"]) != 5 {
			t.Errorf("%s: %d scripts, script-src %v; want the four and the playground's", path, len(scripts), p["script-src"])
		}
		for _, m := range scripts {
			if !allowed[sha(m[1])] {
				t.Errorf("%s: script-src does not allow %.80q", path, m[1])
			}
		}
		if style := reStyle.FindStringSubmatch(body); style == nil || !strings.Contains(style[1], ".pg-form fieldset") || !slicesContain(p["style-src"], sha(style[1])) {
			t.Errorf("%s: the style element lacks the playground's rules, or its hash", path)
		}
		testkit.Contains(t, path, body, `<summary>Test it</summary><div class="pg-form" hidden>`,
			`<option value="https://api.example.com/v1" selected>https://api.example.com/v1 (With CORS)</option><option value="http://127.0.0.1:9">http://127.0.0.1:9 (Without CORS)</option>`,
			`<label for="pg1-a0">Bearer token (bearerAuth)</label><input id="pg1-a0" type="password" class="pg-secret" data-part="token" autocomplete="off">`)
	}
	pets, _ := f.body(t, http.StatusOK, f.base+"/reference/pets")
	testkit.Contains(t, "GET with parameters", pets,
		`<input id="pg2-p0" class="pg-param" data-in="path" data-name="petId" value="rex" aria-required="true" spellcheck="false">`,
		`<input id="pg2-p1" class="pg-param" data-in="query" data-name="verbose" value="false" spellcheck="false">`,
		html.EscapeString("curl --request GET \\\n  --url 'https://api.example.com/v1/pets/rex?verbose=false' \\\n  --header 'X-Trace: t-1' \\\n  --header 'Authorization: Bearer YOUR_TOKEN'"))
	block, _ := f.body(t, http.StatusOK, f.base+"/block")
	testkit.Contains(t, "POST with a body", block,
		`<textarea id="pg1-body" class="pg-body" rows="8" spellcheck="false">{
  &#34;name&#34;: &#34;Rex&#34;
}</textarea>`,
		html.EscapeString(`  body: "{\n  \"name\": \"Rex\"\n}"`))
	// The playground is not a form: nothing of it is ever submitted to
	// the site.
	testkit.Lacks(t, "block", block[strings.Index(block, "<article>"):], "<form")

	intro, res := f.body(t, http.StatusOK, f.base+"/")
	pagePolicy(t, "a page without an operation", intro, res.Header)
	testkit.Lacks(t, "intro", intro, "playground", "pg-form")
}

func slicesContain(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// apiCall is a request a test API got.
type apiCall struct {
	Method, Path, Query, Authorization, Trace, Cookie, Origin, ContentType, Body string
}

// testAPI is an API on loopback that answers every request with what it
// got, as JSON (and an X-Request-Id header); with cors, it allows any
// origin (preflights included) and exposes X-Request-Id.
type testAPI struct {
	*httptest.Server
	mu    sync.Mutex
	calls []apiCall
}

func newTestAPI(t *testing.T, cors bool) *testAPI {
	a := &testAPI{}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cors {
			w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
			w.Header().Set("Access-Control-Expose-Headers", "X-Request-Id")
			if r.Method == http.MethodOptions {
				w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
				w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Trace")
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		b, _ := io.ReadAll(r.Body)
		c := apiCall{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Authorization: r.Header.Get("Authorization"), Trace: r.Header.Get("X-Trace"),
			Cookie: r.Header.Get("Cookie"), Origin: r.Header.Get("Origin"), ContentType: r.Header.Get("Content-Type"), Body: string(b)}
		a.mu.Lock()
		a.calls = append(a.calls, c)
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req-42")
		_ = json.NewEncoder(w).Encode(c)
	}))
	t.Cleanup(a.Close)
	return a
}

func (a *testAPI) got() []apiCall {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]apiCall(nil), a.calls...)
}

// The playground in Chromium, keyboard only: it sends the request from the
// browser to a test API on loopback and shows the answer's status,
// exposed headers and body; its snippets are the page's (Go's) until the
// form changes, then follow it; the token stays in the tab's session
// storage and never reaches Galley; an API without CORS shows the
// message; axe-core finds no serious or critical violation; without
// JavaScript only the snippets show.
func TestBrowserPlayground(t *testing.T) {
	b := startBrowser(t)
	withCORS, withoutCORS := newTestAPI(t, true), newTestAPI(t, false)
	corsTemplate := strings.Replace(withCORS.URL, "127.0.0.1", "{host}", 1)
	f := playgroundSite(t, corsTemplate, withoutCORS.URL)
	const token = "s3cret-token"
	var mu sync.Mutex
	var leaks []string
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.String(), token) || strings.Contains(r.Header.Get("Authorization"), token) || strings.Contains(r.Header.Get("Cookie"), token) {
			mu.Lock()
			leaks = append(leaks, r.Method+" "+r.URL.String())
			mu.Unlock()
		}
		f.h.ServeHTTP(w, r)
	}))
	t.Cleanup(b.srv.Close)
	t.Cleanup(func() {
		if len(leaks) > 0 {
			t.Errorf("the token reached Galley: %v", leaks)
		}
	})
	pg := `details.playground[data-path="/pets/{petId}"] `
	ready := `!document.querySelector(".pg-form").hidden`

	t.Run("sends and shows the answer", func(t *testing.T) {
		ctx := b.tab(t)
		// The snippets the page came with (Go's) are those the script
		// writes for the same form.
		raw, _ := f.body(t, http.StatusOK, f.base+"/reference/pets")
		var served []string
		for _, m := range reSnippet.FindAllStringSubmatch(raw, -1) {
			served = append(served, html.UnescapeString(m[2]))
		}
		b.open(t, ctx, f.base+"/reference/pets")
		waitFor(t, ctx, ready, "the playground's form")
		shown := eval[[]string](t, ctx, `Array.prototype.map.call(document.querySelectorAll("code.pg-snippet"),function(c){return c.textContent})`)
		if len(served) != 6 || strings.Join(shown, "\n--\n") != strings.Join(served, "\n--\n") {
			t.Errorf("the script's snippets differ from the page's:\n%s\nwant\n%s", strings.Join(shown, "\n--\n"), strings.Join(served, "\n--\n"))
		}

		run(t, ctx, "open Test it with Enter", chromedp.Focus(chromedp.CSS(pg+"summary")), chromedp.KeyEvent(kb.Enter))
		if !visible(t, ctx, pg+".pg-send") {
			t.Fatal("Enter on Test it did not show the form")
		}
		run(t, ctx, "type the token and the pet", chromedp.Focus(chromedp.CSS(pg+`input[data-part="token"]`)), chromedp.KeyEvent(token),
			chromedp.Focus(chromedp.CSS(pg+`input[data-name="petId"]`)), chromedp.KeyEvent(kb.End), chromedp.KeyEvent(kb.Backspace+kb.Backspace+kb.Backspace), chromedp.KeyEvent("fido"))
		curl := eval[string](t, ctx, `document.querySelector('`+pg+`code.pg-snippet[data-lang="curl"]').textContent`)
		if !strings.Contains(curl, "--url '"+withCORS.URL+"/pets/fido?verbose=false'") || !strings.Contains(curl, "Bearer YOUR_TOKEN") || strings.Contains(curl, token) {
			t.Errorf("the curl snippet after typing:\n%s", curl)
		}
		run(t, ctx, "press Send", chromedp.Focus(chromedp.CSS(pg+".pg-send")), chromedp.KeyEvent(kb.Enter))
		waitFor(t, ctx, `document.querySelector('`+pg+`.pg-status').textContent.indexOf("200")===0`, "the answer's status")
		out := eval[[]string](t, ctx, `Array.prototype.map.call(document.querySelectorAll('`+pg+`.pg-result pre'),function(p){return p.textContent})`)
		if len(out) != 2 || !strings.Contains(out[0], "x-request-id: req-42") || !strings.Contains(out[1], `"Authorization": "Bearer `+token+`"`) ||
			!strings.Contains(out[1], `"Path": "/pets/fido"`) {
			t.Errorf("the answer shown: %q", out)
		}
		calls := withCORS.got()
		if len(calls) != 1 || calls[0].Method != "GET" || calls[0].Query != "verbose=false" || calls[0].Trace != "t-1" || calls[0].Cookie != "" || calls[0].Origin != b.srv.URL {
			t.Errorf("the API got %+v", calls)
		}
		if eval[string](t, ctx, `sessionStorage.getItem("galley.playground `+withCORS.URL+` bearerAuth token")`) != token ||
			eval[bool](t, ctx, `Object.keys(localStorage).some(function(k){return localStorage.getItem(k).indexOf("`+token+`")>=0})`) || eval[string](t, ctx, `document.cookie`) != "" {
			t.Error("the token is not in the session storage, or is elsewhere")
		}
		screenshot(t, ctx, "playground.png")
		b.checkA11y(t, ctx, "playground with an answer, light")

		// A host the spec does not name is not reached: the page's
		// policy allows only the spec's servers, and the playground says so.
		run(t, ctx, "type another host", chromedp.Focus(chromedp.CSS(pg+`input.pg-var[data-name="host"]`)), chromedp.KeyEvent(kb.End),
			chromedp.KeyEvent(strings.Repeat(kb.Backspace, len("127.0.0.1"))), chromedp.KeyEvent("localhost"),
			chromedp.Focus(chromedp.CSS(pg+".pg-send")), chromedp.KeyEvent(kb.Enter))
		waitFor(t, ctx, `document.querySelector('`+pg+`.pg-status.pg-error')!==null`, "the message")
		if msg := eval[string](t, ctx, `document.querySelector('`+pg+`.pg-status').textContent`); !strings.Contains(msg, "only to the servers its API specification names ("+withCORS.URL+", "+withoutCORS.URL+")") {
			t.Errorf("the message: %q", msg)
		}
		if n := len(withCORS.got()); n != 1 {
			t.Errorf("the API got %d requests", n)
		}

		// Kept for the tab (the same origin's other pages too).
		b.open(t, ctx, f.base+"/reference/pets")
		waitFor(t, ctx, ready, "the playground's form")
		if v := eval[string](t, ctx, `document.querySelector('`+pg+`input[data-part="token"]').value`); v != token {
			t.Errorf("after a reload the token is %q", v)
		}

		// Another server: its own credentials (none yet), and the
		// message when it does not allow the request.
		run(t, ctx, "open Test it", chromedp.Focus(chromedp.CSS(pg+"summary")), chromedp.KeyEvent(kb.Enter))
		run(t, ctx, "choose the server without CORS", chromedp.Focus(chromedp.CSS(pg+".pg-server")), chromedp.KeyEvent(kb.ArrowDown))
		waitFor(t, ctx, `document.querySelector('`+pg+`code.pg-snippet[data-lang="python"]').textContent.indexOf("`+withoutCORS.URL+`/pets/rex")>0`, "the snippet to follow the server")
		if v := eval[string](t, ctx, `document.querySelector('`+pg+`input[data-part="token"]').value`); v != "" {
			t.Errorf("another server's token field holds %q", v)
		}
		run(t, ctx, "press Send", chromedp.Focus(chromedp.CSS(pg+".pg-send")), chromedp.KeyEvent(kb.Enter))
		waitFor(t, ctx, `document.querySelector('`+pg+`.pg-status.pg-error')!==null`, "the CORS message")
		msg := eval[string](t, ctx, `document.querySelector('`+pg+`.pg-status').textContent`)
		if !strings.Contains(msg, "the API at "+withoutCORS.URL+" does not allow cross-origin requests from this site") {
			t.Errorf("the message: %q", msg)
		}
		if visible(t, ctx, pg+".pg-result") {
			t.Error("a result is shown after the failure")
		}
		for _, c := range withoutCORS.got() {
			if c.Method != http.MethodOptions {
				t.Errorf("the API without CORS got %+v (only its preflight should reach it)", c)
			}
		}
		b.checkA11y(t, ctx, "playground with the CORS message")
	})

	t.Run("an OpenAPI block sends its body", func(t *testing.T) {
		ctx := b.themedTab(t, "dark")
		b.open(t, ctx, f.base+"/block")
		waitFor(t, ctx, ready, "the playground's form")
		run(t, ctx, "open Test it", chromedp.Focus(chromedp.CSS("details.playground summary")), chromedp.KeyEvent(kb.Enter))
		run(t, ctx, "press Send", chromedp.Focus(chromedp.CSS(".pg-send")), chromedp.KeyEvent(kb.Enter))
		waitFor(t, ctx, `document.querySelector(".pg-status").textContent.indexOf("200")===0`, "the answer's status")
		calls := withCORS.got()
		last := calls[len(calls)-1]
		if last.Method != "POST" || last.Path != "/pets" || last.ContentType != "application/json" || last.Body != "{\n  \"name\": \"Rex\"\n}" || last.Authorization != "" {
			t.Errorf("the API got %+v", last)
		}
		b.checkA11y(t, ctx, "playground with an answer, dark")
	})

	t.Run("without JavaScript", func(t *testing.T) {
		ctx := b.tab(t)
		run(t, ctx, "disable scripts", command(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}))
		b.open(t, ctx, f.base+"/reference/pets")
		run(t, ctx, "open Test it", chromedp.Click(chromedp.CSS(pg+"summary"), chromedp.NodeVisible))
		if visible(t, ctx, pg+".pg-send") || !visible(t, ctx, pg+`code.pg-snippet[data-lang="curl"]`) {
			t.Error("without JavaScript: the form shows, or the snippets do not")
		}
	})
}
