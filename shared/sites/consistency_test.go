package sites_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Concurrent changes of one site's structure all land, and the invariants
// hold after them: each is a version-guarded write of the site's item.
func TestConcurrentStructureChangesAllLand(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		site, made := f.site(t, map[string]any{"title": "Docs"})
		const n = 8
		var spaceIDs []string
		for i := 0; i < n; i++ {
			spaceIDs = append(spaceIDs, f.space(t, fmt.Sprintf("Space %d", i)))
		}
		svc := siteswire.Service(app.NewRoot(f.kit.Deps))
		ctx := access.WithCaller(context.Background(), access.Caller{UserID: f.adminID})
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for _, id := range spaceIDs {
			wg.Add(1)
			go func(spaceID string) {
				defer wg.Done()
				_, _, _, err := svc.AddSiteSpace(ctx, f.org.ID, made["id"].(string), spaceID, "")
				errs <- err
			}(id)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		st := f.state(t, site)
		if len(st.levels[""]) != n || st.defaults[""] == "" {
			t.Fatalf("after %d concurrent adds: %d site spaces, default %q", n, len(st.levels[""]), st.defaults[""])
		}
		defaults := f.list(t, f.reader, site+"/site-spaces?default=true", 10)
		if len(defaults) != 1 {
			t.Fatalf("%d default site spaces", len(defaults))
		}
	})
}

// A space that left the organization (a collection transfer moves spaces
// between organizations) is left out of the site's views, whether its
// spaces are read one by one or with the organization's query.
func TestSpacesOfAnotherOrganizationAreLeftOut(t *testing.T) {
	f := setup(t)
	for _, n := range []int{2, 6} {
		var ids []string
		for i := 0; i < n; i++ {
			ids = append(ids, f.space(t, fmt.Sprintf("Space %d", i)))
		}
		site, _ := f.site(t, map[string]any{"title": "Docs", "spaces": ids})
		f.as(t, f.admin).Expect(http.StatusOK, "POST", site+"/publish", nil)
		moved := ids[1]
		sp, v, err := records.Get[model.Space](f.kit.Ctx, f.kit.Deps.Store, keys.Space(moved))
		if err != nil {
			t.Fatal(err)
		}
		sp.OrgID = f.other.ID
		if err := f.kit.Deps.Store.Write(f.kit.Ctx, store.PutIfVersion(spaces.Item(sp, v+1), v)); err != nil {
			t.Fatal(err)
		}
		listed := f.list(t, f.reader, site+"/site-spaces", 50)
		if len(listed) != n-1 {
			t.Errorf("%d spaces: the list shows %d site spaces", n, len(listed))
		}
		pub := f.as(t, f.reader).Expect(http.StatusOK, "GET", site+"/published", nil).Map(t)
		items := asMaps(pub["structure"].(map[string]any)["structure"])
		for _, it := range items {
			if it["space"].(map[string]any)["id"] == moved {
				t.Errorf("%d spaces: the published view shows a space of another organization", n)
			}
		}
		if len(items) != n-1 {
			t.Errorf("%d spaces: the published view shows %d", n, len(items))
		}
	}
}
