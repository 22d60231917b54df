package users

import (
	"context"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

// Visible returns a user the caller may see (access.Authorizer.SeesUser:
// themselves, a member of an organization whose members the caller may
// list, anyone for the instance administrator). Everyone else, like an
// unknown id, is NotFound: users are invisible to those who share nothing
// with them.
func (s *Service) Visible(ctx context.Context, userID string) (model.User, error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return model.User{}, err
	}
	ok, err := s.d.Authz.SeesUser(ctx, c, userID)
	if err != nil {
		return model.User{}, err
	}
	if !ok {
		return model.User{}, apperr.NotFoundf("user %s not found", userID)
	}
	return s.Get(ctx, userID)
}
