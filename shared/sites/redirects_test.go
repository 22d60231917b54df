package sites_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

func TestRedirects(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		site, ss := f.siteWithSpaces(t)
		a := f.as(t, f.admin)
		a.Expect(http.StatusOK, "POST", site+"/publish", nil)
		ext := a.Expect(http.StatusCreated, "POST", site+"/redirects", map[string]any{"source": "/old", "destination": map[string]any{"kind": "external", "url": "https://example.com/new"}})
		saveAnswer(t, "SiteRedirect", ext.Body)
		r := ext.Map(t)
		if r["object"] != "site-redirect" || r["source"] != "/old" || r["draft"] != false || r["permanent"] != false {
			t.Fatalf("redirect = %v", r)
		}
		a.Expect(http.StatusConflict, "POST", site+"/redirects", map[string]any{"source": "/old", "destination": map[string]any{"kind": "site-space", "siteSpaceId": ss[1]}})
		w := f.as(t, f.creator).Expect(http.StatusCreated, "POST", site+"/redirects", map[string]any{"source": "/legacy/*", "captureWildcard": true,
			"destination": map[string]any{"kind": "site-space", "siteSpaceId": ss[1]}}).Map(t)
		// The renderer's lookup: exact, then the longest wildcard.
		found := a.Expect(http.StatusOK, "GET", site+"/redirect?source=/old", nil)
		saveAnswer(t, "SiteRedirectFound", found.Body)
		if m := found.Map(t); m["target"] != "https://example.com/new" || m["redirect"].(map[string]any)["id"] != r["id"] {
			t.Errorf("found = %v", m)
		}
		m := f.as(t, f.reader).Expect(http.StatusOK, "GET", site+"/redirect?source="+url.QueryEscape("/legacy/a/b"), nil).Map(t)
		if m["redirect"].(map[string]any)["id"] != w["id"] || !strings.HasSuffix(m["target"].(string), "/api/a/b") {
			t.Errorf("wildcard found = %v", m)
		}
		a.Expect(http.StatusNotFound, "GET", site+"/redirect?source=/unknown", nil)
		a.Expect(http.StatusNotFound, "GET", site+"/redirect?source=/legacy", nil)
		// Drafts are not live.
		a.Expect(http.StatusCreated, "POST", site+"/redirects", map[string]any{"source": "/soon", "draft": true, "destination": map[string]any{"kind": "site-space", "siteSpaceId": ss[0]}})
		a.Expect(http.StatusNotFound, "GET", site+"/redirect?source=/soon", nil)
		for _, limit := range []int{1, 50} {
			live := f.list(t, f.reader, site+"/redirects", limit)
			expectOrder(t, "live redirects", field(live, "source"), "/old", "/legacy/*")
		}
		expectOrder(t, "draft redirects", field(f.list(t, f.admin, site+"/redirects?draft=true", 10), "source"), "/soon")
		expectOrder(t, "search", field(f.list(t, f.admin, site+"/redirects?search=LEG", 10), "source"), "/legacy/*")
		// Update: a new source moves it; the old one is free again.
		u := a.Expect(http.StatusOK, "PATCH", site+"/redirects/"+r["id"].(string), map[string]any{"source": "/older", "permanent": true}).Map(t)
		if u["source"] != "/older" || u["permanent"] != true || u["destination"].(map[string]any)["url"] != "https://example.com/new" {
			t.Fatalf("updated = %v", u)
		}
		a.Expect(http.StatusNotFound, "GET", site+"/redirect?source=/old", nil)
		a.Expect(http.StatusOK, "GET", site+"/redirect?source=/older", nil)
		a.Expect(http.StatusConflict, "PATCH", site+"/redirects/"+r["id"].(string), map[string]any{"source": "/legacy/*"})
		a.Expect(http.StatusResetContent, "DELETE", site+"/redirects/"+r["id"].(string), nil)
		a.Expect(http.StatusNoContent, "DELETE", site+"/redirects/"+r["id"].(string), nil)
		a.Expect(http.StatusNotFound, "PATCH", site+"/redirects/"+r["id"].(string), map[string]any{"permanent": false})
		a.Expect(http.StatusNotFound, "GET", site+"/redirect?source=/older", nil)
		// Deleting the site deletes its redirects.
		a.Expect(http.StatusResetContent, "DELETE", site, nil)
		items, err := storeItems(f, "SITE#"+site[strings.LastIndex(site, "/")+1:])
		if err != nil || len(items) != 0 {
			t.Errorf("after deleting the site, its partition holds %d items (%v)", len(items), err)
		}
	})
}

