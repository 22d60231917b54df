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
// provisioner's actor (the request has no caller). The changes take also:
// the caller's own items (what SCIM keeps of members and teams, owner
// scim), written in the change's transaction with its audit event, as the
// audit log's are; when a change has nothing to write (already so), also
// is not written and the caller writes it itself.
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
func (p *Provisioner) Join(ctx context.Context, userID string, role model.Role, also ...store.Op) (model.Member, bool, error) {
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
	ops := []store.Op{CheckOrg(p.orgID, 0), store.Put(memberItem(m, 1), store.IfNotExists),
		p.s.audit.Op(ctx, p.change(model.AuditMemberAdded, targetMember, userID, map[string]any{"role": string(role)}))}
	err = p.s.d.Store.Write(ctx, append(ops, also...)...)
	if err != nil {
		return model.Member{}, false, fmt.Errorf("provision member: %w", err)
	}
	return m, true, nil
}

// SetActive enables or disables a member; changed is false when they
// already were so. Disabling the last active admin is a Conflict.
func (p *Provisioner) SetActive(ctx context.Context, userID string, active bool, also ...store.Op) (model.Member, bool, error) {
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
	}, also...)
	return m, err == nil, err
}

// Remove removes a member from the organization and its teams.
func (p *Provisioner) Remove(ctx context.Context, userID string, also ...store.Op) error {
	return p.s.removeMember(ctx, p.orgID, userID, &p.actor, also...)
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
	out, err := pluck(tms, err, func(tm model.TeamMembership) string { return tm.UserID })
	slices.Sort(out)
	return out, err
}

// TeamsOf reads the ids of a member's teams.
func (p *Provisioner) TeamsOf(ctx context.Context, userID string) ([]string, error) {
	tms, err := p.s.teamMembershipsOf(ctx, p.orgID, userID)
	return pluck(tms, err, func(tm model.TeamMembership) string { return tm.TeamID })
}

// CreateTeam makes a team holding members (active members, else Invalid);
// also gives the operations to write with it, knowing its id.
func (p *Provisioner) CreateTeam(ctx context.Context, title string, members []string, also func(teamID string) []store.Op) (model.Team, error) {
	return p.s.createTeam(ctx, p.orgID, title, members, &p.actor, also)
}

// RenameTeam sets a team's title.
func (p *Provisioner) RenameTeam(ctx context.Context, teamID, title string, also ...store.Op) (model.Team, error) {
	return p.s.renameTeam(ctx, p.orgID, teamID, title, &p.actor, also...)
}

// DeleteTeam removes a team and its memberships.
func (p *Provisioner) DeleteTeam(ctx context.Context, teamID string, also ...store.Op) error {
	return p.s.deleteTeam(ctx, p.orgID, teamID, &p.actor, also...)
}

// ChangeTeamMembers adds members to a team (each an active member of the
// organization, else Invalid naming field) and takes others out (those not
// in it are ignored); nothing to do records nothing. The memberships
// change in batches, as the API's team members do; the audit event and
// also are written together once they have.
func (p *Provisioner) ChangeTeamMembers(ctx context.Context, teamID string, add, remove []string, field string, also ...store.Op) (bool, error) {
	if _, _, err := p.s.getTeam(ctx, p.orgID, teamID); err != nil {
		return false, err
	}
	if len(add)+len(remove) == 0 {
		return false, nil
	}
	set := map[string]string{}
	for _, uid := range add {
		if _, err := p.s.activeMember(ctx, p.orgID, uid, field); err != nil {
			return false, err
		}
		set[uid] = ""
	}
	if err := p.s.setTeamMembers(ctx, p.orgID, teamID, set, remove); err != nil {
		return false, err
	}
	ev := p.s.audit.Op(ctx, p.change(model.AuditTeamMembersSet, targetTeam, teamID, map[string]any{"add": add, "remove": remove}))
	if err := p.s.d.Store.Write(ctx, append([]store.Op{ev}, also...)...); err != nil {
		return false, fmt.Errorf("record team members: %w", err)
	}
	return true, nil
}

// pluck maps team memberships as read (err: the read's) to one of their
// ids.
func pluck(tms []model.TeamMembership, err error, id func(model.TeamMembership) string) ([]string, error) {
	if err != nil {
		return nil, err
	}
	out := make([]string, len(tms))
	for i, tm := range tms {
		out[i] = id(tm)
	}
	return out, nil
}
