package orgs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// MemberWithUser is a membership with its user.
type MemberWithUser struct {
	Member model.Member
	User   model.User
}

// Member list sorts and orders.
const (
	SortJoinedAt   = "joinedAt"
	SortLastSeenAt = "lastSeenAt"
	OrderAsc       = "asc"
	OrderDesc      = "desc"
	// RoleFilterGuest selects members without a role.
	RoleFilterGuest = "guest"
	// SortName sorts by display name, ignoring case (the site permissions
	// aggregate offers it; the list of members does not).
	SortName = "name"
)

// MemberFilter selects and orders a list of members.
type MemberFilter struct {
	// Role keeps members of that role; RoleFilterGuest keeps guests; ""
	// keeps everyone.
	Role string
	// Search keeps members whose display name or email contains it,
	// ignoring case.
	Search string
	// Sort is SortJoinedAt (default) or SortLastSeenAt, which lists only
	// members seen at least once.
	Sort string
	// Order is OrderDesc (default) or OrderAsc.
	Order string
}

// ListMembers lists an organization's members (read role and above).
//
// The unfiltered list by join date is read page by page from the index of
// members by join time (GSI2). Filters and the sort by last-seen time read
// every member of the organization (and, to search, their users) and select
// and sort in memory: organizations hold at most a few thousand members, and
// the store has no index on roles, names or last-seen times. Either way a
// page token is bound to the organization and to every filter, sort and
// order, so a token of one list is refused by another.
func (s *Service) ListMembers(ctx context.Context, orgID string, f MemberFilter, r paging.Request) (paging.Page[MemberWithUser], error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.ListMembers); err != nil {
		return paging.Page[MemberWithUser]{}, err
	}
	if f.Sort == "" {
		f.Sort = SortJoinedAt
	}
	if f.Order == "" {
		f.Order = OrderDesc
	}
	if f.Sort != SortJoinedAt && f.Sort != SortLastSeenAt {
		return paging.Page[MemberWithUser]{}, apperr.Field("sort", "must be joinedAt or lastSeenAt")
	}
	if f.Order != OrderAsc && f.Order != OrderDesc {
		return paging.Page[MemberWithUser]{}, apperr.Field("order", "must be asc or desc")
	}
	var roleFilter *model.Role
	if f.Role != "" {
		r := model.Role(f.Role)
		if f.Role == RoleFilterGuest {
			r = model.RoleGuest
		} else if r == model.RoleGuest || !r.Valid() {
			return paging.Page[MemberWithUser]{}, apperr.Field("role", "unknown role %q", f.Role)
		}
		roleFilter = &r
	}
	desc := f.Order == OrderDesc
	sc := paging.Scope("listMembers", keys.OrgPartition(orgID), "role="+f.Role, "search="+f.Search, "sort="+f.Sort, "order="+f.Order)

	if roleFilter == nil && f.Search == "" && f.Sort == SortJoinedAt {
		p, err := records.Page[model.Member](ctx, s.d.Store, s.d.Cursors, sc, store.Query{Index: store.GSI2, PK: keys.OrgMembers(orgID), Reverse: desc}, r, "members")
		if err != nil {
			return paging.Page[MemberWithUser]{}, err
		}
		out, err := s.withUsers(ctx, p.Items)
		return paging.Page[MemberWithUser]{Items: out, Next: p.Next}, err
	}

	ms, err := s.allMembers(ctx, orgID)
	if err != nil {
		return paging.Page[MemberWithUser]{}, err
	}
	kept := ms[:0]
	for _, m := range ms {
		if roleFilter != nil && m.Role != *roleFilter {
			continue
		}
		if f.Sort == SortLastSeenAt && m.LastSeenAt == nil {
			continue
		}
		kept = append(kept, m)
	}
	var list []MemberWithUser
	if f.Search != "" {
		all, err := s.withUsers(ctx, kept)
		if err != nil {
			return paging.Page[MemberWithUser]{}, err
		}
		q := strings.ToLower(f.Search)
		for _, mu := range all {
			if strings.Contains(strings.ToLower(mu.User.DisplayName), q) || strings.Contains(strings.ToLower(mu.User.Email), q) {
				list = append(list, mu)
			}
		}
	} else {
		for _, m := range kept {
			list = append(list, MemberWithUser{Member: m})
		}
	}
	key := MemberSortKey(f.Sort)
	sortBy(list, key, desc)
	page, err := paging.Window(s.d.Cursors, sc, r, list, key, desc)
	if err != nil {
		return paging.Page[MemberWithUser]{}, err
	}
	if f.Search == "" {
		ms := make([]model.Member, len(page.Items))
		for i, mu := range page.Items {
			ms[i] = mu.Member
		}
		if page.Items, err = s.withUsers(ctx, ms); err != nil {
			return paging.Page[MemberWithUser]{}, err
		}
	}
	return page, nil
}

