package sites_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// keyOf returns the share key carried by a published URL.
func keyOf(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	k := p.Query().Get("shareKey")
	if k == "" {
		t.Fatalf("no shareKey in %s", u)
	}
	return k
}

func TestShareLinks(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		site, s := f.site(t, map[string]any{"title": "Docs", "visibility": "share-link"})
		a := f.as(t, f.admin)
		l := a.Expect(http.StatusCreated, "POST", site+"/share-links", map[string]any{"name": "Reviewers"}).Map(t)
		if l["object"] != "share-link" || l["name"] != "Reviewers" || l["active"] != true {
			t.Fatalf("link = %v", l)
		}
		// The key appears only in urls.published.
		for k := range l {
			if k != "object" && k != "id" && k != "createdAt" && k != "name" && k != "active" && k != "urls" {
				t.Errorf("unexpected field %s", k)
			}
		}
		pub := l["urls"].(map[string]any)["published"].(string)
		if !strings.HasPrefix(pub, "https://app.test/sites/"+s["id"].(string)+"?shareKey=") {
			t.Errorf("urls.published = %s", pub)
		}
		key := keyOf(t, pub)
		if strings.Contains(string(a.Expect(http.StatusOK, "GET", site, nil).Body), key) {
			t.Error("the site shows a share key")
		}
		L := l["id"].(string)
		l2 := a.Expect(http.StatusCreated, "POST", site+"/share-links", map[string]any{"name": ""}).Map(t)
		if keyOf(t, l2["urls"].(map[string]any)["published"].(string)) == key {
			t.Error("two links share a key")
		}
		for _, limit := range []int{1, 50} {
			got := f.list(t, f.admin, site+"/share-links", limit)
			expectOrder(t, "share links", ids(got), L, l2["id"].(string))
		}
		p := a.Expect(http.StatusOK, "PATCH", site+"/share-links/"+L, map[string]any{"name": "Partners"}).Map(t)
		if p["name"] != "Partners" || p["active"] != true || p["urls"].(map[string]any)["published"] != pub {
			t.Fatalf("renamed link = %v", p)
		}
		p = a.Expect(http.StatusOK, "PATCH", site+"/share-links/"+L, map[string]any{"active": false}).Map(t)
		if p["active"] != false || p["name"] != "Partners" {
			t.Fatalf("deactivated link = %v", p)
		}
		a.Expect(http.StatusResetContent, "DELETE", site+"/share-links/"+L, nil)
		a.Expect(http.StatusNotFound, "PATCH", site+"/share-links/"+L, map[string]any{"active": true})
		a.Expect(http.StatusNoContent, "DELETE", site+"/share-links/"+L, nil) // no such link any more
		expectOrder(t, "after delete", ids(f.list(t, f.admin, site+"/share-links", 10)), l2["id"].(string))
	})
}

func TestShareLinksReject(t *testing.T) {
	f := setup(t)
	site, _ := f.site(t, map[string]any{"title": "Docs"})
	L := f.as(t, f.admin).Expect(http.StatusCreated, "POST", site+"/share-links", map[string]any{"name": "x"}).Map(t)["id"].(string)
	_, theirs := f.siteIn(t, f.outsider, f.other.ID)
	testkit.Check(t, f.api, []testkit.Case{
		{"400NameMissing", f.admin, "POST", site + "/share-links", map[string]any{}, 400, "name"},
		{"400NameTooLong", f.admin, "POST", site + "/share-links", map[string]any{"name": strings.Repeat("n", 51)}, 400, "name"},
		{"400PatchNameTooLong", f.admin, "PATCH", site + "/share-links/" + L, map[string]any{"name": strings.Repeat("n", 51)}, 400, "name"},
		{"400PatchEmpty", f.admin, "PATCH", site + "/share-links/" + L, map[string]any{}, 400, "active"},
		{"400PatchActiveNull", f.admin, "PATCH", site + "/share-links/" + L, `{"active":null}`, 400, "active"},
		{"400PatchActiveNotBoolean", f.admin, "PATCH", site + "/share-links/" + L, map[string]any{"active": "yes"}, 400, "active"},
		{"400ListLimit", f.admin, "GET", site + "/share-links?limit=0", nil, 400, "limit"},
		{"401List", "", "GET", site + "/share-links", nil, 401, ""},
		{"401Create", "", "POST", site + "/share-links", map[string]any{"name": "x"}, 401, ""},
		{"403ListCreator", f.creator, "GET", site + "/share-links", nil, 403, ""},
		{"403CreateCreator", f.creator, "POST", site + "/share-links", map[string]any{"name": "x"}, 403, ""},
		{"403PatchReader", f.reader, "PATCH", site + "/share-links/" + L, map[string]any{"active": false}, 403, ""},
		{"403DeleteCreator", f.creator, "DELETE", site + "/share-links/" + L, nil, 403, ""},
		{"404ListGuest", f.guest, "GET", site + "/share-links", nil, 404, ""},
		{"404ListOutsider", f.outsider, "GET", site + "/share-links", nil, 404, ""},
		{"404CreateOutsider", f.outsider, "POST", site + "/share-links", map[string]any{"name": "x"}, 404, ""},
		{"404PatchOutsider", f.outsider, "PATCH", site + "/share-links/" + L, map[string]any{"active": false}, 404, ""},
		{"404DeleteOutsider", f.outsider, "DELETE", site + "/share-links/" + L, nil, 404, ""},
		{"404LinkThroughAnotherSite", f.outsider, "PATCH", "/v1/orgs/" + f.other.ID + "/sites/" + theirs + "/share-links/" + L, map[string]any{"active": false}, 404, ""},
		{"204UnknownLink", f.admin, "DELETE", site + "/share-links/unknown", nil, 204, ""}, // nothing to remove
	})
}

