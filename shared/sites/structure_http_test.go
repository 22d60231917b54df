package sites_test

import (
	"net/http"
	"strings"
	"testing"
)

// state is a site's structure as its lists show it.
type state struct {
	sections []string            // section ids in order
	groups   []string            // group ids in order
	inGroup  map[string]string   // section id -> group id
	levels   map[string][]string // section id ("" root) -> site space ids in order
	defaults map[string]string   // section id ("" root) -> default site space id
	def      string              // default section
	paths    map[string]string   // id -> path
}

func (f *fixture) state(t *testing.T, site string) state {
	t.Helper()
	s := state{inGroup: map[string]string{}, levels: map[string][]string{}, defaults: map[string]string{}, paths: map[string]string{}}
	for _, sec := range f.list(t, f.reader, site+"/sections", 2) {
		id := sec["id"].(string)
		s.sections = append(s.sections, id)
		s.paths[id] = sec["path"].(string)
		if g, _ := sec["sectionGroup"].(string); g != "" {
			s.inGroup[id] = g
		}
		if sec["default"] == true {
			s.def = id
		}
	}
	for _, ss := range f.list(t, f.reader, site+"/site-spaces", 3) {
		id, sec := ss["id"].(string), ss["section"]
		key, _ := sec.(string)
		s.levels[key] = append(s.levels[key], id)
		s.paths[id] = ss["path"].(string)
		if ss["default"] == true {
			s.defaults[key] = id
		}
	}
	s.groups = ids(f.list(t, f.reader, site+"/section-groups", 1))
	return s
}

