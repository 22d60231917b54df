package access_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

// TestRequireOrg checks the one entry point of organization decisions: its
// answers (kind and message) for each kind of caller, and its two options.
func TestRequireOrg(t *testing.T) {
	w := seedLevels(t)
	outsider, _ := w.k.User("otto")
	as := func(userID string) context.Context {
		return access.WithCaller(w.k.Ctx, access.Caller{UserID: userID})
	}
	notFound := fmt.Sprintf("organization %s not found", w.org)
	forbidden := func(op access.OrgOp) string {
		return fmt.Sprintf("your role in this organization does not allow this (%s)", op)
	}
	cases := []struct {
		name string
		ctx  context.Context
		op   access.OrgOp
		opts []access.OrgOption
		kind apperr.Kind // "" when allowed
		msg  string
		role model.Role
	}{
		{name: "no caller", ctx: w.k.Ctx, op: access.ViewOrg, kind: apperr.Unauthorized, msg: "authentication required"},
		{name: "outsider", ctx: as(outsider.ID), op: access.ViewOrg, kind: apperr.NotFound, msg: notFound},
		{name: "disabled member", ctx: as(w.users["dan"]), op: access.ViewOrg, kind: apperr.NotFound, msg: notFound},
		{name: "scoped to another organization", ctx: access.WithCaller(w.k.Ctx, access.Caller{UserID: w.users["ada"], OrgID: "elsewhere"}), op: access.ViewOrg, kind: apperr.NotFound, msg: notFound},
		{name: "admin administers", ctx: as(w.users["ada"]), op: access.AdminOrg, role: model.RoleAdmin},
		{name: "reader lists members", ctx: as(w.users["rob"]), op: access.ListMembers, role: model.RoleRead},
		{name: "reader may not administer", ctx: as(w.users["rob"]), op: access.AdminOrg, kind: apperr.Forbidden, msg: forbidden(access.AdminOrg)},
		{name: "guest views", ctx: as(w.users["gil"]), op: access.ViewOrg, role: model.RoleGuest},
		{name: "guest may not list members", ctx: as(w.users["gil"]), op: access.ListMembers, kind: apperr.Forbidden, msg: forbidden(access.ListMembers)},
		{name: "guest acts on themself", ctx: as(w.users["gil"]), op: access.ListMembers, opts: []access.OrgOption{access.OrSelf(w.users["gil"])}, role: model.RoleGuest},
		{name: "guest on someone else", ctx: as(w.users["gil"]), op: access.ListMembers, opts: []access.OrgOption{access.OrSelf(w.users["rob"])}, kind: apperr.Forbidden, msg: forbidden(access.ListMembers)},
		{name: "hidden from a guest", ctx: as(w.users["gil"]), op: access.ReadContent, opts: []access.OrgOption{access.Hidden(access.ReadContent, "site", "s1")}, kind: apperr.NotFound, msg: "site s1 not found"},
		{name: "seen but not allowed", ctx: as(w.users["rob"]), op: access.AdminOrg, opts: []access.OrgOption{access.Hidden(access.ReadContent, "site", "s1")}, kind: apperr.Forbidden, msg: forbidden(access.AdminOrg)},
		{name: "seen and allowed", ctx: as(w.users["eve"]), op: access.EditContent, opts: []access.OrgOption{access.Hidden(access.ReadContent, "site", "s1")}, role: model.RoleEdit},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			acc, err := w.k.Deps.Authz.RequireOrg(tc.ctx, w.org, tc.op, tc.opts...)
			if tc.kind != "" {
				if !apperr.Is(err, tc.kind) || err.Error() != tc.msg {
					t.Fatalf("err = %v (%s), want %s %q", err, apperr.KindOf(err), tc.kind, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			c, _ := access.CallerFrom(tc.ctx)
			if acc.Role() != tc.role || acc.UserID != c.UserID || acc.Member.UserID != c.UserID || acc.Member.OrgID != w.org || acc.Version == 0 {
				t.Fatalf("got %+v, want role %q of %s", acc, tc.role, c.UserID)
			}
		})
	}
}

// Permissions: the roles' least role, OrSelf and OrAuthor, and what is
// not a permission.
func TestPermissions(t *testing.T) {
	for _, c := range []struct {
		p          access.Permission
		valid, pub bool
		least      model.Role
		hasLeast   bool
	}{
		{access.Anyone, true, true, "", false},
		{access.SignedLink, true, true, "", false},
		{access.SignedIn, true, false, "", false},
		{access.Themself, true, false, "", false},
		{access.InstanceAdmin, true, false, "", false},
		{access.InstanceAdmin.OrSelf(), true, false, "", false},
		{access.Role(access.ViewOrg), true, false, model.RoleGuest, true},
		{access.Role(access.EditContent), true, false, model.RoleEdit, true},
		{access.Role(access.ListMembers).OrSelf(), true, false, model.RoleRead, true},
		{access.Role(access.AdminContent).OrAuthor(), true, false, model.RoleAdmin, true},
		{"", false, false, "", false},
		{"edit contents", false, false, "", false},
		{access.SignedIn.OrSelf(), false, false, "", false},
		{access.InstanceAdmin.OrAuthor(), false, false, "", false},
	} {
		least, ok := c.p.Least()
		if c.p.Valid() != c.valid || c.p.Public() != c.pub || least != c.least || ok != c.hasLeast {
			t.Errorf("%q: valid %v public %v least %q,%v; want %v %v %q,%v", c.p, c.p.Valid(), c.p.Public(), least, ok, c.valid, c.pub, c.least, c.hasLeast)
		}
	}
}
