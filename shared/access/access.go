// Package access is Galley's one authorization module: who the caller is,
// what their role in an organization is, and what that role allows. Services
// ask it before acting; handlers never decide rights themselves.
// The model is documented in docs/permissions.md.
package access

import (
	"context"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Caller is the authenticated user of a request.
type Caller struct {
	UserID        string
	InstanceAdmin bool
}

type callerKey struct{}

// WithCaller returns ctx carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller of ctx; a request that reached a service
// without one is a wiring error, answered as unauthorized.
func CallerFrom(ctx context.Context) (Caller, error) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	if !ok || c.UserID == "" {
		return Caller{}, apperr.New(apperr.Unauthorized, "authentication required")
	}
	return c, nil
}

// Membership is the caller's standing in one organization.
type Membership struct {
	Member  model.Member
	Version int64
}

// Role is the member's role ("" for a guest).
func (m Membership) Role() model.Role { return m.Member.Role }

// Authorizer answers "may the caller do this" from stored memberships.
type Authorizer struct {
	store store.Store
}

// NewAuthorizer returns an Authorizer reading memberships from s.
func NewAuthorizer(s store.Store) *Authorizer { return &Authorizer{store: s} }

// Membership returns the caller's membership of org. A caller who is not a
// member (or whose membership is disabled) gets NotFound: organizations are
// invisible to outsiders.
func (a *Authorizer) Membership(ctx context.Context, c Caller, orgID string) (Membership, error) {
	m, v, err := records.Get[model.Member](ctx, a.store, keys.Member(orgID, c.UserID))
	if errors.Is(err, store.ErrNotFound) || (err == nil && m.Disabled) {
		return Membership{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	if err != nil {
		return Membership{}, fmt.Errorf("read membership: %w", err)
	}
	return Membership{Member: m, Version: v}, nil
}

// Require returns the caller's membership if it allows op, else Forbidden
// (or NotFound for outsiders).
func (a *Authorizer) Require(ctx context.Context, c Caller, orgID string, op OrgOp) (Membership, error) {
	m, err := a.Membership(ctx, c, orgID)
	if err != nil {
		return m, err
	}
	if !Allowed(m.Role(), op) {
		return m, apperr.Forbiddenf("your role in this organization does not allow this (%s)", op)
	}
	return m, nil
}