func expectOrder(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if join(got) != join(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
}

// TestStructureInvariantsAndMoves builds a site of four sections, two
// groups and several site spaces per section, checking every invariant of
// doc.go and the order of lists after each step, on both backends.
func TestStructureInvariantsAndMoves(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		sp := map[int]string{}
		for i := 1; i <= 9; i++ {
			sp[i] = f.space(t, "Space "+string(rune('0'+i)))
		}
		site, _ := f.site(t, map[string]any{"title": "Docs", "spaces": []string{sp[1], sp[2]}})
		c := f.as(t, f.creator) // structure changes need create
		st := f.state(t, site)
		root := st.levels[""]
		expectOrder(t, "root", root, root[0], root[1])
		ss1, ss2 := root[0], root[1]
		if st.defaults[""] != ss1 || len(st.sections) != 0 {
			t.Fatalf("root default %s, sections %v", st.defaults[""], st.sections)
		}

		// Invariant 1: the first section takes the root's site spaces.
		g1 := c.Expect(http.StatusCreated, "POST", site+"/sections", map[string]any{"spaceId": sp[3], "title": "Guides"}).Map(t)
		G1 := g1["id"].(string)
		if g1["default"] != true || g1["path"] != "guides" || len(g1["siteSpaces"].([]any)) != 3 {
			t.Fatalf("first section = %v", g1)
		}
		st = f.state(t, site)
		if len(st.levels[""]) != 0 || st.defaults[G1] != ss1 {
			t.Fatalf("after the first section: root %v, default %s", st.levels[""], st.defaults[G1])
		}
		ss3 := st.levels[G1][2]
		expectOrder(t, "Guides", st.levels[G1], ss1, ss2, ss3)

		G2 := c.Expect(http.StatusCreated, "POST", site+"/sections", map[string]any{"spaceId": sp[4], "title": "API"}).Map(t)["id"].(string)
		ss5 := c.Expect(http.StatusCreated, "POST", site+"/site-spaces", map[string]any{"spaceId": sp[5], "sectionId": G2}).Map(t)["id"].(string)
		G3 := c.Expect(http.StatusCreated, "POST", site+"/sections", map[string]any{"spaceId": sp[6], "title": "Changelog"}).Map(t)["id"].(string)
		// Without sectionId, a site space goes to the default section.
		ss7 := c.Expect(http.StatusCreated, "POST", site+"/site-spaces", map[string]any{"spaceId": sp[7]}).Map(t)
		if ss7["section"] != G1 || ss7["default"] != false {
			t.Fatalf("site space without section = %v", ss7)
		}
		G4 := c.Expect(http.StatusCreated, "POST", site+"/sections", map[string]any{"spaceId": sp[8], "title": "Tutorials"}).Map(t)["id"].(string)
		st = f.state(t, site)
		ss4, ss6 := st.levels[G2][0], st.levels[G3][0]
		expectOrder(t, "API", st.levels[G2], ss4, ss5)
		if st.def != G1 || st.defaults[G2] != ss4 || st.defaults[G3] != ss6 {
			t.Fatalf("defaults: section %s, API %s, Changelog %s", st.def, st.defaults[G2], st.defaults[G3])
		}

		// Groups: one made with sections, one filled afterwards.
		r1 := c.Expect(http.StatusCreated, "POST", site+"/section-groups", map[string]any{"title": "Reference", "sections": []string{G2, G3}}).Map(t)
		R1 := r1["id"].(string)
		if secs := ids(asMaps(r1["sections"])); join(secs) != join([]string{G2, G3}) {
			t.Fatalf("group made with %v", secs)
		}
		R2 := c.Expect(http.StatusCreated, "POST", site+"/section-groups", map[string]any{"title": "Learn"}).Map(t)["id"].(string)
		r2 := c.Expect(http.StatusCreated, "POST", site+"/section-groups/"+R2+"/sections", map[string]any{"sectionId": G4}).Map(t)
		if secs := ids(asMaps(r2["sections"])); join(secs) != G4 {
			t.Fatalf("group filled with %v", secs)
		}
		st = f.state(t, site)
		expectOrder(t, "sections", st.sections, G1, G2, G3, G4)
		expectOrder(t, "groups", st.groups, R1, R2)

		// Moves: a group before a section; sections within and across groups;
		// site spaces within and across sections.
		c.Expect(http.StatusOK, "POST", site+"/section-groups/"+R2+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": G1}}})
		st = f.state(t, site)
		expectOrder(t, "after moving Learn first", st.sections, G4, G1, G2, G3)
		expectOrder(t, "groups after moving Learn first", st.groups, R2, R1)
		c.Expect(http.StatusOK, "POST", site+"/sections/"+G3+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": G2}}})
		moved := c.Expect(http.StatusOK, "POST", site+"/sections/"+G1+"/move", map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "siteSection": G4}}}).Map(t)
		if moved["sectionGroup"] != R2 {
			t.Fatalf("a section moved after a grouped one is in group %v", moved["sectionGroup"])
		}
		c.Expect(http.StatusOK, "POST", site+"/site-spaces/"+ss7["id"].(string)+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-space", "siteSpace": ss1}}})
		across := c.Expect(http.StatusOK, "POST", site+"/site-spaces/"+ss5+"/move", map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-space", "siteSpace": ss3}}}).Map(t)
		if across["section"] != G1 || across["default"] != false {
			t.Fatalf("site space moved across sections = %v", across)
		}
		st = f.state(t, site)
		expectOrder(t, "sections after moves", st.sections, G4, G1, G3, G2)
		expectOrder(t, "Guides after moves", st.levels[G1], ss7["id"].(string), ss1, ss2, ss3, ss5)
		expectOrder(t, "API after moves", st.levels[G2], ss4)
		if st.inGroup[G1] != R2 || st.inGroup[G3] != R1 {
			t.Fatalf("groups of sections: %v", st.inGroup)
		}

		// Invariant 8: defaults through the site's PATCH and the section's.
		a := f.as(t, f.admin)
		a.Expect(http.StatusOK, "PATCH", site, map[string]any{"defaultSiteSection": G2, "defaultSiteSpace": ss4})
		mentions(t, a.Expect(http.StatusBadRequest, "PATCH", site, map[string]any{"defaultSiteSpace": ss1}), "defaultSiteSpace")
		c.Expect(http.StatusOK, "PATCH", site+"/sections/"+G1, map[string]any{"defaultSiteSpace": ss2})
		mentions(t, c.Expect(http.StatusBadRequest, "PATCH", site+"/sections/"+G1, map[string]any{"defaultSiteSpace": ss4}), "defaultSiteSpace")
		st = f.state(t, site)
		if st.def != G2 || st.defaults[G2] != ss4 || st.defaults[G1] != ss2 {
			t.Fatalf("defaults: section %s, API %s, Guides %s", st.def, st.defaults[G2], st.defaults[G1])
		}
		// The default filter, in list order (sections G4, G1, G3, G2).
		defaults := ids(f.list(t, f.reader, site+"/site-spaces?default=true", 1))
		expectOrder(t, "default site spaces", defaults, st.defaults[G4], ss2, ss6, ss4)
		others := ids(f.list(t, f.reader, site+"/site-spaces?default=false", 2))
		expectOrder(t, "other site spaces", others, ss7["id"].(string), ss1, ss3, ss5)

		// Invariant 3: deleting a default picks the next.
		c.Expect(http.StatusResetContent, "DELETE", site+"/site-spaces/"+ss2, nil)
		c.Expect(http.StatusResetContent, "DELETE", site+"/sections/"+G2, nil)
		st = f.state(t, site)
		if st.defaults[G1] != ss3 {
			t.Fatalf("Guides' default after deleting it: %s, want the next, %s", st.defaults[G1], ss3)
		}
		if st.def != G3 {
			t.Fatalf("default section after deleting the last one: %s, want the previous, %s", st.def, G3)
		}
		if _, ok := st.levels[G2]; ok {
			t.Fatal("site spaces of the deleted section remain")
		}

		// Invariants 4 to 6: taken paths, a space twice in a level, a last site space.
		mentions(t, c.Expect(http.StatusConflict, "PATCH", site+"/sections/"+G3, map[string]any{"path": st.paths[G4]}), st.paths[G4])
		mentions(t, c.Expect(http.StatusConflict, "PATCH", site+"/site-spaces/"+ss3, map[string]any{"path": st.paths[ss1]}), st.paths[ss1])
		c.Expect(http.StatusOK, "PATCH", site+"/site-spaces/"+ss3, map[string]any{"path": "renamed"})
		c.Expect(http.StatusConflict, "POST", site+"/site-spaces", map[string]any{"spaceId": sp[1], "sectionId": G1})
		c.Expect(http.StatusConflict, "DELETE", site+"/site-spaces/"+ss6, nil)

		// Invariant 7: deleting a group keeps its sections, at its place.
		c.Expect(http.StatusResetContent, "DELETE", site+"/section-groups/"+R2, nil)
		st = f.state(t, site)
		expectOrder(t, "sections after deleting Learn", st.sections, G4, G1, G3)
		expectOrder(t, "groups after deleting Learn", st.groups, R1)
		if st.inGroup[G4] != "" || st.inGroup[G1] != "" {
			t.Fatalf("sections still grouped: %v", st.inGroup)
		}
		// Taking a section out of its group puts it right after the group.
		c.Expect(http.StatusResetContent, "DELETE", site+"/section-groups/"+R1+"/sections/"+G3, nil)
		c.Expect(http.StatusOK, "POST", site+"/section-groups/"+R1+"/move", nil)
		st = f.state(t, site)
		if st.inGroup[G3] != "" {
			t.Fatal("section still in its group")
		}
		expectOrder(t, "sections at the end", st.sections, G4, G1, G3)

		// Deleting every section leaves an empty root.
		for _, id := range st.sections {
			c.Expect(http.StatusResetContent, "DELETE", site+"/sections/"+id, nil)
		}
		st = f.state(t, site)
		if len(st.sections) != 0 || len(st.levels) != 0 {
			t.Fatalf("after deleting every section: %v %v", st.sections, st.levels)
		}
		if n := f.as(t, f.reader).Expect(http.StatusOK, "GET", site, nil).Map(t)["siteSpaces"]; n != 0.0 {
			t.Fatalf("siteSpaces = %v", n)
		}
	})
}

