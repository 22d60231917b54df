// Package grants is the permissions family: who is given which level on a
// space, a collection or a site (GitBook's space, collection and site
// permissions). It
// drives the one permission model of package access, which owns the grant
// records and decides every call with them (docs/permissions.md): a grant
// written here applies to the next decision on the content, in reads,
// lists, search, the reader and MCP alike.
//
// Every operation needs admin on the content (Viewer level; on a site, the
// caller's level on it, access.SiteNode). Users granted
// must be members of the organization (guests included: a grant is how a
// guest reaches content); teams must be the organization's.
package grants

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/store"
)

// Spaces loads a space for the caller (spaces.Service).
type Spaces interface {
	Live(ctx context.Context, spaceID string, op access.OrgOp) (model.Space, model.Role, error)
}

// Collections loads a collection for the caller (collections.Service).
type Collections interface {
	Require(ctx context.Context, id string, op access.OrgOp) (model.Collection, model.Role, error)
}

// Sites loads a site of an organization for the caller (sites.Service).
type Sites interface {
	Require(ctx context.Context, orgID, siteID string, op access.OrgOp) (model.Site, model.Role, error)
}

// Recorder records the changes of grants in the organization's audit log
// (package audit): Op is the event's write for the change's transaction.
type Recorder interface {
	Op(ctx context.Context, ch model.AuditChange) store.Op
}

// Service manages the grants of spaces, collections and sites.
type Service struct {
	d      *deps.Deps
	spaces Spaces
	cols   Collections
	sites  Sites
	audit  Recorder
}

// New returns the grants service; rec records its changes.
func New(d *deps.Deps, sp Spaces, cols Collections, sites Sites, rec Recorder) *Service {
	return &Service{d: d, spaces: sp, cols: cols, sites: sites, audit: rec}
}

// change describes a change of grants on n for the audit log; action is
// one of the space's (the collection's and the site's are chosen from it).
func change(n access.Node, action string, payload map[string]any) model.AuditChange {
	switch n.Kind {
	case model.KindCollection:
		action = map[string]string{model.AuditSpaceGranted: model.AuditCollGranted, model.AuditSpaceGrantUpdated: model.AuditCollGrantUpdated,
			model.AuditSpaceGrantRemoved: model.AuditCollGrantRemoved}[action]
	case model.KindSite:
		action = map[string]string{model.AuditSpaceGranted: model.AuditSiteGranted, model.AuditSpaceGrantUpdated: model.AuditSiteGrantUpdated,
			model.AuditSpaceGrantRemoved: model.AuditSiteGrantRemoved}[action]
	}
	return model.AuditChange{OrgID: n.OrgID, Action: action, Target: model.AuditRef{Type: n.Kind, ID: n.ID}, Payload: payload}
}

// maxInvited bounds the users and teams of one invitation.
const maxInvited = 100

// Content names a space, a collection or a site.
type Content struct {
	Kind string // model.KindSpace, model.KindCollection or model.KindSite
	ID   string
	// OrgID is a site's organization (its paths name it).
	OrgID string
}

// node loads the content and requires admin on it of the caller.
func (s *Service) node(ctx context.Context, c Content) (access.Node, error) {
	switch c.Kind {
	case model.KindCollection:
		col, _, err := s.cols.Require(ctx, c.ID, access.AdminContent)
		return access.CollectionNode(col), err
	case model.KindSite:
		site, _, err := s.sites.Require(ctx, c.OrgID, c.ID, access.AdminContent)
		return access.SiteNode(site.OrgID, site.ID), err
	}
	sp, _, err := s.spaces.Live(ctx, c.ID, access.AdminContent)
	return access.SpaceNode(sp), err
}

// Invite gives users and teams a role on the content, replacing their
// earlier grants there. Invalid, naming the field: no role, no one named,
// a user who is no member of the organization, a team not of it.
func (s *Service) Invite(ctx context.Context, c Content, role model.Role, users, teams []string) error {
	n, err := s.node(ctx, c)
	if err != nil {
		return err
	}
	if role == model.RoleGuest || !role.Valid() {
		return apperr.Field("role", "must be one of admin, create, review, edit, comment, read")
	}
	if len(users) == 0 && len(teams) == 0 {
		return apperr.Field("users", "name at least one user or team")
	}
	if len(users)+len(teams) > maxInvited {
		return apperr.Field("users", "at most %d users and teams at once", maxInvited)
	}
	ms, err := orgs.ReadMembers(ctx, s.d.Store, n.OrgID, users)
	if err != nil {
		return err
	}
	found := map[string]bool{}
	for _, m := range ms {
		found[m.UserID] = true
	}
	for i, u := range users {
		if !found[u] {
			return apperr.Field(fmt.Sprintf("users[%d]", i), "%q is not a member of this organization", u)
		}
	}
	for i, t := range teams {
		if _, _, err := orgs.ReadTeam(ctx, s.d.Store, n.OrgID, t); apperr.Is(err, apperr.NotFound) {
			return apperr.Field(fmt.Sprintf("teams[%d]", i), "%q is not a team of this organization", t)
		} else if err != nil {
			return err
		}
	}
	now := s.d.Clock()
	// One grant a transaction: the last carries the audit event, so that
	// it is written when the whole invitation is (docs/audit.md).
	n0 := len(users) + len(teams)
	event := s.audit.Op(ctx, change(n, model.AuditSpaceGranted, map[string]any{"role": string(role), "users": users, "teams": teams}))
	give := func(i int, kind, id string) error {
		var also []store.Op
		if i == n0-1 {
			also = append(also, event)
		}
		return s.d.Authz.Grant(ctx, model.Grant{OrgID: n.OrgID, ContentKind: n.Kind, ContentID: n.ID, PrincipalKind: kind, PrincipalID: id, Role: role, CreatedAt: now}, also...)
	}
	for i, u := range users {
		if err := give(i, model.PrincipalUser, u); err != nil {
			return err
		}
	}
	for i, t := range teams {
		if err := give(len(users)+i, model.PrincipalTeam, t); err != nil {
			return err
		}
	}
	return nil
}

