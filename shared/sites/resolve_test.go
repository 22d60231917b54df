package sites_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/changerequestsroot"
	"github.com/galleydocs/galley/shared/app/roots/contentroot"
	"github.com/galleydocs/galley/shared/sitetoken"
)

// docsSite is a published site with basename docs showing Guide (the
// default) and API (at /api).
func (f *fixture) docsSite(t *testing.T) (path, siteID string, ss, spaceIDs []string) {
	t.Helper()
	a, b := f.space(t, "Guide"), f.space(t, "API")
	path, s := f.site(t, map[string]any{"title": "Docs", "spaces": []string{a, b}})
	c := f.as(t, f.admin)
	c.Expect(http.StatusOK, "PATCH", path, map[string]any{"basename": "docs"})
	c.Expect(http.StatusOK, "POST", path+"/publish", nil)
	return path, s["id"].(string), ids(f.list(t, f.admin, path+"/site-spaces", 10)), []string{a, b}
}

func (f *fixture) resolve(t *testing.T, status int, u string) map[string]any {
	t.Helper()
	res := f.as(t, "").Expect(status, "POST", "/v1/urls/published", map[string]any{"url": u})
	if status != http.StatusOK {
		return nil
	}
	saveAnswer(t, "PublishedSiteContent", res.Body)
	return res.Map(t)
}

func TestResolvePublishedURL(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		path, siteID, ss, spaceIDs := f.docsSite(t)
		org := f.org.ID
		base := "https://app.test/sites/" + org + "/docs"
		m := f.resolve(t, http.StatusOK, base+"/api/getting-started/intro")
		want := map[string]any{"site": siteID, "organization": org, "siteSpace": ss[1], "space": spaceIDs[1], "pathname": "getting-started/intro",
			"basePath": "/sites/" + org + "/docs/api/", "siteBasePath": "/sites/" + org + "/docs/", "canonicalUrl": base + "/api/getting-started/intro", "complete": true}
		for k, v := range want {
			if m[k] != v {
				t.Errorf("%s = %v, want %v", k, m[k], v)
			}
		}
		if m["revision"] == "" || m["revision"] == nil {
			t.Errorf("no revision: %v", m)
		}
		// The default site space, by the GET and by the site's id.
		g := f.as(t, "").Expect(http.StatusOK, "GET", "/v1/urls/published?url="+url.QueryEscape("https://app.test/sites/"+siteID+"/"), nil).Map(t)
		if g["siteSpace"] != ss[0] || g["pathname"] != "" || g["basePath"] != "/sites/"+siteID+"/" || g["canonicalUrl"] != base+"/" {
			t.Errorf("site root = %v", g)
		}
		// A path naming no site space is a page of the default one.
		if m := f.resolve(t, http.StatusOK, base+"/unknown/page"); m["siteSpace"] != ss[0] || m["pathname"] != "unknown/page" {
			t.Errorf("unknown page = %v", m)
		}
		// The token's claims, as the renderer decodes them.
		tok := m["apiToken"].(string)
		parts := strings.Split(tok, ".")
		raw, _ := base64.RawURLEncoding.DecodeString(parts[1])
		var claims map[string]any
		if err := json.Unmarshal(raw, &claims); err != nil || claims["kind"] != "site" || claims["site"] != siteID || claims["exp"] == nil {
			t.Errorf("claims = %s (%v)", raw, err)
		}
		f.resolve(t, http.StatusNotFound, "https://app.test/sites/"+org+"/nope/api")
		f.resolve(t, http.StatusNotFound, "https://app.test/sites/nope")
		f.resolve(t, http.StatusNotFound, "https://elsewhere.test/docs")
		f.resolve(t, http.StatusNotFound, "https://app.test/")
		// A proxy origin names the site too.
		f.as(t, f.admin).Expect(http.StatusOK, "PATCH", path, map[string]any{"proxy": "example.com/help"})
		p := f.resolve(t, http.StatusOK, "https://example.com/help/api/x")
		if p["siteSpace"] != ss[1] || p["siteBasePath"] != "/help/" || p["basePath"] != "/help/api/" || p["canonicalUrl"] != "https://example.com/help/api/x" {
			t.Errorf("by proxy = %v", p)
		}
		f.resolve(t, http.StatusNotFound, "https://example.com/other")
		other, _ := f.site(t, map[string]any{"title": "Other"})
		res := f.as(t, f.admin).Expect(http.StatusConflict, "PATCH", other, map[string]any{"proxy": "example.com/help"})
		mentions(t, res, "proxy")
		f.as(t, f.admin).Expect(http.StatusOK, "PATCH", path, map[string]any{"proxy": nil})
		f.resolve(t, http.StatusNotFound, "https://example.com/help/api/x")
		// Unpublished: nothing.
		f.as(t, f.admin).Expect(http.StatusOK, "POST", path+"/unpublish", nil)
		f.resolve(t, http.StatusNotFound, base+"/api")
	})
}

