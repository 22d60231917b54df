// Package scim is SCIM 2.0 provisioning (RFC 7643, RFC 7644) of an
// organization's members and teams by its identity provider (Okta,
// Microsoft Entra ID, ...): the organization's SCIM tokens, the protocol's
// resources (Users are members, Groups are teams), filters, paging and
// PATCH. docs/scim.md tells the whole story.
//
// The service knows no HTTP (package scimhttp serves the protocol). It owns
// the SCIM tokens and what SCIM keeps of members and teams beyond them
// (externalId, name parts: model.SCIMUser, model.SCIMGroup); the members
// and teams themselves are the organizations family's, changed through its
// Provisioner, the users through the users family.
package scim

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// TokenPrefix starts every SCIM token, so leaked ones are easy to spot
// and never mistaken for a user's API token.
const TokenPrefix = "gly_scim_"

// MaxTokens is the most SCIM tokens an organization has (one per identity
// provider application, and one more while rotating).
const MaxTokens = 10

// Users is what SCIM asks of the users family (users.Service).
type Users interface {
	FindOrProvision(ctx context.Context, email, displayName string) (model.User, error)
	RevokeOrgTokens(ctx context.Context, userID, orgID string, unscoped bool) (int, error)
}

// Orgs is what SCIM asks of the organizations family (orgs.Service).
type Orgs interface {
	Provision(orgID string, actor model.AuditRef) *orgs.Provisioner
}

// Recorder records the changes of SCIM tokens in the organization's audit
// log (package audit).
type Recorder interface {
	Op(ctx context.Context, ch model.AuditChange) store.Op
}

// Service manages SCIM tokens and serves SCIM requests.
type Service struct {
	d     *deps.Deps
	users Users
	orgs  Orgs
	audit Recorder
}

// New returns the SCIM service.
func New(d *deps.Deps, u Users, o Orgs, rec Recorder) *Service {
	return &Service{d: d, users: u, orgs: o, audit: rec}
}

// Scope is one authenticated SCIM request: the organization, the token
// that authenticated it, and the absolute base URL of the organization's
// SCIM endpoints (meta.location and $ref are built on it).
type Scope struct {
	OrgID string
	Token model.SCIMToken
	Base  string
}

// actor is the SCIM token as the audit log names who made a change: an
// integration, in GitBook's kinds of actors.
func (sc Scope) actor() model.AuditRef {
	return model.AuditRef{Type: "integration", ID: sc.Token.ID, Label: "SCIM token " + sc.Token.Name}
}

func (s *Service) provisioner(sc Scope) *orgs.Provisioner {
	return s.orgs.Provision(sc.OrgID, sc.actor())
}

// kept reads what SCIM keeps at k and its version: nil when nothing is.
func kept[T any](ctx context.Context, st store.Store, k keys.Key) (*T, int64, error) {
	v, ver, err := records.Get[T](ctx, st, k)
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", k.SK, err)
	}
	return &v, ver, nil
}

// keptAll reads every record SCIM keeps in orgID under prefix, by id.
func keptAll[T any](ctx context.Context, st store.Store, orgID, prefix string, id func(T) string) (map[string]T, error) {
	items, err := store.QueryAll(ctx, st, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: prefix})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", prefix, err)
	}
	rs, err := records.DecodeAll[T](items)
	out := make(map[string]T, len(rs))
	for _, r := range rs {
		out[id(r)] = r
	}
	return out, err
}