// Principal names a user or a team.
type Principal struct {
	Kind string // model.PrincipalUser or model.PrincipalTeam
	ID   string
}

// Update changes the role of a principal's grant on the content: NotFound
// when they have none there.
func (s *Service) Update(ctx context.Context, c Content, p Principal, role model.Role) error {
	n, err := s.node(ctx, c)
	if err != nil {
		return err
	}
	if role == model.RoleGuest || !role.Valid() {
		return apperr.Field("role", "must be one of admin, create, review, edit, comment, read")
	}
	g, ok, err := s.grantOf(ctx, n, p)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFoundf("%s %s has no permission on %s %s", p.Kind, p.ID, n.Kind, n.ID)
	}
	g.Role = role
	return s.d.Authz.Grant(ctx, g, s.audit.Op(ctx, change(n, model.AuditSpaceGrantUpdated, map[string]any{p.Kind: p.ID, "role": string(role)})))
}

// Remove takes a principal's grant on the content away; removed is false
// when there was none.
func (s *Service) Remove(ctx context.Context, c Content, p Principal) (removed bool, err error) {
	n, err := s.node(ctx, c)
	if err != nil {
		return false, err
	}
	g, ok, err := s.grantOf(ctx, n, p)
	if err != nil || !ok {
		return false, err
	}
	return true, s.d.Authz.Revoke(ctx, g, s.audit.Op(ctx, change(n, model.AuditSpaceGrantRemoved, map[string]any{p.Kind: p.ID})))
}

// grantOf finds a principal's grant on n.
func (s *Service) grantOf(ctx context.Context, n access.Node, p Principal) (model.Grant, bool, error) {
	gs, err := s.d.Authz.GrantsOn(ctx, n.Kind, n.ID)
	if err != nil {
		return model.Grant{}, false, err
	}
	for _, g := range gs {
		if g.PrincipalKind == p.Kind && g.PrincipalID == p.ID {
			return g, true, nil
		}
	}
	return model.Grant{}, false, nil
}

// grantsOn loads the content (admin) and reads the grants on it.
func (s *Service) grantsOn(ctx context.Context, c Content) (access.Node, []model.Grant, error) {
	n, err := s.node(ctx, c)
	if err != nil {
		return n, nil, err
	}
	gs, err := s.d.Authz.GrantsOn(ctx, n.Kind, n.ID)
	return n, gs, err
}

// UserGrant is a user's grant on content.
type UserGrant struct {
	User orgs.MemberWithUser
	Role model.Role
}

// ListUsers lists the users granted a role on the content itself, by
// user id.
func (s *Service) ListUsers(ctx context.Context, c Content, r paging.Request) (paging.Page[UserGrant], error) {
	return listGrants(ctx, s, c, r, model.PrincipalUser, "permissionUsers", func(n access.Node, gs []model.Grant) ([]UserGrant, error) {
		roles := make(map[string]model.Role, len(gs))
		ids := make([]string, len(gs))
		for i, g := range gs {
			roles[g.PrincipalID] = g.Role
			ids[i] = g.PrincipalID
		}
		mus, err := orgs.ReadMembersWithUsers(ctx, s.d.Store, n.OrgID, ids)
		if err != nil {
			return nil, err
		}
		list := make([]UserGrant, len(mus))
		for i, mu := range mus {
			list[i] = UserGrant{User: mu, Role: roles[mu.Member.UserID]}
		}
		return list, nil
	}, func(u UserGrant) string { return u.User.Member.UserID })
}

// TeamGrant is a team's grant on content.
type TeamGrant struct {
	Team orgs.TeamForCaller
	Role model.Role
}

// ListTeams lists the teams granted a role on the content itself, by team
// id.
func (s *Service) ListTeams(ctx context.Context, c Content, r paging.Request) (paging.Page[TeamGrant], error) {
	return listGrants(ctx, s, c, r, model.PrincipalTeam, "permissionTeams", func(n access.Node, gs []model.Grant) ([]TeamGrant, error) {
		v, err := s.d.Authz.ViewerIn(ctx, n.OrgID)
		if err != nil {
			return nil, err
		}
		list := []TeamGrant{}
		for _, g := range gs {
			t, _, err := orgs.ReadTeam(ctx, s.d.Store, n.OrgID, g.PrincipalID)
			if apperr.Is(err, apperr.NotFound) {
				continue // a team deleted since: its grant reaches no one
			}
			if err != nil {
				return nil, err
			}
			list = append(list, TeamGrant{Team: orgs.TeamForCaller{Team: t, Viewer: v.Role()}, Role: g.Role})
		}
		return list, nil
	}, func(t TeamGrant) string { return t.Team.Team.ID })
}