func TestResolveVisibility(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		path, siteID, _, _ := f.docsSite(t)
		a := f.as(t, f.admin)
		u := "https://app.test/sites/" + siteID + "/api"
		a.Expect(http.StatusOK, "PATCH", path, map[string]any{"visibility": "unlisted"})
		f.resolve(t, http.StatusOK, u)
		a.Expect(http.StatusOK, "PATCH", path, map[string]any{"visibility": "share-link"})
		f.resolve(t, http.StatusNotFound, u)
		link := a.Expect(http.StatusCreated, "POST", path+"/share-links", map[string]any{"name": "x"}).Map(t)
		key := keyOf(t, link["urls"].(map[string]any)["published"].(string))
		m := f.resolve(t, http.StatusOK, u+"?shareKey="+url.QueryEscape(key))
		if m["shareKey"] != key {
			t.Errorf("shareKey = %v", m["shareKey"])
		}
		f.resolve(t, http.StatusNotFound, u+"?shareKey=wrong")
		a.Expect(http.StatusOK, "PATCH", path+"/share-links/"+link["id"].(string), map[string]any{"active": false})
		f.resolve(t, http.StatusNotFound, u+"?shareKey="+url.QueryEscape(key))
		a.Expect(http.StatusOK, "PATCH", path, map[string]any{"visibility": "visitor-auth"})
		f.resolve(t, http.StatusUnauthorized, u) // no visitor token
		a.Expect(http.StatusOK, "PATCH", path, map[string]any{"visibility": "public"})
		f.resolve(t, http.StatusOK, u+"?shareKey=wrong")
	})
}

func TestResolveRejects(t *testing.T) {
	f := setup(t)
	for _, c := range []struct {
		name string
		body any
	}{{"relative", map[string]any{"url": "/sites/x"}}, {"not http", map[string]any{"url": "ftp://a.b/c"}}, {"missing", map[string]any{}}} {
		t.Run(c.name, func(t *testing.T) {
			mentions(t, f.as(t, "").Expect(http.StatusBadRequest, "POST", "/v1/urls/published", c.body), "url")
		})
	}
	mentions(t, f.as(t, "").Expect(http.StatusBadRequest, "GET", "/v1/urls/published", nil), "url")
}