func TestRedirectsReject(t *testing.T) {
	f := setup(t)
	site, ss := f.siteWithSpaces(t)
	_, theirs := f.siteIn(t, f.outsider, f.other.ID)
	id := f.as(t, f.admin).Expect(http.StatusCreated, "POST", site+"/redirects", map[string]any{"source": "/a", "destination": map[string]any{"kind": "site-space", "siteSpaceId": ss[0]}}).Map(t)["id"].(string)
	good := map[string]any{"source": "/b", "destination": map[string]any{"kind": "site-space", "siteSpaceId": ss[0]}}
	dest := func(d map[string]any) map[string]any { return map[string]any{"source": "/c", "destination": d} }
	testkit.Check(t, f.api, []testkit.Case{
		{"no token list", "", "GET", site + "/redirects", nil, 401, ""},
		{"no token create", "", "POST", site + "/redirects", good, 401, ""},
		{"no token lookup", "", "GET", site + "/redirect?source=/a", nil, 401, ""},
		{"outsider list", f.outsider, "GET", site + "/redirects", nil, 404, ""},
		{"outsider create", f.outsider, "POST", site + "/redirects", good, 404, ""},
		{"outsider lookup", f.outsider, "GET", site + "/redirect?source=/a", nil, 404, ""},
		{"outsider update", f.outsider, "PATCH", site + "/redirects/" + id, map[string]any{"permanent": true}, 404, ""},
		{"outsider delete", f.outsider, "DELETE", site + "/redirects/" + id, nil, 404, ""},
		{"guest list", f.guest, "GET", site + "/redirects", nil, 404, ""},
		{"another org's site", f.admin, "GET", "/v1/orgs/" + f.org.ID + "/sites/" + theirs + "/redirects", nil, 404, ""},
		{"reader create", f.reader, "POST", site + "/redirects", good, 403, ""},
		{"reader update", f.reader, "PATCH", site + "/redirects/" + id, map[string]any{"permanent": true}, 403, ""},
		{"reader delete", f.reader, "DELETE", site + "/redirects/" + id, nil, 403, ""},
		{"bad source", f.admin, "POST", site + "/redirects", map[string]any{"source": "no-slash", "destination": good["destination"]}, 400, "source"},
		{"star inside", f.admin, "POST", site + "/redirects", map[string]any{"source": "/a*/b", "destination": good["destination"]}, 400, "source"},
		{"no destination", f.admin, "POST", site + "/redirects", map[string]any{"source": "/d"}, 400, "destination"},
		{"bad kind", f.admin, "POST", site + "/redirects", dest(map[string]any{"kind": "teleport"}), 400, "destination.kind"},
		{"path kind", f.admin, "POST", site + "/redirects", dest(map[string]any{"kind": "path", "spaceId": "x", "path": "a"}), 400, "destination.kind"},
		{"unknown site space", f.admin, "POST", site + "/redirects", dest(map[string]any{"kind": "site-space", "siteSpaceId": "nope"}), 400, "destination.siteSpaceId"},
		{"unknown section", f.admin, "POST", site + "/redirects", dest(map[string]any{"kind": "site-section", "siteSectionId": "nope"}), 400, "destination.siteSectionId"},
		{"page without id", f.admin, "POST", site + "/redirects", dest(map[string]any{"kind": "site-page", "siteSpaceId": ss[0]}), 400, "destination.pageId"},
		{"relative url", f.admin, "POST", site + "/redirects", dest(map[string]any{"kind": "external", "url": "/x"}), 400, "destination.url"},
		{"lookup without source", f.admin, "GET", site + "/redirect", nil, 400, "source"},
		{"lookup bad source", f.admin, "GET", site + "/redirect?source=x", nil, 400, "source"},
		{"bad update source", f.admin, "PATCH", site + "/redirects/" + id, map[string]any{"source": "x"}, 400, "source"},
		{"bad page token", f.admin, "GET", site + "/redirects?page=nope", nil, 400, "page"},
		{"unknown redirect", f.admin, "PATCH", site + "/redirects/nope", map[string]any{"permanent": true}, 404, ""},
	})
}

