package users

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Token limits.
const (
	// MaxTokens bounds a user's tokens, so that disabling a user rewrites
	// them all in one transaction.
	MaxTokens = 40
	// lastUsedEvery is how stale a token's lastUsedAt may get: a request
	// writes it only when it is older (one write an hour per token, not one
	// per request).
	lastUsedEvery = time.Hour
)

// userItem is a user's item: by id, and in the list of users (GSI1).
func userItem(u model.User, version int64) store.Item {
	it := records.Item(keys.User(u.ID), u, version)
	ik := keys.UserInList(u.ID)
	it.GSI1PK, it.GSI1SK = ik.PK, ik.SK
	return it
}

// newToken makes a token of u (a new secret when secret is ""): the
// secret, its reference, and the writes of the token (by its hash) and the
// reference.
func (s *Service) newToken(u model.User, name, orgID string, expires *time.Time, secret string) (string, model.TokenRef, []store.Op) {
	if secret == "" {
		secret = ids.Secret(TokenPrefix, 32)
	}
	now := s.d.Clock()
	admin := u.InstanceAdmin && orgID == ""
	t := model.Token{ID: ids.New(now), UserID: u.ID, CreatedAt: now, OrgID: orgID, InstanceAdmin: &admin, Name: name,
		ExpiresAt: expires, Disabled: u.Disabled}
	ref := model.TokenRef{ID: t.ID, UserID: u.ID, Hash: ids.Hash(secret), Name: name, OrgID: orgID, CreatedAt: now, ExpiresAt: expires}
	return secret, ref, []store.Op{
		store.Put(records.Item(keys.Token(ref.Hash), t, 1), store.IfNotExists),
		store.Put(records.Item(keys.TokenRef(u.ID, t.ID), ref, 1), store.IfNotExists),
	}
}

// touch records that a token was used, at most once per lastUsedEvery;
// a failed write only loses the time.
func (s *Service) touch(ctx context.Context, hash string, t model.Token, v int64, now time.Time) {
	if t.LastUsedAt != nil && now.Sub(*t.LastUsedAt) < lastUsedEvery {
		return
	}
	t.LastUsedAt = &now
	if err := s.d.Store.Write(ctx, store.PutIfVersion(records.Item(keys.Token(hash), t, v+1), v)); err != nil && !errors.Is(err, store.ErrConflict) {
		s.d.Logger.WarnContext(ctx, "record a token's last use", "err", err.Error())
	}
}

// TokenInfo is a token as listed: never its secret.
type TokenInfo struct {
	model.TokenRef
	LastUsedAt *time.Time
}

// refs reads a user's token references.
func (s *Service) refs(ctx context.Context, userID string) ([]model.TokenRef, []int64, error) {
	p, err := s.d.Store.Query(ctx, store.Query{PK: keys.TokenRef(userID, "").PK, SKPrefix: keys.TokenRefPrefix, Limit: MaxTokens * 2})
	if err != nil {
		return nil, nil, fmt.Errorf("list tokens: %w", err)
	}
	var out []model.TokenRef
	var versions []int64
	for _, it := range p.Items {
		r, err := records.Decode[model.TokenRef](it)
		if err != nil {
			return nil, nil, err
		}
		out, versions = append(out, r), append(versions, it.Version)
	}
	return out, versions, nil
}

// forUser checks the caller may manage userID's tokens (themselves, or
// the instance administrator) and reads the user.
func (s *Service) forUser(ctx context.Context, userID string) (model.User, error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return model.User{}, err
	}
	if userID == "" {
		userID = c.UserID
	}
	if c.UserID != userID && !c.InstanceAdmin {
		return model.User{}, apperr.NotFoundf("user %s not found", userID)
	}
	if c.OrgID != "" {
		return model.User{}, apperr.Forbiddenf("a token of an organization's sign-in cannot manage tokens")
	}
	return s.Get(ctx, userID)
}

