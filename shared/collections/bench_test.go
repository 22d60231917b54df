package collections_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/collectionsroot"
	"github.com/galleydocs/galley/shared/collections/collectionshttp"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
	"github.com/galleydocs/galley/shared/store/boltstore"
	"github.com/galleydocs/galley/shared/store/storetest"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

// benchTree is an organization with a tree three levels deep (three
// collections per level, each level under the last of the one above),
// spaces in the deepest collection, and a reader (not an admin: every
// decision reads their grants and teams).
type benchTree struct {
	cs            *storetest.Counting
	client        *apitest.Client
	org           string
	deepest       string
	deepestSpaces []string
}

func newBenchTree(b *testing.B, spacesInDeepest int) *benchTree {
	st, err := boltstore.Open(filepath.Join(b.TempDir(), "galley.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	cs := storetest.NewCounting(st)
	k := testkit.NewOn(b, cs)
	admin, _ := k.User("admin")
	reader, tok := k.User("reader")
	org := k.Org("Bench", map[string]model.Role{admin.ID: model.RoleAdmin, reader.ID: model.RoleRead})
	ctx := access.WithCaller(context.Background(), access.Caller{UserID: admin.ID})
	cols, sps := collectionsroot.Service(app.NewRoot(k.Deps)), spaces.New(k.Deps)
	parent := ""
	for level := 0; level < 3; level++ {
		for i := 0; i < 3; i++ {
			c, _, err := cols.Create(ctx, org.ID, fmt.Sprintf("L%d-%d", level, i), parent)
			if err != nil {
				b.Fatal(err)
			}
			if i == 2 {
				parent = c.ID
			}
		}
	}
	bt := &benchTree{cs: cs, org: org.ID, deepest: parent}
	for i := 0; i < spacesInDeepest; i++ {
		sp, _, err := sps.Create(ctx, org.ID, spaces.Create{Title: fmt.Sprintf("S%d", i), Parent: parent})
		if err != nil {
			b.Fatal(err)
		}
		bt.deepestSpaces = append(bt.deepestSpaces, sp.ID)
	}
	api := httpapi.New(httpapi.Config{Auth: users.New(k.Deps), Logger: k.Deps.Logger})
	spaceshttp.Register(api, sps)
	collectionshttp.Register(api, cols)
	bt.client = apitest.New(b, api)
	bt.client.Token = tok
	return bt
}

// run measures one request and reports its storage round trips.
func (bt *benchTree) run(b *testing.B, method, path string) {
	b.ReportAllocs()
	bt.cs.Reset()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bt.client.Expect(http.StatusOK, method, path, nil)
	}
	b.StopTimer()
	b.ReportMetric(float64(bt.cs.Calls().Total())/float64(b.N), "storecalls/op")
}

// BenchmarkGetDeepSpace reads a space three collections down as a reader.
func BenchmarkGetDeepSpace(b *testing.B) {
	bt := newBenchTree(b, 1)
	bt.run(b, "GET", "/v1/spaces/"+bt.deepestSpaces[0])
}

// BenchmarkListSpacesOfDeepCollection lists 50 spaces of a collection three
// levels down, with the reader's permissions on each.
func BenchmarkListSpacesOfDeepCollection(b *testing.B) {
	bt := newBenchTree(b, 50)
	bt.run(b, "GET", "/v1/collections/"+bt.deepest+"/spaces?limit=50")
}

// BenchmarkListNestedCollections lists the whole tree (9 collections).
func BenchmarkListNestedCollections(b *testing.B) {
	bt := newBenchTree(b, 0)
	bt.run(b, "GET", "/v1/orgs/"+bt.org+"/collections")
}

// BenchmarkListOrganizationSpaces lists 50 spaces of the organization.
func BenchmarkListOrganizationSpaces(b *testing.B) {
	bt := newBenchTree(b, 50)
	bt.run(b, "GET", "/v1/orgs/"+bt.org+"/spaces?limit=50")
}
