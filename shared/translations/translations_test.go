package translations_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/translations"
	"github.com/galleydocs/galley/shared/translations/translationshttp"
	"github.com/galleydocs/galley/shared/users"
)

type fixture struct {
	api                                    *httpapi.API
	org, other                             model.Organization
	admin, reader, guest, outsider, author string
}

func setup(t *testing.T) *fixture {
	k := testkit.New(t)
	api := httpapi.New(httpapi.Config{Auth: users.New(k.Deps), Logger: k.Deps.Logger})
	translationshttp.Register(api, translations.New(k.Deps))
	f := &fixture{api: api}
	ids := map[string]string{}
	tok := map[string]string{}
	for _, name := range []string{"alice", "carol", "rita", "gus", "olga"} {
		u, t := k.User(name)
		ids[name], tok[name] = u.ID, t
	}
	f.admin, f.author, f.reader, f.guest, f.outsider = tok["alice"], tok["carol"], tok["rita"], tok["gus"], tok["olga"]
	f.org = k.Org("Acme", map[string]model.Role{ids["alice"]: model.RoleAdmin, ids["carol"]: model.RoleCreate,
		ids["rita"]: model.RoleRead, ids["gus"]: model.RoleGuest})
	f.other = k.Org("Other", map[string]model.Role{ids["olga"]: model.RoleAdmin})
	return f
}

func (f *fixture) as(t *testing.T, token string) *apitest.Client {
	c := apitest.New(t, f.api)
	c.Token = token
	return c
}

func (f *fixture) base() string { return "/v1/orgs/" + f.org.ID + "/translations" }

func (f *fixture) create(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	return f.as(t, f.admin).Expect(http.StatusCreated, "POST", f.base(), body).Map(t)
}

func TestCreateAnswers201WithTheSettings(t *testing.T) {
	f := setup(t)
	res := f.as(t, f.admin).Expect(http.StatusCreated, "POST", f.base(), map[string]any{"title": "  Docs in Europe ", "languages": []string{"fr", "de"}})
	v := res.Map(t)
	if v["object"] != "translation-settings" || v["title"] != "Docs in Europe" {
		t.Errorf("object %v, title %q (want trimmed)", v["object"], v["title"])
	}
	if got := fmt.Sprint(v["languages"]); got != "[fr de]" {
		t.Errorf("languages %s, want [fr de] in the order given", got)
	}
	loc := v["urls"].(map[string]any)["location"].(string)
	if !strings.HasSuffix(loc, f.base()+"/"+v["id"].(string)) || res.Header.Get("Location") != loc {
		t.Errorf("urls.location %q, Location %q", loc, res.Header.Get("Location"))
	}
	if p := v["permissions"].(map[string]any); p["view"] != true || p["edit"] != true {
		t.Errorf("admin's permissions %v", p)
	}
	bare := f.create(t, map[string]any{"title": "No languages yet"})
	if l, ok := bare["languages"].([]any); !ok || len(l) != 0 {
		t.Errorf("languages of settings created without them: %v, want []", bare["languages"])
	}
	got := f.as(t, f.reader).Expect(http.StatusOK, "GET", loc, nil).Map(t)
	if p := got["permissions"].(map[string]any); p["view"] != true || p["edit"] != false {
		t.Errorf("reader's permissions %v", p)
	}
}

