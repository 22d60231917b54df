package content_test

import (
	"encoding/json"
	"net/http"
	"os"
	"reflect"
	"regexp"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// gitbook reads the schemas of GitBook's current OpenAPI document (not in
// the repository: GITBOOK_OPENAPI names it, else it is looked for beside
// the checkout, as ../shared/reference/ from a worktree's root). Type
// lists become nullable types and oneOf anyOf: GitBook's page variants
// are loose enough that a page matches several, which a strict oneOf
// refuses.
// schemaRef is a schema of GitBook's document, by name.
func schemaRef(name string) *huma.Schema { return &huma.Schema{Ref: "#/components/schemas/" + name} }

// violations are the ways v, read as an answer, breaks schema.
func violations(reg huma.Registry, schema *huma.Schema, v any) []error {
	res := &huma.ValidateResult{}
	huma.Validate(reg, schema, huma.NewPathBuffer([]byte{}, 0), huma.ModeReadFromServer, v, res)
	return res.Errors
}

// conforms fails the test for each way v (named what) breaks schema.
func conforms(t *testing.T, reg huma.Registry, schema *huma.Schema, what string, v any) {
	t.Helper()
	for _, e := range violations(reg, schema, v) {
		t.Errorf("%s: %.600v", what, e)
	}
}

func gitbook(t *testing.T) huma.Registry {
	t.Helper()
	var raw []byte
	var err error
	for _, p := range []string{os.Getenv("GITBOOK_OPENAPI"), "../../../shared/reference/gitbook-openapi-0.202.0.json",
		"../../../../shared/reference/gitbook-openapi-0.202.0.json"} {
		if p == "" {
			continue
		}
		if raw, err = os.ReadFile(p); err == nil {
			break
		}
	}
	if raw == nil {
		testenv.Missing(t, "GitBook's OpenAPI document (../shared/reference, or GITBOOK_OPENAPI)")
		return nil
	}
	var anyDoc any
	if err := json.Unmarshal(raw, &anyDoc); err != nil {
		t.Fatal(err)
	}
	var fix func(v any)
	fix = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ts, ok := x["type"].([]any); ok {
				for _, tt := range ts {
					if tt == "null" {
						x["nullable"] = true
					} else {
						x["type"] = tt
					}
				}
				if _, ok := x["type"].([]any); ok {
					delete(x, "type")
				}
			}
			// Patterns Go's regexp cannot compile (lookaheads) are dropped.
			if pat, ok := x["pattern"].(string); ok {
				if _, err := regexp.Compile(pat); err != nil {
					delete(x, "pattern")
				}
			}
			if o, ok := x["oneOf"]; ok {
				x["anyOf"] = o
				delete(x, "oneOf")
			}
			for _, y := range x {
				fix(y)
			}
		case []any:
			for _, y := range x {
				fix(y)
			}
		}
	}
	fix(anyDoc)
	raw, _ = json.Marshal(anyDoc)
	var doc struct {
		Components struct {
			Schemas map[string]*huma.Schema `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	r := huma.NewMapRegistry("#/components/schemas/", func(reflect.Type, string) string { return "" })
	// Validation reads what PrecomputeMessages derives (required
	// properties among others): decoded schemas need it done.
	var pre func(s *huma.Schema)
	pre = func(s *huma.Schema) {
		if s == nil {
			return
		}
		s.PrecomputeMessages()
		for _, x := range append(append(append([]*huma.Schema{s.Items, s.Not}, s.AllOf...), s.AnyOf...), s.OneOf...) {
			pre(x)
		}
		for _, x := range s.Properties {
			pre(x)
		}
	}
	for k, v := range doc.Components.Schemas {
		pre(v)
		r.Map()[k] = v
	}
	return r
}

// The reads by revision and by path answer what GitBook's schemas
// describe.
func TestReadsMatchGitBookSchemas(t *testing.T) {
	reg := gitbook(t)
	f := setupOn(t, testkit.New(t))
	rev1, rev2 := twoRevisions(t, f)
	c := f.As(t, "read")
	sp := "/v1/spaces/" + f.space
	base := sp + "/revisions/" + rev1.ID
	docID := c.Expect(http.StatusOK, "GET", sp+"/content/page/intro", nil).Map(t)["documentId"].(string)
	check := func(path string, schema *huma.Schema) {
		var v any
		c.Expect(http.StatusOK, "GET", path, nil).JSON(t, &v)
		conforms(t, reg, schema, path, v)
	}
	anyOf := func(ss ...*huma.Schema) *huma.Schema { s := &huma.Schema{AnyOf: ss}; s.PrecomputeMessages(); return s }
	check(base, schemaRef("Revision"))
	check(sp+"/content", schemaRef("Revision"))
	check(base+"/page/intro", anyOf(schemaRef("RevisionPageDocument"), schemaRef("RevisionPageGroup")))
	check(base+"/path/intro/setup?format=markdown", anyOf(schemaRef("RevisionPageDocument"), schemaRef("RevisionPageGroup")))
	check(base+"/page/guide/document", schemaRef("JSONDocument"))
	check(sp+"/documents/"+docID, schemaRef("JSONDocument"))
	check(base+"/page/intro/meta-links", schemaRef("RevisionPageMetaLinks"))
	check(sp+"/revisions/"+rev2.ID+"/changes", schemaRef("RevisionSemanticChanges"))
	check(base+"/files/pic", schemaRef("RevisionFile"))
	pages := &huma.Schema{Type: "object", Required: []string{"pages"}, Properties: map[string]*huma.Schema{
		"pages": {Type: "array", Items: anyOf(schemaRef("RevisionPageDocument"), schemaRef("RevisionPageGroup"), schemaRef("RevisionPageLink"))}}}
	pages.PrecomputeMessages()
	check(base+"/pages", pages)
	// getSpacePDF's answer (GitBook's schema is inline: {url: URL}).
	pdfLink := &huma.Schema{Type: "object", Required: []string{"url"}, Properties: map[string]*huma.Schema{"url": schemaRef("URL")}}
	pdfLink.PrecomputeMessages()
	check(sp+"/pdf?page=intro", pdfLink)
	// The validator does check: a page is no user.
	var v any
	c.Expect(http.StatusOK, "GET", base+"/page/intro", nil).JSON(t, &v)
	if len(violations(reg, schemaRef("User"), v)) == 0 {
		t.Fatal("a page validates as a User")
	}
}

// The semantic changes of reusable contents, the space's variables and a
// page's variables answer GitBook's schemas (RevisionSemanticChanges, whose
// variants are told apart by type).
func TestReusableSemanticChangesMatchGitBookSchemas(t *testing.T) {
	reg := gitbook(t)
	f := setupOn(t, testkit.New(t))
	reusableSpace(t, f)
	pages, bodies := samplePages()
	pages[0].Variables = content.Variables{"product": "Acme 2"}
	rev := f.Kit.Land(t, f.space, &content.Tree{Pages: pages, Variables: content.Variables{"version": "2.2", "beta": false},
		ReusableContents: []content.ReusableContent{{ID: "banner", Title: "Banner 2"}, {ID: "new", Title: "New"}}}, bodies)
	c := f.As(t, "read")
	var v struct {
		Changes []map[string]any `json:"changes"`
	}
	path := "/v1/spaces/" + f.space + "/revisions/" + rev.ID + "/changes?limit=100"
	c.Expect(http.StatusOK, "GET", path, nil).JSON(t, &v)
	types := map[string]int{}
	for _, ch := range v.Changes {
		types[ch["type"].(string)]++
		schema := map[string]string{"reusable_content_created": "RevisionSemanticChangeReusableContentCreated",
			"reusable_content_edited": "RevisionSemanticChangeReusableContentEdited", "reusable_content_deleted": "RevisionSemanticChangeReusableContentDeleted",
			"variables_edited": "RevisionSemanticChangeVariablesEdited", "page_edited": "RevisionSemanticChangePageEdited"}[ch["type"].(string)]
		if schema == "" {
			continue
		}
		conforms(t, reg, schemaRef(schema), schema, any(ch))
	}
	want := map[string]int{"reusable_content_created": 1, "reusable_content_edited": 1, "reusable_content_deleted": 1, "variables_edited": 1, "page_edited": 2}
	if !reflect.DeepEqual(types, want) {
		t.Fatalf("changes %v, want %v (%v)", types, want, v.Changes)
	}
	var all any
	c.Expect(http.StatusOK, "GET", path, nil).JSON(t, &all)
	conforms(t, reg, schemaRef("RevisionSemanticChanges"), "RevisionSemanticChanges", all)
}
