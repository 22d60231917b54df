package access

import (
	"context"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// maxDepth bounds the walk up a tree of collections; deeper trees cannot be
// made (see package collections), so reaching it means a corrupt tree.
const maxDepth = 64

// Node is a space, a collection or a site as the permission model sees it.
type Node struct {
	Kind         string // model.KindSpace, model.KindCollection or model.KindSite
	ID           string
	OrgID        string
	Parent       string // the parent collection, "" at the top level
	DefaultLevel string // a role, "" (guest) or model.LevelInherit
	// Ancestors, when known, are the collections above the node from the
	// top (its record's hint): ViewerOn reads them in one batch. The walk
	// up the tree follows each collection's own Parent, never this list.
	Ancestors []string
}

// SpaceNode is the node of a space.
func SpaceNode(sp model.Space) Node {
	return Node{Kind: model.KindSpace, ID: sp.ID, OrgID: sp.OrgID, Parent: sp.Parent, DefaultLevel: sp.DefaultLevel, Ancestors: sp.Ancestors}
}

// CollectionNode is the node of a collection.
func CollectionNode(c model.Collection) Node {
	return Node{Kind: model.KindCollection, ID: c.ID, OrgID: c.OrgID, Parent: c.Parent, DefaultLevel: c.DefaultLevel, Ancestors: c.Ancestors}
}

// SiteNode is the node of a site of orgID: no parent, and a default level
// that inherits, so that a member's level on it is the best of their
// organization role and the grants to them and their teams on the site;
// a guest's, the grants alone. Grants on a site reach the site only, not
// the spaces it shows (docs/permissions.md). Deciding needs no read of
// the site: grants of another organization's site do not count (their
// records name that organization), and the site's service checks that the
// site it reads is orgID's.
func SiteNode(orgID, siteID string) Node {
	return Node{Kind: model.KindSite, ID: siteID, OrgID: orgID, DefaultLevel: model.LevelInherit}
}

// Viewer decides what one caller may do on the content of one organization.
// It reads what it needs once (membership, then on demand the caller's
// grants and the collections above the content) and serves one request.
//
// The level of a caller on a space or collection (docs/permissions.md):
//   - organization admins: admin, everywhere;
//   - other members: the first defaultLevel that is not "inherit", walking
//     up from the content through its collections; their organization role
//     when every level up to the top inherits; nothing when that level is
//     guest (null);
//   - guests: nothing of their own;
//   - then the best explicit grant, to the user or to one of their teams, on
//     the content or any collection above it, when it is higher.
type Viewer struct {
	a      *Authorizer
	caller Caller
	m      Membership
	// grants maps "<kind>:<id>" to the best role granted there, read from
	// the caller's and their teams' lists of grants; nil until read.
	grants map[string]model.Role
	// direct holds the same for the content ViewerOn read grants on by key
	// (every grant to the caller and their teams there): a node found here
	// needs no read of the lists.
	direct map[string]model.Role
	cols   map[string]model.Collection
}

// Viewer returns the caller's viewer of orgID's content; outsiders get
// NotFound (the organization is invisible to them).
func (a *Authorizer) Viewer(ctx context.Context, c Caller, orgID string) (*Viewer, error) {
	m, err := a.Membership(ctx, c, orgID)
	if err != nil {
		return nil, err
	}
	return &Viewer{a: a, caller: c, m: m, cols: map[string]model.Collection{}}, nil
}

// ViewerIn is Viewer for the caller of ctx (Unauthorized without one): the
// entry point of decisions on an organization's content, as RequireOrg is
// of those on the organization.
func (a *Authorizer) ViewerIn(ctx context.Context, orgID string) (*Viewer, error) {
	c, err := CallerFrom(ctx)
	if err != nil {
		return nil, err
	}
	return a.Viewer(ctx, c, orgID)
}

// ViewerOf returns the viewer of a member other than the caller (to list
// what they may reach); a disabled member reaches nothing.
func (a *Authorizer) ViewerOf(m model.Member) *Viewer {
	return &Viewer{a: a, caller: Caller{UserID: m.UserID}, m: Membership{Member: m}, cols: map[string]model.Collection{}}
}

// Caller is the caller the viewer decides for.
func (v *Viewer) Caller() Caller { return v.caller }

// Membership is the viewer's membership of the organization.
func (v *Viewer) Membership() Membership { return v.m }

// Role is the viewer's organization role ("" for a guest).
func (v *Viewer) Role() model.Role { return v.m.Role() }

// OrgID is the organization the viewer looks at.
func (v *Viewer) OrgID() string { return v.m.Member.OrgID }

// Remember caches a collection the caller has just read, so that walks up
// the tree do not read it again.
func (v *Viewer) Remember(c model.Collection) { v.remember(c) }

func (v *Viewer) remember(c model.Collection) {
	if v.cols == nil {
		v.cols = map[string]model.Collection{}
	}
	v.cols[c.ID] = c
}

// Level returns the viewer's level on n: a role, or "" for no access.
func (v *Viewer) Level(ctx context.Context, n Node) (model.Role, error) {
	if v.m.Member.Disabled || n.OrgID != v.OrgID() {
		return "", nil
	}
	role := v.m.Role()
	if role == model.RoleAdmin {
		return model.RoleAdmin, nil
	}
	var best model.Role
	base, decided := model.Role(""), false
	for depth := 0; ; depth++ {
		g, err := v.grant(ctx, n.Kind, n.ID)
		if err != nil {
			return "", err
		}
		if g.AtLeast(best) {
			best = g
		}
		if !decided && n.DefaultLevel != model.LevelInherit {
			base, decided = model.Role(n.DefaultLevel), true
		}
		if n.Parent == "" {
			break
		}
		if depth >= maxDepth {
			return "", fmt.Errorf("collections nested deeper than %d above %s %s", maxDepth, n.Kind, n.ID)
		}
		c, err := v.collection(ctx, n.Parent)
		if apperr.Is(err, apperr.NotFound) || (err == nil && c.OrgID != n.OrgID) {
			// Only a deleted space remembers a parent that is gone (or was
			// transferred): it restores to the top level, and is judged so.
			break
		}
		if err != nil {
			return "", err
		}
		n = CollectionNode(c)
	}
	if !decided {
		base = role
	}
	if role == model.RoleGuest || !base.Valid() {
		base = ""
	}
	if best.AtLeast(base) {
		return best, nil
	}
	return base, nil
}

// CreateLevel is the viewer's level for creating content in parentID: its
// level on that collection, or at the top level their organization role.
func (v *Viewer) CreateLevel(ctx context.Context, parentID string) (model.Role, error) {
	if parentID == "" {
		if v.m.Member.Disabled {
			return "", nil
		}
		return v.m.Role(), nil
	}
	c, err := v.collection(ctx, parentID)
	if err != nil {
		return "", err
	}
	return v.Level(ctx, CollectionNode(c))
}

// Require returns the viewer's level on n if it allows op. Content the
// viewer may not read is NotFound (invisible); readable content on which
// op is not allowed is Forbidden.
func (v *Viewer) Require(ctx context.Context, n Node, op OrgOp) (model.Role, error) {
	level, err := v.Level(ctx, n)
	if err != nil {
		return "", err
	}
	if !Allowed(level, ReadContent) {
		return "", apperr.NotFoundf("%s %s not found", n.Kind, n.ID)
	}
	if !Allowed(level, op) {
		return level, apperr.Forbiddenf("your access to this %s does not allow this (%s)", n.Kind, op)
	}
	return level, nil
}

// collection reads a collection of the viewer's organization, once per viewer.
func (v *Viewer) collection(ctx context.Context, id string) (model.Collection, error) {
	if c, ok := v.cols[id]; ok {
		return c, nil
	}
	c, _, err := records.Get[model.Collection](ctx, v.a.store, keys.Collection(id))
	if errors.Is(err, store.ErrNotFound) {
		return c, apperr.NotFoundf("collection %s not found", id)
	}
	if err != nil {
		return c, fmt.Errorf("read collection: %w", err)
	}
	v.remember(c)
	return c, nil
}

// grant is the best role granted to the viewer or their teams on one node.
func (v *Viewer) grant(ctx context.Context, kind, id string) (model.Role, error) {
	k := kind + ":" + id
	if v.grants == nil {
		if g, ok := v.direct[k]; ok {
			return g, nil
		}
		if err := v.loadGrants(ctx); err != nil {
			return "", err
		}
	}
	return v.grants[k], nil
}

// loadGrants reads the grants of the viewer and of their teams, once.
func (v *Viewer) loadGrants(ctx context.Context) error {
	if v.grants != nil {
		return nil
	}
	org, uid := v.OrgID(), v.caller.UserID
	grants := map[string]model.Role{}
	add := func(pk string) error {
		gs, err := queryAll[model.Grant](ctx, v.a.store, store.Query{Index: store.GSI1, PK: pk}, "grants")
		if err != nil {
			return err
		}
		for _, g := range gs {
			k := g.ContentKind + ":" + g.ContentID
			if g.Role.AtLeast(grants[k]) {
				grants[k] = g.Role
			}
		}
		return nil
	}
	if err := add(keys.PrincipalGrants(org, model.PrincipalUser, uid)); err != nil {
		return err
	}
	tms, err := v.a.memberTeams(ctx, org, uid)
	if err != nil {
		return err
	}
	for _, tm := range tms {
		if err := add(keys.PrincipalGrants(org, model.PrincipalTeam, tm.TeamID)); err != nil {
			return err
		}
	}
	v.grants = grants
	return nil
}

// CollectionPermissions is the `permissions` object of a collection.
type CollectionPermissions struct {
	View            bool `json:"view"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Create          bool `json:"create"`
}

// ForCollection computes a collection's permissions for a level on it.
func ForCollection(level model.Role) CollectionPermissions {
	return CollectionPermissions{
		View:            Allowed(level, ReadContent),
		Admin:           Allowed(level, AdminContent),
		ViewInviteLinks: Allowed(level, AdminContent),
		Create:          Allowed(level, CreateContent),
	}
}

// RequireOn is the one entry point of a decision on one space or
// collection n (its record just read): it reads the caller of ctx
// (Unauthorized without one) and their viewer of n (ViewerOn), and answers
// the viewer and the caller's level on n if it allows op. An outsider, and
// a member who may not read n, get NotFound ("<kind> <id> not found");
// a reader whose level does not allow op gets Forbidden (Viewer.Require).
func (a *Authorizer) RequireOn(ctx context.Context, n Node, op OrgOp) (*Viewer, model.Role, error) {
	c, err := CallerFrom(ctx)
	if err != nil {
		return nil, "", err
	}
	v, err := a.ViewerOn(ctx, c, n)
	if apperr.Is(err, apperr.NotFound) {
		return nil, "", apperr.NotFoundf("%s %s not found", n.Kind, n.ID)
	}
	if err != nil {
		return nil, "", err
	}
	level, err := v.Require(ctx, n, op)
	if err != nil {
		return nil, "", err
	}
	return v, level, nil
}

// GrantItem is the stored item of a grant: under its content, and in the
// list of its user's or team's grants.
func GrantItem(g model.Grant) store.Item {
	it := records.Item(keys.Grant(g.ContentKind, g.ContentID, g.PrincipalKind, g.PrincipalID), g, 1)
	ik := keys.GrantByPrincipal(g.OrgID, g.PrincipalKind, g.PrincipalID, g.ContentKind, g.ContentID)
	it.GSI1PK, it.GSI1SK = ik.PK, ik.SK
	return it
}

// principalKey is the record that counts a principal's space grants.
func principalKey(orgID, kind, id string) keys.Key {
	if kind == model.PrincipalTeam {
		return keys.Team(orgID, id)
	}
	return keys.Member(orgID, id)
}

// Grant gives a user or a team a level on a space or a collection (and so
// on everything inside it) or on a site, replacing the principal's earlier
// grant there. Grants on spaces are counted in the member's or team's
// `spaces`. The permissions operations (package grants) call it; also are
// written in the same transaction (the change's audit event).
func (a *Authorizer) Grant(ctx context.Context, g model.Grant, also ...store.Op) error {
	if g.Role == model.RoleGuest || !g.Role.Valid() {
		return apperr.Field("role", "a grant needs a role")
	}
	gk := keys.Grant(g.ContentKind, g.ContentID, g.PrincipalKind, g.PrincipalID)
	_, err := a.store.Get(ctx, gk.PK, gk.SK)
	existed := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("read grant: %w", err)
	}
	content := keys.Space(g.ContentID)
	switch g.ContentKind {
	case model.KindCollection:
		content = keys.Collection(g.ContentID)
	case model.KindSite:
		content = keys.Site(g.ContentID)
	}
	// Checked first as well as in the transaction: a failed check there
	// reads as a conflict, which store.Update would retry.
	if _, err := a.store.Get(ctx, content.PK, content.SK); errors.Is(err, store.ErrNotFound) {
		return apperr.NotFoundf("%s %s not found", g.ContentKind, g.ContentID)
	} else if err != nil {
		return fmt.Errorf("read %s: %w", g.ContentKind, err)
	}
	return a.countGrant(ctx, g, existed, 1, append([]store.Op{store.Put(GrantItem(g), store.Always), store.Check(content.PK, content.SK, store.IfExists, 0)}, also...)...)
}

// Revoke removes a principal's grant on a space, a collection or a site, if
// any (with also, in the same transaction).
func (a *Authorizer) Revoke(ctx context.Context, g model.Grant, also ...store.Op) error {
	gk := keys.Grant(g.ContentKind, g.ContentID, g.PrincipalKind, g.PrincipalID)
	if _, err := a.store.Get(ctx, gk.PK, gk.SK); errors.Is(err, store.ErrNotFound) {
		return nil
	} else if err != nil {
		return fmt.Errorf("read grant: %w", err)
	}
	return a.countGrant(ctx, g, false, -1, append([]store.Op{store.Delete(gk.PK, gk.SK, store.IfExists)}, also...)...)
}

// countGrant writes ops with the principal's record, whose space-grant
// counter moves by delta unless the grant is not on a space or already existed.
func (a *Authorizer) countGrant(ctx context.Context, g model.Grant, existed bool, delta int, ops ...store.Op) error {
	pk := principalKey(g.OrgID, g.PrincipalKind, g.PrincipalID)
	_, err := store.Update(ctx, a.store, pk.PK, pk.SK, func(old store.Item) (store.Item, []store.Op, error) {
		next := old
		if g.ContentKind == model.KindSpace && !existed {
			var err error
			if next.Data, err = bump(old, g.PrincipalKind, delta); err != nil {
				return store.Item{}, nil, err
			}
		}
		return next, ops, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return apperr.NotFoundf("%s %s not found", g.PrincipalKind, g.PrincipalID)
	}
	if errors.Is(err, store.ErrConflict) {
		return apperr.NotFoundf("%s %s not found", g.ContentKind, g.ContentID)
	}
	return err
}

// bump moves the `spaces` counter of a member's or team's record.
func bump(it store.Item, kind string, delta int) ([]byte, error) {
	if kind == model.PrincipalTeam {
		t, err := records.Decode[model.Team](it)
		if err != nil {
			return nil, err
		}
		t.Spaces = max(0, t.Spaces+delta)
		return records.Item(keys.Key{PK: it.PK, SK: it.SK}, t, 0).Data, nil
	}
	m, err := records.Decode[model.Member](it)
	if err != nil {
		return nil, err
	}
	m.Spaces = max(0, m.Spaces+delta)
	return records.Item(keys.Key{PK: it.PK, SK: it.SK}, m, 0).Data, nil
}

// DropGrantsOps returns the operations that remove grants (as GrantsOn
// read them) inside the caller's transaction, uncounting the space grants
// from their members' and teams' records in orgID, each guarded by the
// version read (a conflict, for the caller's store.Retry, if it moved).
func (a *Authorizer) DropGrantsOps(ctx context.Context, orgID string, grants []model.Grant) ([]store.Op, error) {
	counts := map[keys.Key]int{}
	kinds := map[keys.Key]string{}
	ops := make([]store.Op, 0, len(grants))
	for _, g := range grants {
		k := keys.Grant(g.ContentKind, g.ContentID, g.PrincipalKind, g.PrincipalID)
		ops = append(ops, store.Delete(k.PK, k.SK, store.Always))
		if g.ContentKind == model.KindSpace {
			pk := principalKey(orgID, g.PrincipalKind, g.PrincipalID)
			counts[pk]++
			kinds[pk] = g.PrincipalKind
		}
	}
	for k, n := range counts {
		it, err := a.store.Get(ctx, k.PK, k.SK)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read grantee: %w", err)
		}
		next := it
		if next.Data, err = bump(it, kinds[k], -n); err != nil {
			return nil, err
		}
		next.Version = it.Version + 1
		ops = append(ops, store.PutIfVersion(next, it.Version))
	}
	return ops, nil
}

// GrantsOn reads the grants on a space, a collection or a site (consistently).
func (a *Authorizer) GrantsOn(ctx context.Context, contentKind, contentID string) ([]model.Grant, error) {
	return queryAll[model.Grant](ctx, a.store, store.Query{PK: keys.ContentPartition(contentKind, contentID), SKPrefix: keys.GrantPrefix}, "grants")
}

// memberTeams reads a member's team memberships.
func (a *Authorizer) memberTeams(ctx context.Context, orgID, userID string) ([]model.TeamMembership, error) {
	return queryAll[model.TeamMembership](ctx, a.store, store.Query{Index: store.GSI1, PK: keys.MemberTeams(orgID, userID)}, "teams of member")
}

// queryAll reads every record q finds; what names them in a read's error.
func queryAll[T any](ctx context.Context, st store.Store, q store.Query, what string) ([]T, error) {
	items, err := store.QueryAll(ctx, st, q)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	return records.DecodeAll[T](items)
}