func asMaps(v any) []map[string]any {
	var out []map[string]any
	for _, x := range v.([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

// TestStructureOperationsReject covers the auth, cross-organization and
// validation answers of every structure operation.
func TestStructureOperationsReject(t *testing.T) {
	f := setup(t)
	a, b := f.space(t, "A"), f.space(t, "B")
	site, _ := f.site(t, map[string]any{"title": "Docs", "spaces": []string{a}})
	c := f.as(t, f.creator)
	sec := c.Expect(http.StatusCreated, "POST", site+"/sections", map[string]any{"spaceId": b}).Map(t)
	S := sec["id"].(string)
	SS := asMaps(sec["siteSpaces"])[0]["id"].(string)
	G := c.Expect(http.StatusCreated, "POST", site+"/section-groups", map[string]any{"title": "G"}).Map(t)["id"].(string)
	foreign := f.kitSpaceIn(t)
	theirs, _ := f.siteIn(t, f.outsider, f.other.ID)
	long := func(n int) string { return strings.Repeat("x", n) }
	type op struct{ method, path string }
	ops := map[string]op{
		"addSection":      {"POST", site + "/sections"},
		"patchSection":    {"PATCH", site + "/sections/" + S},
		"moveSection":     {"POST", site + "/sections/" + S + "/move"},
		"deleteSection":   {"DELETE", site + "/sections/unknown"},
		"addGroup":        {"POST", site + "/section-groups"},
		"patchGroup":      {"PATCH", site + "/section-groups/" + G},
		"moveGroup":       {"POST", site + "/section-groups/" + G + "/move"},
		"addToGroup":      {"POST", site + "/section-groups/" + G + "/sections"},
		"removeFromGroup": {"DELETE", site + "/section-groups/" + G + "/sections/" + S},
		"deleteGroup":     {"DELETE", site + "/section-groups/unknown"},
		"addSiteSpace":    {"POST", site + "/site-spaces"},
		"patchSiteSpace":  {"PATCH", site + "/site-spaces/" + SS},
		"moveSiteSpace":   {"POST", site + "/site-spaces/" + SS + "/move"},
		"deleteSiteSpace": {"DELETE", site + "/site-spaces/unknown"},
	}
	type structureCase struct {
		name   string
		op     string
		token  string
		body   any
		status int
		field  string
	}
	cases := []structureCase{
		{"400SectionSpaceMissing", "addSection", f.creator, map[string]any{}, 400, "spaceId"},
		{"400SectionUnknownSpace", "addSection", f.creator, map[string]any{"spaceId": "nope"}, 400, "spaceId"},
		{"400SectionSpaceOfAnotherOrganization", "addSection", f.creator, map[string]any{"spaceId": foreign}, 400, "spaceId"},
		{"400SectionTitleTooLong", "addSection", f.creator, map[string]any{"spaceId": a, "title": long(65)}, 400, "title"},
		{"400SectionTitleTooShort", "addSection", f.creator, map[string]any{"spaceId": a, "title": "x"}, 400, "title"},
		{"400SectionIconTooLong", "addSection", f.creator, map[string]any{"spaceId": a, "icon": long(51)}, 400, "icon"},
		{"400PatchTitleTooShort", "patchSection", f.creator, map[string]any{"title": "x"}, 400, "title"},
		{"400PatchTitleTooLong", "patchSection", f.creator, map[string]any{"title": long(129)}, 400, "title"},
		{"400PatchPathEmpty", "patchSection", f.creator, map[string]any{"path": ""}, 400, "path"},
		{"400PatchPathTooLong", "patchSection", f.creator, map[string]any{"path": long(101)}, 400, "path"},
		{"400PatchPathNull", "patchSection", f.creator, `{"path":null}`, 400, "path"},
		{"400PatchConditionEmpty", "patchSection", f.creator, map[string]any{"condition": ""}, 400, "condition"},
		{"400PatchConditionTooLong", "patchSection", f.creator, map[string]any{"condition": long(1025)}, 400, "condition"},
		{"400PatchIconTooLong", "patchSection", f.creator, map[string]any{"icon": long(51)}, 400, "icon"},
		{"400PatchDescriptionTooLong", "patchSection", f.creator, map[string]any{"description": long(257)}, 400, "description"},
		{"400PatchUnknownDefaultSiteSpace", "patchSection", f.creator, map[string]any{"defaultSiteSpace": "nope"}, 400, "defaultSiteSpace"},
		{"400MoveBadType", "moveSection", f.creator, map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-space", "siteSection": S}}}, 400, "type"},
		{"400MoveUnknownTarget", "moveSection", f.creator, map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": "nope"}}}, 400, "siteSection"},
		{"400MoveNextToItself", "moveSection", f.creator, map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "siteSection": S}}}, 400, "siteSection"},
		{"400MoveBeforeAndAfter", "moveSection", f.creator, map[string]any{"position": map[string]any{
			"before": map[string]any{"type": "site-section", "siteSection": S}, "after": map[string]any{"type": "site-section", "siteSection": S}}}, 400, "position"},
		{"400GroupTitleMissing", "addGroup", f.creator, map[string]any{}, 400, "title"},
		{"400GroupTitleEmpty", "addGroup", f.creator, map[string]any{"title": ""}, 400, "title"},
		{"400GroupTitleTooLong", "addGroup", f.creator, map[string]any{"title": long(101)}, 400, "title"},
		{"400GroupIconTooLong", "addGroup", f.creator, map[string]any{"title": "G", "icon": long(51)}, 400, "icon"},
		{"400GroupUnknownSection", "addGroup", f.creator, map[string]any{"title": "G", "sections": []string{"nope"}}, 400, "sections"},
		{"400GroupPatchTitleTooLong", "patchGroup", f.creator, map[string]any{"title": long(101)}, 400, "title"},
		{"400GroupPatchTitleNull", "patchGroup", f.creator, `{"title":null}`, 400, "title"},
		{"400GroupMoveBadType", "moveGroup", f.creator, map[string]any{"position": map[string]any{"after": map[string]any{"type": "space", "id": S}}}, 400, "type"},
		{"400GroupMoveUnknownTarget", "moveGroup", f.creator, map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "id": "nope"}}}, 400, "id"},
		{"400AddToGroupMissing", "addToGroup", f.creator, map[string]any{}, 400, "sectionId"},
		{"400AddToGroupUnknown", "addToGroup", f.creator, map[string]any{"sectionId": "nope"}, 400, "sectionId"},
		{"404RemoveSectionNotInGroup", "removeFromGroup", f.creator, nil, 404, ""},
		{"400SiteSpaceMissing", "addSiteSpace", f.creator, map[string]any{}, 400, "spaceId"},
		{"400SiteSpaceUnknownSection", "addSiteSpace", f.creator, map[string]any{"spaceId": a, "sectionId": "nope"}, 400, "sectionId"},
		{"400SiteSpaceForeignSpace", "addSiteSpace", f.creator, map[string]any{"spaceId": foreign}, 400, "spaceId"},
		{"400SiteSpacePathTooLong", "patchSiteSpace", f.creator, map[string]any{"path": long(101)}, 400, "path"},
		{"400SiteSpaceConditionTooLong", "patchSiteSpace", f.creator, map[string]any{"condition": long(1025)}, 400, "condition"},
		{"400SiteSpaceMoveUnknown", "moveSiteSpace", f.creator, map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-space", "siteSpace": "nope"}}}, 400, "siteSpace"},
		// Deleting what the site does not have: GitBook's 204 ("did not exist").
		{"204DeleteUnknownSection", "deleteSection", f.creator, nil, 204, ""},
		{"204DeleteUnknownGroup", "deleteGroup", f.creator, nil, 204, ""},
		{"204DeleteUnknownSiteSpace", "deleteSiteSpace", f.creator, nil, 204, ""},
	}
	// Every operation: 401 without a token, 403 for a reader, 404 for a
	// guest and for a member of another organization (with a valid body:
	// shapes are checked first).
	valid := map[string]any{"addSection": map[string]any{"spaceId": a}, "addGroup": map[string]any{"title": "G"},
		"addToGroup": map[string]any{"sectionId": S}, "addSiteSpace": map[string]any{"spaceId": a}}
	for name := range ops {
		if valid[name] == nil {
			valid[name] = map[string]any{}
		}
	}
	for name := range ops {
		for _, who := range []struct {
			label  string
			token  string
			status int
		}{{"401NoToken", "", 401}, {"403Reader", f.reader, 403}, {"404Guest", f.guest, 404}, {"404Outsider", f.outsider, 404}} {
			cases = append(cases, structureCase{who.label + "_" + name, name, who.token, valid[name], who.status, ""})
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := ops[tc.op]
			var body any = tc.body
			if o.method == "DELETE" {
				body = nil
			}
			res := f.as(t, tc.token).Expect(tc.status, o.method, o.path, body)
			if tc.field != "" {
				mentions(t, res, tc.field)
			}
		})
	}
	// The outsider's own site: our structure ids are not found in it.
	o := f.as(t, f.outsider)
	o.Expect(http.StatusNotFound, "PATCH", theirs+"/sections/"+S, map[string]any{"title": "Hijack"})
	o.Expect(http.StatusNoContent, "DELETE", theirs+"/site-spaces/"+SS, nil) // their site has no such site space
	o.Expect(http.StatusNotFound, "POST", theirs+"/section-groups/"+G+"/sections", map[string]any{"sectionId": S})
	for _, p := range []string{site + "/sections", site + "/site-spaces", site + "/section-groups"} {
		f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", p, nil)
		f.as(t, f.guest).Expect(http.StatusNotFound, "GET", p, nil)
		f.as(t, "").Expect(http.StatusUnauthorized, "GET", p, nil)
		f.as(t, f.admin).Expect(http.StatusNotFound, "GET", strings.Replace(p, site, f.sitesPath()+"/unknown", 1), nil)
	}
}

