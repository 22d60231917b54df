package sites_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/contentroot"
	"github.com/galleydocs/galley/shared/testkit"
)

// sectionsSite is a site of two sections (Guides, API) and a group
// (Reference) holding API, as the admin made it.
func (f *fixture) sectionsSite(t *testing.T) (path string, sections []string, group string) {
	t.Helper()
	a, b, c := f.space(t, "Guide"), f.space(t, "API"), f.space(t, "Tutorial")
	path, _ = f.site(t, map[string]any{"title": "Docs", "spaces": []string{a}})
	adm := f.as(t, f.admin)
	g := adm.Expect(http.StatusCreated, "POST", path+"/sections", map[string]any{"spaceId": b, "title": "Guides"}).Map(t)["id"].(string)
	api := adm.Expect(http.StatusCreated, "POST", path+"/sections", map[string]any{"spaceId": c, "title": "API"}).Map(t)["id"].(string)
	group = adm.Expect(http.StatusCreated, "POST", path+"/section-groups", map[string]any{"title": "Reference", "sections": []string{api}}).Map(t)["id"].(string)
	return path, []string{g, api}, group
}

// top is the ids of a structure read's top level and, by group id, of
// each group's children.
func top(t *testing.T, st map[string]any) ([]string, map[string][]string) {
	t.Helper()
	var ids []string
	children := map[string][]string{}
	for _, it := range asMaps(st["structure"]) {
		ids = append(ids, it["id"].(string))
		if it["object"] == "site-section-group" {
			for _, c := range asMaps(it["children"]) {
				children[it["id"].(string)] = append(children[it["id"].(string)], c["id"].(string))
			}
		}
	}
	return ids, children
}

