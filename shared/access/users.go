package access

import (
	"context"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// SeesUser reports whether c may see the user userID (getUserById): c
// themselves; anyone, for the instance administrator; otherwise a member
// of an organization in which c's membership (as Membership judges it)
// allows ListMembers. It reads c's memberships (GSI1), then userID's
// membership of each organization that qualifies.
func (a *Authorizer) SeesUser(ctx context.Context, c Caller, userID string) (bool, error) {
	if c.UserID == userID || c.InstanceAdmin {
		return true, nil
	}
	q := store.Query{Index: store.GSI1, PK: keys.UserOrgs(c.UserID), SKPrefix: keys.OrgPrefix, Limit: 100}
	for {
		p, err := a.store.Query(ctx, q)
		if err != nil {
			return false, fmt.Errorf("list memberships: %w", err)
		}
		for _, it := range p.Items {
			mine, err := records.Decode[memberOrg](it)
			if err != nil {
				return false, fmt.Errorf("read membership: %w", err)
			}
			m, err := a.membership(ctx, c, mine.OrgID, it)
			if apperr.KindOf(err) == apperr.NotFound || apperr.KindOf(err) == apperr.Forbidden {
				continue
			}
			if err != nil {
				return false, err
			}
			if !Allowed(m.Role(), ListMembers) {
				continue
			}
			k := keys.Member(mine.OrgID, userID)
			if _, err := a.store.Get(ctx, k.PK, k.SK); err == nil {
				return true, nil
			} else if !errors.Is(err, store.ErrNotFound) {
				return false, fmt.Errorf("read membership: %w", err)
			}
		}
		if p.Next == nil {
			return false, nil
		}
		q.After = p.Next
	}
}

type memberOrg struct {
	OrgID string `json:"orgId"`
}

// RequireInstanceAdmin is the one entry point of a decision reserved to
// the instance administrator: it answers the caller of ctx if they are
// (a token of an organization's sign-in never is), Unauthorized without a
// caller, Forbidden otherwise.
func RequireInstanceAdmin(ctx context.Context) (Caller, error) {
	c, err := CallerFrom(ctx)
	if err != nil {
		return c, err
	}
	if !c.InstanceAdmin {
		return c, apperr.Forbiddenf("only the instance administrator may manage users")
	}
	return c, nil
}
