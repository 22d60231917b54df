package sso

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
)

// MaxGroupTeams is the most entries of a provider's group mapping.
const MaxGroupTeams = 100

// checkGroupTeams validates a group mapping: each group 1..256 characters
// (kept exactly: groups match case-sensitively), a team of the
// organization, a known role or none, and no (group, team) pair twice.
func (s *Service) checkGroupTeams(ctx context.Context, orgID string, gts []model.GroupTeam) error {
	if len(gts) > MaxGroupTeams {
		return apperr.Field("groupTeams", "at most %d entries", MaxGroupTeams)
	}
	seen := map[[2]string]bool{}
	for i, gt := range gts {
		f := func(name string) string { return fmt.Sprintf("groupTeams[%d].%s", i, name) }
		if n := utf8.RuneCountInString(gt.Group); n < 1 || n > 256 || strings.TrimSpace(gt.Group) == "" {
			return apperr.Field(f("group"), "must be 1 to 256 characters")
		}
		if !gt.Role.Valid() {
			return apperr.Field(f("role"), "unknown role %q", gt.Role)
		}
		if _, _, err := orgs.ReadTeam(ctx, s.d.Store, orgID, gt.TeamID); apperr.Is(err, apperr.NotFound) {
			return apperr.Field(f("team"), "no team %q in this organization", gt.TeamID)
		} else if err != nil {
			return err
		}
		k := [2]string{gt.Group, gt.TeamID}
		if seen[k] {
			return apperr.Field(f("group"), "group %q is mapped to team %s twice", gt.Group, gt.TeamID)
		}
		seen[k] = true
	}
	return nil
}

// teamsFor is what a person's groups give under a provider's mapping: the
// mapped teams, those of their groups, and the highest role their groups
// map to (guest when none).
func teamsFor(mapping []model.GroupTeam, groups []string) orgs.SSOTeams {
	var t orgs.SSOTeams
	for _, gt := range mapping {
		if !slices.Contains(t.Mapped, gt.TeamID) {
			t.Mapped = append(t.Mapped, gt.TeamID)
		}
		if !slices.Contains(groups, gt.Group) {
			continue
		}
		if !slices.Contains(t.In, gt.TeamID) {
			t.In = append(t.In, gt.TeamID)
		}
		if !t.Role.AtLeast(gt.Role) {
			t.Role = gt.Role
		}
	}
	return t
}

// via is the provider a sign-in comes through, as the sign-in needs it,
// whatever its protocol.
type via struct {
	orgID, id, label string
	// kind is the audit target's type: saml-provider or oidc-provider.
	kind        string
	defaultRole model.Role
	defaultTeam string
	groupTeams  []model.GroupTeam
}

// admit signs in a person the provider vouched for: the user with the
// address (made when none has it) becomes an SSO member, their mapped
// teams follow their groups, and they get a token scoped to the
// organization. The default team, when the mapping also names it, follows
// the mapping only.
func (s *Service) admit(ctx context.Context, v via, email, name string, groups []string) (SignIn, error) {
	u, err := s.users.FindOrProvision(ctx, email, name)
	if err != nil {
		return SignIn{}, err
	}
	teams := teamsFor(v.groupTeams, groups)
	defaultTeam := v.defaultTeam
	if slices.Contains(teams.Mapped, defaultTeam) {
		defaultTeam = ""
	}
	m, joined, err := s.orgs.JoinWithSSO(ctx, v.orgID, u.ID, v.defaultRole, defaultTeam)
	if err != nil {
		return SignIn{}, err
	}
	var teamsJoined, teamsLeft []string
	if len(teams.Mapped) > 0 {
		if teamsJoined, teamsLeft, err = s.orgs.SyncSSOTeams(ctx, v.orgID, u.ID, teams); err != nil {
			return SignIn{}, err
		}
	}
	tok, err := s.users.IssueToken(ctx, u.ID, v.orgID)
	if err != nil {
		return SignIn{}, err
	}
	o, _, err := orgs.ReadOrg(ctx, s.d.Store, v.orgID)
	if err != nil {
		return SignIn{}, err
	}
	s.d.Logger.InfoContext(ctx, strings.TrimSuffix(v.kind, "-provider")+" sign-in", "org", v.orgID, "provider", v.id, "user", u.ID, "joined", joined,
		"teamsJoined", teamsJoined, "teamsLeft", teamsLeft)
	s.recordSignIn(ctx, v, model.AuditSignedIn, u.ID, map[string]any{"email": u.Email, "joined": joined})
	return SignIn{User: u, Member: m, Org: o, ProviderID: v.id, Token: tok, Joined: joined}, nil
}

// recordSignIn records a sign-in through v, accepted (userID: who signed
// in, the actor) or refused (the actor is unknown: the system's). It is
// written after the sign-in's own writes (the token's): a failure to write
// it is logged, and does not refuse a sign-in already made.
func (s *Service) recordSignIn(ctx context.Context, v via, action, userID string, payload map[string]any) {
	payload["provider"] = v.id
	ch := model.AuditChange{OrgID: v.orgID, Action: action, Target: model.AuditRef{Type: v.kind, ID: v.id, Label: v.label}, Payload: payload}
	if userID != "" {
		ch.Actor = &model.AuditRef{Type: "user", ID: userID}
	}
	if err := s.audit.Record(ctx, ch); err != nil {
		s.d.Logger.ErrorContext(ctx, "record sign-in", "org", v.orgID, "err", err.Error())
	}
}
