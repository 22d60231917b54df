package readerhttp_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// fixture is an API with the families a published site needs (spaces,
// sites, content, change requests) and the reader and search (the site's
// search page runs in the search function), on a kit (testkit.NewAPI);
// its organization's admin publishes the sites: standardSite makes a
// space of pages published as the site "docs".
type fixture struct {
	*testkit.API
	h       http.Handler
	space   string
	sitePth string // the site's API path
	base    string // the site's published path, /sites/<org>/docs
	pages   map[string]string
}

func TestMain(m *testing.M) { testkit.Main(m) }

func newFixture(t testing.TB) *fixture { return newFixtureOn(t, testkit.New(t)) }

// newFixtureOn is newFixture on the kit k (a kit whose blobs are on S3).
func newFixtureOn(t testing.TB, k *testkit.Kit) *fixture {
	a := testkit.NewAPI(t, k, []string{"spaces", "sites", "content", "changerequests", "reader", "search"})
	return &fixture{API: a, h: a.API.Handler()}
}

// newSpace makes a space and merges a change request of changes into it.
func (f *fixture) newSpace(t testing.TB, title string, changes ...map[string]any) (string, map[string]string) {
	t.Helper()
	c := f.As(t, "admin")
	sp := c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/spaces", map[string]any{"title": title}).Map(t)["id"].(string)
	crs := "/v1/spaces/" + sp + "/change-requests"
	n := c.Expect(http.StatusCreated, "POST", crs, map[string]any{"subject": "pages"}).Map(t)["number"]
	cr := crs + "/" + jsonNumber(n)
	refs := c.Expect(http.StatusOK, "POST", cr+"/content?compat=false", map[string]any{"changes": changes}).Map(t)["refs"].(map[string]any)
	c.Expect(http.StatusOK, "POST", cr+"/merge", nil)
	out := map[string]string{}
	for k, v := range refs {
		out[k] = v.(string)
	}
	return sp, out
}

func jsonNumber(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	}
	return ""
}

func page(ref, into, markdown string, extra ...any) map[string]any {
	c := map[string]any{"operation": "insert_page", "ref": ref, "document": map[string]any{"markdown": markdown}}
	if into != "" {
		c["into"] = into
	}
	for i := 0; i+1 < len(extra); i += 2 {
		c[extra[i].(string)] = extra[i+1]
	}
	return c
}

// blocksMarkdown is a page with every block type.
func blocksMarkdown(t testing.TB) string {
	b, err := os.ReadFile("../testdata/blocks.md")
	if err != nil {
		t.Fatal(err)
	}
	return "# Blocks\n\n" + string(b)
}

// standardSite makes the site "docs" over a space of pages: Introduction
// (the first), Blocks (every block type) with a child, a hidden page, a
// group Reference holding API and a page marked noindex.
func standardSite(t testing.TB, settings map[string]any) *fixture {
	f := newFixture(t)
	f.space, f.pages = f.newSpace(t, "Guide",
		page("intro", "", "# Introduction\n\nWelcome. Read [the blocks](./blocks.md).\n"),
		page("blocks", "", blocksMarkdown(t), "description", "Every block"),
		page("child", "blocks", "# Child page\n\nA child.\n"),
		page("secret", "", "# Secret\n\nNot in navigation.\n", "hidden", true),
		map[string]any{"operation": "insert_page", "ref": "ref", "type": "group", "title": "Reference"},
		page("api", "ref", "# API\n\nThe API.\n"),
		page("quiet", "ref", "# Quiet\n\nNot for robots.\n", "noIndex", true),
	)
	patch := map[string]any{"basename": "docs"}
	for k, v := range settings {
		patch[k] = v
	}
	f.publish(t, "Acme Docs", patch)
	return f
}

// publish makes the site title over the fixture's space with settings
// (its basename included), and publishes it.
func (f *fixture) publish(t testing.TB, title string, settings map[string]any) {
	t.Helper()
	c := f.As(t, "admin")
	s := c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/sites", map[string]any{"title": title, "spaces": []string{f.space}}).Map(t)
	f.sitePth = "/v1/orgs/" + f.Org.ID + "/sites/" + s["id"].(string)
	c.Expect(http.StatusOK, "PATCH", f.sitePth, settings)
	c.Expect(http.StatusOK, "POST", f.sitePth+"/publish", nil)
	f.base = "/sites/" + f.Org.ID + "/" + settings["basename"].(string)
}

// get requests a published URL as a visitor (no token).
func (f *fixture) get(t testing.TB, path string, headers ...string) *http.Response {
	t.Helper()
	return f.send("GET", path, nil, headers...)
}

// send sends a request of a published URL, with headers (name, value...),
// and answers the response.
func (f *fixture) send(method, path string, body io.Reader, headers ...string) *http.Response {
	r := httptest.NewRequest(method, "https://app.test"+path, body)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	return w.Result()
}

// body requests a published URL and checks the status.
func (f *fixture) body(t testing.TB, want int, path string) (string, *http.Response) {
	t.Helper()
	res := f.get(t, path)
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("GET %s: %d, want %d\n%.2000s", path, res.StatusCode, want, b)
	}
	return string(b), res
}
