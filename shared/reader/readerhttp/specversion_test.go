package readerhttp_test

import (
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/openapispecs/openapiworker"
	"github.com/galleydocs/galley/shared/testkit"
)

// A page showing a spec (a computed API reference page, a page it
// generates, a page with an OpenAPI block, a computed page's .md) gets
// another ETag when the spec's new version is processed, though the
// space's revision is the same; a plain page keeps its ETag (a 304); the
// page tree shows the new version's tags.
func TestETagFollowsTheSpecsVersion(t *testing.T) {
	v1 := `{"openapi":"3.0.3","info":{"title":"Pets","version":"1"},"servers":[{"url":"https://api.example.com"}],"paths":{` +
		`"/pets":{"post":{"tags":["pets"],"summary":"Add a pet","responses":{"201":{"description":"Made"}}}}}}`
	v2 := `{"openapi":"3.0.3","info":{"title":"Pets","version":"2"},"servers":[{"url":"https://api.example.com"}],"paths":{` +
		`"/pets":{"post":{"tags":["pets"],"summary":"Adopt a pet","responses":{"201":{"description":"Made"}}}},` +
		`"/stores":{"get":{"tags":["stores"],"summary":"List stores","responses":{"200":{"description":"OK"}}}}}}`
	f := specSite(t, v1)
	paths := []string{"/", "/block", "/reference", "/reference/pets", "/reference.md"}
	before := map[string]string{}
	for _, p := range paths {
		b, res := f.body(t, http.StatusOK, f.base+p)
		before[p] = res.Header.Get("ETag")
		if p == "/block" || p == "/reference/pets" {
			testkit.Contains(t, p+" before", b, "Add a pet")
		}
	}
	testkit.Lacks(t, "tree before", func() string { b, _ := f.body(t, http.StatusOK, f.base+"/reference"); return b }(), ">stores</a>")
	// Asked again, unchanged: the same ETags, 304s.
	for _, p := range paths {
		if res := f.get(t, f.base+p, "If-None-Match", before[p]); res.StatusCode != http.StatusNotModified {
			t.Errorf("%s asked again: %d, want 304", p, res.StatusCode)
		}
	}

	if _, _, _, err := openapispecs.New(f.Kit.Deps, openapiworker.Parse).Put(f.Ctx("admin"), f.Org.ID, "pets", openapispecs.Source{Text: v2}); err != nil {
		t.Fatal(err)
	}
	// The plain page: the same ETag, still a 304.
	if res := f.get(t, f.base+"/", "If-None-Match", before["/"]); res.StatusCode != http.StatusNotModified {
		t.Errorf("the plain page after the spec's new version: %d, want 304", res.StatusCode)
	}
	for _, p := range paths[1:] {
		res := f.get(t, f.base+p, "If-None-Match", before[p])
		if res.StatusCode != http.StatusOK || res.Header.Get("ETag") == before[p] {
			t.Errorf("%s after the spec's new version: %d, ETag %s (before %s)", p, res.StatusCode, res.Header.Get("ETag"), before[p])
		}
	}
	block, _ := f.body(t, http.StatusOK, f.base+"/block")
	testkit.Contains(t, "the block's operation", block, "Adopt a pet")
	ref, _ := f.body(t, http.StatusOK, f.base+"/reference")
	testkit.Contains(t, "the tree of the new version", ref, ">stores</a>")
	stores, _ := f.body(t, http.StatusOK, f.base+"/reference/stores")
	testkit.Contains(t, "a page of the new version", stores, "List stores")
}
