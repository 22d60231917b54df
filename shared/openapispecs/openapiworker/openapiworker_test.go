package openapiworker_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/openapispecs/openapiworker"
	"github.com/galleydocs/galley/shared/testenv"
)

// fixtureDir holds real public documents, outside the repository: the
// module root's ../shared/fixtures/openapi.
const fixtureDir = "../../../../shared/fixtures/openapi"

func readFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		testenv.Missing(tb, "OpenAPI fixture "+name+" ("+err.Error()+")")
	}
	return raw
}

// Real documents parse, with their operations (counted independently of
// kin-openapi from each document's paths) and their validation problems
// as warnings.
func TestRealDocumentsParse(t *testing.T) {
	cases := []struct {
		name       string
		operations int
		has        model.OpenAPIOperation
		tag        string
		warnings   bool
	}{
		// GHES 3.6: operations that do not declare their path parameters.
		{"github-ghes-3.6.json", 829, model.OpenAPIOperation{Path: "/repos/{owner}/{repo}", Method: "get"}, "repos", true},
		// Blockfrost: type "null" in anyOf (OpenAPI 3.0).
		{"blockfrost.yaml", 129, model.OpenAPIOperation{Path: "/accounts/{stake_address}", Method: "get"}, "Cardano » Accounts", true},
		// Docker Engine: Swagger 2.0, converted; paths stay relative to basePath.
		{"docker-engine-swagger2.yaml", 106, model.OpenAPIOperation{Path: "/_ping", Method: "head"}, "System", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := openapiworker.Parse(context.Background(), readFixture(t, tc.name))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if len(p.Operations) != tc.operations {
				t.Errorf("%d operations, want %d", len(p.Operations), tc.operations)
			}
			found := false
			for i, o := range p.Operations {
				if o.Path == tc.has.Path && o.Method == tc.has.Method {
					found = true
					// Tags are recorded: computed reference pages group by them.
					if len(o.Tags) == 0 || o.Tags[0] != tc.tag {
						t.Errorf("%s %s: tags %q, want %q first", o.Method, o.Path, o.Tags, tc.tag)
					}
				}
				if i > 0 && p.Operations[i-1].Path > o.Path {
					t.Fatalf("operations not in path order: %v before %v", p.Operations[i-1], o)
				}
			}
			if !found {
				t.Errorf("operation %v missing", tc.has)
			}
			if (p.WarningCount > 0) != tc.warnings || len(p.Warnings) != min(p.WarningCount, model.MaxOpenAPIProblems) {
				t.Errorf("%d warnings (%d kept), want some: %v", p.WarningCount, len(p.Warnings), tc.warnings)
			}
			if len(p.Doc) == 0 || p.Doc[0] != '{' {
				t.Errorf("document not JSON: %.40q", p.Doc)
			}
		})
	}
}

// Each problem real documents have is a warning, not a failure.
func TestRealWorldProblemsAreWarnings(t *testing.T) {
	const info = `"info": {"title": "x", "version": "1"}`
	cases := []struct{ name, doc, warning string }{
		{"UndeclaredPathParameter", `{"openapi": "3.0.3", ` + info + `, "paths": {"/pets/{id}": {"get": {"responses": {"200": {"description": "ok"}}}}}}`,
			"must define exactly all path parameters"},
		{"RecursiveRef", `{"openapi": "3.1.0", ` + info + `, "paths": {"/t": {"get": {"responses": {"200": {"description": "ok",
			"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Tree"}}}}}}}},
			"components": {"schemas": {"Tree": {"$recursiveAnchor": true, "type": "object", "properties": {"children": {"type": "array", "items": {"$recursiveRef": "#"}}}}}}}`,
			"$recursiveRef"},
		{"NullTypeInAnyOf", `{"openapi": "3.0.3", ` + info + `, "paths": {"/t": {"get": {"responses": {"200": {"description": "ok",
			"content": {"application/json": {"schema": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}}}}}}}`,
			`unsupported 'type' value "null"`},
		{"LookaheadPattern", `{"openapi": "3.0.3", ` + info + `, "paths": {"/t": {"get": {"parameters": [{"name": "q", "in": "query",
			"schema": {"type": "string", "pattern": "^(?!-)[a-z-]+$"}}], "responses": {"200": {"description": "ok"}}}}}}`,
			"(?!"},
		{"NoInfoVersion", "openapi: 3.0.3\ninfo: {title: x}\npaths:\n  /t:\n    get:\n      responses:\n        200: {description: ok}\n",
			"version"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := openapiworker.Parse(context.Background(), []byte(tc.doc))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if len(p.Operations) != 1 {
				t.Errorf("operations %v, want one", p.Operations)
			}
			if p.WarningCount == 0 || !strings.Contains(strings.Join(p.Warnings, "\n"), tc.warning) {
				t.Errorf("warnings %q, want one about %q", p.Warnings, tc.warning)
			}
		})
	}
}

// The warnings kept are bounded; their count is not.
func TestWarningsAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {`)
	const n = 150
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"/p` + strings.Repeat("x", i) + `/{id}": {"get": {"responses": {"200": {"description": "ok"}}}}`)
	}
	b.WriteString("}}")
	p, err := openapiworker.Parse(context.Background(), []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if p.WarningCount != n || len(p.Warnings) != model.MaxOpenAPIProblems || len(p.Operations) != n {
		t.Errorf("%d warnings, %d kept, %d operations; want %d, %d, %d", p.WarningCount, len(p.Warnings), len(p.Operations), n, model.MaxOpenAPIProblems, n)
	}
}

// What is not an OpenAPI or Swagger document fails, saying why.
func TestNonDocumentsFail(t *testing.T) {
	cases := map[string]string{
		"HTML":        "<!DOCTYPE html>\n<html><body><h1>Not Found</h1></body></html>",
		"RandomBytes": "\x00\x01\xff\xfe\x9c garbage \x07",
		"Scalar":      "42",
		"NotOpenAPI":  `{"hello": "world"}`,
		"Swagger1":    `{"swagger": "1.2"}`,
		"OpenAPI2":    "openapi: 2.0\n",
		"BrokenJSON":  `{"openapi": "3.0.3", "info": `,
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := openapiworker.Parse(context.Background(), []byte(doc)); err == nil || err.Error() == "" {
				t.Errorf("accepted, or no reason: %v", err)
			}
		})
	}
}

// BenchmarkParseGitHub measures the largest fixture (4.2 MB of JSON).
func BenchmarkParseGitHub(b *testing.B) {
	raw := readFixture(b, "github-ghes-3.6.json")
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := openapiworker.Parse(context.Background(), raw); err != nil {
			b.Fatal(err)
		}
	}
}
