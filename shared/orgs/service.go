// Package orgs is the organizations family: organizations, members, teams,
// invites and email domains.
//
// The service decides (authorization through access.Authorizer, rules,
// storage) and returns apperr errors; it knows no HTTP: package orgshttp
// declares the API shapes and registers the operations.
//
// Consistency rules kept here, each inside one transaction:
//   - an organization's email-domain index items (keys.EmailDomain) always
//     match its emailDomains;
//   - a team's `members` counter and each member's `teams` counter match the
//     team-membership items (large lists are changed in several
//     transactions, each of which keeps the counters exact);
//   - an organization always keeps at least one admin: every change that
//     takes admin away from a member also rewrites the organization record
//     at its read version, so two such changes can never both succeed on the
//     same count of admins.
package orgs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/users"
)

// Service manages organizations, their members, teams and invites.
type Service struct {
	d     *deps.Deps
	users *users.Service
	audit Recorder
}

// New returns the organizations service; rec records its changes in the
// audit log.
func New(d *deps.Deps, u *users.Service, rec Recorder) *Service {
	return &Service{d: d, users: u, audit: rec}
}

// stampLayout is the fixed-width UTC form of times used in sort keys and
// page positions, so that they sort as strings.
const stampLayout = "2006-01-02T15:04:05.000Z"

func stamp(t time.Time) string { return t.UTC().Format(stampLayout) }

// getOrg reads an organization record.
func (s *Service) getOrg(ctx context.Context, orgID string) (model.Organization, int64, error) {
	return ReadOrg(ctx, s.d.Store, orgID)
}

// getMember reads a membership; NotFound if absent.
func (s *Service) getMember(ctx context.Context, orgID, userID string) (model.Member, int64, error) {
	m, v, err := records.Get[model.Member](ctx, s.d.Store, keys.Member(orgID, userID))
	if errors.Is(err, store.ErrNotFound) {
		return m, 0, apperr.NotFoundf("member %s not found", userID)
	}
	if err != nil {
		return m, 0, fmt.Errorf("read member: %w", err)
	}
	return m, v, nil
}

// getTeam reads a team; NotFound if absent.
func (s *Service) getTeam(ctx context.Context, orgID, teamID string) (model.Team, int64, error) {
	return ReadTeam(ctx, s.d.Store, orgID, teamID)
}

// memberItem encodes a membership with its index keys: the user's list of
// organizations (GSI1) and the organization's members by join time (GSI2).
func memberItem(m model.Member, version int64) store.Item {
	it := records.Item(keys.Member(m.OrgID, m.UserID), m, version)
	setMemberIndexes(&m, &it)
	return it
}

func setMemberIndexes(m *model.Member, it *store.Item) {
	g1 := keys.MemberByUser(m.OrgID, m.UserID)
	g2 := keys.MemberByJoined(m.OrgID, stamp(m.JoinedAt), m.UserID)
	it.GSI1PK, it.GSI1SK = g1.PK, g1.SK
	it.GSI2PK, it.GSI2SK = g2.PK, g2.SK
}

// teamMemberItem encodes a team membership with its place in the member's
// list of teams (GSI1).
func teamMemberItem(tm model.TeamMembership, version int64) store.Item {
	it := records.Item(keys.TeamMember(tm.OrgID, tm.TeamID, tm.UserID), tm, version)
	g1 := keys.TeamMemberByUser(tm.OrgID, tm.UserID, tm.TeamID)
	it.GSI1PK, it.GSI1SK = g1.PK, g1.SK
	return it
}

// domainRef is the payload of an email-domain index item.
type domainRef struct {
	OrgID string `json:"orgId"`
}

func domainItem(domain, orgID string) store.Item {
	return records.Item(keys.EmailDomain(domain, orgID), domainRef{OrgID: orgID}, 1)
}

// allMembers reads every membership of an organization. Organizations are
// small enough (thousands of members at most) to read whole; lists that
// filter or sort other than by join time do it in memory.
func (s *Service) allMembers(ctx context.Context, orgID string) ([]model.Member, error) {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.MemberPrefix})
	if err != nil {
		return nil, fmt.Errorf("read members: %w", err)
	}
	return records.DecodeAll[model.Member](items)
}

// usersOf reads the users of members, in order.
func (s *Service) usersOf(ctx context.Context, ms []model.Member) ([]model.User, error) {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.UserID
	}
	return users.ReadAll(ctx, s.d.Store, ids)
}

// ownsTeam reports whether a member owns at least one team. The member's
// team counter spares the query for the many members in no team.
func (s *Service) ownsTeam(ctx context.Context, m model.Member) (bool, error) {
	if m.Teams == 0 {
		return false, nil
	}
	tms, err := s.teamMembershipsOf(ctx, m.OrgID, m.UserID)
	if err != nil {
		return false, err
	}
	for _, tm := range tms {
		if tm.Role == model.TeamOwner {
			return true, nil
		}
	}
	return false, nil
}

// teamMembershipsOf reads a member's team memberships (GSI1), by team id.
func (s *Service) teamMembershipsOf(ctx context.Context, orgID, userID string) ([]model.TeamMembership, error) {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{Index: store.GSI1, PK: keys.MemberTeams(orgID, userID)})
	if err != nil {
		return nil, fmt.Errorf("read teams of member: %w", err)
	}
	return records.DecodeAll[model.TeamMembership](items)
}