func TestBulkRedirects(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		site, ss := f.siteWithSpaces(t)
		a := f.as(t, f.admin)
		a.Expect(http.StatusOK, "POST", site+"/publish", nil)
		dest := map[string]any{"kind": "site-space", "siteSpaceId": ss[1]}
		res := a.Expect(http.StatusOK, "PUT", site+"/redirects", map[string]any{"redirects": []any{
			map[string]any{"source": "/a", "destination": dest},
			map[string]any{"source": "/b", "intent": "draft", "destination": dest, "permanent": true},
			map[string]any{"source": "/c", "destination": map[string]any{"kind": "site-space", "siteSpaceId": "nope"}},
		}}).Map(t)["results"].([]any)
		status := func(rs []any) string {
			var out []string
			for _, r := range rs {
				out = append(out, r.(map[string]any)["status"].(string))
			}
			return join(out)
		}
		if status(res) != "created,created,error" || res[2].(map[string]any)["error"] == "" {
			t.Fatalf("first batch = %v", res)
		}
		a.Expect(http.StatusNotFound, "GET", site+"/redirect?source=/b", nil)
		res = a.Expect(http.StatusOK, "PUT", site+"/redirects", map[string]any{"redirects": []any{
			map[string]any{"source": "/a", "destination": map[string]any{"kind": "external", "url": "https://x.test"}},
			map[string]any{"source": "/b", "intent": "publish"},
			map[string]any{"source": "/b", "intent": "publish"},
			map[string]any{"source": "/a", "intent": "draft", "destination": nil},
		}}).Map(t)["results"].([]any)
		if status(res) != "updated,published,error,error" {
			t.Fatalf("second batch = %v", res)
		}
		if m := a.Expect(http.StatusOK, "GET", site+"/redirect?source=/b", nil).Map(t); m["redirect"].(map[string]any)["permanent"] != true {
			t.Errorf("published = %v", m)
		}
		if m := a.Expect(http.StatusOK, "GET", site+"/redirect?source=/a", nil).Map(t); m["target"] != "https://x.test" {
			t.Errorf("updated = %v", m)
		}
		res = a.Expect(http.StatusOK, "PUT", site+"/redirects", map[string]any{"redirects": []any{map[string]any{"source": "/a", "destination": nil}}}).Map(t)["results"].([]any)
		if status(res) != "deleted" {
			t.Fatalf("delete = %v", res)
		}
		a.Expect(http.StatusNotFound, "GET", site+"/redirect?source=/a", nil)
		expectOrder(t, "after the batches", field(f.list(t, f.admin, site+"/redirects", 10), "source"), "/b")
		expectOrder(t, "no drafts left", field(f.list(t, f.admin, site+"/redirects?draft=true", 10), "source"))
		f.as(t, f.reader).Expect(http.StatusForbidden, "PUT", site+"/redirects", map[string]any{"redirects": []any{map[string]any{"source": "/z", "destination": dest}}})
		f.as(t, f.outsider).Expect(http.StatusNotFound, "PUT", site+"/redirects", map[string]any{"redirects": []any{map[string]any{"source": "/z", "destination": dest}}})
		f.as(t, "").Expect(http.StatusUnauthorized, "PUT", site+"/redirects", map[string]any{"redirects": []any{map[string]any{"source": "/z", "destination": dest}}})
		mentions(t, a.Expect(http.StatusBadRequest, "PUT", site+"/redirects", map[string]any{"redirects": []any{}}), "redirects")
		mentions(t, a.Expect(http.StatusBadRequest, "PUT", site+"/redirects", map[string]any{"redirects": []any{map[string]any{"source": "bad", "destination": dest}}}), "redirects[0].source")
		mentions(t, a.Expect(http.StatusBadRequest, "PUT", site+"/redirects", map[string]any{"redirects": []any{map[string]any{"source": "/z"}}}), "redirects[0].destination")
	})
}
