package readerhttp_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/changerequestsroot"
	"github.com/galleydocs/galley/shared/app/roots/contentroot"
	"github.com/galleydocs/galley/shared/app/roots/readerroot"
	"github.com/galleydocs/galley/shared/app/roots/searchroot"
	"github.com/galleydocs/galley/shared/app/roots/sitesroot"
	"github.com/galleydocs/galley/shared/app/roots/spacesroot"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

// fixture is an API with the families a published site needs (spaces,
// sites, content, change requests) and the reader, on one store; an
// organization administered by alice, with a space of pages published as
// the site "docs".
type fixture struct {
	kit     *testkit.Kit
	api     *httpapi.API
	h       http.Handler
	org     model.Organization
	admin   string // token
	adminID string
	space   string
	sitePth string // the site's API path
	base    string // the site's published path, /sites/<org>/docs
	pages   map[string]string
}

func newFixture(t testing.TB) *fixture {
	k := testkit.New(t)
	api := httpapi.New(httpapi.Config{Auth: users.New(k.Deps), Logger: k.Deps.Logger, APIURL: "https://api.test", AppURL: "https://app.test"})
	spacesroot.Routes(api, app.NewRoot(k.Deps))
	sitesroot.Routes(api, app.NewRoot(k.Deps))
	contentroot.Routes(api, app.NewRoot(k.Deps))
	changerequestsroot.Routes(api, app.NewRoot(k.Deps))
	readerroot.Routes(api, app.NewRoot(k.Deps))
	searchroot.Routes(api, app.NewRoot(k.Deps)) // the site's search page runs in the search function
	f := &fixture{kit: k, api: api, h: api.Handler()}
	ua, ta := k.User("alice")
	f.admin, f.adminID = ta, ua.ID
	f.org = k.Org("Acme", map[string]model.Role{ua.ID: model.RoleAdmin})
	return f
}

func (f *fixture) as(t testing.TB) *apitest.Client {
	c := apitest.New(t, f.api)
	c.Token = f.admin
	return c
}

// newSpace makes a space and merges a change request of changes into it.
func (f *fixture) newSpace(t testing.TB, title string, changes ...map[string]any) (string, map[string]string) {
	t.Helper()
	c := f.as(t)
	sp := c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/spaces", map[string]any{"title": title}).Map(t)["id"].(string)
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
	c := f.as(t)
	s := c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/sites", map[string]any{"title": "Acme Docs", "spaces": []string{f.space}}).Map(t)
	f.sitePth = "/v1/orgs/" + f.org.ID + "/sites/" + s["id"].(string)
	patch := map[string]any{"basename": "docs"}
	for k, v := range settings {
		patch[k] = v
	}
	c.Expect(http.StatusOK, "PATCH", f.sitePth, patch)
	c.Expect(http.StatusOK, "POST", f.sitePth+"/publish", nil)
	f.base = "/sites/" + f.org.ID + "/docs"
	return f
}

// get requests a published URL as a visitor (no token).
func (f *fixture) get(t testing.TB, path string, headers ...string) *http.Response {
	t.Helper()
	r := httptest.NewRequest("GET", "https://app.test"+path, nil)
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
