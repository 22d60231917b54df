package users

import (
	"context"
	"fmt"
	"net/mail"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

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
