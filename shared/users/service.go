// Package users is the users family: accounts, API tokens, the instance
// administrator, and authentication of requests.
package users

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/sitetoken"
	"github.com/galleydocs/galley/shared/store"
)

// TokenPrefix starts every API token, so leaked tokens are easy to spot.
const TokenPrefix = "gly_"

// AdminEmail is the address of the bootstrapped instance administrator.
const AdminEmail = "admin@localhost"

// Service manages users and tokens.
type Service struct {
	d      *deps.Deps
	tokens *tokenCache
}

// New returns the users service.
func New(d *deps.Deps) *Service { return &Service{d: d, tokens: newTokenCache()} }

// Authenticate implements httpapi.Authenticator: one read, by the token's
// hash (two for tokens made before tokens copied their user's flag), which
// the process trusts for TokenCacheTTL (see tokenCache).
func (s *Service) Authenticate(ctx context.Context, token string) (access.Caller, error) {
	// Tokens made here start with TokenPrefix; an operator's BOOTSTRAP_TOKEN
	// may be anything, so only the length is checked before the lookup.
	if sitetoken.Looks(token) {
		return s.siteVisitor(ctx, token)
	}
	if len(token) > 200 {
		return access.Caller{}, apperr.New(apperr.Unauthorized, "invalid token")
	}
	hash := ids.Hash(token)
	now := s.d.Clock()
	if c, ok := s.tokens.get(hash, now); ok {
		return c, nil
	}
	t, v, err := records.Get[model.Token](ctx, s.d.Store, keys.Token(hash))
	if errors.Is(err, store.ErrNotFound) {
		return access.Caller{}, apperr.New(apperr.Unauthorized, "invalid token")
	}
	if err != nil {
		return access.Caller{}, fmt.Errorf("read token: %w", err)
	}
	switch {
	case t.Disabled:
		return access.Caller{}, apperr.New(apperr.Unauthorized, "the token's user is disabled")
	case t.ExpiresAt != nil && !now.Before(*t.ExpiresAt):
		return access.Caller{}, apperr.New(apperr.Unauthorized, "the token has expired")
	}
	s.touch(ctx, hash, t, v, now)
	admin := false
	if t.InstanceAdmin != nil {
		admin = *t.InstanceAdmin
	} else {
		u, err := s.Get(ctx, t.UserID)
		if err != nil {
			return access.Caller{}, err
		}
		admin = u.InstanceAdmin
	}
	// A token scoped to an organization never carries instance rights: an
	// organization's identity provider vouches for nothing outside it.
	c := access.Caller{UserID: t.UserID, InstanceAdmin: admin && t.OrgID == "", OrgID: t.OrgID}
	until := now.Add(TokenCacheTTL)
	if t.ExpiresAt != nil && t.ExpiresAt.Before(until) {
		until = *t.ExpiresAt
	}
	s.tokens.put(hash, c, until)
	return c, nil
}

// siteVisitor authenticates a published site's visitor by their site token
// (no storage read: the token is signed). The caller has no user, so only
// the reads that accept a site visitor (access.VisitorFrom) serve it.
func (s *Service) siteVisitor(ctx context.Context, token string) (access.Caller, error) {
	if len(token) > 16<<10 {
		return access.Caller{}, apperr.New(apperr.Unauthorized, "invalid token")
	}
	key, err := s.d.Secret.Derive(ctx, sitetoken.Purpose)
	if err != nil {
		return access.Caller{}, err
	}
	c, err := sitetoken.Verify(key, token, s.d.Clock())
	if err != nil {
		return access.Caller{}, apperr.New(apperr.Unauthorized, "invalid or expired site token")
	}
	return access.Caller{Site: &access.SiteVisitor{SiteID: c.Site, OrgID: c.Organization, SpaceIDs: c.Spaces, LinkIDs: c.Links, Preview: c.Preview}}, nil
}