// Tokens lists a user's tokens ("": the caller's), oldest first.
func (s *Service) Tokens(ctx context.Context, userID string) ([]TokenInfo, error) {
	u, err := s.forUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	refs, _, err := s.refs(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	ks := make([]keys.Key, len(refs))
	for i, r := range refs {
		ks[i] = keys.Token(r.Hash)
	}
	toks, err := records.GetAll[model.Token](ctx, s.d.Store, ks)
	if err != nil {
		return nil, fmt.Errorf("read tokens: %w", err)
	}
	out := make([]TokenInfo, len(refs))
	for i, r := range refs {
		out[i] = TokenInfo{TokenRef: r, LastUsedAt: toks[i].LastUsedAt}
	}
	return out, nil
}

// CreateToken makes a token of the caller, named, ending at expires (nil:
// never); its secret is returned this once.
func (s *Service) CreateToken(ctx context.Context, name string, expires *time.Time) (TokenInfo, string, error) {
	u, err := s.forUser(ctx, "")
	if err != nil {
		return TokenInfo{}, "", err
	}
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 100 {
		return TokenInfo{}, "", apperr.Field("name", "must be 1 to 100 characters")
	}
	if expires != nil && !expires.After(s.d.Clock()) {
		return TokenInfo{}, "", apperr.Field("expiresAt", "must be in the future")
	}
	refs, _, err := s.refs(ctx, u.ID)
	if err != nil {
		return TokenInfo{}, "", err
	}
	if len(refs) >= MaxTokens {
		return TokenInfo{}, "", apperr.Conflictf("you have %d tokens, the most a user may have; revoke one first", MaxTokens)
	}
	secret, ref, ops := s.newToken(u, name, "", expires, "")
	if err := s.d.Store.Write(ctx, ops...); err != nil {
		return TokenInfo{}, "", fmt.Errorf("create token: %w", err)
	}
	return TokenInfo{TokenRef: ref}, secret, nil
}

// RevokeToken deletes a token of a user ("": the caller's) at once.
func (s *Service) RevokeToken(ctx context.Context, userID, tokenID string) error {
	u, err := s.forUser(ctx, userID)
	if err != nil {
		return err
	}
	ref, v, err := records.Read[model.TokenRef](ctx, s.d.Store, keys.TokenRef(u.ID, tokenID), "token", tokenID)
	if err != nil {
		return err
	}
	tk, rk := keys.Token(ref.Hash), keys.TokenRef(u.ID, tokenID)
	if err := s.d.Store.Write(ctx, store.Delete(tk.PK, tk.SK, store.Always), store.DeleteIfVersion(rk.PK, rk.SK, v)); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return apperr.Conflictf("the token changed meanwhile; try again")
		}
		return fmt.Errorf("revoke token: %w", err)
	}
	s.tokens.drop(ref.Hash)
	return nil
}

// RotateToken gives a token of the caller a new secret; the old one stops
// at once. Its id, name and expiry stay.
func (s *Service) RotateToken(ctx context.Context, tokenID string) (TokenInfo, string, error) {
	u, err := s.forUser(ctx, "")
	if err != nil {
		return TokenInfo{}, "", err
	}
	ref, v, err := records.Read[model.TokenRef](ctx, s.d.Store, keys.TokenRef(u.ID, tokenID), "token", tokenID)
	if err != nil {
		return TokenInfo{}, "", err
	}
	old, _, err := records.Read[model.Token](ctx, s.d.Store, keys.Token(ref.Hash), "token", tokenID)
	if err != nil {
		return TokenInfo{}, "", err
	}
	secret := ids.Secret(TokenPrefix, 32)
	oldHash := ref.Hash
	ref.Hash = ids.Hash(secret)
	old.LastUsedAt = nil
	ok, rk := keys.Token(oldHash), keys.TokenRef(u.ID, tokenID)
	err = s.d.Store.Write(ctx,
		store.Delete(ok.PK, ok.SK, store.Always),
		store.Put(records.Item(keys.Token(ref.Hash), old, 1), store.IfNotExists),
		store.PutIfVersion(records.Item(rk, ref, v+1), v))
	if errors.Is(err, store.ErrConflict) {
		return TokenInfo{}, "", apperr.Conflictf("the token changed meanwhile; try again")
	}
	if err != nil {
		return TokenInfo{}, "", fmt.Errorf("rotate token: %w", err)
	}
	s.tokens.drop(oldHash)
	return TokenInfo{TokenRef: ref}, secret, nil
}

