package spaces_test

import (
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/testkit"
)

// fixture is the spaces family's API with an organization of a member of
// each role.
type fixture struct {
	*testkit.API
	admin, creator, reader, guest, outsider string // tokens
}

func setup(t *testing.T) *fixture {
	a := testkit.NewAPI(t, testkit.New(t), []string{"spaces"})
	tok := a.Tokens
	return &fixture{API: a, admin: tok["admin"], creator: tok["create"], reader: tok["read"], guest: tok["guest"], outsider: tok[testkit.Outsider]}
}

func (f *fixture) create(t *testing.T, token, title string) map[string]any {
	t.Helper()
	return f.With(t, token).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/spaces", map[string]any{"title": title}).Map(t)
}

func TestCreateAnswers201WithTheSpace(t *testing.T) {
	f := setup(t)
	sp := f.create(t, f.creator, "Handbook")
	for field, want := range map[string]any{"object": "space", "title": "Handbook", "organization": f.Org.ID,
		"visibility": "private", "editMode": "live", "defaultLevel": "inherit", "comments": 0.0, "changeRequests": 0.0} {
		if sp[field] != want {
			t.Errorf("%s = %v, want %v", field, sp[field], want)
		}
	}
	if sp["revision"] == "" || sp["revision"] == nil {
		t.Error("a new space has no revision")
	}
	urls := sp["urls"].(map[string]any)
	if urls["location"] != "https://api.test/v1/spaces/"+sp["id"].(string) {
		t.Errorf("urls.location = %v", urls["location"])
	}
	perms := sp["permissions"].(map[string]any)
	if perms["view"] != true || perms["admin"] != false || perms["edit"] != true {
		t.Errorf("creator's permissions = %v", perms)
	}
}

func TestCreateRejects(t *testing.T) {
	f := setup(t)
	path := "/v1/orgs/" + f.Org.ID + "/spaces"
	f.Check(t, []testkit.Case{
		{"400TitleTooLong", f.admin, "POST", path, map[string]any{"title": strings.Repeat("x", 51)}, 400, "title"},
		{"400EmojiTooLong", f.admin, "POST", path, map[string]any{"emoji": strings.Repeat("x", 51)}, 400, "emoji"},
		{"400BadEditMode", f.admin, "POST", path, map[string]any{"editMode": "frozen"}, 400, "editMode"},
		{"400UnknownParent", f.admin, "POST", path, map[string]any{"parent": "nope"}, 400, "parent"},
		{"400MalformedJSON", f.admin, "POST", path, `{"title":`, 400, ""},
		{"401NoToken", "", "POST", path, map[string]any{}, 401, ""},
		{"401BadToken", "gly_nope", "POST", path, map[string]any{}, 401, ""},
		{"403Reader", f.reader, "POST", path, map[string]any{}, 403, ""},
		{"403Guest", f.guest, "POST", path, map[string]any{}, 403, ""},
		{"404Outsider", f.outsider, "POST", path, map[string]any{}, 404, ""},
		{"404UnknownOrg", f.admin, "POST", "/v1/orgs/unknown/spaces", map[string]any{}, 404, ""},
		{"413BodyTooLarge", f.admin, "POST", path, `{"title":"` + strings.Repeat("x", httpapi.MaxBodyBytes) + `"}`, 413, ""},
	})
}