// PATCH of a section: omitted fields stay, null removes condition, icon and
// description.
func TestPatchSectionAndSiteSpaceNulls(t *testing.T) {
	f := setup(t)
	a := f.space(t, "A")
	site, _ := f.site(t, map[string]any{"title": "Docs"})
	c := f.as(t, f.creator)
	sec := c.Expect(http.StatusCreated, "POST", site+"/sections", map[string]any{"spaceId": a, "title": "Guides", "icon": "book"}).Map(t)
	S := sec["id"].(string)
	if sec["icon"] != "book" || sec["title"] != "Guides" {
		t.Fatalf("section = %v", sec)
	}
	got := c.Expect(http.StatusOK, "PATCH", site+"/sections/"+S, map[string]any{"condition": "visitor.claims.isBeta === true",
		"description": "All guides", "title": "Guides 2", "path": "g"}).Map(t)
	if got["condition"] != "visitor.claims.isBeta === true" || got["description"] != "All guides" || got["icon"] != "book" || got["path"] != "g" {
		t.Fatalf("patched = %v", got)
	}
	got = c.Expect(http.StatusOK, "PATCH", site+"/sections/"+S, `{"condition":null,"icon":null}`).Map(t)
	if got["condition"] != nil || got["icon"] != nil || got["description"] != "All guides" || got["title"] != "Guides 2" {
		t.Fatalf("after nulls = %v", got)
	}
	got = c.Expect(http.StatusOK, "PATCH", site+"/sections/"+S, `{"description":null}`).Map(t)
	if got["description"] != nil || got["path"] != "g" {
		t.Fatalf("after description null = %v", got)
	}
	SS := asMaps(got["siteSpaces"])[0]["id"].(string)
	ss := c.Expect(http.StatusOK, "PATCH", site+"/site-spaces/"+SS, map[string]any{"condition": "visitor.claims.isAdmin === true", "path": "a"}).Map(t)
	if ss["condition"] != "visitor.claims.isAdmin === true" || ss["path"] != "a" {
		t.Fatalf("site space = %v", ss)
	}
	// A condition of unknown syntax is refused, naming the field; nothing changes.
	for _, p := range []string{site + "/site-spaces/" + SS, site + "/sections/" + S} {
		bad := string(c.Expect(http.StatusBadRequest, "PATCH", p, map[string]any{"condition": "visitor.claims.isAdmin = true", "path": "zz"}).Body)
		if !strings.Contains(bad, "condition") {
			t.Errorf("PATCH %s: %s", p, bad)
		}
	}
	ss = c.Expect(http.StatusOK, "PATCH", site+"/site-spaces/"+SS, `{"condition":null}`).Map(t)
	if ss["condition"] != nil || ss["path"] != "a" {
		t.Fatalf("after condition null = %v", ss)
	}
	// hidden: set, kept by a PATCH that does not name it, cleared.
	if ss["hidden"] != false {
		t.Fatalf("a new site space is hidden: %v", ss)
	}
	if ss = c.Expect(http.StatusOK, "PATCH", site+"/site-spaces/"+SS, map[string]any{"hidden": true}).Map(t); ss["hidden"] != true {
		t.Fatalf("after hidden true = %v", ss)
	}
	if ss = c.Expect(http.StatusOK, "PATCH", site+"/site-spaces/"+SS, map[string]any{"path": "b"}).Map(t); ss["hidden"] != true || ss["path"] != "b" {
		t.Fatalf("a PATCH without hidden changed it: %v", ss)
	}
	if ss = c.Expect(http.StatusOK, "PATCH", site+"/site-spaces/"+SS, map[string]any{"hidden": false}).Map(t); ss["hidden"] != false {
		t.Fatalf("after hidden false = %v", ss)
	}
	g := c.Expect(http.StatusCreated, "POST", site+"/section-groups", map[string]any{"title": "G", "icon": "star"}).Map(t)
	G := g["id"].(string)
	g = c.Expect(http.StatusOK, "PATCH", site+"/section-groups/"+G, map[string]any{"title": "G2"}).Map(t)
	if g["icon"] != "star" || g["title"] != "G2" {
		t.Fatalf("group = %v", g)
	}
	g = c.Expect(http.StatusOK, "PATCH", site+"/section-groups/"+G, `{"icon":null}`).Map(t)
	if g["icon"] != nil || g["title"] != "G2" {
		t.Fatalf("group after icon null = %v", g)
	}
}

