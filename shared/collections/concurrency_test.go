package collections_test

import (
	"github.com/galleydocs/galley/shared/audit"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/collectionsroot"
	"github.com/galleydocs/galley/shared/collections/collectionshttp"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// on is setup on a given kit.
func on(t *testing.T, k *testkit.Kit) *fixture {
	api := httpapi.New(httpapi.Config{Auth: users.New(k.Deps), Logger: k.Deps.Logger})
	spaceshttp.Register(api, spaces.New(k.Deps))
	collectionshttp.Register(api, collectionsroot.Service(app.NewRoot(k.Deps)))
	orgshttp.Register(api, orgs.New(k.Deps, users.New(k.Deps), audit.New(k.Deps, 0)))
	f := &fixture{kit: k, api: api, users: map[string]model.User{}}
	for _, name := range []string{"alice", "rita", "gus"} {
		u, tok := k.User(name)
		f.users[name] = u
		switch name {
		case "alice":
			f.admin = tok
		case "rita":
			f.reader = tok
		case "gus":
			f.guest = tok
		}
	}
	f.org = k.Org("Acme", map[string]model.Role{f.users["alice"].ID: model.RoleAdmin, f.users["rita"].ID: model.RoleRead,
		f.users["gus"].ID: model.RoleGuest})
	return f
}

// TestConcurrentChangesKeepTheTreeWhole creates spaces and collections in
// one collection from many goroutines at once, on both backends: every one
// lands, at its own position, counted by the collection.
func TestConcurrentChangesKeepTheTreeWhole(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := on(t, k)
		parent := f.collection(t, "Parent", "")
		const n = 8
		var wg sync.WaitGroup
		errs := make(chan string, 2*n)
		for i := 0; i < n; i++ {
			wg.Add(2)
			go func() {
				defer wg.Done()
				if r := f.as(t, f.admin).Do("POST", "/v1/orgs/"+f.org.ID+"/spaces", map[string]any{"parent": parent}); r.Status != 201 {
					errs <- string(r.Body)
				}
			}()
			go func() {
				defer wg.Done()
				if r := f.as(t, f.admin).Do("POST", "/v1/orgs/"+f.org.ID+"/collections", map[string]any{"parent": parent}); r.Status != 201 {
					errs <- string(r.Body)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("a concurrent create failed: %s", e)
		}
		c, _, err := records.Get[model.Collection](k.Ctx, k.Deps.Store, keys.Collection(parent))
		if err != nil || c.Children != 2*n {
			t.Fatalf("parent counts %d children (%v), want %d", c.Children, err, 2*n)
		}
		entries, err := store.QueryAll(k.Ctx, k.Deps.Store, store.Query{PK: keys.CollectionPartition(parent), SKPrefix: keys.ChildPrefix})
		if err != nil || len(entries) != 2*n {
			t.Fatalf("%d entries (%v), want %d", len(entries), err, 2*n)
		}
		// The parent cannot be deleted while full, even by a racing delete.
		f.as(t, f.admin).Expect(http.StatusConflict, "DELETE", "/v1/collections/"+parent, nil)
	})
}

// TestConcurrentMovesMakeNoCycle moves A into B and B into A at the same
// time, many times: at most one of each pair wins, and the tree never
// holds a cycle.
func TestConcurrentMovesMakeNoCycle(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := on(t, k)
		for round := 0; round < 4; round++ {
			a := f.collection(t, "A", "")
			b := f.collection(t, "B", "")
			var wg sync.WaitGroup
			statuses := make([]int, 2)
			for i, pair := range [][2]string{{a, b}, {b, a}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses[i] = f.as(t, f.admin).Do("POST", "/v1/collections/"+pair[0]+"/move", map[string]any{"parent": pair[1]}).Status
				}()
			}
			wg.Wait()
			slices.Sort(statuses)
			if statuses[0] != 200 || (statuses[1] != 400 && statuses[1] != 409) {
				t.Fatalf("round %d: statuses %v, want one 200 and one 400 or 409", round, statuses)
			}
			ca, _, _ := records.Get[model.Collection](k.Ctx, k.Deps.Store, keys.Collection(a))
			cb, _, _ := records.Get[model.Collection](k.Ctx, k.Deps.Store, keys.Collection(b))
			if ca.Parent == b && cb.Parent == a {
				t.Fatalf("round %d: A and B hold each other", round)
			}
		}
	})
}

func TestMemberSpacesFollowTheModel(t *testing.T) {
	f := on(t, testkit.New(t))
	open := f.space(t, "Open", "")
	private := f.collection(t, "Private", "")
	f.as(t, f.admin).Expect(http.StatusOK, "PATCH", "/v1/collections/"+private, `{"defaultLevel":null}`)
	hidden := f.space(t, "Hidden", private)
	shared := f.space(t, "Shared", private)
	edited := f.space(t, "Edited", "")
	f.as(t, f.admin).Expect(http.StatusOK, "PATCH", "/v1/spaces/"+edited, map[string]any{"defaultLevel": "edit"})
	for _, g := range []model.Grant{
		{ContentKind: model.KindSpace, ContentID: shared, PrincipalKind: model.PrincipalUser, PrincipalID: f.users["gus"].ID, Role: model.RoleComment},
		{ContentKind: model.KindSpace, ContentID: shared, PrincipalKind: model.PrincipalUser, PrincipalID: f.users["rita"].ID, Role: model.RoleReview},
	} {
		g.OrgID = f.org.ID
		if err := f.kit.Deps.Authz.Grant(f.kit.Ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	levels := func(token, user string) map[string]string {
		t.Helper()
		var p struct {
			Items []struct {
				Permission string
				Space      struct {
					ID          string
					Permissions map[string]bool
				}
			}
		}
		f.as(t, token).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.org.ID+"/members/"+user+"/spaces", nil).JSON(t, &p)
		out := map[string]string{}
		for _, it := range p.Items {
			out[it.Space.ID] = it.Permission
		}
		return out
	}
	rita := levels(f.admin, f.users["rita"].ID)
	if len(rita) != 3 || rita[open] != "read" || rita[shared] != "review" || rita[edited] != "edit" || rita[hidden] != "" {
		t.Fatalf("rita's spaces %v", rita)
	}
	if gus := levels(f.admin, f.users["gus"].ID); len(gus) != 1 || gus[shared] != "comment" {
		t.Fatalf("gus's spaces %v", gus)
	}
	// A guest listing their own spaces sees what they reach.
	if gus := levels(f.guest, f.users["gus"].ID); len(gus) != 1 {
		t.Fatalf("gus's own list %v", gus)
	}
	// The member record counts explicit space grants.
	m := f.as(t, f.admin).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.org.ID+"/members/"+f.users["rita"].ID, nil).Map(t)
	if m["spaces"] != 1.0 {
		t.Fatalf("rita's member record: spaces = %v", m["spaces"])
	}
}
