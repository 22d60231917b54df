package sites_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestCreateSiteDefaultsToBasic(t *testing.T) {
	f := setup(t)
	s := f.as(t, f.creator).Expect(http.StatusCreated, "POST", f.sitesPath(), map[string]any{"title": "Docs"}).Map(t)
	for k, want := range map[string]any{"object": "site", "type": "basic", "title": "Docs", "visibility": "public",
		"published": false, "siteSpaces": 0.0, "agentsContext": "included"} {
		if s[k] != want {
			t.Errorf("%s = %v, want %v", k, s[k], want)
		}
	}
	urls := s["urls"].(map[string]any)
	if urls["location"] != "https://api.test"+f.sitesPath()+"/"+s["id"].(string) {
		t.Errorf("urls.location = %v", urls["location"])
	}
	if _, ok := urls["published"]; ok {
		t.Errorf("an unpublished site has urls.published %v", urls["published"])
	}
	// No body at all: every default.
	s = f.as(t, f.admin).Expect(http.StatusCreated, "POST", f.sitesPath(), nil).Map(t)
	if s["type"] != "basic" || s["title"] != "Untitled site" {
		t.Errorf("site without body = %v", s)
	}
	s = f.as(t, f.admin).Expect(http.StatusCreated, "POST", f.sitesPath(), map[string]any{"type": "premium", "visibility": "unlisted"}).Map(t)
	if s["type"] != "premium" || s["visibility"] != "unlisted" {
		t.Errorf("site = %v", s)
	}
}

func TestCreateSiteWithSpaces(t *testing.T) {
	f := setup(t)
	a, b := f.space(t, "Guide"), f.space(t, "API reference")
	path, s := f.site(t, map[string]any{"title": "Docs", "spaces": []string{a, b}})
	if s["siteSpaces"] != 2.0 {
		t.Fatalf("siteSpaces = %v", s["siteSpaces"])
	}
	got := f.list(t, f.reader, path+"/site-spaces", 50)
	if len(got) != 2 {
		t.Fatalf("site spaces %v", got)
	}
	for i, want := range []struct {
		space, path string
		def         bool
	}{{a, "guide", true}, {b, "api-reference", false}} {
		ss := got[i]
		if ss["space"].(map[string]any)["id"] != want.space || ss["path"] != want.path || ss["default"] != want.def {
			t.Errorf("site space %d = %v, want space %s path %s default %v", i, ss, want.space, want.path, want.def)
		}
		if ss["title"] != ss["space"].(map[string]any)["title"] {
			t.Errorf("site space title %v differs from its space's", ss["title"])
		}
	}
}

func TestCreateSiteWithANewSpace(t *testing.T) {
	f := setup(t)
	for _, kind := range []string{"empty", "sample"} {
		path, s := f.site(t, map[string]any{"title": "Handbook", "spaces": kind})
		if s["siteSpaces"] != 1.0 {
			t.Fatalf("%s: siteSpaces = %v", kind, s["siteSpaces"])
		}
		ss := f.list(t, f.admin, path+"/site-spaces", 10)[0]
		sp := ss["space"].(map[string]any)
		// The space is a real space of the organization, made by the spaces family.
		got := f.as(t, f.admin).Expect(http.StatusOK, "GET", "/v1/spaces/"+sp["id"].(string), nil).Map(t)
		if got["title"] != "Handbook" || got["organization"] != f.org.ID {
			t.Errorf("%s: new space = %v", kind, got)
		}
	}
}

