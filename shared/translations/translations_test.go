package translations_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/translations"
)

// fixture is the SSO family's API (translation settings are its other
// half, as in SSOFunction) with an organization of a member of each role.
type fixture struct {
	*testkit.API
	admin, reader, guest, outsider, author string // tokens
}

func setup(t *testing.T) *fixture {
	a := testkit.NewAPI(t, testkit.New(t), []string{"sso"})
	tok := a.Tokens
	return &fixture{API: a, admin: tok["admin"], author: tok["create"], reader: tok["read"], guest: tok["guest"], outsider: tok[testkit.Outsider]}
}

func (f *fixture) base() string { return "/v1/orgs/" + f.Org.ID + "/translations" }

func (f *fixture) create(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	return f.With(t, f.admin).Expect(http.StatusCreated, "POST", f.base(), body).Map(t)
}

func TestCreateAnswers201WithTheSettings(t *testing.T) {
	f := setup(t)
	res := f.With(t, f.admin).Expect(http.StatusCreated, "POST", f.base(), map[string]any{"title": "  Docs in Europe ", "languages": []string{"fr", "de"}})
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
	got := f.With(t, f.reader).Expect(http.StatusOK, "GET", loc, nil).Map(t)
	if p := got["permissions"].(map[string]any); p["view"] != true || p["edit"] != false {
		t.Errorf("reader's permissions %v", p)
	}
}

func TestCreateRejects(t *testing.T) {
	f := setup(t)
	f.Check(t, []testkit.Case{
		{"400TitleMissing", f.admin, "POST", f.base(), map[string]any{"languages": []string{"fr"}}, 400, "title"},
		{"400TitleEmpty", f.admin, "POST", f.base(), map[string]any{"title": ""}, 400, "title"},
		{"400TitleBlank", f.admin, "POST", f.base(), map[string]any{"title": "   "}, 400, "title"},
		{"400TitleTooLong", f.admin, "POST", f.base(), map[string]any{"title": strings.Repeat("t", 101)}, 400, "title"},
		{"400UnknownLanguage", f.admin, "POST", f.base(), map[string]any{"title": "T", "languages": []string{"fr", "xx"}}, 400, "languages"},
		{"400RepeatedLanguage", f.admin, "POST", f.base(), map[string]any{"title": "T", "languages": []string{"fr", "fr"}}, 400, "languages"},
		{"400LanguagesNotAnArray", f.admin, "POST", f.base(), map[string]any{"title": "T", "languages": "fr"}, 400, "languages"},
		{"401NoToken", "", "POST", f.base(), map[string]any{"title": "T"}, 401, ""},
		{"403Creator", f.author, "POST", f.base(), map[string]any{"title": "T"}, 403, ""},
		{"403Reader", f.reader, "POST", f.base(), map[string]any{"title": "T"}, 403, ""},
		{"404Outsider", f.outsider, "POST", f.base(), map[string]any{"title": "T"}, 404, ""},
		{"404UnknownOrg", f.admin, "POST", "/v1/orgs/nope/translations", map[string]any{"title": "T"}, 404, ""},
	})
	if n := f.With(t, f.admin).Expect(http.StatusOK, "GET", f.base(), nil).Map(t)["count"]; n != 0.0 {
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
	items, tokens := testkit.Pages(t, f.With(t, f.reader), f.base(), 2)
	seen, next := testkit.Field(items, "id"), tokens[len(tokens)-1]
	if !slices.Equal(seen, made) {
		t.Errorf("listed %v, want %v (creation order)", seen, made)
	}
	f.Check(t, []testkit.Case{
		{"400LimitTooLarge", f.reader, "GET", f.base() + "?limit=1001", nil, 400, ""},
		{"400LimitZero", f.reader, "GET", f.base() + "?limit=0", nil, 400, ""},
		{"400TamperedPage", f.reader, "GET", f.base() + "?page=abc.def", nil, 400, ""},
		{"400PageOfAnotherOrganization", f.outsider, "GET", "/v1/orgs/" + f.Other.ID + "/translations?page=" + next, nil, 400, ""},
		{"401NoToken", "", "GET", f.base(), nil, 401, ""},
		{"403Guest", f.guest, "GET", f.base(), nil, 403, ""},
		{"404Outsider", f.outsider, "GET", f.base(), nil, 404, ""},
	})
}

func TestGetPutDelete(t *testing.T) {
	f := setup(t)
	id := f.create(t, map[string]any{"title": "Europe", "languages": []string{"fr", "de"}})["id"].(string)
	one := f.base() + "/" + id
	if v := f.With(t, f.reader).Expect(http.StatusOK, "GET", one, nil).Map(t); v["title"] != "Europe" || v["id"] != id {
		t.Errorf("get: %v", v)
	}

	v := f.With(t, f.admin).Expect(http.StatusOK, "PUT", one, map[string]any{"title": "Europe and Asia"}).Map(t)
	if v["title"] != "Europe and Asia" || fmt.Sprint(v["languages"]) != "[fr de]" {
		t.Errorf("put without languages: %v (languages must be unchanged)", v)
	}
	v = f.With(t, f.admin).Expect(http.StatusOK, "PUT", one, map[string]any{"title": "Asia", "languages": []string{"ja", "zh"}}).Map(t)
	if v["title"] != "Asia" || fmt.Sprint(v["languages"]) != "[ja zh]" || v["updatedAt"] == v["createdAt"] {
		t.Errorf("put with languages: %v", v)
	}
	v = f.With(t, f.admin).Expect(http.StatusOK, "PUT", one, map[string]any{"title": "None", "languages": []string{}}).Map(t)
	if l := v["languages"].([]any); len(l) != 0 {
		t.Errorf("put with languages []: %v", l)
	}

	otherID := func() string {
		return f.With(t, f.outsider).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Other.ID+"/translations", map[string]any{"title": "Theirs"}).Map(t)["id"].(string)
	}()
	f.Check(t, []testkit.Case{
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
	})
	if v := f.With(t, f.admin).Expect(http.StatusOK, "GET", one, nil).Map(t); v["title"] != "None" {
		t.Errorf("refused updates changed the settings: %v", v)
	}

	f.With(t, f.admin).Expect(http.StatusResetContent, "DELETE", one, nil)
	f.With(t, f.admin).Expect(http.StatusNotFound, "GET", one, nil)
	f.With(t, f.admin).Expect(http.StatusNoContent, "DELETE", one, nil) // there were none
	f.With(t, f.outsider).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Other.ID+"/translations/"+otherID, nil)
}

func TestLanguagesEnumMatchesTheService(t *testing.T) {
	f := setup(t)
	s := f.API.API.Huma.OpenAPI().Components.Schemas.Map()["CreateTranslationBody"]
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