func TestExternalLinks(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		c := f.as(t, f.creator) // the structure's writes need create
		// A site without sections has nowhere to put one.
		plain, _ := f.site(t, map[string]any{"title": "Plain", "spaces": []string{f.space(t, "Only")}})
		c.Expect(http.StatusBadRequest, "POST", plain+"/external-links", map[string]any{"title": "Status", "url": "https://status.example.com"})

		path, secs, group := f.sectionsSite(t)
		res := c.Expect(http.StatusCreated, "POST", path+"/external-links", map[string]any{"title": "Status", "url": "https://status.example.com", "icon": "signal",
			"localizedTitle": map[string]any{"fr": "État"}})
		link := res.Map(t)
		L1 := link["id"].(string)
		if link["object"] != "site-external-link" || link["draft"] != false || link["sectionGroup"] != nil || link["localizedTitle"].(map[string]any)["fr"] != "État" {
			t.Fatalf("link = %v", link)
		}
		if loc := res.Header.Get("Location"); !strings.HasSuffix(loc, path+"/external-links/"+L1) {
			t.Errorf("Location %q", loc)
		}
		L2 := c.Expect(http.StatusCreated, "POST", path+"/external-links", map[string]any{"title": "Blog", "url": "http://blog.example.com/", "parent": group, "draft": true}).Map(t)["id"].(string)

		// Where the structure shows them: the top level's end, the group's end.
		level, children := top(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/structure", nil).Map(t))
		expectOrder(t, "top level", level, secs[0], group, L1)
		expectOrder(t, "group", children[group], secs[1], L2)
		g := f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/section-groups", nil).Map(t)["items"].([]any)[0].(map[string]any)
		if len(g["sections"].([]any)) != 1 {
			t.Errorf("the group's sections list its sections only: %v", g["sections"])
		}

		// A draft link is left out of the published view.
		f.as(t, f.admin).Expect(http.StatusOK, "POST", path+"/publish", nil)
		_, pub := top(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/published", nil).Map(t)["structure"].(map[string]any))
		expectOrder(t, "published group", pub[group], secs[1])

		// Sorting: the link before the first section, a section after a
		// link inside a group, a site space to its level's end.
		moved := c.Expect(http.StatusOK, "PATCH", path+"/structure/sort", map[string]any{"item": map[string]any{"type": "site-external-link", "id": L1},
			"position": map[string]any{"before": map[string]any{"type": "site-section", "id": secs[0]}}}).Map(t)
		if moved["id"] != L1 || moved["object"] != "site-external-link" {
			t.Fatalf("sort answered %v", moved)
		}
		w := c.Expect(http.StatusNoContent, "PATCH", path+"/structure/sort", map[string]any{"item": map[string]any{"type": "site-section", "id": secs[1]},
			"position": map[string]any{"after": map[string]any{"type": "site-external-link", "id": L2}}}, "Prefer", "return=minimal")
		if w.Header.Get("Preference-Applied") != "return=minimal" || len(w.Body) != 0 {
			t.Errorf("minimal answer: %v %q", w.Header, w.Body)
		}
		level, children = top(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/structure", nil).Map(t))
		expectOrder(t, "top level after sorting", level, L1, secs[0], group)
		expectOrder(t, "group after sorting", children[group], L2, secs[1])
		sss := ids(f.list(t, f.reader, path+"/site-spaces", 10))
		c.Expect(http.StatusOK, "PATCH", path+"/structure/sort", map[string]any{"item": map[string]any{"type": "site-space", "id": sss[0]}, "position": map[string]any{}})
		after := ids(f.list(t, f.reader, path+"/site-spaces", 10))
		expectOrder(t, "site spaces", after, sss[1], sss[0], sss[2])

		// The update: fields, parent null (the top level's end), a group.
		up := c.Expect(http.StatusOK, "PATCH", path+"/external-links/"+L2, map[string]any{"title": "News", "parent": nil, "draft": false, "condition": "visitor.claims.beta === true"}).Map(t)
		if up["title"] != "News" || up["sectionGroup"] != nil || up["draft"] != false || up["condition"] != "visitor.claims.beta === true" || up["url"] != "http://blog.example.com/" {
			t.Fatalf("updated = %v", up)
		}
		level, _ = top(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/structure", nil).Map(t))
		expectOrder(t, "top level after the move", level, L1, secs[0], group, L2)
		c.Expect(http.StatusNoContent, "PATCH", path+"/external-links/"+L1, map[string]any{"parent": group, "description": nil}, "Prefer", "return=minimal")
		_, children = top(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/structure", nil).Map(t))
		expectOrder(t, "group after the move", children[group], secs[1], L1)

		// Deleting the group keeps its section and link at its place.
		f.as(t, f.admin).Expect(http.StatusResetContent, "DELETE", path+"/section-groups/"+group, nil)
		level, _ = top(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/structure", nil).Map(t))
		expectOrder(t, "top level without the group", level, secs[0], secs[1], L1, L2)

		// The last section cannot go while links need it.
		c.Expect(http.StatusResetContent, "DELETE", path+"/sections/"+secs[1], nil)
		c.Expect(http.StatusConflict, "DELETE", path+"/sections/"+secs[0], nil)

		c.Expect(http.StatusResetContent, "DELETE", path+"/external-links/"+L1, nil)
		c.Expect(http.StatusNoContent, "DELETE", path+"/external-links/"+L1, nil)
		level, _ = top(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/structure", nil).Map(t))
		expectOrder(t, "top level after the delete", level, secs[0], L2)
	})
}

func TestExternalLinksAndSortRefuse(t *testing.T) {
	f := setup(t)
	path, secs, group := f.sectionsSite(t)
	c := f.as(t, f.creator)
	L := c.Expect(http.StatusCreated, "POST", path+"/external-links", map[string]any{"title": "Status", "url": "https://status.example.com"}).Map(t)["id"].(string)
	links, link := path+"/external-links", path+"/external-links/"+L
	sort := path + "/structure/sort"
	outside := "/v1/orgs/" + f.other.ID + "/sites/x/external-links"
	body := map[string]any{"title": "Status", "url": "https://status.example.com"}
	pointer := func(typ, id string) map[string]any { return map[string]any{"type": typ, "id": id} }
	testkit.Check(t, f.api, []testkit.Case{
		{"no token", "", "POST", links, body, http.StatusUnauthorized, ""},
		{"outsider", f.outsider, "POST", links, body, http.StatusNotFound, ""},
		{"guest", f.guest, "POST", links, body, http.StatusNotFound, ""},
		{"reader", f.reader, "POST", links, body, http.StatusForbidden, ""},
		{"reader updates", f.reader, "PATCH", link, map[string]any{"title": "Up"}, http.StatusForbidden, ""},
		{"reader deletes", f.reader, "DELETE", link, nil, http.StatusForbidden, ""},
		{"reader sorts", f.reader, "PATCH", sort, map[string]any{"item": pointer("site-external-link", L), "position": map[string]any{}}, http.StatusForbidden, ""},
		{"outsider sorts", f.outsider, "PATCH", sort, map[string]any{"item": pointer("site-external-link", L), "position": map[string]any{}}, http.StatusNotFound, ""},
		{"no token sorts", "", "PATCH", sort, map[string]any{"item": pointer("site-external-link", L), "position": map[string]any{}}, http.StatusUnauthorized, ""},
		{"another organization's site", f.creator, "POST", outside, body, http.StatusNotFound, ""},
		{"relative url", f.creator, "POST", links, map[string]any{"title": "Status", "url": "/status"}, http.StatusBadRequest, "url"},
		{"ftp url", f.creator, "POST", links, map[string]any{"title": "Status", "url": "ftp://example.com/x"}, http.StatusBadRequest, "url"},
		{"no url", f.creator, "POST", links, map[string]any{"title": "Status"}, http.StatusBadRequest, "url"},
		{"short title", f.creator, "POST", links, map[string]any{"title": "S", "url": "https://example.com"}, http.StatusBadRequest, "title"},
		{"unknown parent", f.creator, "POST", links, map[string]any{"title": "Status", "url": "https://example.com", "parent": "nope"}, http.StatusBadRequest, "parent"},
		{"a section as parent", f.creator, "POST", links, map[string]any{"title": "Status", "url": "https://example.com", "parent": secs[0]}, http.StatusBadRequest, "parent"},
		{"bad condition", f.creator, "POST", links, map[string]any{"title": "Status", "url": "https://example.com", "condition": "visitor.claims.("}, http.StatusBadRequest, "condition"},
		{"long translation", f.creator, "POST", links, map[string]any{"title": "Status", "url": "https://example.com", "localizedTitle": map[string]any{"fr": strings.Repeat("é", 129)}}, http.StatusBadRequest, "localizedTitle.fr"},
		{"update to a bad url", f.creator, "PATCH", link, map[string]any{"url": "mailto:a@example.com"}, http.StatusBadRequest, "url"},
		{"update of a missing link", f.creator, "PATCH", links + "/nope", map[string]any{"title": "Up"}, http.StatusNotFound, ""},
		{"sort without position", f.creator, "PATCH", sort, map[string]any{"item": pointer("site-external-link", L)}, http.StatusBadRequest, "position"},
		{"sort of an unknown item", f.creator, "PATCH", sort, map[string]any{"item": pointer("site-section", "nope"), "position": map[string]any{}}, http.StatusBadRequest, "item.id"},
		{"sort of a bad type", f.creator, "PATCH", sort, map[string]any{"item": pointer("page", L), "position": map[string]any{}}, http.StatusBadRequest, "item.type"},
		{"sort next to another level's item", f.creator, "PATCH", sort, map[string]any{"item": pointer("site-external-link", L),
			"position": map[string]any{"before": pointer("site-section", secs[1])}}, http.StatusBadRequest, "position.before.id"},
		{"sort next to a wrongly typed sibling", f.creator, "PATCH", sort, map[string]any{"item": pointer("site-external-link", L),
			"position": map[string]any{"after": pointer("site-section", group)}}, http.StatusBadRequest, "position.after.id"},
		{"sort next to itself", f.creator, "PATCH", sort, map[string]any{"item": pointer("site-external-link", L),
			"position": map[string]any{"after": pointer("site-external-link", L)}}, http.StatusBadRequest, "position.after.id"},
		{"sort before and after", f.creator, "PATCH", sort, map[string]any{"item": pointer("site-external-link", L),
			"position": map[string]any{"after": pointer("site-section", secs[0]), "before": pointer("site-section-group", group)}}, http.StatusBadRequest, "position"},
	})
}

// TestPreview opens an unpublished site through a member's preview URL:
// the URL resolves as visitors' do (a site token that reads the published
// view), as the claims asked, with draft links when asked; without the
// preview token the site is unknown.
func TestPreview(t *testing.T) {
	f := setup(t)
	path, secs, _ := f.sectionsSite(t)
	adm := f.as(t, f.admin)
	adm.Expect(http.StatusOK, "PATCH", path+"/sections/"+secs[1], map[string]any{"condition": "visitor.claims.beta === true"})
	adm.Expect(http.StatusCreated, "POST", path+"/external-links", map[string]any{"title": "Drafted", "url": "https://example.com/d", "draft": true})
	sss := f.list(t, f.admin, path+"/site-spaces", 10)

	preview := func(query string) string {
		t.Helper()
		u := f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/publishing/preview"+query, nil).Map(t)["url"].(string)
		if !strings.Contains(u, "?preview=") {
			t.Fatalf("preview URL %s", u)
		}
		return u
	}
	u := preview("")
	base, _, _ := strings.Cut(u, "?")
	f.resolve(t, http.StatusNotFound, base) // unpublished, without the token
	m := f.resolve(t, http.StatusOK, u)
	tok := m["apiToken"].(string)
	pub := f.as(t, tok).Expect(http.StatusOK, "GET", path+"/published", nil).Map(t)
	var objects []string
	for _, it := range asMaps(pub["structure"].(map[string]any)["structure"]) {
		objects = append(objects, it["object"].(string)+":"+it["title"].(string))
	}
	// No claims: the API section (beta) is hidden, with its group; the
	// draft link shows (draft defaults to true).
	expectOrder(t, "previewed top level", objects, "site-section:Guides", "site-external-link:Drafted")

	// With the claim and without drafts.
	u = preview("?claims=" + url.QueryEscape("(beta:!t)") + "&draft=false")
	m = f.resolve(t, http.StatusOK, u)
	pub = f.as(t, m["apiToken"].(string)).Expect(http.StatusOK, "GET", path+"/published", nil).Map(t)
	objects = nil
	for _, it := range asMaps(pub["structure"].(map[string]any)["structure"]) {
		objects = append(objects, it["object"].(string)+":"+it["title"].(string))
	}
	expectOrder(t, "previewed as a beta visitor", objects, "site-section:Guides", "site-section-group:Reference")

	// A site space's URL, a target's.
	ss := sss[1] // API, beside the default of Guides
	u = preview("?siteSpace=" + ss["id"].(string))
	if m = f.resolve(t, http.StatusOK, u); m["siteSpace"] != ss["id"] {
		t.Errorf("preview of %s resolved %v", ss["id"], m["siteSpace"])
	}
	u = preview("?target=" + url.QueryEscape(base+"guides/intro"))
	if m = f.resolve(t, http.StatusOK, u); m["pathname"] != "intro" {
		t.Errorf("target resolved %v", m)
	}

	pv := path + "/publishing/preview"
	testkit.Check(t, f.api, []testkit.Case{
		{"no token", "", "GET", pv, nil, http.StatusUnauthorized, ""},
		{"outsider", f.outsider, "GET", pv, nil, http.StatusNotFound, ""},
		{"guest", f.guest, "GET", pv, nil, http.StatusNotFound, ""},
		{"bad claims", f.reader, "GET", pv + "?claims=" + url.QueryEscape("(beta:"), nil, http.StatusBadRequest, "claims"},
		{"claims not an object", f.reader, "GET", pv + "?claims=" + url.QueryEscape("!(1,2)"), nil, http.StatusBadRequest, "claims"},
		{"unknown site space", f.reader, "GET", pv + "?siteSpace=nope", nil, http.StatusBadRequest, "siteSpace"},
		{"target elsewhere", f.reader, "GET", pv + "?target=" + url.QueryEscape("https://evil.example.com/"), nil, http.StatusBadRequest, "target"},
		{"a visitor's token", tok, "GET", pv, nil, http.StatusUnauthorized, ""},
	})
	// A preview token is no bearer token.
	q, _ := url.Parse(u)
	f.as(t, q.Query().Get("preview")).Expect(http.StatusUnauthorized, "GET", path+"/published", nil)
}

// TestDuplicateSiteSpace copies site spaces: the only one of a section
// into a new section after it, one of several beside it.
func TestDuplicateSiteSpace(t *testing.T) {
	f := setup(t)
	contentroot.Routes(f.api, app.NewRoot(f.kit.Deps))
	path, secs, group := f.sectionsSite(t)
	adm := f.as(t, f.admin)
	section := func(id string) []map[string]any {
		t.Helper()
		for _, sec := range f.list(t, f.admin, path+"/sections", 10) {
			if sec["id"] == id {
				return asMaps(sec["siteSpaces"])
			}
		}
		t.Fatalf("no section %s", id)
		return nil
	}
	guides := section(secs[0])
	if len(guides) != 2 {
		t.Fatalf("Guides holds %d site spaces", len(guides))
	}
	c := f.as(t, f.creator)
	res := c.Expect(http.StatusCreated, "POST", path+"/site-spaces/"+guides[0]["id"].(string)+"/duplicate", nil)
	cp := res.Map(t)
	if cp["section"] != secs[0] || cp["space"].(map[string]any)["title"] != "Guide (copy)" || cp["space"].(map[string]any)["id"] == guides[0]["space"].(map[string]any)["id"] {
		t.Fatalf("copy = %v", cp)
	}
	if !strings.HasSuffix(res.Header.Get("Location"), "/site-spaces/"+cp["id"].(string)) {
		t.Errorf("Location %q", res.Header.Get("Location"))
	}
	level := ids(section(secs[0]))
	expectOrder(t, "Guides", level, guides[0]["id"].(string), cp["id"].(string), guides[1]["id"].(string))

	// The API section's only site space: a new section after it, in its group.
	api := section(secs[1])[0]
	cp2 := c.Expect(http.StatusCreated, "POST", path+"/site-spaces/"+api["id"].(string)+"/duplicate", map[string]any{"draft": false}).Map(t)
	_, children := top(t, adm.Expect(http.StatusOK, "GET", path+"/structure", nil).Map(t))
	if len(children[group]) != 2 || children[group][0] != secs[1] || children[group][1] != cp2["section"] {
		t.Fatalf("group %v, copy in section %v", children[group], cp2["section"])
	}

	dup := path + "/site-spaces/" + api["id"].(string) + "/duplicate"
	testkit.Check(t, f.api, []testkit.Case{
		{"no token", "", "POST", dup, nil, http.StatusUnauthorized, ""},
		{"outsider", f.outsider, "POST", dup, nil, http.StatusNotFound, ""},
		{"reader", f.reader, "POST", dup, nil, http.StatusForbidden, ""},
		{"draft", f.creator, "POST", dup, map[string]any{"draft": true}, http.StatusBadRequest, "draft"},
		{"unknown site space", f.creator, "POST", path + "/site-spaces/nope/duplicate", nil, http.StatusNotFound, ""},
	})
}
