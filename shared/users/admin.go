package users

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// List lists the instance's users in creation order (administrator only).
// Users made before the list existed show once they are updated.
func (s *Service) List(ctx context.Context, r paging.Request) (paging.Page[model.User], error) {
	if _, err := access.RequireInstanceAdmin(ctx); err != nil {
		return paging.Page[model.User]{}, err
	}
	return records.Page[model.User](ctx, s.d.Store, s.d.Cursors, "users", store.Query{Index: store.GSI1, PK: keys.AllUsers()}, r, "users")
}

// UserChange is the input of Update: nil fields are left as they are.
type UserChange struct {
	DisplayName *string
	// PhotoURL "" removes the photo.
	PhotoURL *string
	Disabled *bool
}

// Update changes a user (administrator only). Disabling a user disables
// their tokens in the same transaction: they stop at once (see
// TokenCacheTTL for other processes); enabling restores them. The
// administrator cannot disable themselves.
func (s *Service) Update(ctx context.Context, userID string, ch UserChange) (model.User, error) {
	c, err := access.RequireInstanceAdmin(ctx)
	if err != nil {
		return model.User{}, err
	}
	return s.update(ctx, c, userID, ch)
}

// UpdateProfile changes a user's display name and photo
// (PATCH /v1/users/{userId}): the user themself or the instance
// administrator. A caller who may see the user otherwise (SeesUser: an
// organization's member listing them) is Forbidden; to anyone else the
// user does not exist (NotFound).
func (s *Service) UpdateProfile(ctx context.Context, userID string, displayName, photoURL *string) (model.User, error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return model.User{}, err
	}
	if c.UserID != userID && !c.InstanceAdmin {
		if _, err := s.Visible(ctx, userID); err != nil {
			return model.User{}, err
		}
		return model.User{}, apperr.Forbiddenf("only the user themself or the instance administrator may change their profile")
	}
	return s.update(ctx, c, userID, UserChange{DisplayName: displayName, PhotoURL: photoURL})
}

func (s *Service) update(ctx context.Context, c access.Caller, userID string, ch UserChange) (model.User, error) {
	if ch.DisplayName != nil {
		name := strings.TrimSpace(*ch.DisplayName)
		if name == "" || len([]rune(name)) > 100 {
			return model.User{}, apperr.Field("displayName", "must be 1 to 100 characters")
		}
		ch.DisplayName = &name
	}
	if ch.Disabled != nil && *ch.Disabled && userID == c.UserID {
		return model.User{}, apperr.Conflictf("you cannot disable yourself")
	}
	if ch.PhotoURL != nil && *ch.PhotoURL != "" {
		if u, err := url.Parse(*ch.PhotoURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return model.User{}, apperr.Field("photoURL", "must be an http or https URL")
		}
	}
	var out model.User
	var dropped []string
	err := store.Retry(ctx, func() error {
		u, v, err := records.Read[model.User](ctx, s.d.Store, keys.User(userID), "user", userID)
		if err != nil {
			return err
		}
		records.Set(&u.DisplayName, ch.DisplayName)
		records.Set(&u.PhotoURL, ch.PhotoURL)
		ops := []store.Op{}
		dropped = dropped[:0]
		if ch.Disabled != nil && *ch.Disabled != u.Disabled {
			u.Disabled = *ch.Disabled
			refs, _, err := s.refs(ctx, userID)
			if err != nil {
				return err
			}
			for _, r := range refs {
				t, tv, err := records.Get[model.Token](ctx, s.d.Store, keys.Token(r.Hash))
				if errors.Is(err, store.ErrNotFound) {
					continue
				}
				if err != nil {
					return fmt.Errorf("read token: %w", err)
				}
				t.Disabled = u.Disabled
				ops = append(ops, store.PutIfVersion(records.Item(keys.Token(r.Hash), t, tv+1), tv))
				dropped = append(dropped, r.Hash)
			}
		}
		ops = append(ops, store.PutIfVersion(userItem(u, v+1), v))
		out = u
		return s.d.Store.Write(ctx, ops...)
	})
	for _, h := range dropped {
		s.tokens.drop(h)
	}
	return out, err
}

// Delete removes a user, their email and their tokens (administrator
// only; not themselves). Their memberships stay and show them by id, as
// the records they made do.
func (s *Service) Delete(ctx context.Context, userID string) error {
	c, err := access.RequireInstanceAdmin(ctx)
	if err != nil {
		return err
	}
	if userID == c.UserID {
		return apperr.Conflictf("you cannot delete yourself")
	}
	u, v, err := records.Read[model.User](ctx, s.d.Store, keys.User(userID), "user", userID)
	if err != nil {
		return err
	}
	refs, _, err := s.refs(ctx, userID)
	if err != nil {
		return err
	}
	uk, ek := keys.User(userID), keys.Email(u.Email)
	ops := []store.Op{store.DeleteIfVersion(uk.PK, uk.SK, v), store.Delete(ek.PK, ek.SK, store.Always)}
	for _, r := range refs {
		tk, rk := keys.Token(r.Hash), keys.TokenRef(userID, r.ID)
		ops = append(ops, store.Delete(tk.PK, tk.SK, store.Always), store.Delete(rk.PK, rk.SK, store.Always))
	}
	if err := s.d.Store.Write(ctx, ops...); errors.Is(err, store.ErrConflict) {
		return apperr.Conflictf("the user changed meanwhile; try again")
	} else if err != nil {
		return fmt.Errorf("delete user: %w", err)
	}
	for _, r := range refs {
		s.tokens.drop(r.Hash)
	}
	return nil
}
