package content_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// GET /v1/urls/content resolves the application's URLs (urls.app) to the
// collection, or the space with the change request and page they name,
// for those who may read them.
func TestContentByURL(t *testing.T) {
	a := testkit.NewAPI(t, testkit.New(t), []string{"content", "spaces", "changerequests", "collections"})
	f := &fixture{API: a, space: a.Space(t)}
	pages, bodies := samplePages()
	f.seed(t, pages, bodies, nil)
	admin := f.As(t, "admin")
	col := admin.Expect(201, "POST", "/v1/orgs/"+a.Org.ID+"/collections", map[string]any{"title": "Guides"}).Map(t)["id"].(string)
	cr := admin.Expect(201, "POST", "/v1/spaces/"+f.space+"/change-requests", map[string]any{"subject": "Edits"}).Map(t)
	crApp := cr["urls"].(map[string]any)["app"].(string)
	resolve := func(name, u string) map[string]any {
		return f.As(t, name).Expect(200, "GET", "/v1/urls/content?url="+url.QueryEscape(u), nil).Map(t)
	}
	space := f.As(t, "read").Expect(200, "GET", "/v1/spaces/"+f.space, nil).Map(t)
	spaceApp := space["urls"].(map[string]any)["app"].(string)

	if r := resolve("read", spaceApp); r["space"].(map[string]any)["id"] != f.space || r["page"] != nil || r["changeRequest"] != nil {
		t.Fatalf("space URL: %v", r)
	}
	page := f.As(t, "read").Expect(200, "GET", "/v1/spaces/"+f.space+"/content/path/intro/setup", nil).Map(t)
	pageApp := page["urls"].(map[string]any)["app"].(string)
	if r := resolve("read", pageApp+"?tab=1#part"); r["page"].(map[string]any)["id"] != "setup" || r["space"].(map[string]any)["id"] != f.space {
		t.Fatalf("page URL %s: %v", pageApp, r)
	}
	if r := resolve("read", crApp+"/guide"); r["changeRequest"].(map[string]any)["id"] != cr["id"] || r["page"].(map[string]any)["id"] != "guide" {
		t.Fatalf("change request page URL: %v", r)
	}
	if r := resolve("read", "https://app.test/c/"+col); r["collection"].(map[string]any)["id"] != col || r["space"] != nil {
		t.Fatalf("collection URL: %v", r)
	}
	q := func(u string) string { return "/v1/urls/content?url=" + url.QueryEscape(u) }
	a.Check(t, []testkit.Case{
		{"401 without token", "", "GET", q(spaceApp), nil, 401, ""},
		{"404 a space the caller cannot read", a.Tokens[testkit.Outsider], "GET", q(spaceApp), nil, 404, ""},
		{"404 a collection the caller cannot read", a.Tokens[testkit.Outsider], "GET", q("https://app.test/c/" + col), nil, 404, ""},
		{"404 an unknown page", a.Tokens["read"], "GET", q(spaceApp + "/nowhere"), nil, 404, ""},
		{"404 an unknown change request", a.Tokens["read"], "GET", q(spaceApp + "/~/changes/99"), nil, 404, ""},
		{"400 another site's URL", a.Tokens["read"], "GET", q("https://elsewhere.test/s/" + f.space), nil, 400, "url"},
		{"400 a URL naming nothing", a.Tokens["read"], "GET", q("https://app.test/x/y"), nil, 400, "url"},
		{"400 a change request that is no number", a.Tokens["read"], "GET", q(spaceApp + "/~/changes/first"), nil, 400, "url"},
		{"400 without url", a.Tokens["read"], "GET", "/v1/urls/content", nil, 400, "url"},
	})
}

// linkServer serves pages for link cards on loopback, counting requests.
func linkServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><title>Plain title</title>
<meta property="og:title" content="The   Article">
<meta property="og:site_name" content="Example News">
<meta name="description" content="What it says.">
<link rel="shortcut icon" href="/static/icon.png">
</head><body><title>not this</title></body></html>`)
	})
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title> Just a title </title></head></html>`)
	})
	mux.HandleFunc("/files/report.pdf", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(w, "%PDF-1.4")
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, "/plain", http.StatusFound)
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "no", http.StatusInternalServerError)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &hits
}

