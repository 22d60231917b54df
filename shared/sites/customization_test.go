package sites_test

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// saveAnswer keeps an answer for the check against GitBook's reference
// (GALLEY_SAVE_ANSWERS names a directory; see docs/sites.md).
func saveAnswer(t *testing.T, name string, body []byte) {
	if dir := os.Getenv("GALLEY_SAVE_ANSWERS"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, name+".json"), body, 0o644)
	}
}

// siteWithSpaces creates a site showing two spaces and returns its path and
// the ids of its site spaces.
func (f *fixture) siteWithSpaces(t *testing.T) (string, []string) {
	t.Helper()
	a, b := f.space(t, "Guide"), f.space(t, "API")
	path, _ := f.site(t, map[string]any{"title": "Docs", "spaces": []string{a, b}})
	ss := f.list(t, f.admin, path+"/site-spaces", 10)
	return path, ids(ss)
}

func TestCustomization(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		site, ss := f.siteWithSpaces(t)
		a := f.as(t, f.admin)
		def := a.Expect(http.StatusOK, "GET", site+"/customization", nil)
		saveAnswer(t, "SiteCustomizationSettings-default", def.Body)
		m := def.Map(t)
		styling := m["styling"].(map[string]any)
		if styling["theme"] != "clean" || styling["font"] != "Inter" || m["updatedAt"] != nil {
			t.Fatalf("defaults = %v", m)
		}
		// The reader sees the settings; changing them takes admin.
		f.as(t, f.reader).Expect(http.StatusOK, "GET", site+"/customization", nil)
		styling["theme"] = "bold"
		styling["primaryColor"] = map[string]any{"light": "#ff0000", "dark": "#00f"}
		m["header"] = map[string]any{"preset": "custom", "links": []any{map[string]any{"title": "Home", "to": map[string]any{"kind": "url", "url": "https://example.com"}, "links": []any{}}}}
		got := a.Expect(http.StatusOK, "PUT", site+"/customization", m)
		saveAnswer(t, "SiteCustomizationSettings-put", got.Body)
		g := got.Map(t)
		if g["styling"].(map[string]any)["theme"] != "bold" || g["updatedAt"] == nil {
			t.Fatalf("after PUT: %v", g)
		}
		if a.Expect(http.StatusOK, "GET", site+"/customization", nil).Map(t)["styling"].(map[string]any)["theme"] != "bold" {
			t.Error("PUT not kept")
		}
		// A site space shows the site's settings until it overrides some.
		ssPath := site + "/site-spaces/" + ss[1] + "/customization"
		if a.Expect(http.StatusOK, "GET", ssPath, nil).Map(t)["styling"].(map[string]any)["theme"] != "bold" {
			t.Error("site space does not inherit the site's theme")
		}
		a.Expect(http.StatusNoContent, "DELETE", ssPath, nil)
		o := a.Expect(http.StatusOK, "PATCH", ssPath, map[string]any{"styling": map[string]any{"theme": "muted", "corners": "straight", "depth": "flat",
			"sidebar": map[string]any{"background": "filled", "list": "line"}}, "title": "API docs"}).Map(t)
		os := o["styling"].(map[string]any)
		if os["theme"] != "muted" || os["corners"] != "straight" || os["primaryColor"].(map[string]any)["light"] != "#ff0000" || o["title"] != "API docs" ||
			os["depth"] != "flat" || os["sidebar"].(map[string]any)["list"] != "line" || os["sidebar"].(map[string]any)["background"] != "filled" {
			t.Fatalf("override = %v", o)
		}
		// null resets one member to the site's value, keeping the others.
		o = a.Expect(http.StatusOK, "PATCH", ssPath, map[string]any{"styling": map[string]any{"theme": nil}}).Map(t)
		if o["styling"].(map[string]any)["theme"] != "bold" || o["styling"].(map[string]any)["corners"] != "straight" {
			t.Fatalf("after reset = %v", o["styling"])
		}
		// The published view carries both, in the reference's shape.
		a.Expect(http.StatusOK, "POST", site+"/publish", nil)
		pub := a.Expect(http.StatusOK, "GET", site+"/published", nil)
		saveAnswer(t, "PublishedContentSite", pub.Body)
		p := pub.Map(t)
		cust := p["customizations"].(map[string]any)
		if cust["site"].(map[string]any)["styling"].(map[string]any)["theme"] != "bold" {
			t.Errorf("published site customization = %v", cust["site"])
		}
		sss := cust["siteSpaces"].(map[string]any)
		if len(sss) != 2 || sss[ss[1]].(map[string]any)["styling"].(map[string]any)["corners"] != "straight" ||
			sss[ss[0]].(map[string]any)["styling"].(map[string]any)["corners"] != "rounded" {
			t.Errorf("published site spaces' customizations = %v", sss)
		}
		if s, ok := p["scripts"].([]any); !ok || len(s) != 0 {
			t.Errorf("scripts = %v", p["scripts"])
		}
		a.Expect(http.StatusResetContent, "DELETE", ssPath, nil)
		a.Expect(http.StatusNoContent, "DELETE", ssPath, nil)
		if a.Expect(http.StatusOK, "GET", ssPath, nil).Map(t)["styling"].(map[string]any)["corners"] != "rounded" {
			t.Error("override not removed")
		}
	})
}

