package customfields_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
)

// fixture is the API of the spaces, collections and custom fields
// families with an organization of a member of each role; its admin
// administers the other organization too (transfers).
type fixture struct {
	*testkit.API
	admin, creator, editor, reader, guest, outsider string // tokens
}

func setup(t *testing.T) *fixture {
	a := testkit.NewAPI(t, testkit.New(t), []string{"spaces", "collections", "customfields"}, testkit.AlsoInOther("admin"))
	tok := a.Tokens
	return &fixture{API: a, admin: tok["admin"], creator: tok["create"], editor: tok["edit"], reader: tok["read"], guest: tok["guest"], outsider: tok[testkit.Outsider]}
}

func (f *fixture) fields() string { return "/v1/orgs/" + f.Org.ID + "/custom-fields" }

func (f *fixture) field(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	return f.With(t, f.admin).Expect(http.StatusCreated, "POST", f.fields(), body).Map(t)
}

func (f *fixture) space(t *testing.T) string {
	return f.With(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/spaces", map[string]any{"title": "S"}).Map(t)["id"].(string)
}

func TestCreateAnswers201WithTheField(t *testing.T) {
	f := setup(t)
	res := f.With(t, f.admin).Expect(http.StatusCreated, "POST", f.fields(), map[string]any{"name": "audience", "type": "select:multi",
		"title": "Audience", "description": "Who reads it", "placeholder": "Pick some", "options": []string{"devs", "ops"}})
	c := res.Map(t)
	for field, want := range map[string]any{"name": "audience", "type": "select:multi", "title": "Audience", "description": "Who reads it", "placeholder": "Pick some"} {
		if c[field] != want {
			t.Errorf("%s = %v, want %v", field, c[field], want)
		}
	}
	loc := c["urls"].(map[string]any)["location"].(string)
	if !strings.HasSuffix(loc, "/v1/orgs/"+f.Org.ID+"/custom-fields/audience") || res.Header.Get("Location") != loc {
		t.Errorf("urls.location %q, Location %q", loc, res.Header.Get("Location"))
	}
	if p := c["permissions"].(map[string]any); p["view"] != true || p["edit"] != true {
		t.Errorf("admin's permissions %v", p)
	}
	for _, typ := range []string{"text", "number", "boolean", "tags"} {
		f.field(t, map[string]any{"name": "f-" + strings.ReplaceAll(typ, ":", "_"), "type": typ})
	}
	got := f.With(t, f.reader).Expect(http.StatusOK, "GET", f.fields()+"/audience", nil).Map(t)
	if p := got["permissions"].(map[string]any); p["view"] != true || p["edit"] != false {
		t.Errorf("reader's permissions %v", p)
	}
}

func TestCreateRejects(t *testing.T) {
	f := setup(t)
	f.field(t, map[string]any{"name": "taken", "type": "text"})
	ok := func(extra map[string]any) map[string]any {
		b := map[string]any{"name": "fresh", "type": "text"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	many := make([]string, 51)
	for i := range many {
		many[i] = "o" + strings.Repeat("x", i)
	}
	f.Check(t, []testkit.Case{
		{"400NameUpperCase", f.admin, "POST", f.fields(), ok(map[string]any{"name": "Audience"}), 400, "name"},
		{"400NameWithSpace", f.admin, "POST", f.fields(), ok(map[string]any{"name": "a b"}), 400, "name"},
		{"400NameEmpty", f.admin, "POST", f.fields(), ok(map[string]any{"name": ""}), 400, "name"},
		{"400NameTooLong", f.admin, "POST", f.fields(), ok(map[string]any{"name": strings.Repeat("a", 51)}), 400, "name"},
		{"400NameMissing", f.admin, "POST", f.fields(), map[string]any{"type": "text"}, 400, "name"},
		{"400TypeUnknown", f.admin, "POST", f.fields(), ok(map[string]any{"type": "date"}), 400, "type"},
		{"400TypeMissing", f.admin, "POST", f.fields(), map[string]any{"name": "x"}, 400, "type"},
		{"400TitleTooLong", f.admin, "POST", f.fields(), ok(map[string]any{"title": strings.Repeat("t", 101)}), 400, "title"},
		{"400DescriptionTooLong", f.admin, "POST", f.fields(), ok(map[string]any{"description": strings.Repeat("d", 201)}), 400, "description"},
		{"400PlaceholderTooLong", f.admin, "POST", f.fields(), ok(map[string]any{"placeholder": strings.Repeat("p", 101)}), 400, "placeholder"},
		{"400NoOptions", f.admin, "POST", f.fields(), ok(map[string]any{"type": "select:single", "options": []string{}}), 400, "options"},
		{"400OptionsMissingForSelect", f.admin, "POST", f.fields(), ok(map[string]any{"type": "select:single"}), 400, "options"},
		{"400TooManyOptions", f.admin, "POST", f.fields(), ok(map[string]any{"type": "select:multi", "options": many}), 400, "options"},
		{"400OptionTooLong", f.admin, "POST", f.fields(), ok(map[string]any{"type": "select:multi", "options": []string{strings.Repeat("o", 41)}}), 400, "options"},
		{"400DuplicateOption", f.admin, "POST", f.fields(), ok(map[string]any{"type": "select:multi", "options": []string{"a", "a"}}), 400, "options"},
		{"400OptionsOnText", f.admin, "POST", f.fields(), ok(map[string]any{"options": []string{"a"}}), 400, "options"},
		{"409NameTaken", f.admin, "POST", f.fields(), ok(map[string]any{"name": "taken"}), 409, ""},
		{"401NoToken", "", "POST", f.fields(), ok(nil), 401, ""},
		{"403Creator", f.creator, "POST", f.fields(), ok(nil), 403, ""},
		{"403Guest", f.guest, "POST", f.fields(), ok(nil), 403, ""},
		{"404Outsider", f.outsider, "POST", f.fields(), ok(nil), 404, ""},
		{"404UnknownOrg", f.admin, "POST", "/v1/orgs/nope/custom-fields", ok(nil), 404, ""},
	})
}

func TestListGetPatch(t *testing.T) {
	f := setup(t)
	for _, n := range []string{"zeta", "alpha", "mid-1", "beta_2"} {
		f.field(t, map[string]any{"name": n, "type": "text"})
	}
	f.field(t, map[string]any{"name": "kind", "type": "select:single", "options": []string{"guide", "reference"}})
	items, _ := testkit.Pages(t, f.With(t, f.reader), f.fields(), 2)
	names := testkit.Field(items, "name")
	if want := []string{"alpha", "beta_2", "kind", "mid-1", "zeta"}; !slices.Equal(names, want) {
		t.Fatalf("listed %v, want %v", names, want)
	}
	first := f.With(t, f.admin).Expect(http.StatusOK, "GET", f.fields()+"?limit=1", nil).Map(t)
	tok := first["next"].(map[string]any)["page"].(string)
	f.With(t, f.admin).Expect(http.StatusBadRequest, "GET", "/v1/orgs/"+f.Other.ID+"/custom-fields?page="+tok, nil)
	f.With(t, f.admin).Expect(http.StatusBadRequest, "GET", f.fields()+"?page="+tok+"x", nil)
	f.With(t, f.admin).Expect(http.StatusBadRequest, "GET", f.fields()+"?limit=0", nil)
	f.With(t, f.admin).Expect(http.StatusBadRequest, "GET", f.fields()+"?limit=1001", nil)
	f.With(t, f.guest).Expect(http.StatusForbidden, "GET", f.fields(), nil)
	f.With(t, f.outsider).Expect(http.StatusNotFound, "GET", f.fields(), nil)
	f.With(t, "").Expect(http.StatusUnauthorized, "GET", f.fields(), nil)

	kind := f.fields() + "/kind"
	f.With(t, f.reader).Expect(http.StatusOK, "GET", kind, nil)
	f.With(t, f.admin).Expect(http.StatusNotFound, "GET", f.fields()+"/nope", nil)
	f.With(t, f.guest).Expect(http.StatusForbidden, "GET", kind, nil)
	f.With(t, f.outsider).Expect(http.StatusNotFound, "GET", kind, nil)

	got := f.With(t, f.admin).Expect(http.StatusOK, "PATCH", kind, map[string]any{"title": "Kind", "placeholder": "Choose",
		"options": []string{"guide", "reference", "tutorial"}}).Map(t)
	if got["title"] != "Kind" || got["placeholder"] != "Choose" || len(got["options"].([]any)) != 3 || got["name"] != "kind" || got["type"] != "select:single" {
		t.Fatalf("patched %v", got)
	}
	// name and type are not updatable: read only (docs/http.md), the body
	// accepts and ignores them, whatever their value.
	for _, body := range []map[string]any{{"name": "other"}, {"type": "text"}} {
		got := f.With(t, f.admin).Expect(http.StatusOK, "PATCH", kind, body).Map(t)
		if got["name"] != "kind" || got["type"] != "select:single" {
			t.Fatalf("PATCH %v changed the field: %v", body, got)
		}
	}
	f.Check(t, []testkit.Case{
		{"400TitleTooLong", f.admin, "PATCH", kind, map[string]any{"title": strings.Repeat("t", 101)}, 400, "title"},
		{"400NoOptions", f.admin, "PATCH", kind, map[string]any{"options": []string{}}, 400, "options"},
		{"400OptionsOnText", f.admin, "PATCH", f.fields() + "/alpha", map[string]any{"options": []string{"a"}}, 400, "options"},
		{"403Creator", f.creator, "PATCH", kind, map[string]any{"title": "x"}, 403, ""},
		{"404Unknown", f.admin, "PATCH", f.fields() + "/nope", map[string]any{"title": "x"}, 404, ""},
		{"404Outsider", f.outsider, "PATCH", kind, map[string]any{"title": "x"}, 404, ""},
		{"401NoToken", "", "PATCH", kind, map[string]any{"title": "x"}, 401, ""},
	})
}

func TestSpaceValuesAreTypedByTheirField(t *testing.T) {
	f := setup(t)
	f.field(t, map[string]any{"name": "summary", "type": "text"})
	f.field(t, map[string]any{"name": "priority", "type": "number"})
	f.field(t, map[string]any{"name": "public", "type": "boolean"})
	f.field(t, map[string]any{"name": "labels", "type": "tags"})
	f.field(t, map[string]any{"name": "kind", "type": "select:single", "options": []string{"guide", "reference"}})
	f.field(t, map[string]any{"name": "audience", "type": "select:multi", "options": []string{"devs", "ops", "sales"}})
	sp := f.space(t)
	path := "/v1/spaces/" + sp + "/custom-fields"
	f.With(t, f.editor).Expect(http.StatusNoContent, "PATCH", path, map[string]any{"values": map[string]any{
		"summary": map[string]any{"value": "About X"}, "priority": map[string]any{"value": 2.5}, "public": map[string]any{"value": false},
		"labels": map[string]any{"value": []string{"a", "b"}}, "kind": map[string]any{"value": "guide"},
		"audience": map[string]any{"value": []string{"ops", "devs"}}}})
	values := func() map[string]any {
		t.Helper()
		var entries []struct {
			CustomField struct{ Name string } `json:"customField"`
			Value       any                   `json:"value"`
		}
		f.With(t, f.reader).Expect(http.StatusOK, "GET", path, nil).JSON(t, &entries)
		out := map[string]any{}
		var names []string
		for _, e := range entries {
			names = append(names, e.CustomField.Name)
			if e.Value != nil {
				out[e.CustomField.Name] = e.Value
			}
		}
		if !slices.IsSorted(names) || len(names) != 6 {
			t.Fatalf("entries %v: want every field, by name", names)
		}
		return out
	}
	v := values()
	if v["summary"] != "About X" || v["priority"] != 2.5 || v["public"] != false || v["kind"] != "guide" ||
		len(v["labels"].([]any)) != 2 || len(v["audience"].([]any)) != 2 {
		t.Fatalf("values %v", v)
	}
	// null removes one value; the others stay.
	f.With(t, f.editor).Expect(http.StatusNoContent, "PATCH", path, `{"values":{"summary":{"value":null}}}`)
	if v := values(); v["summary"] != nil || v["kind"] != "guide" {
		t.Fatalf("after removing summary: %v", v)
	}
	set := func(name string, value any) map[string]any {
		return map[string]any{"values": map[string]any{name: map[string]any{"value": value}}}
	}
	f.Check(t, []testkit.Case{
		{"400TextGivenANumber", f.editor, "PATCH", path, set("summary", 3), 400, "values.summary"},
		{"400TextTooLong", f.editor, "PATCH", path, set("summary", strings.Repeat("x", 257)), 400, "values.summary"},
		{"400NumberGivenAString", f.editor, "PATCH", path, set("priority", "high"), 400, "values.priority"},
		{"400BooleanGivenAString", f.editor, "PATCH", path, set("public", "yes"), 400, "values.public"},
		{"400TagsGivenAString", f.editor, "PATCH", path, set("labels", "a"), 400, "values.labels"},
		{"400TagsGivenNumbers", f.editor, "PATCH", path, set("labels", []int{1}), 400, "values.labels"},
		{"400OptionNotInOptions", f.editor, "PATCH", path, set("kind", "novel"), 400, "values.kind"},
		{"400SingleSelectGivenAnArray", f.editor, "PATCH", path, set("kind", []string{"guide"}), 400, "values.kind"},
		{"400MultiSelectOptionNotInOptions", f.editor, "PATCH", path, set("audience", []string{"devs", "execs"}), 400, "values.audience"},
		{"400MultiSelectTwice", f.editor, "PATCH", path, set("audience", []string{"devs", "devs"}), 400, "values.audience"},
		{"400UnknownField", f.editor, "PATCH", path, set("nope", "x"), 400, "values.nope"},
		{"400NoValues", f.editor, "PATCH", path, map[string]any{}, 400, "values"},
		{"400EntryWithoutValue", f.editor, "PATCH", path, map[string]any{"values": map[string]any{"kind": map[string]any{}}}, 400, "value"},
		{"403Reader", f.reader, "PATCH", path, set("kind", "reference"), 403, ""},
		{"404Guest", f.guest, "PATCH", path, set("kind", "reference"), 404, ""},
		{"404Outsider", f.outsider, "PATCH", path, set("kind", "reference"), 404, ""},
		{"401NoToken", "", "PATCH", path, set("kind", "reference"), 401, ""},
	})
	if v := values(); v["kind"] != "guide" || v["priority"] != 2.5 {
		t.Fatalf("a refused update changed values: %v", v)
	}
	// A request that mixes a good and a bad value changes nothing.
	f.With(t, f.editor).Expect(http.StatusBadRequest, "PATCH", path, map[string]any{"values": map[string]any{
		"kind": map[string]any{"value": "reference"}, "priority": map[string]any{"value": "x"}}})
	if v := values(); v["kind"] != "guide" {
		t.Fatalf("half of a refused update was applied: %v", v)
	}
	f.With(t, f.guest).Expect(http.StatusNotFound, "GET", path, nil)
	f.With(t, f.outsider).Expect(http.StatusNotFound, "GET", path, nil)
	f.With(t, "").Expect(http.StatusUnauthorized, "GET", path, nil)
	f.With(t, f.admin).Expect(http.StatusNotFound, "GET", "/v1/spaces/nope/custom-fields", nil)
	// A guest granted edit on the space sets values.
	err := f.Kit.Deps.Authz.Grant(f.Kit.Ctx, model.Grant{OrgID: f.Org.ID, ContentKind: model.KindSpace, ContentID: sp,
		PrincipalKind: model.PrincipalUser, PrincipalID: f.Users["guest"].ID, Role: model.RoleEdit})
	if err != nil {
		t.Fatal(err)
	}
	f.With(t, f.guest).Expect(http.StatusNoContent, "PATCH", path, set("kind", "reference"))
}

func TestDeletingAFieldRemovesItsValuesEverywhere(t *testing.T) {
	f := setup(t)
	field := f.field(t, map[string]any{"name": "kind", "type": "select:single", "options": []string{"guide", "reference"}})
	f.field(t, map[string]any{"name": "summary", "type": "text"})
	var sps []string
	for i := 0; i < 3; i++ {
		sp := f.space(t)
		sps = append(sps, sp)
		f.With(t, f.admin).Expect(http.StatusNoContent, "PATCH", "/v1/spaces/"+sp+"/custom-fields", map[string]any{"values": map[string]any{
			"kind": map[string]any{"value": "guide"}, "summary": map[string]any{"value": "s"}}})
	}
	f.With(t, f.creator).Expect(http.StatusForbidden, "DELETE", f.fields()+"/kind", nil)
	f.With(t, f.outsider).Expect(http.StatusNotFound, "DELETE", f.fields()+"/kind", nil)
	f.With(t, "").Expect(http.StatusUnauthorized, "DELETE", f.fields()+"/kind", nil)
	f.With(t, f.admin).Expect(http.StatusNoContent, "DELETE", f.fields()+"/kind", nil)
	f.With(t, f.admin).Expect(http.StatusNotFound, "DELETE", f.fields()+"/kind", nil)
	f.With(t, f.admin).Expect(http.StatusNotFound, "GET", f.fields()+"/kind", nil)
	// No stored value of the field is left, on any space.
	left, err := store.QueryAll(f.Kit.Ctx, f.Kit.Deps.Store, store.Query{Index: store.GSI1, PK: keys.FieldValues(field["id"].(string))})
	if err != nil || len(left) != 0 {
		t.Fatalf("%d values left (%v)", len(left), err)
	}
	// A new field of the same name starts without values; other fields keep theirs.
	f.field(t, map[string]any{"name": "kind", "type": "text"})
	for _, sp := range sps {
		var entries []struct {
			CustomField struct{ Name string } `json:"customField"`
			Value       any                   `json:"value"`
		}
		f.With(t, f.admin).Expect(http.StatusOK, "GET", "/v1/spaces/"+sp+"/custom-fields", nil).JSON(t, &entries)
		for _, e := range entries {
			if e.CustomField.Name == "kind" && e.Value != nil {
				t.Fatalf("space %s: the new field has value %v", sp, e.Value)
			}
			if e.CustomField.Name == "summary" && e.Value != "s" {
				t.Fatalf("space %s: summary lost its value: %v", sp, e.Value)
			}
		}
	}
}

func TestTransferDropsTheValuesOfTheOldOrganizationsFields(t *testing.T) {
	f := setup(t)
	f.field(t, map[string]any{"name": "summary", "type": "text"})
	col := f.With(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/collections", map[string]any{"title": "C"}).Map(t)["id"].(string)
	sp := f.With(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/spaces", map[string]any{"parent": col}).Map(t)["id"].(string)
	path := "/v1/spaces/" + sp + "/custom-fields"
	f.With(t, f.admin).Expect(http.StatusNoContent, "PATCH", path, map[string]any{"values": map[string]any{"summary": map[string]any{"value": "s"}}})
	f.With(t, f.admin).Expect(http.StatusOK, "POST", "/v1/collections/"+col+"/transfer", map[string]any{"organization": f.Other.ID})
	left, err := store.QueryAll(f.Kit.Ctx, f.Kit.Deps.Store, store.Query{PK: keys.Space(sp).PK, SKPrefix: keys.CustomFieldValuePrefix})
	if err != nil || len(left) != 0 {
		t.Fatalf("%d values left after the transfer (%v)", len(left), err)
	}
	// The target's own field of the same name starts empty on the space.
	f.With(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Other.ID+"/custom-fields", map[string]any{"name": "summary", "type": "text"})
	var entries []struct {
		Value any `json:"value"`
	}
	f.With(t, f.admin).Expect(http.StatusOK, "GET", path, nil).JSON(t, &entries)
	if len(entries) != 1 || entries[0].Value != nil {
		t.Fatalf("entries after transfer: %+v", entries)
	}
}