// Link cards read a page's head (Open Graph first, then <title> and the
// description meta, and its icon made absolute), are kept (a second ask
// does not fetch), and go through the guarded fetcher: loopback here only
// because the test allows it, as FETCH_ALLOW_PRIVATE does.
func TestLinkCards(t *testing.T) {
	k := testkit.New(t)
	k.Deps.FetchAllowPrivate = true
	f := setupOn(t, k)
	srv, hits := linkServer(t)
	embed := func(name, u string) map[string]any {
		return f.As(t, name).Expect(200, "GET", "/v1/urls/embed?url="+url.QueryEscape(u), nil).Map(t)
	}
	c := embed("read", srv.URL+"/article#section")
	if c["type"] != "link" || c["title"] != "The Article" || c["site"] != "Example News" || c["description"] != "What it says." || c["icon"] != srv.URL+"/static/icon.png" {
		t.Fatalf("card %v", c)
	}
	if again := embed("comment", srv.URL+"/article"); again["title"] != "The Article" || hits.Load() != 1 {
		t.Fatalf("second card %v after %d fetches, want it kept after 1", again, hits.Load())
	}
	if p := embed("read", srv.URL+"/plain"); p["title"] != "Just a title" || p["description"] != nil || p["icon"] != nil {
		t.Fatalf("plain card %v", p)
	}
	if p := embed("read", srv.URL+"/moved"); p["title"] != "Just a title" {
		t.Fatalf("card after a redirect %v", p)
	}
	if p := embed("read", srv.URL+"/files/report.pdf"); p["title"] != "report.pdf" || p["site"] != "127.0.0.1" {
		t.Fatalf("file card %v", p)
	}
	// A page that cannot be read gets a plain card, not kept.
	before := hits.Load()
	for range 2 {
		if p := embed("read", srv.URL+"/broken"); p["title"] != srv.URL+"/broken" || p["site"] != "127.0.0.1" {
			t.Fatalf("card of a failing page %v", p)
		}
	}
	if hits.Load() != before+2 {
		t.Fatalf("a failed card was kept (%d fetches, want 2)", hits.Load()-before)
	}
	inSpace := "/v1/spaces/" + f.space + "/embed?url=" + url.QueryEscape(srv.URL+"/article")
	if s := f.As(t, "read").Expect(200, "GET", inSpace, nil).Map(t); s["title"] != "The Article" {
		t.Fatalf("card in the space %v", s)
	}
	f.Check(t, []testkit.Case{
		{"401 without token", "", "GET", "/v1/urls/embed?url=" + url.QueryEscape(srv.URL+"/article"), nil, 401, ""},
		{"401 without token (space)", "", "GET", inSpace, nil, 401, ""},
		{"404 for an outsider of the space", f.Tokens[testkit.Outsider], "GET", inSpace, nil, 404, ""},
		{"404 an unknown space", f.Tokens["read"], "GET", "/v1/spaces/nope/embed?url=" + url.QueryEscape(srv.URL), nil, 404, ""},
		{"400 without url", f.Tokens["read"], "GET", "/v1/urls/embed", nil, 400, "url"},
		{"400 not http", f.Tokens["read"], "GET", "/v1/urls/embed?url=" + url.QueryEscape("file:///etc/passwd"), nil, 400, "url"},
		{"400 credentials in the URL", f.Tokens["read"], "GET", "/v1/urls/embed?url=" + url.QueryEscape("https://u:p@example.com/"), nil, 400, "url"},
	})
}

// By default (FETCH_ALLOW_PRIVATE unset) a link card of a loopback,
// private or link-local address is refused naming url, and nothing is
// fetched.
func TestLinkCardsRefusePrivateAddresses(t *testing.T) {
	f := setup(t)
	srv, hits := linkServer(t)
	cases := []testkit.Case{}
	for _, u := range []string{srv.URL + "/article", "http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://192.168.1.1:8080/x"} {
		cases = append(cases, testkit.Case{"400 " + u, f.Tokens["read"], "GET", "/v1/urls/embed?url=" + url.QueryEscape(u), nil, 400, "url"},
			testkit.Case{"400 in the space " + u, f.Tokens["read"], "GET", "/v1/spaces/" + f.space + "/embed?url=" + url.QueryEscape(u), nil, 400, "url"})
	}
	f.Check(t, cases)
	if hits.Load() != 0 {
		t.Fatalf("the loopback server was reached %d times", hits.Load())
	}
}