func TestListPagesThroughLiveSpacesOnly(t *testing.T) {
	f := setup(t)
	var made []string
	for i := 0; i < 7; i++ {
		made = append(made, f.create(t, f.admin, "S")["id"].(string))
	}
	admin := f.With(t, f.admin)
	admin.Expect(http.StatusResetContent, "DELETE", "/v1/spaces/"+made[3], nil)
	items, _ := testkit.Pages(t, f.With(t, f.reader), "/v1/orgs/"+f.Org.ID+"/spaces", 2)
	seen := testkit.Field(items, "id")
	want := append(append([]string{}, made[:3]...), made[4:]...)
	if strings.Join(seen, ",") != strings.Join(want, ",") {
		t.Fatalf("listed %v, want %v (creation order, deleted one hidden)", seen, want)
	}
	// Page tokens are bound to their list and cannot be forged.
	first := f.With(t, f.admin).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/spaces?limit=1", nil).Map(t)
	token := first["next"].(map[string]any)["page"].(string)
	f.With(t, f.admin).Expect(http.StatusBadRequest, "GET", "/v1/orgs/"+f.Org.ID+"/spaces?page="+token+"x", nil)
	f.With(t, f.admin).Expect(http.StatusBadRequest, "GET", "/v1/orgs/"+f.Org.ID+"/spaces?page=garbage", nil)
	for _, limit := range []string{"0", "1001", "abc"} {
		res := f.With(t, f.admin).Expect(http.StatusBadRequest, "GET", "/v1/orgs/"+f.Org.ID+"/spaces?limit="+limit, nil)
		if !strings.Contains(string(res.Body), "limit") {
			t.Errorf("limit=%s: error does not name limit: %s", limit, res.Body)
		}
	}
	// Guests see no spaces; outsiders do not see the organization.
	guest := f.With(t, f.guest).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/spaces", nil).Map(t)
	if len(guest["items"].([]any)) != 0 {
		t.Errorf("a guest lists %v", guest["items"])
	}
	f.With(t, f.outsider).Expect(http.StatusNotFound, "GET", "/v1/orgs/"+f.Org.ID+"/spaces", nil)
}

func TestPageTokenOfAnotherOrganizationIsRefused(t *testing.T) {
	f := setup(t)
	for i := 0; i < 2; i++ {
		f.create(t, f.admin, "S")
	}
	first := f.With(t, f.admin).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/spaces?limit=1", nil).Map(t)
	token := first["next"].(map[string]any)["page"].(string)
	u, tok := f.Kit.User("mallory")
	other := f.Kit.Org("Mallory Inc", map[string]model.Role{u.ID: model.RoleAdmin})
	f.With(t, tok).Expect(http.StatusBadRequest, "GET", "/v1/orgs/"+other.ID+"/spaces?page="+token, nil)
}

func TestGetPatchDeleteRestore(t *testing.T) {
	f := setup(t)
	id := f.create(t, f.admin, "Guide")["id"].(string)
	path := "/v1/spaces/" + id
	f.With(t, f.reader).Expect(http.StatusOK, "GET", path, nil)
	f.With(t, f.guest).Expect(http.StatusNotFound, "GET", path, nil)
	f.With(t, f.outsider).Expect(http.StatusNotFound, "GET", path, nil)
	f.With(t, f.admin).Expect(http.StatusNotFound, "GET", "/v1/spaces/unknown", nil)
	f.With(t, "").Expect(http.StatusUnauthorized, "GET", path, nil)

	admin := f.With(t, f.admin)
	sp := admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"title": "Guide 2", "emoji": "🎉", "defaultLevel": "read", "editMode": "locked"}).Map(t)
	if sp["title"] != "Guide 2" || sp["emoji"] != "🎉" || sp["defaultLevel"] != "read" || sp["editMode"] != "locked" {
		t.Fatalf("patched space = %v", sp)
	}
	// Omitted fields stay; null removes the emoji (an empty emoji, as every Space carries one) and makes guests the default level.
	sp = admin.Expect(http.StatusOK, "PATCH", path, `{"emoji":null,"defaultLevel":null}`).Map(t)
	if sp["title"] != "Guide 2" || sp["emoji"] != "" || sp["defaultLevel"] != nil {
		t.Fatalf("after null patch = %v", sp)
	}
	admin.Expect(http.StatusBadRequest, "PATCH", path, map[string]any{"title": strings.Repeat("x", 51)})
	admin.Expect(http.StatusBadRequest, "PATCH", path, map[string]any{"defaultLevel": "owner"})
	// A guest default level hides the space from members without a grant.
	f.With(t, f.creator).Expect(http.StatusNotFound, "GET", path, nil)
	admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"defaultLevel": "inherit"})
	f.With(t, f.creator).Expect(http.StatusForbidden, "PATCH", path, map[string]any{"title": "x"})
	f.With(t, f.creator).Expect(http.StatusForbidden, "DELETE", path, nil)

	admin.Expect(http.StatusResetContent, "DELETE", path, nil)
	got := admin.Expect(http.StatusOK, "GET", path, nil).Map(t)
	if got["deletedAt"] == nil {
		t.Fatal("deleted space has no deletedAt")
	}
	admin.Expect(http.StatusNotFound, "PATCH", path, map[string]any{"title": "x"})
	admin.Expect(http.StatusResetContent, "DELETE", path, nil)
	restored := admin.Expect(http.StatusOK, "POST", path+"/restore", nil).Map(t)
	if restored["deletedAt"] != nil {
		t.Fatal("restored space still has deletedAt")
	}
	list := admin.Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/spaces", nil).Map(t)
	if len(list["items"].([]any)) != 1 {
		t.Fatalf("restored space not listed: %v", list)
	}
}

