package sites_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/sites/siteshttp"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

// publishedSite builds a published site of sections x perSection site
// spaces (each its own space) and returns a GET of its published view.
func publishedSite(tb testing.TB, sections, perSection int) (*testkit.CountingStore, func() int) {
	cs := &testkit.CountingStore{Store: testkit.BoltStore(tb)}
	k := testkit.NewOn(tb, cs)
	u, tok := k.User("bench")
	org := k.Org("Bench", map[string]model.Role{u.ID: model.RoleAdmin})
	ctx := access.WithCaller(context.Background(), access.Caller{UserID: u.ID})
	svc, sps := siteswire.Service(app.NewRoot(k.Deps)), spaces.New(k.Deps)
	newSpace := func(title string) string {
		sp, _, err := sps.Create(ctx, org.ID, spaces.Create{Title: title})
		if err != nil {
			tb.Fatal(err)
		}
		return sp.ID
	}
	site, _, err := svc.Create(ctx, org.ID, sites.CreateSite{Title: "Bench"})
	if err != nil {
		tb.Fatal(err)
	}
	for i := 0; i < sections; i++ {
		_, sec, _, err := svc.AddSection(ctx, org.ID, site.ID, newSpace(fmt.Sprintf("Section %d", i)), "", "")
		if err != nil {
			tb.Fatal(err)
		}
		for j := 1; j < perSection; j++ {
			if _, _, _, err := svc.AddSiteSpace(ctx, org.ID, site.ID, newSpace(fmt.Sprintf("Space %d.%d", i, j)), sec); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if _, _, err := svc.SetPublished(ctx, org.ID, site.ID, true); err != nil {
		tb.Fatal(err)
	}
	api := httpapi.New(httpapi.Config{Auth: users.New(k.Deps), Logger: k.Deps.Logger})
	siteshttp.Register(api, svc)
	h := api.Handler()
	path := "/v1/orgs/" + org.ID + "/sites/" + site.ID + "/published"
	return cs, func() int {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			tb.Fatalf("published: %d %s", rec.Code, rec.Body)
		}
		return rec.Body.Len()
	}
}

// TestPublishedReadCostIsBounded: one published read costs the same number
// of storage round trips for a site of 2 x 3 site spaces as for one of
// 20 x 10, and never more than 8 (token, user, membership, site, and at
// most 4 space reads or one query of the organization's spaces).
func TestPublishedReadCostIsBounded(t *testing.T) {
	cost := map[string]int64{}
	for _, size := range [][2]int{{1, 1}, {2, 2}, {2, 3}, {20, 10}} {
		cs, get := publishedSite(t, size[0], size[1])
		get() // a token's first use in an hour records it (a write): count the next read
		cs.Reset()
		get()
		name := fmt.Sprintf("%dx%d", size[0], size[1])
		cost[name] = cs.Total()
		if cs.Writes.Load() != 0 {
			t.Errorf("%s: a published read writes %d times", name, cs.Writes.Load())
		}
		if cs.Total() > 8 {
			t.Errorf("%s: %d round trips (%d gets, %d queries)", name, cs.Total(), cs.Gets.Load(), cs.Queries.Load())
		}
	}
	if cost["2x3"] != cost["20x10"] {
		t.Errorf("round trips grow with the structure: %v", cost)
	}
	t.Logf("round trips per published read: %v", cost)
}

// BenchmarkPublishedSite reads the published view of a site of 20 sections
// of 10 site spaces each and reports the storage round trips per read.
func BenchmarkPublishedSite(b *testing.B) {
	cs, get := publishedSite(b, 20, 10)
	b.ReportAllocs()
	cs.Reset()
	b.ResetTimer()
	bytes := 0
	for i := 0; i < b.N; i++ {
		bytes = get()
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(cs.Total())/n, "roundtrips/op")
	b.ReportMetric(float64(cs.Gets.Load())/n, "gets/op")
	b.ReportMetric(float64(cs.Queries.Load())/n, "queries/op")
	b.ReportMetric(float64(bytes), "body-bytes")
}