// TestPublishedView checks the published structure (order, groups, URLs)
// and the share-link rules, on both backends.
func TestPublishedView(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		s1, s2, s3, s4 := f.space(t, "Guide"), f.space(t, "FAQ"), f.space(t, "API"), f.space(t, "Old")
		site, made := f.site(t, map[string]any{"title": "Docs", "spaces": []string{s1, s2}})
		id := made["id"].(string)
		a, r := f.as(t, f.admin), f.as(t, f.reader)
		// Unpublished: 404.
		r.Expect(http.StatusNotFound, "GET", site+"/published", nil)
		a.Expect(http.StatusOK, "POST", site+"/publish", nil)
		a.Expect(http.StatusOK, "PATCH", site, map[string]any{"basename": "docs"})
		base := "https://app.test/sites/" + f.org.ID + "/docs"

		// Root site spaces: the default at the site's URL, the others under their path.
		p := r.Expect(http.StatusOK, "GET", site+"/published", nil).Map(t)
		if p["object"] != "published-content-site" || p["site"].(map[string]any)["id"] != id {
			t.Fatalf("published = %v", p)
		}
		st := p["structure"].(map[string]any)
		items := asMaps(st["structure"])
		if st["type"] != "siteSpaces" || len(items) != 2 {
			t.Fatalf("structure = %v", st)
		}
		if u := items[0]["urls"].(map[string]any)["published"]; u != base {
			t.Errorf("default site space URL %v, want %s", u, base)
		}
		if u := items[1]["urls"].(map[string]any)["published"]; u != base+"/faq" {
			t.Errorf("site space URL %v", u)
		}
		if sp := items[0]["space"].(map[string]any); sp["id"] != s1 || sp["object"] != "space" {
			t.Errorf("embedded space = %v", sp)
		}
		if p["site"].(map[string]any)["urls"].(map[string]any)["published"] != base {
			t.Errorf("site URL = %v", p["site"])
		}

		// Sections and groups: the structure in order.
		c := f.as(t, f.creator)
		first := c.Expect(http.StatusCreated, "POST", site+"/sections", map[string]any{"spaceId": s3, "title": "Guides"}).Map(t)["id"].(string)
		second := c.Expect(http.StatusCreated, "POST", site+"/sections", map[string]any{"spaceId": s4, "title": "Archive"}).Map(t)["id"].(string)
		g := c.Expect(http.StatusCreated, "POST", site+"/section-groups", map[string]any{"title": "More", "sections": []string{second}}).Map(t)["id"].(string)
		c.Expect(http.StatusOK, "POST", site+"/section-groups/"+g+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": first}}})
		p = r.Expect(http.StatusOK, "GET", site+"/published", nil).Map(t)
		st = p["structure"].(map[string]any)
		items = asMaps(st["structure"])
		if st["type"] != "sections" || len(items) != 2 || items[0]["object"] != "site-section-group" || items[1]["object"] != "site-section" {
			t.Fatalf("structure = %v", st)
		}
		grouped := asMaps(items[0]["sections"])
		if len(grouped) != 1 || grouped[0]["id"] != second || grouped[0]["urls"].(map[string]any)["published"] != base+"/archive" {
			t.Fatalf("group = %v", items[0])
		}
		guides := items[1]
		if guides["id"] != first || guides["urls"].(map[string]any)["published"] != base+"/guides" {
			t.Fatalf("section = %v", guides)
		}
		expectOrder(t, "Guides' site spaces", field(asMaps(guides["siteSpaces"]), "path"), "guide", "faq", "api")
		if u := asMaps(guides["siteSpaces"])[1]["urls"].(map[string]any)["published"]; u != base+"/guides/faq" {
			t.Errorf("site space URL in a section: %v", u)
		}
		// A deleted space is left out of the published view.
		a.Expect(http.StatusResetContent, "DELETE", "/v1/spaces/"+s2, nil)
		p = r.Expect(http.StatusOK, "GET", site+"/published", nil).Map(t)
		guides = asMaps(p["structure"].(map[string]any)["structure"])[1]
		expectOrder(t, "without the deleted space", field(asMaps(guides["siteSpaces"]), "path"), "guide", "api")

		// Share-link visibility: URLs only with an active key, and carrying it.
		a.Expect(http.StatusOK, "PATCH", site, map[string]any{"visibility": "share-link"})
		p = r.Expect(http.StatusOK, "GET", site+"/published", nil).Map(t)
		if u := p["site"].(map[string]any)["urls"].(map[string]any)["published"]; u != nil {
			t.Errorf("a share-link site without a key shows %v", u)
		}
		link := a.Expect(http.StatusCreated, "POST", site+"/share-links", map[string]any{"name": "Partners"}).Map(t)
		key := keyOf(t, link["urls"].(map[string]any)["published"].(string))
		p = r.Expect(http.StatusOK, "GET", site+"/published?shareKey="+url.QueryEscape(key), nil).Map(t)
		if u := p["site"].(map[string]any)["urls"].(map[string]any)["published"]; u != base+"?shareKey="+key {
			t.Errorf("site URL with the key: %v", u)
		}
		guides = asMaps(p["structure"].(map[string]any)["structure"])[1]
		if u := guides["urls"].(map[string]any)["published"]; u != base+"/guides?shareKey="+key {
			t.Errorf("section URL with the key: %v", u)
		}
		// The lists resolve the key the same way.
		secs := f.list(t, f.reader, site+"/sections?shareKey="+url.QueryEscape(key), 1)
		if u := secs[1]["urls"].(map[string]any)["published"]; u != base+"/guides?shareKey="+key {
			t.Errorf("listed section URL: %v", u)
		}
		sss := f.list(t, f.reader, site+"/site-spaces?shareKey="+url.QueryEscape(key), 1)
		if u := sss[0]["urls"].(map[string]any)["published"]; !strings.HasSuffix(u.(string), "?shareKey="+key) {
			t.Errorf("listed site space URL: %v", u)
		}
		// A wrong key is refused; deactivating the link stops its key at once.
		mentions(t, r.Expect(http.StatusForbidden, "GET", site+"/published?shareKey=wrong", nil), "shareKey")
		a.Expect(http.StatusOK, "PATCH", site+"/share-links/"+link["id"].(string), map[string]any{"active": false})
		r.Expect(http.StatusForbidden, "GET", site+"/published?shareKey="+url.QueryEscape(key), nil)
		r.Expect(http.StatusForbidden, "GET", site+"/sections?shareKey="+url.QueryEscape(key), nil)
		r.Expect(http.StatusForbidden, "GET", site+"/site-spaces?shareKey="+url.QueryEscape(key), nil)
		a.Expect(http.StatusOK, "PATCH", site+"/share-links/"+link["id"].(string), map[string]any{"active": true})
		r.Expect(http.StatusOK, "GET", site+"/published?shareKey="+url.QueryEscape(key), nil)
		a.Expect(http.StatusResetContent, "DELETE", site+"/share-links/"+link["id"].(string), nil)
		r.Expect(http.StatusForbidden, "GET", site+"/published?shareKey="+url.QueryEscape(key), nil)

		// Public again: plain URLs; a proxy or hostname changes the base.
		a.Expect(http.StatusOK, "PATCH", site, map[string]any{"visibility": "unlisted", "proxy": "company.com/docs"})
		p = r.Expect(http.StatusOK, "GET", site+"/published", nil).Map(t)
		if u := p["site"].(map[string]any)["urls"].(map[string]any)["published"]; u != "https://company.com/docs" {
			t.Errorf("proxied site URL: %v", u)
		}
		// Auth and cross-organization.
		f.as(t, "").Expect(http.StatusUnauthorized, "GET", site+"/published", nil)
		f.as(t, f.guest).Expect(http.StatusNotFound, "GET", site+"/published", nil)
		f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", site+"/published", nil)
		f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", "/v1/orgs/"+f.other.ID+"/sites/"+id+"/published", nil)
		mentions(t, r.Expect(http.StatusBadRequest, "GET", site+"/published?shareKey="+strings.Repeat("k", 129), nil), "shareKey")
	})
}