// FindOrProvision returns the user with an address, creating one (without
// a token) when nobody has it. It is for sign-ins whose identity provider
// has vouched for the address (shared/sso); it authorizes nothing itself.
// A display name given by the provider replaces the user's when it differs.
func (s *Service) FindOrProvision(ctx context.Context, email, displayName string) (model.User, error) {
	email = ids.NormalizeEmail(email)
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > 320 {
		return model.User{}, apperr.Field("email", "not a valid email address")
	}
	displayName = strings.TrimSpace(displayName)
	// The identity provider's name, when it gave a usable one, is kept in
	// step with the user's on each sign-in.
	fromIdP := displayName != "" && len([]rune(displayName)) <= 100
	if !fromIdP {
		displayName, _, _ = strings.Cut(email, "@")
	}
	var u model.User
	err := store.Retry(ctx, func() error {
		var err error
		if u, err = s.ByEmail(ctx, email); err == nil {
			if !fromIdP || u.DisplayName == displayName {
				return nil
			}
			cur, v, err := records.Get[model.User](ctx, s.d.Store, keys.User(u.ID))
			if err != nil {
				return fmt.Errorf("read user: %w", err)
			}
			cur.DisplayName = displayName
			if err := s.d.Store.Write(ctx, store.PutIfVersion(userItem(cur, v+1), v)); err != nil {
				return fmt.Errorf("update user: %w", err)
			}
			u = cur
			return nil
		}
		if !apperr.Is(err, apperr.NotFound) {
			return err
		}
		now := s.d.Clock()
		u = model.User{ID: ids.New(now), Email: email, DisplayName: displayName, CreatedAt: now}
		// A conflict: someone took the address meanwhile; read them.
		if err := s.d.Store.Write(ctx,
			store.Put(userItem(u, 1), store.IfNotExists),
			store.Put(records.Item(keys.Email(email), map[string]string{"userId": u.ID}, 1), store.IfNotExists)); err != nil {
			return fmt.Errorf("create user: %w", err)
		}
		return nil
	})
	if err != nil {
		return model.User{}, err
	}
	return u, nil
}

// IssueToken makes a new API token of a user, scoped to orgID when it is
// not empty, and returns its secret (only its hash is stored).
func (s *Service) IssueToken(ctx context.Context, userID, orgID string) (string, error) {
	u, err := s.Get(ctx, userID)
	if err != nil {
		return "", err
	}
	name := "API token"
	if orgID != "" {
		name = "Single sign-on to " + orgID
	}
	token, _, ops := s.newToken(u, name, orgID, nil, "")
	if err := s.d.Store.Write(ctx, ops...); err != nil {
		return "", fmt.Errorf("issue token: %w", err)
	}
	return token, nil
}

// RevokeOrgTokens deletes, at once, a user's tokens scoped to orgID and,
// when unscoped is set, their tokens of no organization too; it returns
// how many. It authorizes nothing: an organization's provisioning (package
// scim) calls it when it deactivates a member (docs/scim.md says which
// tokens). The tokens stop in this process at once (their cache entries
// are dropped); see TokenCacheTTL for other processes.
func (s *Service) RevokeOrgTokens(ctx context.Context, userID, orgID string, unscoped bool) (int, error) {
	refs, _, err := s.refs(ctx, userID)
	if err != nil {
		return 0, err
	}
	var ops []store.Op
	var hashes []string
	for _, r := range refs {
		if r.OrgID != orgID && (r.OrgID != "" || !unscoped) {
			continue
		}
		tk, rk := keys.Token(r.Hash), keys.TokenRef(userID, r.ID)
		ops = append(ops, store.Delete(tk.PK, tk.SK, store.Always), store.Delete(rk.PK, rk.SK, store.Always))
		hashes = append(hashes, r.Hash)
	}
	if len(ops) == 0 {
		return 0, nil
	}
	if err := s.d.Store.Write(ctx, ops...); err != nil {
		return 0, fmt.Errorf("revoke tokens: %w", err)
	}
	for _, h := range hashes {
		s.tokens.drop(h)
	}
	return len(hashes), nil
}