func TestCreateWithoutBodyUsesDefaults(t *testing.T) {
	f := setup(t)
	sp := f.With(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/spaces", nil).Map(t)
	if sp["title"] != "" || sp["editMode"] != "live" {
		t.Fatalf("space = %v", sp)
	}
}

// A space's language: one of GitBook's TranslationLanguage codes, set by
// updateSpaceById and answered by it and getSpaceById, removed with null;
// an unknown code is a 400 naming language; a reader may not set it.
func TestSpaceLanguage(t *testing.T) {
	f := setup(t)
	id := f.create(t, f.admin, "Guide")["id"].(string)
	path := "/v1/spaces/" + id
	admin := f.With(t, f.admin)
	if _, ok := admin.Expect(http.StatusOK, "GET", path, nil).Map(t)["language"]; ok {
		t.Error("a new space has a language")
	}
	if got := admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"language": "pt-br"}).Map(t)["language"]; got != "pt-br" {
		t.Errorf("patched language %v, want pt-br", got)
	}
	if got := f.With(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t)["language"]; got != "pt-br" {
		t.Errorf("getSpaceById language %v, want pt-br", got)
	}
	f.Check(t, []testkit.Case{
		{"400UnknownLanguage", f.admin, "PATCH", path, map[string]any{"language": "klingon"}, 400, "language"},
		{"400LanguageNotAString", f.admin, "PATCH", path, map[string]any{"language": 7}, 400, "language"},
		{"403Reader", f.reader, "PATCH", path, map[string]any{"language": "fr"}, 403, ""},
	})
	if got := admin.Expect(http.StatusOK, "GET", path, nil).Map(t)["language"]; got != "pt-br" {
		t.Errorf("refused patches changed the language to %v", got)
	}
	sp := admin.Expect(http.StatusOK, "PATCH", path, `{"language":null}`).Map(t)
	if _, ok := sp["language"]; ok || sp["title"] != "Guide" {
		t.Errorf("after null: %v", sp)
	}
	// createSpace takes the language too (GitBook's body has it).
	orgSpaces := "/v1/orgs/" + f.Org.ID + "/spaces"
	made := admin.Expect(http.StatusCreated, "POST", orgSpaces, map[string]any{"title": "Guia", "language": "pt-br"}).Map(t)
	if got := admin.Expect(http.StatusOK, "GET", "/v1/spaces/"+made["id"].(string), nil).Map(t)["language"]; made["language"] != "pt-br" || got != "pt-br" {
		t.Errorf("created with language pt-br: answered %v, read %v", made["language"], got)
	}
	f.Check(t, []testkit.Case{
		{"400CreateUnknownLanguage", f.admin, "POST", orgSpaces, map[string]any{"title": "X", "language": "klingon"}, 400, "language"},
	})
}

// The language enums of the API (Space and the PATCH body) are the
// service's list, which is GitBook's TranslationLanguage (reference
// 0.202.0).
func TestLanguagesMatchTheReference(t *testing.T) {
	data, err := os.ReadFile("../../../shared/reference/gitbook-openapi-0.202.0.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas struct {
				TranslationLanguage struct {
					Enum []string `json:"enum"`
				}
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	want := doc.Components.Schemas.TranslationLanguage.Enum
	if len(want) == 0 || !slices.Equal(spaces.Languages(), want) {
		t.Errorf("spaces.Languages() = %v\nreference = %v", spaces.Languages(), want)
	}
	f := setup(t)
	schemas := f.API.API.Huma.OpenAPI().Components.Schemas.Map()
	for _, name := range []string{"Space", "UpdateSpaceByIdInput", "CreateBody"} {
		s := schemas[name]
		if s == nil || s.Properties["language"] == nil {
			t.Fatalf("no %s.language in the API's schemas", name)
		}
		var enum []string
		for _, e := range s.Properties["language"].Enum {
			if e != nil {
				enum = append(enum, e.(string))
			}
		}
		if !slices.Equal(enum, want) {
			t.Errorf("%s.language enum %v differs from the reference's %v", name, enum, want)
		}
	}
}
