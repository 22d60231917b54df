package orgs

import (
	"context"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// The orgs family owns the records of organizations, members, teams, team
// memberships, invites and email domains. Other families read them and
// take part in transactions with them through the functions below (no
// authorization: callers have authorized).

// ReadOrg returns an organization record and its version; NotFound if absent.
func ReadOrg(ctx context.Context, st store.Store, orgID string) (model.Organization, int64, error) {
	return records.Read[model.Organization](ctx, st, keys.Org(orgID), "organization", orgID)
}

// ReadTeam returns a team and its version; NotFound if absent.
func ReadTeam(ctx context.Context, st store.Store, orgID, teamID string) (model.Team, int64, error) {
	return records.Read[model.Team](ctx, st, keys.Team(orgID, teamID), "team", teamID)
}

// CheckOrg is the operation that makes the caller's transaction require
// the organization to exist (v 0) or to be still at version v: records of
// an organization are written only while it exists, and a change decided on
// the organization's settings only while they are unchanged.
func CheckOrg(orgID string, v int64) store.Op {
	k := keys.Org(orgID)
	if v == 0 {
		return store.Check(k.PK, k.SK, store.IfExists, 0)
	}
	return store.Check(k.PK, k.SK, store.IfVersion, v)
}

// MemberItem is a membership's item with its index keys (for fixtures and
// imports that write members in their own transactions).
func MemberItem(m model.Member, version int64) store.Item { return memberItem(m, version) }