// Authenticate checks a SCIM bearer token for orgID: one read by its hash,
// never cached, so that a revoked token stops at its next request. A token
// of another organization is refused as an unknown one (Unauthorized).
func (s *Service) Authenticate(ctx context.Context, orgID, token string) (model.SCIMToken, error) {
	if token == "" {
		return model.SCIMToken{}, apperr.New(apperr.Unauthorized, "missing bearer token in the Authorization header")
	}
	if !strings.HasPrefix(token, TokenPrefix) || len(token) > 200 {
		return model.SCIMToken{}, apperr.New(apperr.Unauthorized, "invalid SCIM token")
	}
	t, _, err := records.Get[model.SCIMToken](ctx, s.d.Store, keys.SCIMToken(ids.Hash(token)))
	if errors.Is(err, store.ErrNotFound) || (err == nil && t.OrgID != orgID) {
		return model.SCIMToken{}, apperr.New(apperr.Unauthorized, "invalid SCIM token")
	}
	if err != nil {
		return model.SCIMToken{}, fmt.Errorf("read SCIM token: %w", err)
	}
	return t, nil
}

// CreateToken makes a SCIM token of orgID named name (organization admins
// only); its secret is returned this once, only its hash is stored.
func (s *Service) CreateToken(ctx context.Context, orgID, name string) (model.SCIMToken, string, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg)
	if err != nil {
		return model.SCIMToken{}, "", err
	}
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 100 {
		return model.SCIMToken{}, "", apperr.Field("name", "must be 1 to 100 characters")
	}
	secret := ids.Secret(TokenPrefix, 32)
	now := s.d.Clock()
	t := model.SCIMToken{ID: ids.New(now), OrgID: orgID, Name: name, CreatedAt: now, CreatedBy: acc.UserID}
	ref := t
	ref.Hash = ids.Hash(secret)
	ev := model.AuditChange{OrgID: orgID, Action: model.AuditSCIMTokenCreated, Target: model.AuditRef{Type: "scim-token", ID: t.ID, Label: name}, Payload: map[string]any{"name": name}}
	err = orgs.AddRecord(ctx, s.d.Store, orgID, keys.SCIMTokenPrefix, MaxTokens, "SCIM tokens", keys.SCIMTokenRef(orgID, t.ID), ref,
		store.Put(records.Item(keys.SCIMToken(ref.Hash), t, 1), store.IfNotExists), s.audit.Op(ctx, ev))
	if errors.Is(err, store.ErrConflict) {
		return model.SCIMToken{}, "", apperr.NotFoundf("organization %s not found", orgID)
	}
	if err != nil {
		return model.SCIMToken{}, "", err
	}
	return t, secret, nil
}

// Tokens lists orgID's SCIM tokens, oldest first (admins only), never
// their secrets.
func (s *Service) Tokens(ctx context.Context, orgID string) ([]model.SCIMToken, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg); err != nil {
		return nil, err
	}
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.SCIMTokenPrefix})
	if err != nil {
		return nil, fmt.Errorf("list SCIM tokens: %w", err)
	}
	ts, err := records.DecodeAll[model.SCIMToken](items)
	for i := range ts {
		ts[i].Hash = ""
	}
	return ts, err
}

// RevokeToken deletes a SCIM token at once (admins only): removed is false
// when there was none.
func (s *Service) RevokeToken(ctx context.Context, orgID, tokenID string) (bool, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg); err != nil {
		return false, err
	}
	rk := keys.SCIMTokenRef(orgID, tokenID)
	ref, v, err := records.Get[model.SCIMToken](ctx, s.d.Store, rk)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read SCIM token: %w", err)
	}
	tk := keys.SCIMToken(ref.Hash)
	ev := model.AuditChange{OrgID: orgID, Action: model.AuditSCIMTokenRevoked, Target: model.AuditRef{Type: "scim-token", ID: tokenID, Label: ref.Name}}
	err = s.d.Store.Write(ctx, store.DeleteIfVersion(rk.PK, rk.SK, v), store.Delete(tk.PK, tk.SK, store.Always), s.audit.Op(ctx, ev))
	if errors.Is(err, store.ErrConflict) {
		return false, nil // revoked meanwhile
	}
	if err != nil {
		return false, fmt.Errorf("revoke SCIM token: %w", err)
	}
	return true, nil
}