func TestPublishedWithoutCustomization(t *testing.T) {
	f := setup(t)
	site, ss := f.siteWithSpaces(t)
	a := f.as(t, f.admin)
	a.Expect(http.StatusOK, "POST", site+"/publish", nil)
	p := a.Expect(http.StatusOK, "GET", site+"/published", nil).Map(t)
	cust := p["customizations"].(map[string]any)
	if cust["site"].(map[string]any)["themes"].(map[string]any)["default"] != "system" || len(cust["siteSpaces"].(map[string]any)) != len(ss) {
		t.Errorf("default customizations = %v", cust)
	}
}

func TestCustomizationRejects(t *testing.T) {
	f := setup(t)
	site, ss := f.siteWithSpaces(t)
	_, theirs := f.siteIn(t, f.outsider, f.other.ID)
	full := f.as(t, f.admin).Expect(http.StatusOK, "GET", site+"/customization", nil).Map(t)
	delete(full, "updatedAt")
	with := func(section, key string, v any) map[string]any {
		c := map[string]any{}
		for k, x := range full {
			c[k] = x
		}
		sec := map[string]any{}
		for k, x := range full[section].(map[string]any) {
			sec[k] = x
		}
		sec[key] = v
		c[section] = sec
		return c
	}
	ssPath := site + "/site-spaces/" + ss[0] + "/customization"
	cases := []struct {
		name, method, path, token string
		body                      any
		status                    int
		field                     string
	}{
		{"no token", "GET", site + "/customization", "", nil, 401, ""},
		{"no token put", "PUT", site + "/customization", "", full, 401, ""},
		{"outsider", "GET", site + "/customization", f.outsider, nil, 404, ""},
		{"outsider put", "PUT", site + "/customization", f.outsider, full, 404, ""},
		{"guest", "GET", site + "/customization", f.guest, nil, 404, ""},
		{"another org's site", "GET", "/v1/orgs/" + f.org.ID + "/sites/" + theirs + "/customization", f.admin, nil, 404, ""},
		{"reader put", "PUT", site + "/customization", f.reader, full, 403, ""},
		{"creator put", "PUT", site + "/customization", f.creator, full, 403, ""},
		{"reader patch", "PATCH", ssPath, f.reader, map[string]any{"title": "Hi"}, 403, ""},
		{"reader delete", "DELETE", ssPath, f.reader, nil, 403, ""},
		{"outsider site space", "GET", ssPath, f.outsider, nil, 404, ""},
		{"no token patch", "PATCH", ssPath, "", map[string]any{}, 401, ""},
		{"unknown site space", "GET", site + "/site-spaces/nope/customization", f.admin, nil, 404, ""},
		{"unknown site space patch", "PATCH", site + "/site-spaces/nope/customization", f.admin, map[string]any{"title": "Hi"}, 404, ""},
		{"bad theme", "PUT", site + "/customization", f.admin, with("styling", "theme", "neon"), 400, "styling.theme"},
		{"bad colour", "PUT", site + "/customization", f.admin, with("styling", "primaryColor", map[string]any{"light": "red", "dark": "#000"}), 400, "styling.primaryColor.light"},
		{"bad corners", "PUT", site + "/customization", f.admin, with("styling", "corners", "sharp"), 400, "styling.corners"},
		{"bad font", "PUT", site + "/customization", f.admin, with("styling", "font", "Comic Sans"), 400, "styling.font"},
		{"bad theme mode", "PUT", site + "/customization", f.admin, with("themes", "default", "dim"), 400, "themes.default"},
		{"missing styling", "PUT", site + "/customization", f.admin, map[string]any{"title": "Docs"}, 400, "styling"},
		{"short title", "PUT", site + "/customization", f.admin, func() map[string]any { c := with("themes", "default", "light"); c["title"] = "x"; return c }(), 400, "title"},
		{"patch bad theme", "PATCH", ssPath, f.admin, map[string]any{"styling": map[string]any{"theme": "neon"}}, 400, "styling.theme"},
		{"patch bad colour", "PATCH", ssPath, f.admin, map[string]any{"styling": map[string]any{"dangerColor": map[string]any{"light": "#12", "dark": "#000"}}}, 400, "styling.dangerColor.light"},
		{"patch unknown field", "PATCH", ssPath, f.admin, map[string]any{"colour": "blue"}, 400, "colour"},
		{"empty favicon url", "PUT", site + "/customization", f.admin, func() map[string]any {
			c := with("themes", "default", "light")
			c["favicon"] = map[string]any{"icon": map[string]any{"light": "https://example.com/i.png", "dark": ""}}
			return c
		}(), 400, "favicon"},
		{"patch empty logo url", "PATCH", ssPath, f.admin, map[string]any{"header": map[string]any{"logo": map[string]any{"light": "", "dark": "https://example.com/l.png"}}}, 400, "header.logo.light"},
		{"bad depth", "PUT", site + "/customization", f.admin, with("styling", "depth", "deep"), 400, "styling.depth"},
		{"bad sidebar list", "PUT", site + "/customization", f.admin, with("styling", "sidebar", map[string]any{"background": "default", "list": "bubble"}), 400, "styling.sidebar.list"},
		{"patch bad sidebar background", "PATCH", ssPath, f.admin, map[string]any{"styling": map[string]any{"sidebar": map[string]any{"background": "glass", "list": "pill"}}}, 400, "styling.sidebar.background"},
		{"patch bad depth", "PATCH", ssPath, f.admin, map[string]any{"styling": map[string]any{"depth": "raised"}}, 400, "styling.depth"},
		{"patch bad link target", "PATCH", ssPath, f.admin, map[string]any{"externalLinks": map[string]any{"target": "popup"}}, 400, "externalLinks.target"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := f.as(t, c.token).Expect(c.status, c.method, c.path, c.body)
			if c.field != "" {
				mentions(t, res, c.field)
			}
		})
	}
}
