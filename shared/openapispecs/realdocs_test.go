package openapispecs_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testenv"
)

// fixtureDir holds real public documents, outside the repository: the
// module root's ../shared/fixtures/openapi.
const fixtureDir = "../../../shared/fixtures/openapi"

func readFixture(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		testenv.Missing(t, "OpenAPI fixture "+name+" ("+err.Error()+")")
	}
	return string(raw)
}

// Real public documents, fetched from a URL, end complete with a version
// whose operations are listed (their number counted independently of
// kin-openapi from each document's paths).
func TestRealDocumentsBecomeVersionsWithTheirOperations(t *testing.T) {
	f := setup(t)
	cases := []struct {
		file, slug string
		operations int
		has        map[string]any
		warnings   bool
	}{
		{"github-ghes-3.6.json", "ghes", 829, map[string]any{"path": "/repos/{owner}/{repo}/pulls", "method": "post"}, true},
		{"blockfrost.yaml", "blockfrost", 129, map[string]any{"path": "/blocks/latest", "method": "get"}, true},
		{"docker-engine-swagger2.yaml", "docker", 106, map[string]any{"path": "/containers/{id}/start", "method": "post"}, false},
	}
	c := f.As(t, "create")
	for _, tc := range cases {
		t.Run(tc.slug, func(t *testing.T) {
			ds := newDocServer(t, readFixture(t, tc.file))
			c.Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": tc.slug, "source": map[string]any{"url": ds.URL + "/" + tc.file}})
			start := time.Now()
			f.work(t)
			t.Logf("%s processed in %v", tc.file, time.Since(start))
			sp := c.Expect(http.StatusOK, "GET", f.base()+"/"+tc.slug, nil).Map(t)
			if sp["processingState"] != "complete" || sp["lastProcessErrorCode"] != nil || sp["lastVersion"] == nil {
				t.Fatalf("spec %v, want complete with a version", sp)
			}
			count, _ := sp["lastProcessedErrorCount"].(float64)
			errs, _ := sp["lastProcessedErrors"].([]any)
			if (count > 0) != tc.warnings || len(errs) != min(int(count), model.MaxOpenAPIProblems) {
				t.Errorf("lastProcessedErrorCount %v with %d listed; want warnings: %v", count, len(errs), tc.warnings)
			}
			for _, e := range errs {
				if e.(map[string]any)["code"] != model.OpenAPIValidationWarning {
					t.Errorf("problem %v is not a warning", e)
				}
			}
			ver := c.Expect(http.StatusOK, "GET", f.base()+"/"+tc.slug+"/versions/latest", nil).Map(t)
			if ver["galleyOperationCount"] != float64(tc.operations) || ver["galleyWarningCount"] != count {
				t.Errorf("version %v: want %d operations, %v warnings", ver, tc.operations, count)
			}
			for _, id := range []string{"latest", ver["id"].(string)} {
				ops := c.Expect(http.StatusOK, "GET", f.base()+"/"+tc.slug+"/versions/"+id+"/operations", nil).Map(t)
				items, _ := ops["items"].([]any)
				if len(items) != tc.operations || ops["count"] != float64(tc.operations) {
					t.Errorf("%s: %d operations (count %v), want %d", id, len(items), ops["count"], tc.operations)
				}
				found := false
				for _, it := range items {
					m := it.(map[string]any)
					found = found || (m["path"] == tc.has["path"] && m["method"] == tc.has["method"])
				}
				if !found {
					t.Errorf("%s: operation %v missing", id, tc.has)
				}
			}
		})
	}
}