// Get returns a user.
func (s *Service) Get(ctx context.Context, userID string) (model.User, error) {
	u, _, err := records.Get[model.User](ctx, s.d.Store, keys.User(userID))
	if errors.Is(err, store.ErrNotFound) {
		return u, apperr.NotFoundf("user %s not found", userID)
	}
	return u, err
}

// ByEmail returns the user with an address, NotFound if none.
func (s *Service) ByEmail(ctx context.Context, email string) (model.User, error) {
	ref, _, err := records.Get[struct {
		UserID string `json:"userId"`
	}](ctx, s.d.Store, keys.Email(ids.NormalizeEmail(email)))
	if errors.Is(err, store.ErrNotFound) {
		return model.User{}, apperr.NotFoundf("no user has the email %s", email)
	}
	if err != nil {
		return model.User{}, err
	}
	return s.Get(ctx, ref.UserID)
}

// Create makes a user and their first token (whose secret is returned once:
// only its hash is stored). Only the instance administrator may.
func (s *Service) Create(ctx context.Context, email, displayName string) (model.User, string, error) {
	if _, err := access.RequireInstanceAdmin(ctx); err != nil {
		return model.User{}, "", err
	}
	return s.create(ctx, email, displayName, false, "")
}

// Bootstrap creates the instance administrator with token when no
// administrator exists yet; it returns whether it did. An empty token makes
// a new one, returned.
func (s *Service) Bootstrap(ctx context.Context, token string) (bool, string, error) {
	return s.BootstrapAs(ctx, AdminEmail, "Administrator", token)
}

// BootstrapAs is Bootstrap with the administrator's email and name (the
// administration command of a deployment, functions/admin).
func (s *Service) BootstrapAs(ctx context.Context, email, displayName, token string) (bool, string, error) {
	if _, err := s.d.Store.Get(ctx, keys.InstanceAdmin().PK, keys.InstanceAdmin().SK); err == nil {
		return false, "", nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return false, "", err
	}
	_, tok, err := s.create(ctx, email, displayName, true, token)
	if apperr.Is(err, apperr.Conflict) {
		return false, "", nil // another process bootstrapped first
	}
	return err == nil, tok, err
}

func (s *Service) create(ctx context.Context, email, displayName string, admin bool, token string) (model.User, string, error) {
	email = ids.NormalizeEmail(email)
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > 320 {
		return model.User{}, "", apperr.Field("email", "not a valid email address")
	}
	displayName = strings.TrimSpace(displayName)
	if displayName == "" || len(displayName) > 100 {
		return model.User{}, "", apperr.Field("displayName", "must be 1 to 100 characters")
	}
	now := s.d.Clock()
	u := model.User{ID: ids.New(now), Email: email, DisplayName: displayName, CreatedAt: now, InstanceAdmin: admin}
	token, _, tokenOps := s.newToken(u, "First token", "", nil, token)
	ops := append([]store.Op{
		store.Put(userItem(u, 1), store.IfNotExists),
		store.Put(records.Item(keys.Email(email), map[string]string{"userId": u.ID}, 1), store.IfNotExists),
	}, tokenOps...)
	if admin {
		ops = append(ops, store.Put(records.Item(keys.InstanceAdmin(), map[string]string{"userId": u.ID}, 1), store.IfNotExists))
	}
	if err := s.d.Store.Write(ctx, ops...); errors.Is(err, store.ErrConflict) {
		return model.User{}, "", apperr.Conflictf("a user with the email %s already exists", email)
	} else if err != nil {
		return model.User{}, "", fmt.Errorf("create user: %w", err)
	}
	return u, token, nil
}

// ReadAll reads users by id, in order, without authorization (for other
// families listing their own records' users); a missing user is an error.
func ReadAll(ctx context.Context, st store.Store, userIDs []string) ([]model.User, error) {
	ks := make([]keys.Key, len(userIDs))
	for i, id := range userIDs {
		ks[i] = keys.User(id)
	}
	return records.GetAll[model.User](ctx, st, ks)
}