func TestCreateSiteRejects(t *testing.T) {
	f := setup(t)
	foreign := f.kitSpaceIn(t)
	cases := []testkit.Case{
		{"400TitleTooShort", f.admin, "POST", f.sitesPath(), map[string]any{"title": "x"}, 400, "title"},
		{"400TitleTooLong", f.admin, "POST", f.sitesPath(), map[string]any{"title": strings.Repeat("x", 129)}, 400, "title"},
		{"400BadType", f.admin, "POST", f.sitesPath(), map[string]any{"type": "deluxe"}, 400, "type"},
		{"400BadVisibility", f.admin, "POST", f.sitesPath(), map[string]any{"visibility": "secret"}, 400, "visibility"},
		{"400BadSpacesEnum", f.admin, "POST", f.sitesPath(), map[string]any{"spaces": "full"}, 400, "spaces"},
		{"400UnknownSpace", f.admin, "POST", f.sitesPath(), map[string]any{"spaces": []string{"nope"}}, 400, "spaces"},
		{"400SpaceOfAnotherOrganization", f.admin, "POST", f.sitesPath(), map[string]any{"spaces": []string{foreign}}, 400, "spaces"},
		{"400MalformedJSON", f.admin, "POST", f.sitesPath(), `{"title":`, 400, ""},
		{"401NoToken", "", "POST", f.sitesPath(), map[string]any{}, 401, ""},
		{"403Reader", f.reader, "POST", f.sitesPath(), map[string]any{}, 403, ""},
		{"403Guest", f.guest, "POST", f.sitesPath(), map[string]any{}, 403, ""},
		{"404Outsider", f.outsider, "POST", f.sitesPath(), map[string]any{}, 404, ""},
		{"404UnknownOrganization", f.admin, "POST", "/v1/orgs/unknown/sites", map[string]any{}, 404, ""},
		{"413BodyTooLarge", f.admin, "POST", f.sitesPath(), `{"title":"` + strings.Repeat("x", httpapi.MaxBodyBytes) + `"}`, 413, ""},
	}
	testkit.Check(t, f.api, cases)
	// A space listed twice is refused by name.
	a := f.space(t, "A")
	mentions(t, f.as(t, f.admin).Expect(400, "POST", f.sitesPath(), map[string]any{"spaces": []string{a, a}}), "spaces")
}

// kitSpaceIn makes a space in the outsider's organization.
func (f *fixture) kitSpaceIn(t *testing.T) string {
	return f.as(t, f.outsider).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.other.ID+"/spaces", map[string]any{"title": "Theirs"}).Map(t)["id"].(string)
}

func TestGetSite(t *testing.T) {
	f := setup(t)
	path, made := f.site(t, map[string]any{"title": "Docs"})
	got := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t)
	if got["id"] != made["id"] || got["title"] != "Docs" {
		t.Errorf("got %v", got)
	}
	f.as(t, "").Expect(http.StatusUnauthorized, "GET", path, nil)
	f.as(t, f.guest).Expect(http.StatusNotFound, "GET", path, nil)
	f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", path, nil)
	// The site is not reachable through another organization's path either.
	f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", "/v1/orgs/"+f.other.ID+"/sites/"+made["id"].(string), nil)
	f.as(t, f.admin).Expect(http.StatusNotFound, "GET", f.sitesPath()+"/unknown", nil)
}