func TestCreateRejects(t *testing.T) {
	f := setup(t)
	for _, tc := range []struct {
		name, token, path string
		body              any
		status            int
		field             string
	}{
		{"400TitleMissing", f.admin, f.base(), map[string]any{"languages": []string{"fr"}}, 400, "title"},
		{"400TitleEmpty", f.admin, f.base(), map[string]any{"title": ""}, 400, "title"},
		{"400TitleBlank", f.admin, f.base(), map[string]any{"title": "   "}, 400, "title"},
		{"400TitleTooLong", f.admin, f.base(), map[string]any{"title": strings.Repeat("t", 101)}, 400, "title"},
		{"400UnknownLanguage", f.admin, f.base(), map[string]any{"title": "T", "languages": []string{"fr", "xx"}}, 400, "languages"},
		{"400RepeatedLanguage", f.admin, f.base(), map[string]any{"title": "T", "languages": []string{"fr", "fr"}}, 400, "languages"},
		{"400LanguagesNotAnArray", f.admin, f.base(), map[string]any{"title": "T", "languages": "fr"}, 400, "languages"},
		{"401NoToken", "", f.base(), map[string]any{"title": "T"}, 401, ""},
		{"403Creator", f.author, f.base(), map[string]any{"title": "T"}, 403, ""},
		{"403Reader", f.reader, f.base(), map[string]any{"title": "T"}, 403, ""},
		{"404Outsider", f.outsider, f.base(), map[string]any{"title": "T"}, 404, ""},
		{"404UnknownOrg", f.admin, "/v1/orgs/nope/translations", map[string]any{"title": "T"}, 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, tc.token).Expect(tc.status, "POST", tc.path, tc.body)
			if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
	if n := f.as(t, f.admin).Expect(http.StatusOK, "GET", f.base(), nil).Map(t)["count"]; n != 0.0 {
		t.Errorf("refused creations left %v settings", n)
	}
}

func TestEveryLanguageOfTheReferenceIsAccepted(t *testing.T) {
	f := setup(t)
	v := f.create(t, map[string]any{"title": "All", "languages": translations.Languages()})
	if got := len(v["languages"].([]any)); got != 36 {
		t.Errorf("%d languages kept, want the reference's 36", got)
	}
}

func TestListPagesInCreationOrder(t *testing.T) {
	f := setup(t)
	var made []string
	for i := range 5 {
		made = append(made, f.create(t, map[string]any{"title": fmt.Sprintf("T%d", i)})["id"].(string))
	}
	var seen []string
	next := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("paging does not end")
		}
		path := f.base() + "?limit=2"
		if next != "" {
			path += "&page=" + next
		}
		body := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t)
		items := body["items"].([]any)
		if body["count"] != float64(len(items)) || len(items) > 2 {
			t.Fatalf("count %v with %d items (limit 2)", body["count"], len(items))
		}
		for _, it := range items {
			seen = append(seen, it.(map[string]any)["id"].(string))
		}
		n, ok := body["next"].(map[string]any)
		if !ok {
			break
		}
		next = n["page"].(string)
	}
	if !slices.Equal(seen, made) {
		t.Errorf("listed %v, want %v (creation order)", seen, made)
	}
	for _, tc := range []struct {
		name, token, path string
		status            int
	}{
		{"400LimitTooLarge", f.reader, f.base() + "?limit=1001", 400},
		{"400LimitZero", f.reader, f.base() + "?limit=0", 400},
		{"400TamperedPage", f.reader, f.base() + "?page=abc.def", 400},
		{"400PageOfAnotherOrganization", f.outsider, "/v1/orgs/" + f.other.ID + "/translations?page=" + next, 400},
		{"401NoToken", "", f.base(), 401},
		{"403Guest", f.guest, f.base(), 403},
		{"404Outsider", f.outsider, f.base(), 404},
	} {
		t.Run(tc.name, func(t *testing.T) { f.as(t, tc.token).Expect(tc.status, "GET", tc.path, nil) })
	}
}