// MemberSortKey is the key that orders members by sort (SortJoinedAt,
// SortLastSeenAt, where a member never seen comes first, or SortName),
// unique with the user id, for paging.Window.
func MemberSortKey(sort string) func(MemberWithUser) string {
	return func(mu MemberWithUser) string {
		var v string
		switch sort {
		case SortLastSeenAt:
			if mu.Member.LastSeenAt != nil {
				v = stamp(*mu.Member.LastSeenAt)
			}
		case SortName:
			v = strings.ToLower(mu.User.DisplayName) + "\x00"
		default:
			v = stamp(mu.Member.JoinedAt)
		}
		return v + "#" + mu.Member.UserID
	}
}

// withUsers pairs members with their users.
func (s *Service) withUsers(ctx context.Context, ms []model.Member) ([]MemberWithUser, error) {
	return withUsers(ctx, s.d.Store, ms)
}

// GetMember returns a member: to members who may list members, and to the
// member themself.
func (s *Service) GetMember(ctx context.Context, orgID, userID string) (MemberWithUser, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.ListMembers, access.OrSelf(userID)); err != nil {
		return MemberWithUser{}, err
	}
	m, _, err := s.getMember(ctx, orgID, userID)
	if err != nil {
		return MemberWithUser{}, err
	}
	return s.withUser(ctx, m)
}

func (s *Service) withUser(ctx context.Context, m model.Member) (MemberWithUser, error) {
	u, err := s.users.Get(ctx, m.UserID)
	if err != nil {
		return MemberWithUser{}, err
	}
	return MemberWithUser{Member: m, User: u}, nil
}

// UpdateMemberRole sets a member's role (RoleGuest makes them a guest).
// Admins only; the last admin cannot be demoted (Conflict).
func (s *Service) UpdateMemberRole(ctx context.Context, orgID, userID string, role model.Role) (MemberWithUser, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg); err != nil {
		return MemberWithUser{}, err
	}
	if !role.Valid() {
		return MemberWithUser{}, apperr.Field("role", "unknown role %q", role)
	}
	ch := change(orgID, model.AuditMemberRole, targetMember, userID, map[string]any{"role": RoleView(role)})
	m, err := s.writeMember(ctx, orgID, userID, ch, func(m *model.Member) (bool, error) {
		m.Role = role
		return false, nil
	})
	if err != nil {
		return MemberWithUser{}, err
	}
	return s.withUser(ctx, m)
}

// RemoveMember removes a member from the organization and from its teams.
// Admins may remove anyone; any member may leave. The last admin can do
// neither (Conflict).
func (s *Service) RemoveMember(ctx context.Context, orgID, userID string) error {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg, access.OrSelf(userID)); err != nil {
		return err
	}
	return s.removeMember(ctx, orgID, userID, nil)
}

// removeMember is RemoveMember once authorized; actor as createTeam's,
// also written with the membership's deletion.
func (s *Service) removeMember(ctx context.Context, orgID, userID string, actor *model.AuditRef, also ...store.Op) error {
	m, _, err := s.getMember(ctx, orgID, userID)
	if err != nil {
		return err
	}
	// Checked before leaving the teams, so that a refused removal changes
	// nothing; writeMember checks again in the deleting transaction.
	if isActiveAdmin(m) {
		if err := s.otherAdminRemains(ctx, orgID, userID); err != nil {
			return err
		}
	}
	if err := s.leaveAllTeams(ctx, orgID, userID); err != nil {
		return err
	}
	ch := change(orgID, model.AuditMemberRemoved, targetMember, userID, nil)
	ch.Actor = actor
	_, err = s.writeMember(ctx, orgID, userID, ch, func(*model.Member) (bool, error) { return true, nil }, also...)
	return err
}

