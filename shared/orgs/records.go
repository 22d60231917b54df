package orgs

import (
	"context"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/users"
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

// AddRecord writes v, a new record of an organization at k (version 1),
// while the organization exists and has fewer than max records under
// skPrefix in its partition (what names them: "an organization has at most
// 20 SAML providers"). A failed condition is store.ErrConflict, for the
// caller to name: k taken, or the organization gone; other errors are
// ready to return. extra are written in the same transaction (the
// creation's audit event). Counting first is enough for such limits: two creations
// racing may pass it together.
func AddRecord(ctx context.Context, st store.Store, orgID, skPrefix string, max int, what string, k keys.Key, v any, extra ...store.Op) error {
	existing, err := store.QueryAll(ctx, st, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: skPrefix})
	if err != nil {
		return fmt.Errorf("count %s: %w", what, err)
	}
	if len(existing) >= max {
		return apperr.Conflictf("an organization has at most %d %s", max, what)
	}
	err = st.Write(ctx, append([]store.Op{CheckOrg(orgID, 0), store.Put(records.Item(k, v, 1), store.IfNotExists)}, extra...)...)
	if err != nil && !errors.Is(err, store.ErrConflict) {
		return fmt.Errorf("create %s: %w", what, err)
	}
	return err
}

// RemoveRecord deletes an organization's record at k, for a caller
// allowed op on the organization: false when there was none (a DELETE
// answers 204 then, 205 otherwise). what names the record in errors.
func RemoveRecord(ctx context.Context, d *deps.Deps, orgID string, op access.OrgOp, k keys.Key, what string) (bool, error) {
	if _, err := d.Authz.RequireOrg(ctx, orgID, op); err != nil {
		return false, err
	}
	err := d.Store.Write(ctx, store.Delete(k.PK, k.SK, store.IfExists))
	if errors.Is(err, store.ErrConflict) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("delete %s: %w", what, err)
	}
	return true, nil
}

// MemberItem is a membership's item with its index keys (for fixtures and
// imports that write members in their own transactions).
func MemberItem(m model.Member, version int64) store.Item { return memberItem(m, version) }

// ListRecords is a page of an organization's records under skPrefix in
// its partition, in key order, for a caller allowed op on the
// organization, with the caller's role: the list of one kind of an
// organization's settings (custom fields, translation settings, OpenAPI
// specs). scope names the list for its cursors, what for errors.
func ListRecords[T any](ctx context.Context, d *deps.Deps, orgID string, op access.OrgOp, scope, skPrefix, what string, r paging.Request) (paging.Page[T], model.Role, error) {
	acc, err := d.Authz.RequireOrg(ctx, orgID, op)
	if err != nil {
		return paging.Page[T]{}, "", err
	}
	p, err := records.Page[T](ctx, d.Store, d.Cursors, scope+":"+orgID, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: skPrefix}, r, what)
	if err != nil {
		return p, "", err
	}
	return p, acc.Role(), nil
}

// ReadMembers reads the memberships of users in an organization, without
// authorization, in the order of userIDs (each read once). Users who are not
// members are left out.
func ReadMembers(ctx context.Context, st store.Store, orgID string, userIDs []string) ([]model.Member, error) {
	ks := make([]keys.Key, 0, len(userIDs))
	seen := make(map[string]bool, len(userIDs))
	for _, id := range userIDs {
		if !seen[id] { // a request may name a user twice; a batch reads a key once
			seen[id] = true
			ks = append(ks, keys.Member(orgID, id))
		}
	}
	ms, err := records.Existing[model.Member](ctx, st, ks)
	if err != nil {
		return nil, fmt.Errorf("read members: %w", err)
	}
	return ms, nil
}

// ReadMembersWithUsers returns members of orgID with their users: those
// ReadMembers finds for userIDs, or every member when userIDs is nil. It
// decides nothing: services call it once their caller may see the members
// (the permissions of a space list them).
func ReadMembersWithUsers(ctx context.Context, st store.Store, orgID string, userIDs []string) ([]MemberWithUser, error) {
	var ms []model.Member
	var err error
	if userIDs == nil {
		items, qerr := store.QueryAll(ctx, st, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.MemberPrefix})
		if qerr != nil {
			return nil, fmt.Errorf("read members: %w", qerr)
		}
		ms, err = records.DecodeAll[model.Member](items)
	} else {
		ms, err = ReadMembers(ctx, st, orgID, userIDs)
	}
	if err != nil {
		return nil, err
	}
	return withUsers(ctx, st, ms)
}

// withUsers reads the users of members, in order.
func withUsers(ctx context.Context, st store.Store, ms []model.Member) ([]MemberWithUser, error) {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.UserID
	}
	us, err := users.ReadAll(ctx, st, ids)
	if err != nil {
		return nil, err
	}
	out := make([]MemberWithUser, len(ms))
	for i, m := range ms {
		out[i] = MemberWithUser{Member: m, User: us[i]}
	}
	return out, nil
}