func TestListSitesFiltersAndPages(t *testing.T) {
	f := setup(t)
	a, b := f.space(t, "A"), f.space(t, "B")
	var made []string
	for i, body := range []map[string]any{
		{"title": "Public docs", "spaces": []string{a}},
		{"title": "Internal handbook", "spaces": []string{a, b}},
		{"title": "API DOCS"},
		{"title": "Changelog", "spaces": []string{b}},
		{"title": "Docs archive"},
	} {
		_, s := f.site(t, body)
		made = append(made, s["id"].(string))
		if i == 1 || i == 2 {
			f.as(t, f.admin).Expect(http.StatusOK, "POST", f.sitesPath()+"/"+made[i]+"/publish", nil)
		}
	}
	for _, tc := range []struct {
		name, query string
		want        []string
	}{
		{"AllInCreationOrder", "", made},
		{"BySpace", "?space=" + a, []string{made[0], made[1]}},
		{"ByOtherSpace", "?space=" + b, []string{made[1], made[3]}},
		{"ByTitleIgnoringCase", "?title=docs", []string{made[0], made[2], made[4]}},
		{"Published", "?published=true", []string{made[1], made[2]}},
		{"Unpublished", "?published=false", []string{made[0], made[3], made[4]}},
		{"Combined", "?published=true&title=docs", []string{made[2]}},
		{"NoMatch", "?title=nothing", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, limit := range []int{1, 2, 50} {
				got := ids(f.list(t, f.reader, f.sitesPath()+tc.query, limit))
				if join(got) != join(tc.want) {
					t.Errorf("limit %d: %v, want %v", limit, got, tc.want)
				}
			}
		})
	}
	admin := f.as(t, f.admin)
	first := admin.Expect(http.StatusOK, "GET", f.sitesPath()+"?limit=1", nil).Map(t)
	token := first["next"].(map[string]any)["page"].(string)
	// A token of another list (other filters) or tampered is refused by name.
	mentions(t, admin.Expect(http.StatusBadRequest, "GET", f.sitesPath()+"?title=docs&page="+token, nil), "page")
	mentions(t, admin.Expect(http.StatusBadRequest, "GET", f.sitesPath()+"?page="+token+"x", nil), "page")
	for _, q := range []string{"limit=0", "limit=1001", "published=maybe"} {
		res := admin.Expect(http.StatusBadRequest, "GET", f.sitesPath()+"?"+q, nil)
		mentions(t, res, strings.Split(q, "=")[0])
	}
	guest := f.as(t, f.guest).Expect(http.StatusOK, "GET", f.sitesPath(), nil).Map(t)
	if len(guest["items"].([]any)) != 0 {
		t.Errorf("a guest lists %v", guest["items"])
	}
	f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", f.sitesPath(), nil)
	f.as(t, "").Expect(http.StatusUnauthorized, "GET", f.sitesPath(), nil)
	// The outsider's own organization lists none of these.
	if got := f.list(t, f.outsider, "/v1/orgs/"+f.other.ID+"/sites", 10); len(got) != 0 {
		t.Errorf("another organization lists %v", ids(got))
	}
}