// listGrants is a page (cursor scope name) of the grants on the content
// itself to principals of one kind, which view turns into the items of
// the page, ordered by key.
func listGrants[T any](ctx context.Context, s *Service, c Content, r paging.Request, kind, name string,
	view func(access.Node, []model.Grant) ([]T, error), key func(T) string) (paging.Page[T], error) {
	n, all, err := s.grantsOn(ctx, c)
	if err != nil {
		return paging.Page[T]{}, err
	}
	var gs []model.Grant
	for _, g := range all {
		if g.PrincipalKind == kind {
			gs = append(gs, g)
		}
	}
	list, err := view(n, gs)
	if err != nil {
		return paging.Page[T]{}, err
	}
	return window(s.d, name, n, r, list, key, false)
}

// Reach is a member who reaches the content, their level and its sources.
type Reach struct {
	User  orgs.MemberWithUser
	Level model.Role
	// Sources are every way they reach it (access.Source), the
	// organization role and default levels first, then grants from the
	// content up.
	Sources []access.Source
}

// Origin is the first of the sources that gives the level.
func (r Reach) Origin() access.Source {
	for _, s := range r.Sources {
		if s.Role == r.Level {
			return s
		}
	}
	return access.Source{Kind: access.SourceOrganization, Role: r.Level}
}

// AggregateFilter selects and orders the members of Aggregate.
type AggregateFilter struct {
	// Role keeps those whose level is that role; orgs.RoleFilterGuest
	// keeps the organization's guests (who reach it through grants only).
	Role string
	// Search keeps those whose display name or email contains it,
	// ignoring case; Team, the members of that team.
	Search, Team string
	// Sort, when set, orders by orgs.MemberSortKey (else by user id);
	// Desc reverses the order.
	Sort string
	Desc bool
}

func (f AggregateFilter) keep(mu orgs.MemberWithUser, level model.Role) bool {
	switch {
	case f.Role == orgs.RoleFilterGuest && mu.Member.Role != model.RoleGuest:
		return false
	case f.Role != "" && f.Role != orgs.RoleFilterGuest && model.Role(f.Role) != level:
		return false
	case f.Team != "" && !slices.Contains(mu.Member.TeamIDs, f.Team):
		return false
	}
	q := strings.ToLower(f.Search)
	return q == "" || strings.Contains(strings.ToLower(mu.User.DisplayName), q) || strings.Contains(strings.ToLower(mu.User.Email), q)
}

// Aggregate lists every member who reaches the content, once each, with
// their level and every source of it (organization role, default level,
// grants to them, grants to their teams, on the content or a collection
// above it), selected and ordered by f.
func (s *Service) Aggregate(ctx context.Context, c Content, f AggregateFilter, r paging.Request) (paging.Page[Reach], error) {
	n, err := s.node(ctx, c)
	if err != nil {
		return paging.Page[Reach]{}, err
	}
	mus, err := orgs.ReadMembersWithUsers(ctx, s.d.Store, n.OrgID, nil)
	if err != nil {
		return paging.Page[Reach]{}, err
	}
	ms := make([]model.Member, len(mus))
	byID := map[string]orgs.MemberWithUser{}
	for i, mu := range mus {
		ms[i] = mu.Member
		byID[mu.Member.UserID] = mu
	}
	reach, err := s.d.Authz.Reach(ctx, n, ms)
	if err != nil {
		return paging.Page[Reach]{}, err
	}
	list := []Reach{}
	for _, rc := range reach {
		if mu := byID[rc.Member.UserID]; f.keep(mu, rc.Level) {
			list = append(list, Reach{User: mu, Level: rc.Level, Sources: rc.Sources})
		}
	}
	key := func(rc Reach) string { return rc.User.Member.UserID }
	if f.Sort != "" {
		byMember := orgs.MemberSortKey(f.Sort)
		key = func(rc Reach) string { return byMember(rc.User) }
	}
	name := fmt.Sprintf("permissionAggregate role=%s search=%s team=%s sort=%s desc=%t", f.Role, f.Search, f.Team, f.Sort, f.Desc)
	return window(s.d, name, n, r, list, key, f.Desc)
}

// window pages a list of a content's grants by key (descending with desc).
func window[T any](d *deps.Deps, name string, n access.Node, r paging.Request, list []T, key func(T) string, desc bool) (paging.Page[T], error) {
	slices.SortFunc(list, func(a, b T) int {
		if desc {
			return strings.Compare(key(b), key(a))
		}
		return strings.Compare(key(a), key(b))
	})
	return paging.Window(d.Cursors, paging.Scope(name, n.Kind+"#"+n.ID), r, list, key, desc)
}
