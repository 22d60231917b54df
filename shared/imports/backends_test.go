package imports_test

import (
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// A website import lands as the space's head on both storage backends.
func TestWebsiteImportOnBothBackends(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		srv, _ := site(t)
		res := f.importInto(t, "/v1/spaces/"+f.space+"/content/import", srv.URL+"/docs/", "website")
		if res["revision"] != f.head(t) || res["importedResources"] != 5.0 {
			t.Fatalf("import %v, head %s", res, f.head(t))
		}
		lines, _, ix := f.pages(t, f.head(t))
		if len(lines) != 5 || len(ix.Files()) != 1 || !strings.HasPrefix(lines[0], "docs ") {
			t.Errorf("pages %v, files %d", lines, len(ix.Files()))
		}
	})
}