// Ping records that the caller was seen in the organization now.
func (s *Service) Ping(ctx context.Context, orgID string) error {
	c, err := s.d.Authz.RequireOrg(ctx, orgID, access.ViewOrg)
	if err != nil {
		return err
	}
	now := s.d.Clock()
	_, err = records.Update(ctx, s.d.Store, keys.Member(orgID, c.UserID), setMemberIndexes, func(m *model.Member) ([]store.Op, error) {
		m.LastSeenAt = &now
		return nil, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return apperr.NotFoundf("organization %s not found", orgID)
	}
	return err
}

// SetMemberSSO makes a member an SSO member (admins only).
func (s *Service) SetMemberSSO(ctx context.Context, orgID, userID string) (MemberWithUser, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg); err != nil {
		return MemberWithUser{}, err
	}
	m, err := records.Update(ctx, s.d.Store, keys.Member(orgID, userID), setMemberIndexes, func(m *model.Member) ([]store.Op, error) {
		m.SSO = true
		return []store.Op{s.audit.Op(ctx, change(orgID, model.AuditMemberSSO, targetMember, userID, nil))}, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return MemberWithUser{}, apperr.NotFoundf("member %s not found", userID)
	}
	if err != nil {
		return MemberWithUser{}, err
	}
	return s.withUser(ctx, m)
}

// SpaceGrant is a space a member may access, with their level of access.
type SpaceGrant struct {
	Permission model.Role
	Space      model.Space
	// CallerLevel is the caller's own level on the space (its permissions).
	CallerLevel model.Role
}

// MemberSpaces lists the spaces a member may access, with their effective
// level on each (the content permission model, access.Viewer), to members
// who may list members and to the member themself; spaces the caller may
// not read are left out. Spaces come from the organization's list of live
// spaces (GSI1), by space id: creation order, newest first unless order is
// asc. A page holds at most limit spaces, fewer when some are left out.
func (s *Service) MemberSpaces(ctx context.Context, orgID, userID, order string, r paging.Request) (paging.Page[SpaceGrant], error) {
	c, err := s.d.Authz.RequireOrg(ctx, orgID, access.ListMembers, access.OrSelf(userID))
	if err != nil {
		return paging.Page[SpaceGrant]{}, err
	}
	if order == "" {
		order = OrderDesc
	}
	if order != OrderAsc && order != OrderDesc {
		return paging.Page[SpaceGrant]{}, apperr.Field("order", "must be asc or desc")
	}
	sc := paging.Scope("listMemberSpaces", spaces.OrgListKey(orgID), "member="+userID, "order="+order)
	after, err := s.d.Cursors.After(sc, r.Cursor)
	if err != nil {
		return paging.Page[SpaceGrant]{}, err
	}
	m, _, err := s.getMember(ctx, orgID, userID)
	if err != nil {
		return paging.Page[SpaceGrant]{}, err
	}
	if m.Disabled {
		return paging.Page[SpaceGrant]{Items: []SpaceGrant{}}, nil
	}
	caller, err := s.d.Authz.Viewer(ctx, c.Caller, orgID)
	if err != nil {
		return paging.Page[SpaceGrant]{}, err
	}
	member := s.d.Authz.ViewerOf(m)
	sps, next, err := spaces.LivePage(ctx, s.d.Store, orgID, order == OrderDesc, r.Size(), after)
	if err != nil {
		return paging.Page[SpaceGrant]{}, fmt.Errorf("list spaces: %w", err)
	}
	out := []SpaceGrant{}
	for _, sp := range sps {
		if sp.DeletedAt != nil {
			continue
		}
		level, err := member.Level(ctx, access.SpaceNode(sp))
		if err != nil {
			return paging.Page[SpaceGrant]{}, err
		}
		mine, err := caller.Level(ctx, access.SpaceNode(sp))
		if err != nil {
			return paging.Page[SpaceGrant]{}, err
		}
		if access.Allowed(level, access.ReadContent) && access.Allowed(mine, access.ReadContent) {
			out = append(out, SpaceGrant{Permission: level, Space: sp, CallerLevel: mine})
		}
	}
	return paging.Page[SpaceGrant]{Items: out, Next: s.d.Cursors.Next(sc, next)}, nil
}

// TeamOfMember is a team a member belongs to, with their role in it.
type TeamOfMember struct {
	Team TeamForCaller
	Role string
}

// MemberTeams lists the teams of a member, by team id (creation order),
// optionally only those whose title contains title (ignoring case); to
// members who may list teams and to the member themself.
func (s *Service) MemberTeams(ctx context.Context, orgID, userID, title string, r paging.Request) (paging.Page[TeamOfMember], error) {
	cm, err := s.d.Authz.RequireOrg(ctx, orgID, access.ListTeams, access.OrSelf(userID))
	if err != nil {
		return paging.Page[TeamOfMember]{}, err
	}
	if _, _, err := s.getMember(ctx, orgID, userID); err != nil {
		return paging.Page[TeamOfMember]{}, err
	}
	tms, err := s.teamMembershipsOf(ctx, orgID, userID)
	if err != nil {
		return paging.Page[TeamOfMember]{}, err
	}
	ks := make([]keys.Key, len(tms))
	for i, tm := range tms {
		ks[i] = keys.Team(orgID, tm.TeamID)
	}
	ts, err := records.GetAll[model.Team](ctx, s.d.Store, ks)
	if err != nil {
		return paging.Page[TeamOfMember]{}, err
	}
	q := strings.ToLower(title)
	list := []TeamOfMember{}
	for i, t := range ts {
		if strings.Contains(strings.ToLower(t.Title), q) {
			list = append(list, TeamOfMember{Team: TeamForCaller{Team: t, Viewer: cm.Role()}, Role: tms[i].Role})
		}
	}
	key := func(t TeamOfMember) string { return t.Team.Team.ID }
	sortBy(list, key, false)
	sc := paging.Scope("listMemberTeams", keys.MemberTeams(orgID, userID), "title="+title)
	return paging.Window(s.d.Cursors, sc, r, list, key, false)
}

// isActiveAdmin reports whether a member currently holds admin rights.
func isActiveAdmin(m model.Member) bool { return m.Role == model.RoleAdmin && !m.Disabled }

// otherAdminRemains returns Conflict unless an active admin other than
// userID exists.
func (s *Service) otherAdminRemains(ctx context.Context, orgID, userID string) error {
	ms, err := s.allMembers(ctx, orgID)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if m.UserID != userID && isActiveAdmin(m) {
			return nil
		}
	}
	return apperr.Conflictf("the organization needs at least one admin: make another member admin first")
}

