package orgs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// TeamMemberOf is a member of a team: their membership of the organization
// with their user, and their role in the team.
type TeamMemberOf struct {
	MemberWithUser
	Role string
}

// ListTeamMembers lists a team's members by user id, to members who may
// list teams.
func (s *Service) ListTeamMembers(ctx context.Context, orgID, teamID string, r paging.Request) (paging.Page[TeamMemberOf], error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.ListTeams); err != nil {
		return paging.Page[TeamMemberOf]{}, err
	}
	if _, _, err := s.getTeam(ctx, orgID, teamID); err != nil {
		return paging.Page[TeamMemberOf]{}, err
	}
	tms, err := s.teamMemberships(ctx, orgID, teamID)
	if err != nil {
		return paging.Page[TeamMemberOf]{}, err
	}
	ids := make([]string, len(tms))
	for i, tm := range tms {
		ids[i] = tm.UserID
	}
	mus, err := ReadMembersWithUsers(ctx, s.d.Store, orgID, ids)
	if err != nil {
		return paging.Page[TeamMemberOf]{}, err
	}
	roles := map[string]string{}
	for _, tm := range tms {
		roles[tm.UserID] = tm.Role
	}
	list := make([]TeamMemberOf, len(mus))
	for i, mu := range mus {
		list[i] = TeamMemberOf{MemberWithUser: mu, Role: roles[mu.Member.UserID]}
	}
	key := func(t TeamMemberOf) string { return t.Member.UserID }
	sortBy(list, key, false)
	return paging.Window(s.d.Cursors, paging.Scope("listTeamMembers", keys.TeamMembersPrefix(teamID), orgID), r, list, key, false)
}

// teamMemberships reads a team's memberships, consistently.
func (s *Service) teamMemberships(ctx context.Context, orgID, teamID string) ([]model.TeamMembership, error) {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.TeamMembersPrefix(teamID)})
	if err != nil {
		return nil, fmt.Errorf("list team members: %w", err)
	}
	return records.DecodeAll[model.TeamMembership](items)
}

// AddTeamMember puts an active member into a team with role (member when
// ""), or sets their role when they are in it already (admins only). A
// user who is not an active member of the organization is NotFound.
func (s *Service) AddTeamMember(ctx context.Context, orgID, teamID, userID, role string) error {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.ManageTeams); err != nil {
		return err
	}
	if role == "" {
		role = model.TeamMember
	}
	if _, _, err := s.getTeam(ctx, orgID, teamID); err != nil {
		return err
	}
	if m, _, err := s.getMember(ctx, orgID, userID); err != nil || m.Disabled {
		if err == nil || apperr.Is(err, apperr.NotFound) {
			return apperr.NotFoundf("member %s not found", userID)
		}
		return err
	}
	action := model.AuditTeamMemberAdded
	if _, _, err := records.Get[model.TeamMembership](ctx, s.d.Store, keys.TeamMember(orgID, teamID, userID)); err == nil {
		action = model.AuditTeamMemberUpdated
	} else if !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("read team member: %w", err)
	}
	if err := s.setTeamMembers(ctx, orgID, teamID, map[string]string{userID: role}, nil); err != nil {
		return err
	}
	return s.audit.Record(ctx, change(orgID, action, targetTeam, teamID, map[string]any{"user": userID, "role": role}))
}

// RemoveTeamMember takes a member out of a team (admins only); removed is
// false when they were not in it.
func (s *Service) RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) (removed bool, err error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.ManageTeams); err != nil {
		return false, err
	}
	if _, _, err := s.getTeam(ctx, orgID, teamID); err != nil {
		return false, err
	}
	del, err := s.teamMemberDelete(ctx, orgID, teamID, userID)
	if err != nil || del == nil {
		return false, err
	}
	if err := s.removeTeamMembers(ctx, orgID, teamID, []string{userID}); err != nil {
		return false, err
	}
	return true, s.audit.Record(ctx, change(orgID, model.AuditTeamMemberRemoved, targetTeam, teamID, map[string]any{"user": userID}))
}

// TeamChange is GitBook's change of a team's members: users to add (as
// members), users to remove, and users to add or keep with a given role.
// Users are named by id or by email address; a user both added and
// removed is removed.
type TeamChange struct {
	Add         []string
	Remove      []string
	Memberships map[string]string
}

