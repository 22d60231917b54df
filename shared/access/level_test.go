package access_test

import (
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/tree"
)

// tree of the level tests:
//
//	top (inherit)
//	  capped (read)
//	    under-capped (inherit)      space s-capped
//	    raised (edit)               space s-raised
//	  private (guest)               space s-private
//	space s-top (inherit), space s-granted (inherit)
type levelWorld struct {
	k     *testkit.Kit
	org   string
	users map[string]string // name -> user id
}

func seedLevels(t *testing.T) *levelWorld {
	k := testkit.New(t)
	w := &levelWorld{k: k, users: map[string]string{}}
	members := map[string]model.Role{}
	for name, role := range map[string]model.Role{"ada": model.RoleAdmin, "eve": model.RoleEdit, "rob": model.RoleRead,
		"cid": model.RoleComment, "gil": model.RoleGuest, "dan": model.RoleEdit} {
		u, _ := k.User(name)
		w.users[name] = u.ID
		members[u.ID] = role
	}
	o := k.Org("Levels", members)
	w.org = o.ID
	put := func(it store.Item) {
		t.Helper()
		if err := k.Deps.Store.Write(k.Ctx, store.Put(it, store.Always)); err != nil {
			t.Fatal(err)
		}
	}
	col := func(id, parent, level string) {
		put(tree.CollectionItem(model.Collection{ID: id, OrgID: o.ID, Title: id, Parent: parent, DefaultLevel: level, Position: "a0", Path: id}, 1))
	}
	col("top", "", model.LevelInherit)
	col("capped", "top", string(model.RoleRead))
	col("under-capped", "capped", model.LevelInherit)
	col("raised", "capped", string(model.RoleEdit))
	col("private", "top", string(model.RoleGuest))
	for id, parent := range map[string]string{"s-capped": "under-capped", "s-raised": "raised", "s-private": "private", "s-top": "", "s-granted": ""} {
		put(records.Item(keys.Space(id), model.Space{ID: id, OrgID: o.ID, Parent: parent, DefaultLevel: model.LevelInherit}, 1))
	}
	// dan disabled; cid in team "t1".
	dan := model.Member{OrgID: o.ID, UserID: w.users["dan"], Role: model.RoleEdit, Disabled: true}
	put(records.Item(keys.Member(o.ID, dan.UserID), dan, 2))
	put(records.Item(keys.Team(o.ID, "t1"), model.Team{OrgID: o.ID, ID: "t1", Title: "Writers", Members: 1}, 1))
	tm := records.Item(keys.TeamMember(o.ID, "t1", w.users["cid"]), model.TeamMembership{OrgID: o.ID, TeamID: "t1", UserID: w.users["cid"], Role: model.TeamMember}, 1)
	ik := keys.TeamMemberByUser(o.ID, w.users["cid"], "t1")
	tm.GSI1PK, tm.GSI1SK = ik.PK, ik.SK
	put(tm)
	grant := func(kind, id, pkind, pid string, role model.Role) {
		t.Helper()
		err := k.Deps.Authz.Grant(k.Ctx, model.Grant{OrgID: o.ID, ContentKind: kind, ContentID: id, PrincipalKind: pkind, PrincipalID: pid, Role: role, CreatedAt: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
	}
	grant(model.KindSpace, "s-granted", model.PrincipalUser, w.users["gil"], model.RoleRead)
	grant(model.KindCollection, "capped", model.PrincipalUser, w.users["rob"], model.RoleAdmin)
	grant(model.KindCollection, "private", model.PrincipalTeam, "t1", model.RoleEdit)
	return w
}

func (w *levelWorld) level(t *testing.T, user, spaceID string) model.Role {
	t.Helper()
	v, err := w.k.Deps.Authz.Viewer(w.k.Ctx, access.Caller{UserID: w.users[user]}, w.org)
	if err != nil {
		if user == "dan" {
			return "(invisible)"
		}
		t.Fatal(err)
	}
	sp, _, err := records.Get[model.Space](w.k.Ctx, w.k.Deps.Store, keys.Space(spaceID))
	if err != nil {
		t.Fatal(err)
	}
	l, err := v.Level(w.k.Ctx, access.SpaceNode(sp))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLevels(t *testing.T) {
	w := seedLevels(t)
	for _, tc := range []struct {
		name, user, space string
		want              model.Role
	}{
		{"EditorInheritsOrgRoleAtTheTop", "eve", "s-top", model.RoleEdit},
		{"NearestLevelCapsAnEditorBelowIt", "eve", "s-capped", model.RoleRead},
		{"NearestLevelRaisesACommenterBelowIt", "cid", "s-raised", model.RoleEdit},
		{"GrantBeatsALowerDefaultLevel", "rob", "s-raised", model.RoleAdmin},
		{"NearerLevelWinsOverFartherOne", "eve", "s-raised", model.RoleEdit},
		{"GuestLevelHidesContentFromMembers", "eve", "s-private", ""},
		{"TeamGrantOnAncestorReachesTeamMembers", "cid", "s-private", model.RoleEdit},
		{"UserGrantOnAncestorLiftsLevel", "rob", "s-capped", model.RoleAdmin},
		{"AdminsAdministerGuestLevelContent", "ada", "s-private", model.RoleAdmin},
		{"GuestsReachNothingUngranted", "gil", "s-top", ""},
		{"GuestsReachWhatIsGrantedToThem", "gil", "s-granted", model.RoleRead},
		{"DisabledMembersDoNotSeeTheOrganization", "dan", "s-top", "(invisible)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := w.level(t, tc.user, tc.space); got != tc.want {
				t.Fatalf("level %q, want %q", got, tc.want)
			}
		})
	}
}

func TestGrantsCountSpacesOfMembersAndTeams(t *testing.T) {
	w := seedLevels(t)
	m, _, err := records.Get[model.Member](w.k.Ctx, w.k.Deps.Store, keys.Member(w.org, w.users["gil"]))
	if err != nil || m.Spaces != 1 {
		t.Fatalf("gil's spaces = %d (%v), want 1 (one space grant)", m.Spaces, err)
	}
	g := model.Grant{OrgID: w.org, ContentKind: model.KindSpace, ContentID: "s-granted", PrincipalKind: model.PrincipalUser, PrincipalID: w.users["gil"], Role: model.RoleEdit}
	if err := w.k.Deps.Authz.Grant(w.k.Ctx, g); err != nil {
		t.Fatal(err)
	}
	if m, _, _ = records.Get[model.Member](w.k.Ctx, w.k.Deps.Store, keys.Member(w.org, w.users["gil"])); m.Spaces != 1 {
		t.Fatalf("replacing a grant counted it again: %d", m.Spaces)
	}
	if got := w.level(t, "gil", "s-granted"); got != model.RoleEdit {
		t.Fatalf("after the new grant: %q", got)
	}
	if err := w.k.Deps.Authz.Revoke(w.k.Ctx, g); err != nil {
		t.Fatal(err)
	}
	if m, _, _ = records.Get[model.Member](w.k.Ctx, w.k.Deps.Store, keys.Member(w.org, w.users["gil"])); m.Spaces != 0 {
		t.Fatalf("after revoking: spaces = %d", m.Spaces)
	}
	if got := w.level(t, "gil", "s-granted"); got != "" {
		t.Fatalf("after revoking: %q", got)
	}
	g.ContentID = "nope"
	if err := w.k.Deps.Authz.Grant(w.k.Ctx, g); err == nil {
		t.Fatal("a grant on a missing space was accepted")
	}
}