func TestPatchSite(t *testing.T) {
	f := setup(t)
	path, _ := f.site(t, map[string]any{"title": "Docs"})
	admin := f.as(t, f.admin)
	s := admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"title": "Docs 2", "visibility": "share-link",
		"basename": "docs", "adaptiveContent": map[string]any{"enabled": true}, "agentsContext": "included",
		"proxy": "company.com/docs"}).Map(t)
	for k, want := range map[string]any{"title": "Docs 2", "visibility": "share-link", "basename": "docs", "agentsContext": "included"} {
		if s[k] != want {
			t.Errorf("%s = %v, want %v", k, s[k], want)
		}
	}
	if s["adaptiveContent"].(map[string]any)["enabled"] != true {
		t.Errorf("adaptiveContent = %v", s["adaptiveContent"])
	}
	proxy := s["proxy"].(map[string]any)
	if proxy["origin"] != "company.com/docs" || proxy["target"] != "https://app.test/sites/"+f.org.ID+"/docs" {
		t.Errorf("proxy = %v", proxy)
	}
	// Omitted fields stay; null removes the proxy.
	s = admin.Expect(http.StatusOK, "PATCH", path, `{"proxy":null}`).Map(t)
	if s["proxy"] != nil || s["title"] != "Docs 2" || s["basename"] != "docs" {
		t.Errorf("after proxy null: %v", s)
	}
	testkit.Check(t, f.api, []testkit.Case{
		{"400TitleTooShort", f.admin, "PATCH", path, map[string]any{"title": "x"}, 400, "title"},
		{"400TitleNull", f.admin, "PATCH", path, `{"title":null}`, 400, "title"},
		{"400BasenameEmpty", f.admin, "PATCH", path, map[string]any{"basename": ""}, 400, "basename"},
		{"400BasenameTooLong", f.admin, "PATCH", path, map[string]any{"basename": strings.Repeat("b", 101)}, 400, "basename"},
		{"400ProxyPattern", f.admin, "PATCH", path, map[string]any{"proxy": "not a url"}, 400, "proxy"},
		{"400ProxyTooLong", f.admin, "PATCH", path, map[string]any{"proxy": "a.com/" + strings.Repeat("d", 510)}, 400, "proxy"},
		{"400FrameAncestorPath", f.admin, "PATCH", path, map[string]any{"frameAncestors": []string{"https://app.example.com/embed"}}, 400, "frameAncestors"},
		{"400FrameAncestorScheme", f.admin, "PATCH", path, map[string]any{"frameAncestors": []string{"ftp://app.example.com"}}, 400, "frameAncestors"},
		{"400FrameAncestorBare", f.admin, "PATCH", path, map[string]any{"frameAncestors": []string{"app.example.com"}}, 400, "frameAncestors"},
		{"400FrameAncestorWildcard", f.admin, "PATCH", path, map[string]any{"frameAncestors": []string{"https://*.example.com"}}, 400, "frameAncestors"},
		{"400FrameAncestorInjection", f.admin, "PATCH", path, map[string]any{"frameAncestors": []string{"https://a.com; script-src *"}}, 400, "frameAncestors"},
		{"400FrameAncestorPort", f.admin, "PATCH", path, map[string]any{"frameAncestors": []string{"https://a.com:99999"}}, 400, "frameAncestors"},
		{"400FrameAncestorsTooMany", f.admin, "PATCH", path, map[string]any{"frameAncestors": manyOrigins(21)}, 400, "frameAncestors"},
		{"400BadAgentsContext", f.admin, "PATCH", path, map[string]any{"agentsContext": "maybe"}, 400, "agentsContext"},
		{"400UnknownDefaultSiteSpace", f.admin, "PATCH", path, map[string]any{"defaultSiteSpace": "nope"}, 400, "defaultSiteSpace"},
		{"400UnknownDefaultSiteSection", f.admin, "PATCH", path, map[string]any{"defaultSiteSection": "nope"}, 400, "defaultSiteSection"},
		{"401NoToken", "", "PATCH", path, map[string]any{"title": "Xy"}, 401, ""},
		{"403Creator", f.creator, "PATCH", path, map[string]any{"title": "Xy"}, 403, ""},
		{"403Reader", f.reader, "PATCH", path, map[string]any{"title": "Xy"}, 403, ""},
		{"404Guest", f.guest, "PATCH", path, map[string]any{"title": "Xy"}, 404, ""},
		{"404Outsider", f.outsider, "PATCH", path, map[string]any{"title": "Xy"}, 404, ""},
	})
	// Basenames are unique within the organization, and free again once released.
	other, _ := f.site(t, map[string]any{"title": "Other"})
	admin.Expect(http.StatusConflict, "PATCH", other, map[string]any{"basename": "docs"})
	admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"basename": "docs-v2"})
	admin.Expect(http.StatusOK, "PATCH", other, map[string]any{"basename": "docs"})
	// Another organization may use the same basename.
	_, theirs := f.siteIn(t, f.outsider, f.other.ID)
	f.as(t, f.outsider).Expect(http.StatusOK, "PATCH", "/v1/orgs/"+f.other.ID+"/sites/"+theirs, map[string]any{"basename": "docs"})
}

func manyOrigins(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("https://a%d.example.com", i)
	}
	return out
}