// UpdateTeamMembers applies a TeamChange (admins only). Every user added
// must be an active member of the organization (else Invalid naming the
// field, add[i] or memberships.<user>); users removed who are not in the
// team are ignored. At most maxTeamMembers users in all.
func (s *Service) UpdateTeamMembers(ctx context.Context, orgID, teamID string, ch TeamChange) error {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.ManageTeams); err != nil {
		return err
	}
	if len(ch.Add)+len(ch.Remove)+len(ch.Memberships) > maxTeamMembers {
		return apperr.Field("add", "at most %d users in all", maxTeamMembers)
	}
	if _, _, err := s.getTeam(ctx, orgID, teamID); err != nil {
		return err
	}
	set := map[string]string{}
	for i, ref := range ch.Add {
		uid, err := s.activeMember(ctx, orgID, ref, fmt.Sprintf("add[%d]", i))
		if err != nil {
			return err
		}
		if _, ok := set[uid]; !ok {
			set[uid] = ""
		}
	}
	refs := make([]string, 0, len(ch.Memberships))
	for ref := range ch.Memberships {
		refs = append(refs, ref)
	}
	sort.Strings(refs)
	for _, ref := range refs {
		role := ch.Memberships[ref]
		if role != model.TeamMember && role != model.TeamOwner {
			return apperr.Field("memberships."+ref+".role", "must be owner or member")
		}
		uid, err := s.activeMember(ctx, orgID, ref, "memberships."+ref)
		if err != nil {
			return err
		}
		set[uid] = role
	}
	var remove []string
	for _, ref := range ch.Remove {
		uid, err := s.userRef(ctx, orgID, ref)
		if apperr.Is(err, apperr.NotFound) {
			continue
		}
		if err != nil {
			return err
		}
		delete(set, uid)
		remove = append(remove, uid)
	}
	if err := s.setTeamMembers(ctx, orgID, teamID, set, remove); err != nil {
		return err
	}
	return s.audit.Record(ctx, change(orgID, model.AuditTeamMembersSet, targetTeam, teamID, map[string]any{"set": set, "remove": remove}))
}

// activeMember resolves ref (a user id or an email) to an active member of
// orgID, else Invalid naming field.
func (s *Service) activeMember(ctx context.Context, orgID, ref, field string) (string, error) {
	uid, err := s.userRef(ctx, orgID, ref)
	if apperr.Is(err, apperr.NotFound) {
		return "", apperr.Field(field, "%q is not a member of this organization", ref)
	}
	return uid, err
}

// userRef resolves a user id or an email to an active member's user id
// (NotFound otherwise).
func (s *Service) userRef(ctx context.Context, orgID, ref string) (string, error) {
	uid := ref
	if strings.Contains(ref, "@") {
		u, err := s.users.ByEmail(ctx, ref)
		if err != nil {
			return "", err
		}
		uid = u.ID
	}
	m, _, err := s.getMember(ctx, orgID, uid)
	if err != nil {
		return "", err
	}
	if m.Disabled {
		return "", apperr.NotFoundf("member %s not found", uid)
	}
	return uid, nil
}

// setTeamMembers puts the users of set in the team (those not in it yet
// with their role, "" meaning member; those in it get a role set when one
// is given) and takes remove out, in transactions of at most teamBatch
// users, each keeping the counters exact.
func (s *Service) setTeamMembers(ctx context.Context, orgID, teamID string, set map[string]string, remove []string) error {
	tms, err := s.teamMemberships(ctx, orgID, teamID)
	if err != nil {
		return err
	}
	in := map[string]model.TeamMembership{}
	for _, tm := range tms {
		in[tm.UserID] = tm
	}
	byRole := map[string][]string{}
	uids := make([]string, 0, len(set))
	for uid := range set {
		uids = append(uids, uid)
	}
	sort.Strings(uids)
	for _, uid := range uids {
		role := set[uid]
		if tm, ok := in[uid]; ok {
			if role != "" && role != tm.Role {
				if err := s.setTeamRole(ctx, orgID, teamID, uid, role); err != nil {
					return err
				}
			}
			continue
		}
		if role == "" {
			role = model.TeamMember
		}
		byRole[role] = append(byRole[role], uid)
	}
	for _, role := range []string{model.TeamMember, model.TeamOwner} {
		for batch := range slices.Chunk(byRole[role], teamBatch) {
			if _, err := s.addTeamMembers(ctx, orgID, teamID, nil, batch, role); err != nil {
				return err
			}
		}
	}
	for batch := range slices.Chunk(remove, teamBatch) {
		if err := s.removeTeamMembers(ctx, orgID, teamID, batch); err != nil {
			return err
		}
	}
	return nil
}

// setTeamRole changes a team member's role.
func (s *Service) setTeamRole(ctx context.Context, orgID, teamID, userID, role string) error {
	_, err := records.Update(ctx, s.d.Store, keys.TeamMember(orgID, teamID, userID), teamMemberIndex, func(tm *model.TeamMembership) ([]store.Op, error) {
		tm.Role = role
		return nil, nil
	})
	if err != nil {
		return fmt.Errorf("set team role: %w", err)
	}
	return nil
}

// teamMemberIndex sets a team membership's index keys (teamMemberItem's).
func teamMemberIndex(tm *model.TeamMembership, it *store.Item) {
	*it = teamMemberItem(*tm, it.Version)
}
