package orgs

import (
	"context"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
)

// JoinWithSSO makes a user who signed in through one of the organization's
// identity providers an SSO member (shared/sso calls it once the provider's
// assertion is verified; it authorizes nothing itself). A user who is not
// a member joins with role; a member keeps their role, so that signing in
// never demotes nor promotes anyone (a group mapping's role raises it
// after: SyncSSOTeams). A disabled member is refused
// (Forbidden). When teamID names a team of the organization, the member is
// put in it (a team deleted since is skipped). It reports whether the user
// joined the organization now.
func (s *Service) JoinWithSSO(ctx context.Context, orgID, userID string, role model.Role, teamID string) (model.Member, bool, error) {
	if _, _, err := s.getOrg(ctx, orgID); err != nil {
		return model.Member{}, false, err
	}
	if !role.Valid() {
		return model.Member{}, false, fmt.Errorf("join with SSO: invalid role %q", role)
	}
	joined := false
	var m model.Member
	err := store.Retry(ctx, func() error {
		cur, v, err := s.getMember(ctx, orgID, userID)
		var op store.Op
		var ev model.AuditChange
		switch {
		case apperr.Is(err, apperr.NotFound):
			cur = model.Member{OrgID: orgID, UserID: userID, Role: role, JoinedAt: s.d.Clock(), SSO: true}
			op = store.Put(memberItem(cur, 1), store.IfNotExists)
			ev = ssoChange(orgID, userID, model.AuditMemberAdded, map[string]any{"role": string(role), "via": "sso"})
		case err != nil:
			return err
		case cur.Disabled:
			return apperr.Forbiddenf("your membership of organization %s is disabled", orgID)
		case cur.SSO:
			m = cur
		default:
			cur.SSO = true
			op = store.PutIfVersion(memberItem(cur, v+1), v)
			ev = ssoChange(orgID, userID, model.AuditMemberSSO, map[string]any{"via": "sso"})
		}
		if op.Kind == 0 {
			return nil
		}
		if err := s.d.Store.Write(ctx, op, s.audit.Op(ctx, ev)); err != nil {
			return fmt.Errorf("join with SSO: %w", err)
		}
		m, joined = cur, v == 0
		return nil
	})
	if err != nil {
		return model.Member{}, false, err
	}
	if teamID == "" {
		return m, joined, nil
	}
	if _, _, err := s.getTeam(ctx, orgID, teamID); apperr.Is(err, apperr.NotFound) {
		return m, joined, nil
	} else if err != nil {
		return model.Member{}, false, err
	}
	tk := keys.TeamMember(orgID, teamID, userID)
	if _, err := s.d.Store.Get(ctx, tk.PK, tk.SK); err == nil {
		return m, joined, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return model.Member{}, false, fmt.Errorf("read team membership: %w", err)
	}
	if _, err := s.addTeamMembers(ctx, orgID, teamID, nil, []string{userID}, model.TeamMember); err != nil {
		return model.Member{}, false, err
	}
	m, _, err = s.getMember(ctx, orgID, userID)
	return m, joined, err
}

// ssoChange is an SSO sign-in's change of a member: the person signing in
// made it (the request has no caller).
func ssoChange(orgID, userID, action string, payload map[string]any) model.AuditChange {
	ch := change(orgID, action, targetMember, userID, payload)
	ch.Actor = &model.AuditRef{Type: "user", ID: userID}
	return ch
}

// SSOTeams is what an identity provider's groups say of one person at a
// sign-in: the teams its group mapping names (Mapped), those of the
// person's groups among them (In), and the role their groups give at least
// (Role, RoleGuest for none).
type SSOTeams struct {
	Mapped, In []string
	Role       model.Role
}

// SyncSSOTeams makes a member's memberships of the mapped teams follow
// their groups (shared/sso calls it at each sign-in, after JoinWithSSO; it
// authorizes nothing itself): added to the teams in In, removed from the
// other mapped teams, unmapped teams untouched; teams deleted since are
// skipped. Their organization role is raised to t.Role when it is lower,
// never lowered. Each change is audited with the member as its actor. It
// returns the teams joined and left.
func (s *Service) SyncSSOTeams(ctx context.Context, orgID, userID string, t SSOTeams) (joined, left []string, err error) {
	want := map[string]bool{}
	for _, id := range t.In {
		want[id] = true
	}
	seen := map[string]bool{}
	for _, teamID := range t.Mapped {
		if seen[teamID] {
			continue
		}
		seen[teamID] = true
		if _, _, err := s.getTeam(ctx, orgID, teamID); apperr.Is(err, apperr.NotFound) {
			continue
		} else if err != nil {
			return nil, nil, err
		}
		tk := keys.TeamMember(orgID, teamID, userID)
		_, err := s.d.Store.Get(ctx, tk.PK, tk.SK)
		in := err == nil
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, nil, fmt.Errorf("read team membership: %w", err)
		}
		payload := map[string]any{"user": userID, "via": "sso"}
		switch {
		case want[teamID] && !in:
			ev := ssoChange(orgID, userID, model.AuditTeamMemberAdded, payload)
			ev.Target = model.AuditRef{Type: targetTeam, ID: teamID}
			if _, err := s.addTeamMembers(ctx, orgID, teamID, nil, []string{userID}, model.TeamMember, s.audit.Op(ctx, ev)); err != nil {
				return nil, nil, err
			}
			joined = append(joined, teamID)
		case !want[teamID] && in:
			if err := s.removeTeamMembers(ctx, orgID, teamID, []string{userID}); err != nil {
				return nil, nil, err
			}
			ev := ssoChange(orgID, userID, model.AuditTeamMemberRemoved, payload)
			ev.Target = model.AuditRef{Type: targetTeam, ID: teamID}
			if err := s.audit.Record(ctx, ev); err != nil {
				return nil, nil, err
			}
			left = append(left, teamID)
		}
	}
	if t.Role == model.RoleGuest {
		return joined, left, nil
	}
	m, _, err := s.getMember(ctx, orgID, userID)
	if err != nil {
		return nil, nil, err
	}
	if m.Role.AtLeast(t.Role) {
		return joined, left, nil
	}
	ch := ssoChange(orgID, userID, model.AuditMemberRole, map[string]any{"role": RoleView(t.Role), "via": "sso"})
	_, err = s.writeMember(ctx, orgID, userID, ch, func(m *model.Member) (bool, error) {
		if !m.Role.AtLeast(t.Role) {
			m.Role = t.Role
		}
		return false, nil
	})
	return joined, left, err
}