// Lists of a site's structure page through every item in order, and their
// tokens are bound to their list.
func TestStructureListsPage(t *testing.T) {
	f := setup(t)
	site, _ := f.site(t, map[string]any{"title": "Docs"})
	c := f.as(t, f.creator)
	var want []string
	for i := 0; i < 5; i++ {
		want = append(want, c.Expect(http.StatusCreated, "POST", site+"/sections", map[string]any{"spaceId": f.space(t, "S")}).Map(t)["id"].(string))
	}
	for i := 0; i < 3; i++ {
		c.Expect(http.StatusCreated, "POST", site+"/section-groups", map[string]any{"title": "G"})
	}
	for _, limit := range []int{1, 2, 4, 50} {
		expectOrder(t, "sections", ids(f.list(t, f.reader, site+"/sections", limit)), want...)
		if n := len(f.list(t, f.reader, site+"/site-spaces", limit)); n != 5 {
			t.Fatalf("limit %d: %d site spaces", limit, n)
		}
		if n := len(f.list(t, f.reader, site+"/section-groups", limit)); n != 3 {
			t.Fatalf("limit %d: %d groups", limit, n)
		}
	}
	first := f.as(t, f.reader).Expect(http.StatusOK, "GET", site+"/sections?limit=1", nil).Map(t)
	token := first["next"].(map[string]any)["page"].(string)
	mentions(t, f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", site+"/site-spaces?page="+token, nil), "page")
	mentions(t, f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", site+"/section-groups?page="+token, nil), "page")
	mentions(t, f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", site+"/sections?limit=1001", nil), "limit")
	mentions(t, f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", site+"/site-spaces?default=perhaps", nil), "default")
	// A page resumes after the last item it showed, even when an earlier
	// item is deleted in between.
	c.Expect(http.StatusResetContent, "DELETE", site+"/sections/"+want[0], nil)
	rest := f.as(t, f.reader).Expect(http.StatusOK, "GET", site+"/sections?limit=10&page="+token, nil).Map(t)
	expectOrder(t, "resumed", ids(asMaps(rest["items"])), want[1:]...)
}
