package sites_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestAdaptiveSchema(t *testing.T) {
	f := setup(t)
	site, made := f.site(t, map[string]any{"title": "Docs"})
	r, c := f.as(t, f.reader), f.as(t, f.creator)
	// A site without a schema answers an empty one, and no conditions.
	got := r.Expect(http.StatusOK, "GET", site+"/adaptive-schema", nil).Map(t)
	js := got["jsonSchema"].(map[string]any)
	if got["object"] != "site-adaptive-schema" || js["type"] != "object" || js["additionalProperties"] != false ||
		len(js["properties"].(map[string]any)) != 0 || got["updatedAt"] != made["createdAt"] {
		t.Fatalf("empty schema = %v", got)
	}
	conds := r.Expect(http.StatusOK, "GET", site+"/adaptive-schema/template-conditions", nil).Map(t)
	if len(conds["items"].([]any)) != 0 {
		t.Fatalf("conditions of an empty schema: %v", conds)
	}
	put := c.Expect(http.StatusOK, "PUT", site+"/adaptive-schema", map[string]any{"jsonSchema": sampleSchema()}).Map(t)
	props := put["jsonSchema"].(map[string]any)["properties"].(map[string]any)
	if props["isBetaUser"].(map[string]any)["type"] != "boolean" || props["unsigned"] == nil || put["updatedAt"] == made["createdAt"] {
		t.Fatalf("stored schema = %v", put)
	}
	again := r.Expect(http.StatusOK, "GET", site+"/adaptive-schema", nil).Map(t)
	if again["updatedAt"] != put["updatedAt"] || len(again["jsonSchema"].(map[string]any)["properties"].(map[string]any)) != 3 {
		t.Fatalf("read back = %v", again)
	}
	conds = r.Expect(http.StatusOK, "GET", site+"/adaptive-schema/template-conditions", nil).Map(t)
	var got2 []string
	for _, it := range asMaps(conds["items"]) {
		got2 = append(got2, it["condition"].(string))
		if it["description"] == "" {
			t.Errorf("condition without description: %v", it)
		}
	}
	expectOrder(t, "conditions", got2, "visitor.claims.isAdmin === true", "visitor.claims.isBetaUser === true",
		"visitor.claims.unsigned.prefersDark === true")
	if d := asMaps(conds["items"])[1]["description"].(string); !strings.Contains(d, "In the beta program") {
		t.Errorf("description %q lacks the property's", d)
	}
}

func TestAdaptiveSchemaRejects(t *testing.T) {
	f := setup(t)
	site, _ := f.site(t, map[string]any{"title": "Docs"})
	with := func(mod func(s map[string]any)) map[string]any {
		s := sampleSchema()
		mod(s)
		return map[string]any{"jsonSchema": s}
	}
	prop := func(s map[string]any) map[string]any { return s["properties"].(map[string]any) }
	unsigned := func(s map[string]any) map[string]any { return prop(s)["unsigned"].(map[string]any) }
	path := site + "/adaptive-schema"
	cases := []struct {
		name   string
		token  string
		body   any
		status int
		field  string
	}{
		{"400Missing", f.creator, map[string]any{}, 400, "jsonSchema"},
		{"400NotAnObject", f.creator, map[string]any{"jsonSchema": "x"}, 400, "jsonSchema"},
		{"400OtherDraft", f.creator, with(func(s map[string]any) { s["$schema"] = "https://json-schema.org/draft/2020-12/schema" }), 400, "jsonSchema.$schema"},
		{"400TypeNotObject", f.creator, with(func(s map[string]any) { s["type"] = "array" }), 400, "jsonSchema.type"},
		{"400AdditionalPropertiesAllowed", f.creator, with(func(s map[string]any) { s["additionalProperties"] = true }), 400, "jsonSchema.additionalProperties"},
		{"400AdditionalPropertiesMissing", f.creator, with(func(s map[string]any) { delete(s, "additionalProperties") }), 400, "jsonSchema.additionalProperties"},
		{"400UnknownKeyword", f.creator, with(func(s map[string]any) { s["required"] = []string{"isAdmin"} }), 400, "jsonSchema.required"},
		{"400PropertiesMissing", f.creator, with(func(s map[string]any) { delete(s, "properties") }), 400, "jsonSchema.properties"},
		{"400StringClaim", f.creator, with(func(s map[string]any) { prop(s)["plan"] = map[string]any{"type": "string"} }), 400, "jsonSchema.properties.plan.type"},
		{"400ClaimExtraKeyword", f.creator, with(func(s map[string]any) { prop(s)["isAdmin"] = map[string]any{"type": "boolean", "default": true} }), 400, "jsonSchema.properties.isAdmin.default"},
		{"400ClaimNotAnObject", f.creator, with(func(s map[string]any) { prop(s)["isAdmin"] = true }), 400, "jsonSchema.properties.isAdmin"},
		{"400ClaimBadName", f.creator, with(func(s map[string]any) { prop(s)["is-admin"] = map[string]any{"type": "boolean"} }), 400, "jsonSchema.properties.is-admin"},
		{"400ClaimDescriptionNotString", f.creator, with(func(s map[string]any) { prop(s)["isAdmin"] = map[string]any{"type": "boolean", "description": 3} }), 400, "jsonSchema.properties.isAdmin.description"},
		{"400ClaimWithoutDescription", f.creator, with(func(s map[string]any) { prop(s)["isAdmin"] = map[string]any{"type": "boolean"} }), 400, "jsonSchema.properties.isAdmin.description"},
		{"400UnsignedNotObjectType", f.creator, with(func(s map[string]any) { unsigned(s)["type"] = "boolean" }), 400, "jsonSchema.properties.unsigned.type"},
		{"400UnsignedAdditionalProperties", f.creator, with(func(s map[string]any) { unsigned(s)["additionalProperties"] = true }), 400, "jsonSchema.properties.unsigned.additionalProperties"},
		{"400UnsignedStringClaim", f.creator, with(func(s map[string]any) {
			unsigned(s)["properties"].(map[string]any)["tier"] = map[string]any{"type": "string"}
		}), 400, "jsonSchema.properties.unsigned.properties.tier.type"},
		{"400UnsignedPropertiesMissing", f.creator, with(func(s map[string]any) { delete(unsigned(s), "properties") }), 400, "jsonSchema.properties.unsigned.properties"},
		{"401NoToken", "", map[string]any{"jsonSchema": sampleSchema()}, 401, ""},
		{"403Reader", f.reader, map[string]any{"jsonSchema": sampleSchema()}, 403, ""},
		{"404Guest", f.guest, map[string]any{"jsonSchema": sampleSchema()}, 404, ""},
		{"404Outsider", f.outsider, map[string]any{"jsonSchema": sampleSchema()}, 404, ""},
		{"413TooLarge", f.creator, `{"jsonSchema":{"x":"` + strings.Repeat("x", 300<<10) + `"}}`, 413, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, tc.token).Expect(tc.status, "PUT", path, tc.body)
			if tc.field != "" {
				mentions(t, res, tc.field)
			}
		})
	}
	for _, p := range []string{path, path + "/template-conditions"} {
		f.as(t, "").Expect(http.StatusUnauthorized, "GET", p, nil)
		f.as(t, f.guest).Expect(http.StatusNotFound, "GET", p, nil)
		f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", p, nil)
	}
	// Nothing invalid was stored.
	got := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t)
	if len(got["jsonSchema"].(map[string]any)["properties"].(map[string]any)) != 0 {
		t.Fatalf("an invalid schema was stored: %v", got)
	}
}