// The origins that may frame a site's pages (Galley's own setting): kept
// lower-case and once each, shown on the site, replaced by each PATCH,
// removed by null or [].
func TestPatchSiteFrameAncestors(t *testing.T) {
	f := setup(t)
	path, _ := f.site(t, map[string]any{"title": "Docs"})
	admin := f.as(t, f.admin)
	if s := admin.Expect(http.StatusOK, "GET", path, nil).Map(t); fmt.Sprint(s["frameAncestors"]) != "[]" {
		t.Errorf("a new site's frameAncestors = %v, want []", s["frameAncestors"])
	}
	s := admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"frameAncestors": []string{"https://App.Example.com", "http://localhost:3000", "https://app.example.com"}}).Map(t)
	if got := fmt.Sprint(s["frameAncestors"]); got != "[https://app.example.com http://localhost:3000]" {
		t.Errorf("frameAncestors = %s", got)
	}
	s = admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"title": "Docs 2"}).Map(t)
	if got := fmt.Sprint(s["frameAncestors"]); got != "[https://app.example.com http://localhost:3000]" {
		t.Errorf("after a PATCH without it, frameAncestors = %s", got)
	}
	s = admin.Expect(http.StatusOK, "PATCH", path, `{"frameAncestors":null}`).Map(t)
	if got := fmt.Sprint(s["frameAncestors"]); got != "[]" {
		t.Errorf("after null, frameAncestors = %s", got)
	}
	admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"frameAncestors": manyOrigins(20)})
	s = admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"frameAncestors": []string{}}).Map(t)
	if got := fmt.Sprint(s["frameAncestors"]); got != "[]" {
		t.Errorf("after [], frameAncestors = %s", got)
	}
}

// siteIn creates a site in another organization.
func (f *fixture) siteIn(t *testing.T, token, orgID string) (string, string) {
	s := f.as(t, token).Expect(http.StatusCreated, "POST", "/v1/orgs/"+orgID+"/sites", map[string]any{"title": "Theirs"}).Map(t)
	return "/v1/orgs/" + orgID + "/sites/" + s["id"].(string), s["id"].(string)
}

func TestPublishAndUnpublish(t *testing.T) {
	f := setup(t)
	path, _ := f.site(t, map[string]any{"title": "Docs"})
	f.as(t, f.creator).Expect(http.StatusForbidden, "POST", path+"/publish", nil)
	f.as(t, f.outsider).Expect(http.StatusNotFound, "POST", path+"/publish", nil)
	s := f.as(t, f.admin).Expect(http.StatusOK, "POST", path+"/publish", nil).Map(t)
	if s["published"] != true || s["urls"].(map[string]any)["published"] != "https://app.test/sites/"+s["id"].(string) {
		t.Errorf("published site = %v", s)
	}
	s = f.as(t, f.admin).Expect(http.StatusOK, "POST", path+"/unpublish", nil).Map(t)
	if s["published"] != false || s["urls"].(map[string]any)["published"] != nil {
		t.Errorf("unpublished site = %v", s)
	}
}

func TestDeleteSiteLeavesNothing(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		a := f.space(t, "A")
		path, s := f.site(t, map[string]any{"title": "Docs", "spaces": []string{a}})
		id := s["id"].(string)
		admin := f.as(t, f.admin)
		admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"basename": "docs"})
		admin.Expect(http.StatusCreated, "POST", path+"/share-links", map[string]any{"name": "Reviewers"})
		admin.Expect(http.StatusOK, "PUT", path+"/adaptive-schema", map[string]any{"jsonSchema": sampleSchema()})
		f.as(t, f.creator).Expect(http.StatusForbidden, "DELETE", path, nil)
		f.as(t, f.outsider).Expect(http.StatusNotFound, "DELETE", path, nil)
		f.as(t, "").Expect(http.StatusUnauthorized, "DELETE", path, nil)
		admin.Expect(http.StatusResetContent, "DELETE", path, nil)
		for _, p := range []string{path, path + "/site-spaces", path + "/share-links", path + "/adaptive-schema", path + "/published"} {
			admin.Expect(http.StatusNotFound, "GET", p, nil)
		}
		admin.Expect(http.StatusNotFound, "DELETE", path, nil)
		// Nothing of the site is left in its partition, and its basename is free.
		items, err := storeItems(f, "SITE#"+id)
		if err != nil || len(items) != 0 {
			t.Fatalf("site partition after delete: %v %v", items, err)
		}
		other, _ := f.site(t, map[string]any{"title": "Next"})
		admin.Expect(http.StatusOK, "PATCH", other, map[string]any{"basename": "docs"})
		// The space the site showed stays.
		admin.Expect(http.StatusOK, "GET", "/v1/spaces/"+a, nil)
	})
}