// writeMember applies fn to a membership and writes it, or deletes it when
// fn says so, with ch's audit event. A change that takes admin rights away from an active admin
// needs another active admin to remain (else Conflict), and rewrites the
// organization record at the version read before counting the admins in
// the same transaction: of two such changes racing on the same count, one
// fails its condition and runs again on the new count.
func (s *Service) writeMember(ctx context.Context, orgID, userID string, ch model.AuditChange, fn func(*model.Member) (remove bool, err error), also ...store.Op) (model.Member, error) {
	var m model.Member
	err := store.Retry(ctx, func() error {
		o, ov, err := s.getOrg(ctx, orgID)
		if err != nil {
			return err
		}
		var mv int64
		m, mv, err = s.getMember(ctx, orgID, userID)
		if err != nil {
			return err
		}
		old := m
		remove, err := fn(&m)
		if err != nil {
			return err
		}
		k := keys.Member(orgID, userID)
		ops := []store.Op{store.PutIfVersion(memberItem(m, mv+1), mv)}
		if remove {
			ops = []store.Op{store.DeleteIfVersion(k.PK, k.SK, mv)}
		}
		ops = append(ops, s.audit.Op(ctx, ch))
		ops = append(ops, also...)
		if isActiveAdmin(old) && (remove || !isActiveAdmin(m)) {
			if err := s.otherAdminRemains(ctx, orgID, userID); err != nil {
				return err
			}
			ops = append(ops, store.PutIfVersion(records.Item(keys.Org(orgID), o, ov+1), ov))
		}
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return fmt.Errorf("write member: %w", err)
		}
		return nil
	})
	if err != nil {
		return model.Member{}, err
	}
	return m, nil
}
