// Package access is Galley's one authorization module: who the caller is,
// what their role in an organization is, and what that role allows. Services
// ask it before acting; handlers never decide rights themselves.
// The model is documented in docs/permissions.md.
package access

import (
	"context"
	"errors"
	"fmt"
	"slices"

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
	// OrgID, when set, is the one organization the caller's token may act
	// in (a token issued by that organization's SSO sign-in).
	OrgID string
	// Site, when set, is a site visitor's token (see SiteVisitor); UserID
	// is then empty.
	Site *SiteVisitor
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

// Origin is where a request comes from: the client's address (as the
// rate limiter keys anonymous callers) and its User-Agent header. The HTTP
// layer sets it on every request; the audit log records it with each
// change (docs/audit.md).
type Origin struct {
	Address, UserAgent string
}

type originKey struct{}

// WithOrigin returns ctx carrying o.
func WithOrigin(ctx context.Context, o Origin) context.Context {
	return context.WithValue(ctx, originKey{}, o)
}

// OriginFrom returns the origin of ctx (zero outside a request: a job).
func OriginFrom(ctx context.Context) Origin {
	o, _ := ctx.Value(originKey{}).(Origin)
	return o
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
	// members keeps the last membership records decoded (every request
	// decodes the caller's).
	members *records.Memo[model.Member]
}

// NewAuthorizer returns an Authorizer reading memberships from s.
func NewAuthorizer(s store.Store) *Authorizer {
	return &Authorizer{store: s, members: records.NewMemo(maxDecodedMembers, cloneMember)}
}

// maxDecodedMembers bounds the kept membership records.
const maxDecodedMembers = 4096

// cloneMember is a copy of m sharing nothing a caller could change.
func cloneMember(m model.Member) model.Member {
	m.TeamIDs = slices.Clone(m.TeamIDs)
	if m.LastSeenAt != nil {
		t := *m.LastSeenAt
		m.LastSeenAt = &t
	}
	return m
}

// Membership returns the caller's membership of org. A caller who is not a
// member (or whose membership is disabled) gets NotFound: organizations are
// invisible to outsiders.
//
// A token scoped to another organization sees this one as an outsider
// (NotFound). An SSO member of an organization that enforces SSO acts in it
// only with a token of its SSO sign-in (else Forbidden); admins are exempt,
// so that an organization can never be locked out. The organization is
// read only for SSO members holding another token, so the check costs
// nothing on the usual path.
func (a *Authorizer) Membership(ctx context.Context, c Caller, orgID string) (Membership, error) {
	if c.OrgID != "" && c.OrgID != orgID {
		return Membership{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	k := keys.Member(orgID, c.UserID)
	it, err := a.store.Get(ctx, k.PK, k.SK)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Membership{}, fmt.Errorf("read membership: %w", err)
	}
	return a.membership(ctx, c, orgID, it)
}

// membership judges the caller's membership item of orgID (the zero Item
// when there is none), as Membership describes.
func (a *Authorizer) membership(ctx context.Context, c Caller, orgID string, it store.Item) (Membership, error) {
	if c.OrgID != "" && c.OrgID != orgID {
		return Membership{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	if it.PK == "" {
		return Membership{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	m, err := a.members.Decode(it)
	if err != nil {
		return Membership{}, fmt.Errorf("read membership: %w", err)
	}
	if m.Disabled {
		return Membership{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	if m.SSO && c.OrgID != orgID && m.Role != model.RoleAdmin {
		o, _, err := records.Get[model.Organization](ctx, a.store, keys.Org(orgID))
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return Membership{}, fmt.Errorf("read organization: %w", err)
		}
		if o.SSO {
			return Membership{}, apperr.Forbiddenf("organization %s requires its SSO members to sign in through its identity provider (GET /v1/orgs/%s/sso)", orgID, orgID)
		}
	}
	return Membership{Member: m, Version: it.Version}, nil
}

// OrgAccess is what RequireOrg allowed: the caller and their membership
// of the organization (its Role, "" for a guest).
type OrgAccess struct {
	Caller
	Membership
}

// OrgOption varies a RequireOrg decision.
type OrgOption func(*orgCheck)

type orgCheck struct {
	self       string // OrSelf's user
	hideBelow  OrgOp  // Hidden's operation
	hiddenKind string
	hiddenID   string
}

// OrSelf lets the caller act when they are userID themself, whatever their
// role (a guest included): a member may always act on their own membership.
func OrSelf(userID string) OrgOption {
	return func(c *orgCheck) { c.self = userID }
}

// Hidden answers NotFound ("<kind> <id> not found") to a member whose role
// does not allow op, before the role is checked against the operation
// asked: what they cannot read does not exist for them (a guest and a
// site).
func Hidden(op OrgOp, kind, id string) OrgOption {
	return func(c *orgCheck) { c.hideBelow, c.hiddenKind, c.hiddenID = op, kind, id }
}

// RequireOrg is the one entry point of a decision on an organization: it
// reads the caller of ctx and their membership of orgID, and answers both
// if their role allows op. A request without a caller is Unauthorized; an
// outsider (or a disabled member, or a token scoped to another
// organization) gets NotFound, as Membership says; a member whose role is
// too low gets Forbidden. ViewOrg asks for the membership only (every
// member may view their organization).
func (a *Authorizer) RequireOrg(ctx context.Context, orgID string, op OrgOp, opts ...OrgOption) (OrgAccess, error) {
	c, err := CallerFrom(ctx)
	if err != nil {
		return OrgAccess{}, err
	}
	m, err := a.Membership(ctx, c, orgID)
	if err != nil {
		return OrgAccess{}, err
	}
	var o orgCheck
	for _, opt := range opts {
		opt(&o)
	}
	if o.hideBelow != "" && !Allowed(m.Role(), o.hideBelow) {
		return OrgAccess{}, apperr.NotFoundf("%s %s not found", o.hiddenKind, o.hiddenID)
	}
	if (o.self == "" || o.self != c.UserID) && !Allowed(m.Role(), op) {
		return OrgAccess{}, apperr.Forbiddenf("your role in this organization does not allow this (%s)", op)
	}
	return OrgAccess{Caller: c, Membership: m}, nil
}