func TestGetPutDelete(t *testing.T) {
	f := setup(t)
	id := f.create(t, map[string]any{"title": "Europe", "languages": []string{"fr", "de"}})["id"].(string)
	one := f.base() + "/" + id
	if v := f.as(t, f.reader).Expect(http.StatusOK, "GET", one, nil).Map(t); v["title"] != "Europe" || v["id"] != id {
		t.Errorf("get: %v", v)
	}

	v := f.as(t, f.admin).Expect(http.StatusOK, "PUT", one, map[string]any{"title": "Europe and Asia"}).Map(t)
	if v["title"] != "Europe and Asia" || fmt.Sprint(v["languages"]) != "[fr de]" {
		t.Errorf("put without languages: %v (languages must be unchanged)", v)
	}
	v = f.as(t, f.admin).Expect(http.StatusOK, "PUT", one, map[string]any{"title": "Asia", "languages": []string{"ja", "zh"}}).Map(t)
	if v["title"] != "Asia" || fmt.Sprint(v["languages"]) != "[ja zh]" || v["updatedAt"] == v["createdAt"] {
		t.Errorf("put with languages: %v", v)
	}
	v = f.as(t, f.admin).Expect(http.StatusOK, "PUT", one, map[string]any{"title": "None", "languages": []string{}}).Map(t)
	if l := v["languages"].([]any); len(l) != 0 {
		t.Errorf("put with languages []: %v", l)
	}

	otherID := func() string {
		return f.as(t, f.outsider).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.other.ID+"/translations", map[string]any{"title": "Theirs"}).Map(t)["id"].(string)
	}()
	for _, tc := range []struct {
		name, token, method, path string
		body                      any
		status                    int
		field                     string
	}{
		{"Get401NoToken", "", "GET", one, nil, 401, ""},
		{"Get403Guest", f.guest, "GET", one, nil, 403, ""},
		{"Get404Outsider", f.outsider, "GET", one, nil, 404, ""},
		{"Get404Unknown", f.admin, "GET", f.base() + "/nope", nil, 404, ""},
		{"Get404OfAnotherOrganization", f.admin, "GET", f.base() + "/" + otherID, nil, 404, ""},
		{"Put400TitleMissing", f.admin, "PUT", one, map[string]any{"languages": []string{"fr"}}, 400, "title"},
		{"Put400TitleTooLong", f.admin, "PUT", one, map[string]any{"title": strings.Repeat("t", 101)}, 400, "title"},
		{"Put400UnknownLanguage", f.admin, "PUT", one, map[string]any{"title": "T", "languages": []string{"klingon"}}, 400, "languages"},
		{"Put401NoToken", "", "PUT", one, map[string]any{"title": "T"}, 401, ""},
		{"Put403Creator", f.author, "PUT", one, map[string]any{"title": "T"}, 403, ""},
		{"Put404Outsider", f.outsider, "PUT", one, map[string]any{"title": "T"}, 404, ""},
		{"Put404Unknown", f.admin, "PUT", f.base() + "/nope", map[string]any{"title": "T"}, 404, ""},
		{"Delete401NoToken", "", "DELETE", one, nil, 401, ""},
		{"Delete403Reader", f.reader, "DELETE", one, nil, 403, ""},
		{"Delete404Outsider", f.outsider, "DELETE", one, nil, 404, ""},
		// Another organization's settings are not in this one: nothing to remove.
		{"Delete204OfAnotherOrganization", f.admin, "DELETE", f.base() + "/" + otherID, nil, 204, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, tc.token).Expect(tc.status, tc.method, tc.path, tc.body)
			if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
	if v := f.as(t, f.admin).Expect(http.StatusOK, "GET", one, nil).Map(t); v["title"] != "None" {
		t.Errorf("refused updates changed the settings: %v", v)
	}

	f.as(t, f.admin).Expect(http.StatusResetContent, "DELETE", one, nil)
	f.as(t, f.admin).Expect(http.StatusNotFound, "GET", one, nil)
	f.as(t, f.admin).Expect(http.StatusNoContent, "DELETE", one, nil) // there were none
	f.as(t, f.outsider).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.other.ID+"/translations/"+otherID, nil)
}

func TestLanguagesEnumMatchesTheService(t *testing.T) {
	f := setup(t)
	s := f.api.Huma.OpenAPI().Components.Schemas.Map()["CreateTranslationBody"]
	if s == nil {
		t.Fatal("no CreateTranslationBody schema")
	}
	var enum []string
	for _, e := range s.Properties["languages"].Items.Enum {
		enum = append(enum, e.(string))
	}
	if !slices.Equal(enum, translations.Languages()) {
		t.Errorf("the languages enum of the API %v differs from the service's %v", enum, translations.Languages())
	}
}