// TestSiteToken: the token a resolution gives reads what the visitor may
// read of that site, and nothing else.
func TestSiteToken(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		path, siteID, ss, spaceIDs := f.docsSite(t)
		f.as(t, f.admin).Expect(http.StatusCreated, "POST", path+"/redirects", map[string]any{"source": "/old", "destination": map[string]any{"kind": "site-space", "siteSpaceId": ss[1]}})
		tok := f.resolve(t, http.StatusOK, "https://app.test/sites/"+siteID+"/")["apiToken"].(string)
		v := f.as(t, tok)
		// Reads of the site and of its spaces.
		v.Expect(http.StatusOK, "GET", path+"/published", nil)
		v.Expect(http.StatusOK, "GET", path+"/customization", nil)
		v.Expect(http.StatusOK, "GET", path+"/site-spaces/"+ss[0]+"/customization", nil)
		v.Expect(http.StatusOK, "GET", path+"/redirect?source=/old", nil)
		v.Expect(http.StatusNotFound, "GET", path+"/redirect?source=/new", nil)
		contentroot.Routes(f.api, app.NewRoot(f.kit.Deps))
		changerequestsroot.Routes(f.api, app.NewRoot(f.kit.Deps))
		for _, id := range spaceIDs {
			v.Expect(http.StatusOK, "GET", "/v1/spaces/"+id, nil)
			v.Expect(http.StatusOK, "GET", "/v1/spaces/"+id+"/content", nil)
			v.Expect(http.StatusOK, "GET", "/v1/spaces/"+id+"/content/pages", nil)
		}
		// Not its change requests (their content is not published).
		v.Expect(http.StatusUnauthorized, "GET", "/v1/spaces/"+spaceIDs[0]+"/change-requests/1/content/pages", nil)
		v.Expect(http.StatusUnauthorized, "GET", "/v1/spaces/"+spaceIDs[0]+"/change-requests", nil)
		// No writes, no other reads.
		v.Expect(http.StatusUnauthorized, "PUT", path+"/customization", map[string]any{})
		v.Expect(http.StatusUnauthorized, "PATCH", path+"/site-spaces/"+ss[0]+"/customization", map[string]any{"title": "Hi"})
		v.Expect(http.StatusUnauthorized, "POST", path+"/unpublish", nil)
		v.Expect(http.StatusUnauthorized, "POST", path+"/redirects", map[string]any{"source": "/x", "destination": map[string]any{"kind": "site-space", "siteSpaceId": ss[0]}})
		v.Expect(http.StatusUnauthorized, "PATCH", "/v1/spaces/"+spaceIDs[0], map[string]any{"title": "Hacked"})
		v.Expect(http.StatusUnauthorized, "DELETE", "/v1/spaces/"+spaceIDs[0], nil)
		v.Expect(http.StatusUnauthorized, "GET", path, nil)
		v.Expect(http.StatusUnauthorized, "GET", path+"/share-links", nil)
		v.Expect(http.StatusUnauthorized, "GET", f.sitesPath(), nil)
		v.Expect(http.StatusUnauthorized, "GET", "/v1/orgs/"+f.org.ID+"/spaces", nil)
		// Another site's reads and spaces, even in the same organization.
		otherSpace := f.space(t, "Secret")
		other, _ := f.site(t, map[string]any{"title": "Other", "spaces": []string{otherSpace, spaceIDs[0]}})
		f.as(t, f.admin).Expect(http.StatusOK, "POST", other+"/publish", nil)
		v.Expect(http.StatusNotFound, "GET", other+"/published", nil)
		v.Expect(http.StatusNotFound, "GET", other+"/customization", nil)
		v.Expect(http.StatusNotFound, "GET", other+"/redirect?source=/old", nil)
		v.Expect(http.StatusNotFound, "GET", "/v1/spaces/"+otherSpace, nil)
		v.Expect(http.StatusNotFound, "GET", "/v1/spaces/"+otherSpace+"/content/pages", nil)
		// A site unpublished since is closed to its tokens.
		f.as(t, f.admin).Expect(http.StatusOK, "POST", path+"/unpublish", nil)
		v.Expect(http.StatusNotFound, "GET", path+"/published", nil)
		v.Expect(http.StatusNotFound, "GET", path+"/customization", nil)
		f.as(t, f.admin).Expect(http.StatusOK, "POST", path+"/publish", nil)
		// Expired, forged and tampered tokens.
		key, err := f.kit.Deps.Secret.Derive(f.kit.Ctx, sitetoken.Purpose)
		if err != nil {
			t.Fatal(err)
		}
		old, _ := sitetoken.Issue(key, sitetoken.Claims{Site: siteID, Organization: f.org.ID, Spaces: spaceIDs}, f.kit.Deps.Clock().Add(-2*sitetoken.TTL))
		f.as(t, old).Expect(http.StatusUnauthorized, "GET", path+"/published", nil)
		forged, _ := sitetoken.Issue([]byte("guess"), sitetoken.Claims{Site: siteID, Organization: f.org.ID, Spaces: spaceIDs}, f.kit.Deps.Clock())
		f.as(t, forged).Expect(http.StatusUnauthorized, "GET", path+"/published", nil)
		wider, _ := sitetoken.Issue(key, sitetoken.Claims{Site: siteID, Organization: f.org.ID, Spaces: []string{otherSpace}}, f.kit.Deps.Clock())
		parts := strings.Split(tok, ".")
		f.as(t, parts[0]+"."+strings.Split(wider, ".")[1]+"."+parts[2]).Expect(http.StatusUnauthorized, "GET", "/v1/spaces/"+otherSpace, nil)
		_ = time.Second
	})
}