// A document with each problem real ones have is accepted; its problems
// are warnings, visible on the spec.
func TestProblemsAreWarningsOnTheSpec(t *testing.T) {
	f := setup(t)
	const info = `"info": {"title": "x", "version": "1"}`
	cases := []struct{ slug, doc, warning string }{
		{"undeclared", `{"openapi": "3.0.3", ` + info + `, "paths": {"/pets/{id}": {"get": {"responses": {"200": {"description": "ok"}}}}}}`,
			"must define exactly all path parameters"},
		{"recursive", `{"openapi": "3.1.0", ` + info + `, "paths": {"/t": {"get": {"responses": {"200": {"description": "ok",
			"content": {"application/json": {"schema": {"$recursiveRef": "#"}}}}}}}}}`, "$recursiveRef"},
		{"null-type", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /t:\n    get:\n      responses:\n        200:\n          description: ok\n" +
			"          content:\n            application/json:\n              schema:\n                anyOf: [{type: string}, {type: 'null'}]\n", `'type' value "null"`},
		{"lookahead", `{"openapi": "3.0.3", ` + info + `, "paths": {"/t": {"get": {"parameters": [{"name": "q", "in": "query",
			"schema": {"type": "string", "pattern": "^(?!-)[a-z-]+$"}}], "responses": {"200": {"description": "ok"}}}}}}`, "(?!"},
		{"no-version", "openapi: 3.0.3\ninfo: {title: x}\npaths:\n  /t:\n    get:\n      responses:\n        200: {description: ok}\n", "version"},
	}
	c := f.As(t, "create")
	for _, tc := range cases {
		t.Run(tc.slug, func(t *testing.T) {
			c.Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": tc.slug, "source": map[string]any{"text": tc.doc}})
			f.work(t)
			sp := c.Expect(http.StatusOK, "GET", f.base()+"/"+tc.slug, nil).Map(t)
			if sp["processingState"] != "complete" || sp["lastProcessErrorCode"] != nil || sp["lastVersion"] == nil {
				t.Fatalf("spec %v, want complete with a version", sp)
			}
			errs, _ := sp["lastProcessedErrors"].([]any)
			if len(errs) == 0 || sp["lastProcessedErrorCount"] != float64(len(errs)) {
				t.Fatalf("lastProcessedErrors %v, count %v", errs, sp["lastProcessedErrorCount"])
			}
			e := errs[0].(map[string]any)
			if e["code"] != model.OpenAPIValidationWarning || !strings.Contains(e["message"].(string), tc.warning) {
				t.Errorf("warning %v, want one about %q", e, tc.warning)
			}
			ops := c.Expect(http.StatusOK, "GET", f.base()+"/"+tc.slug+"/versions/latest/operations", nil).Map(t)
			if ops["count"] != 1.0 {
				t.Errorf("operations %v", ops)
			}
		})
	}
	// A clean document after a warned one clears the warnings.
	c.Expect(http.StatusOK, "PUT", f.base()+"/no-version", map[string]any{"source": map[string]any{"text": petstore}})
	f.work(t)
	sp := c.Expect(http.StatusOK, "GET", f.base()+"/no-version", nil).Map(t)
	if sp["lastProcessedErrors"] != nil || sp["lastProcessedErrorCount"] != 0.0 {
		t.Errorf("warnings kept after a clean document: %v", sp)
	}
}

// bigDocument is an OpenAPI document of at least n bytes.
func bigDocument(n int) (string, int) {
	var b strings.Builder
	b.WriteString(`{"openapi": "3.0.3", "info": {"title": "Big", "version": "1"}, "paths": {`)
	desc := strings.Repeat("A long description of the operation. ", 50)
	i := 0
	for ; b.Len() < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/r%d": {"get": {"description": %q, "responses": {"200": {"description": "ok"}}}}`, i, desc)
	}
	b.WriteString("}}")
	return b.String(), i
}

// Documents over the former 10 MiB limit are accepted; one over the limit
// fails with the reason on the spec.
func TestDocumentSizeLimit(t *testing.T) {
	f := setup(t)
	doc, paths := bigDocument(12 << 20)
	ds := newDocServer(t, doc)
	c := f.As(t, "create")
	c.Expect(http.StatusCreated, "PUT", f.base()+"/big", map[string]any{"source": map[string]any{"url": ds.URL + "/big.json"}})
	f.work(t)
	sp := c.Expect(http.StatusOK, "GET", f.base()+"/big", nil).Map(t)
	if sp["lastProcessErrorCode"] != nil || sp["lastVersion"] == nil {
		t.Fatalf("a %d-byte document: %v", len(doc), sp)
	}
	if ops := c.Expect(http.StatusOK, "GET", f.base()+"/big/versions/latest/operations", nil).Map(t); ops["count"] != float64(paths) {
		t.Errorf("%v operations, want %d", ops["count"], paths)
	}

	f.svc.MaxDocumentBytes = 1 << 20
	c.Expect(http.StatusOK, "PUT", f.base()+"/big", map[string]any{"source": map[string]any{"url": ds.URL + "/big.json"}})
	f.work(t)
	sp = c.Expect(http.StatusOK, "GET", f.base()+"/big", nil).Map(t)
	errs, _ := sp["lastProcessedErrors"].([]any)
	if sp["lastProcessErrorCode"] != model.OpenAPIFetchError || len(errs) != 1 ||
		!strings.Contains(errs[0].(map[string]any)["message"].(string), "larger than the limit of 1048576 bytes") {
		t.Errorf("over the limit: %v", sp)
	}
}
