package spaces_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/collectionsroot"
	"github.com/galleydocs/galley/shared/collections/collectionshttp"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/storetest"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/tree"
	"github.com/galleydocs/galley/shared/users"
)

// maxGetSpaceRoundTrips is the bound of issue 12 on GET /v1/spaces/{id},
// authentication included, for a member in no team.
const maxGetSpaceRoundTrips = 4

// deepWorld is an organization with collections a > b > c, a space in c,
// an administrator, a reader, a guest granted read on b, and a commenter
// in a team granted edit on a.
type deepWorld struct {
	k                            *testkit.Kit
	cs                           *storetest.Counting
	api                          *httpapi.API
	org                          string
	cols                         []string // a, b, c
	space                        string
	admin, reader, guest, teamed string // tokens
}

func newDeepWorld(t testing.TB) *deepWorld {
	cs := storetest.NewCounting(testkit.BoltStore(t))
	k := testkit.NewOn(t, cs)
	w := &deepWorld{k: k, cs: cs}
	ua, ta := k.User("ada")
	ur, tr := k.User("rob")
	ug, tg := k.User("gil")
	uc, tc := k.User("cid")
	w.admin, w.reader, w.guest, w.teamed = ta, tr, tg, tc
	org := k.Org("Deep", map[string]model.Role{ua.ID: model.RoleAdmin, ur.ID: model.RoleRead, ug.ID: model.RoleGuest, uc.ID: model.RoleComment})
	w.org = org.ID
	ctx := access.WithCaller(context.Background(), access.Caller{UserID: ua.ID})
	cols, sps := collectionsroot.Service(app.NewRoot(k.Deps)), spaces.New(k.Deps)
	parent := ""
	for _, title := range []string{"a", "b", "c"} {
		c, _, err := cols.Create(ctx, org.ID, title, parent)
		if err != nil {
			t.Fatal(err)
		}
		w.cols, parent = append(w.cols, c.ID), c.ID
	}
	sp, _, err := sps.Create(ctx, org.ID, spaces.Create{Title: "Deep", Parent: parent})
	if err != nil {
		t.Fatal(err)
	}
	w.space = sp.ID
	grant := func(kind, id, pkind, pid string, role model.Role) {
		err := k.Deps.Authz.Grant(k.Ctx, model.Grant{OrgID: org.ID, ContentKind: kind, ContentID: id, PrincipalKind: pkind, PrincipalID: pid, Role: role, CreatedAt: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
	}
	grant(model.KindCollection, w.cols[1], model.PrincipalUser, ug.ID, model.RoleRead)
	// cid is in team t1, written with both counters and the member's list
	// of teams as the teams service keeps them.
	m, mv, err := records.Get[model.Member](k.Ctx, cs, keys.Member(org.ID, uc.ID))
	if err != nil {
		t.Fatal(err)
	}
	m.Teams, m.TeamIDs = 1, []string{"t1"}
	tm := records.Item(keys.TeamMember(org.ID, "t1", uc.ID), model.TeamMembership{OrgID: org.ID, TeamID: "t1", UserID: uc.ID, Role: model.TeamMember}, 1)
	ik := keys.TeamMemberByUser(org.ID, uc.ID, "t1")
	tm.GSI1PK, tm.GSI1SK = ik.PK, ik.SK
	mit := records.Item(keys.Member(org.ID, uc.ID), m, mv+1)
	g1, g2 := keys.MemberByUser(org.ID, uc.ID), keys.MemberByJoined(org.ID, m.JoinedAt.UTC().Format("2006-01-02T15:04:05.000Z"), uc.ID)
	mit.GSI1PK, mit.GSI1SK, mit.GSI2PK, mit.GSI2SK = g1.PK, g1.SK, g2.PK, g2.SK
	err = cs.Write(k.Ctx, store.PutIfVersion(mit, mv), store.Put(tm, store.IfNotExists),
		store.Put(records.Item(keys.Team(org.ID, "t1"), model.Team{OrgID: org.ID, ID: "t1", Title: "Writers", Members: 1}, 1), store.IfNotExists))
	if err != nil {
		t.Fatal(err)
	}
	grant(model.KindCollection, w.cols[0], model.PrincipalTeam, "t1", model.RoleEdit)
	// Every request reads its token: the bound counts the lookup, which
	// the users service otherwise reuses for a few seconds.
	w.api = httpapi.New(httpapi.Config{Auth: uncached{k}, Logger: k.Deps.Logger})
	spaceshttp.Register(w.api, sps)
	collectionshttp.Register(w.api, cols)
	return w
}

// uncached authenticates every request afresh, with a new users service.
type uncached struct{ k *testkit.Kit }

func (u uncached) Authenticate(ctx context.Context, token string) (access.Caller, error) {
	return users.New(u.k.Deps).Authenticate(ctx, token)
}

// get reads the space as token and returns its permissions and the calls.
func (w *deepWorld) get(t testing.TB, token string, want int) (map[string]any, storetest.Calls) {
	t.Helper()
	c := apitest.New(t, w.api)
	c.Token = token
	// A token's first use in an hour records its last use (a write);
	// what is counted is a read as every later one is.
	c.Do("GET", "/v1/spaces/"+w.space, nil)
	w.cs.Reset()
	res := c.Expect(want, "GET", "/v1/spaces/"+w.space, nil)
	calls := w.cs.Calls()
	if want != http.StatusOK {
		return nil, calls
	}
	perms, _ := res.Map(t)["permissions"].(map[string]any)
	return perms, calls
}

func TestGetDeepSpaceRoundTrips(t *testing.T) {
	w := newDeepWorld(t)
	for _, tc := range []struct {
		name, token string
		status      int
		view, edit  bool
		max         int64
	}{
		{"ReaderInNoTeam", w.reader, http.StatusOK, true, false, maxGetSpaceRoundTrips},
		{"GuestGrantedAbove", w.guest, http.StatusOK, true, false, maxGetSpaceRoundTrips},
		{"Admin", w.admin, http.StatusOK, true, true, maxGetSpaceRoundTrips},
		// A member of teams reads the teams' grants too (in the batch that
		// the member's record, listing their teams, allows).
		{"MemberOfATeamGrantedAbove", w.teamed, http.StatusOK, true, true, maxGetSpaceRoundTrips},
		{"Outsider", testkit.AdminToken, http.StatusNotFound, false, false, maxGetSpaceRoundTrips},
	} {
		t.Run(tc.name, func(t *testing.T) {
			perms, calls := w.get(t, tc.token, tc.status)
			if calls.Total() > tc.max {
				t.Errorf("%d storage round trips (%+v), want at most %d", calls.Total(), calls, tc.max)
			}
			if tc.status == http.StatusOK && (perms["view"] != tc.view || perms["edit"] != tc.edit) {
				t.Errorf("permissions %v, want view %v, edit %v", perms, tc.view, tc.edit)
			}
			t.Logf("%d round trips: %+v", calls.Total(), calls)
		})
	}
}

// A collection above the space moves: the space's list of ancestors is
// stale, which costs round trips but changes no decision.
func TestGetSpaceUnderAMovedCollectionDecidesTheSame(t *testing.T) {
	w := newDeepWorld(t)
	admin := apitest.New(t, w.api)
	admin.Token = w.admin
	// b (granted read to gil) moves to the top: the space is under a > ...
	// no more, but still under b and c.
	admin.Expect(http.StatusOK, "POST", "/v1/collections/"+w.cols[1]+"/move", map[string]any{"parent": nil})
	perms, calls := w.get(t, w.guest, http.StatusOK)
	if perms["view"] != true {
		t.Fatalf("gil lost the grant on b: %v", perms)
	}
	if calls.Total() > maxGetSpaceRoundTrips+1 {
		t.Errorf("%d round trips (%+v) with a stale list", calls.Total(), calls)
	}
	// cid's team grant was on a, which is no longer above the space.
	perms, _ = w.get(t, w.teamed, http.StatusOK)
	if perms["edit"] != false || perms["view"] != true {
		t.Fatalf("cid keeps the team grant of a collection no longer above: %v", perms)
	}
	// c moves under a again, at the end: the grant on a applies anew, and the
	// grant on b no longer does.
	admin.Expect(http.StatusOK, "POST", "/v1/collections/"+w.cols[2]+"/move", map[string]any{"parent": w.cols[0]})
	perms, _ = w.get(t, w.teamed, http.StatusOK)
	if perms["edit"] != true {
		t.Fatalf("cid has no edit through a: %v", perms)
	}
	w.get(t, w.guest, http.StatusNotFound)
	// The space moves: its list is rewritten, and one batch reads the tree.
	admin.Expect(http.StatusOK, "PATCH", "/v1/spaces/"+w.space, map[string]any{"parent": w.cols[1]})
	sp, _, err := records.Get[model.Space](w.k.Ctx, w.cs, keys.Space(w.space))
	if err != nil || fmt.Sprint(sp.Ancestors) != fmt.Sprint([]string{w.cols[1]}) {
		t.Fatalf("ancestors %v (%v), want [b]", sp.Ancestors, err)
	}
	if _, calls := w.get(t, w.guest, http.StatusOK); calls.Total() > maxGetSpaceRoundTrips {
		t.Errorf("%d round trips after the space moved", calls.Total())
	}
	c, _, err := records.Get[model.Collection](w.k.Ctx, w.cs, keys.Collection(w.cols[2]))
	if err != nil || fmt.Sprint(c.Ancestors) != fmt.Sprint(tree.Below(model.Collection{ID: w.cols[0]})) {
		t.Fatalf("c's ancestors %v (%v), want [a]", c.Ancestors, err)
	}
}

// BenchmarkGetDeepSpaceRoundTrips reports the storage round trips of GET
// /v1/spaces/{id} three collections down, as a reader in no team.
func BenchmarkGetDeepSpaceRoundTrips(b *testing.B) {
	w := newDeepWorld(b)
	c := apitest.New(b, w.api)
	c.Token = w.reader
	b.ReportAllocs()
	w.cs.Reset()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Expect(http.StatusOK, "GET", "/v1/spaces/"+w.space, nil)
	}
	b.StopTimer()
	b.ReportMetric(float64(w.cs.Calls().Total())/float64(b.N), "roundtrips/op")
}

// Records made before ancestors were kept read one batch per level.
func TestGetSpaceWithoutAncestorsReadsABatchPerLevel(t *testing.T) {
	w := newDeepWorld(t)
	ctx := w.k.Ctx
	sp, v, err := records.Get[model.Space](ctx, w.cs, keys.Space(w.space))
	if err != nil {
		t.Fatal(err)
	}
	sp.Ancestors = nil
	ops := []store.Op{store.PutIfVersion(spaces.Item(sp, v+1), v)}
	for _, id := range w.cols {
		c, cv, err := records.Get[model.Collection](ctx, w.cs, keys.Collection(id))
		if err != nil {
			t.Fatal(err)
		}
		c.Ancestors = nil
		ops = append(ops, store.PutIfVersion(tree.CollectionItem(c, cv+1), cv))
	}
	if err := w.cs.Write(ctx, ops...); err != nil {
		t.Fatal(err)
	}
	perms, calls := w.get(t, w.guest, http.StatusOK)
	if perms["view"] != true {
		t.Fatalf("gil lost the grant on b: %v", perms)
	}
	if calls.Total() != 2+int64(len(w.cols)) {
		t.Errorf("%d round trips (%+v), want the token, the space and a batch per level", calls.Total(), calls)
	}
}
