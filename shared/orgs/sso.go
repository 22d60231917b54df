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
// never demotes nor promotes anyone. A disabled member is refused
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
