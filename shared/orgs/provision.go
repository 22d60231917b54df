package orgs

import (
	"context"
	"fmt"
	"slices"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Provisioner reads and changes one organization's members and teams for
// its identity provider's provisioning (package scim, docs/scim.md). It
// authorizes nothing itself: its caller has checked the provider's token
// for the organization. Each change is recorded in the audit log with the
// provisioner's actor (the request has no caller).
type Provisioner struct {
	s     *Service
	orgID string
	actor model.AuditRef
}

// Provision returns the provisioner of orgID acting as actor.
func (s *Service) Provision(orgID string, actor model.AuditRef) *Provisioner {
	return &Provisioner{s: s, orgID: orgID, actor: actor}
}

func (p *Provisioner) change(action, targetType, targetID string, payload map[string]any) model.AuditChange {
	if payload == nil {
		payload = map[string]any{}
	}
	payload["via"] = "scim"
	ch := change(p.orgID, action, targetType, targetID, payload)
	ch.Actor = &p.actor
	return ch
}

// Members reads every member of the organization with their user.
func (p *Provisioner) Members(ctx context.Context) ([]MemberWithUser, error) {
	return ReadMembersWithUsers(ctx, p.s.d.Store, p.orgID, nil)
}

// Member reads one member with their user (NotFound if none).
func (p *Provisioner) Member(ctx context.Context, userID string) (MemberWithUser, error) {
	m, _, err := p.s.getMember(ctx, p.orgID, userID)
	if err != nil {
		return MemberWithUser{}, err
	}
	return p.s.withUser(ctx, m)
}

// Join makes userID a member with role unless they are one already; it
// reports whether they joined now. An existing member is left as they are.
func (p *Provisioner) Join(ctx context.Context, userID string, role model.Role) (model.Member, bool, error) {
	if _, _, err := p.s.getOrg(ctx, p.orgID); err != nil {
		return model.Member{}, false, err
	}
	m, _, err := p.s.getMember(ctx, p.orgID, userID)
	if err == nil {
		return m, false, nil
	}
	if !apperr.Is(err, apperr.NotFound) {
		return model.Member{}, false, err
	}
	m = model.Member{OrgID: p.orgID, UserID: userID, Role: role, JoinedAt: p.s.d.Clock()}
	err = p.s.d.Store.Write(ctx, CheckOrg(p.orgID, 0), store.Put(memberItem(m, 1), store.IfNotExists),
		p.s.audit.Op(ctx, p.change(model.AuditMemberAdded, targetMember, userID, map[string]any{"role": string(role)})))
	if err != nil {
		return model.Member{}, false, fmt.Errorf("provision member: %w", err)
	}
	return m, true, nil
}

// SetActive enables or disables a member; changed is false when they
// already were so. Disabling the last active admin is a Conflict.
func (p *Provisioner) SetActive(ctx context.Context, userID string, active bool) (model.Member, bool, error) {
	cur, _, err := p.s.getMember(ctx, p.orgID, userID)
	if err != nil {
		return model.Member{}, false, err
	}
	if cur.Disabled == !active {
		return cur, false, nil
	}
	action := model.AuditMemberDisabled
	if active {
		action = model.AuditMemberEnabled
	}
	m, err := p.s.writeMember(ctx, p.orgID, userID, p.change(action, targetMember, userID, nil), func(m *model.Member) (bool, error) {
		m.Disabled = !active
		return false, nil
	})
	return m, err == nil, err
}

// Remove removes a member from the organization and its teams.
func (p *Provisioner) Remove(ctx context.Context, userID string) error {
	return p.s.removeMember(ctx, p.orgID, userID, &p.actor)
}

// ActiveElsewhere reports whether userID is an active member of an
// organization other than the provisioner's.
func (p *Provisioner) ActiveElsewhere(ctx context.Context, userID string) (bool, error) {
	items, err := store.QueryAll(ctx, p.s.d.Store, store.Query{Index: store.GSI1, PK: keys.UserOrgs(userID), SKPrefix: keys.OrgPrefix})
	if err != nil {
		return false, fmt.Errorf("read memberships: %w", err)
	}
	ms, err := records.DecodeAll[model.Member](items)
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(ms, func(m model.Member) bool { return m.OrgID != p.orgID && !m.Disabled }), nil
}

// Teams reads every team of the organization, by id.
func (p *Provisioner) Teams(ctx context.Context) ([]model.Team, error) {
	items, err := store.QueryAll(ctx, p.s.d.Store, store.Query{PK: keys.OrgPartition(p.orgID), SKPrefix: keys.TeamPrefix})
	if err != nil {
		return nil, fmt.Errorf("list teams: %w", err)
	}
	return records.DecodeAll[model.Team](items)
}

// Team reads one team (NotFound if none).
func (p *Provisioner) Team(ctx context.Context, teamID string) (model.Team, error) {
	t, _, err := p.s.getTeam(ctx, p.orgID, teamID)
	return t, err
}

// TeamMembers reads the user ids of a team's members, by user id.
func (p *Provisioner) TeamMembers(ctx context.Context, teamID string) ([]string, error) {
	tms, err := p.s.teamMemberships(ctx, p.orgID, teamID)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(tms))
	for i, tm := range tms {
		out[i] = tm.UserID
	}
	slices.Sort(out)
	return out, nil
}

// TeamsOf reads the ids of a member's teams.
func (p *Provisioner) TeamsOf(ctx context.Context, userID string) ([]string, error) {
	tms, err := p.s.teamMembershipsOf(ctx, p.orgID, userID)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(tms))
	for i, tm := range tms {
		out[i] = tm.TeamID
	}
	return out, nil
}

// CreateTeam makes a team holding members (active members, else Invalid).
func (p *Provisioner) CreateTeam(ctx context.Context, title string, members []string) (model.Team, error) {
	return p.s.createTeam(ctx, p.orgID, title, members, &p.actor)
}

// RenameTeam sets a team's title.
func (p *Provisioner) RenameTeam(ctx context.Context, teamID, title string) (model.Team, error) {
	return p.s.renameTeam(ctx, p.orgID, teamID, title, &p.actor)
}

// DeleteTeam removes a team and its memberships.
func (p *Provisioner) DeleteTeam(ctx context.Context, teamID string) error {
	return p.s.deleteTeam(ctx, p.orgID, teamID, &p.actor)
}

// ChangeTeamMembers adds members to a team (each an active member of the
// organization, else Invalid naming field) and takes others out (those not
// in it are ignored); nothing to do records nothing.
func (p *Provisioner) ChangeTeamMembers(ctx context.Context, teamID string, add, remove []string, field string) error {
	if _, _, err := p.s.getTeam(ctx, p.orgID, teamID); err != nil {
		return err
	}
	if len(add)+len(remove) == 0 {
		return nil
	}
	set := map[string]string{}
	for _, uid := range add {
		if _, err := p.s.activeMember(ctx, p.orgID, uid, field); err != nil {
			return err
		}
		set[uid] = ""
	}
	if err := p.s.setTeamMembers(ctx, p.orgID, teamID, set, remove); err != nil {
		return err
	}
	return p.s.audit.Record(ctx, p.change(model.AuditTeamMembersSet, targetTeam, teamID, map[string]any{"add": add, "remove": remove}))
}