func TestSiteStructure(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		path, siteID, ss, _ := f.docsSite(t)
		got := f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/structure", nil)
		saveAnswer(t, "SiteStructure", got.Body)
		m := got.Map(t)
		items := m["structure"].([]any)
		if m["type"] != "siteSpaces" || len(items) != 2 || items[0].(map[string]any)["id"] != ss[0] {
			t.Fatalf("structure = %v", m)
		}
		// The first section takes the root's site spaces; the second is ours.
		f.as(t, f.admin).Expect(http.StatusCreated, "POST", path+"/sections", map[string]any{"title": "Reference", "spaceId": f.space(t, "Ref")})
		sec := f.as(t, f.admin).Expect(http.StatusCreated, "POST", path+"/sections", map[string]any{"title": "Extra", "spaceId": f.space(t, "More")}).Map(t)
		m = f.as(t, f.admin).Expect(http.StatusOK, "GET", path+"/structure", nil).Map(t)
		if m["type"] != "sections" || len(m["structure"].([]any)) != 2 {
			t.Fatalf("structure with sections = %v", m)
		}
		// Resolution walks the sections: the default one unless named.
		r := f.resolve(t, http.StatusOK, "https://app.test/sites/"+siteID+"/"+sec["path"].(string)+"/a/b")
		if r["siteSection"] != sec["id"] || r["pathname"] != "a/b" || r["basePath"] != "/sites/"+siteID+"/"+sec["path"].(string)+"/" {
			t.Errorf("in a section = %v", r)
		}
		r = f.resolve(t, http.StatusOK, "https://app.test/sites/"+siteID+"/api/x")
		if r["siteSection"] == nil || r["basePath"] != "/sites/"+siteID+"/api/" || r["canonicalUrl"] != "https://app.test/sites/"+f.org.ID+"/docs/reference/api/x" {
			t.Errorf("default section: %v", r)
		}
		if r["siteSpace"] != ss[1] || r["siteSection"] == sec["id"] || r["pathname"] != "x" {
			t.Errorf("in the default section = %v", r)
		}
		tok := r["apiToken"].(string)
		f.as(t, tok).Expect(http.StatusOK, "GET", path+"/structure", nil)
		_, theirs := f.siteIn(t, f.outsider, f.other.ID)
		for _, c := range []struct {
			name, token, path string
			status            int
		}{{"no token", "", path + "/structure", 401}, {"outsider", f.outsider, path + "/structure", 404}, {"guest", f.guest, path + "/structure", 404},
			{"another org's site", f.admin, "/v1/orgs/" + f.org.ID + "/sites/" + theirs + "/structure", 404},
			{"inactive share key", f.admin, path + "/structure?shareKey=nope", 403}} {
			t.Run(c.name, func(t *testing.T) { f.as(t, c.token).Expect(c.status, "GET", c.path, nil) })
		}
	})
}
