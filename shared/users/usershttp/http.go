// Package usershttp is the users family's HTTP layer: the API shape of a
// user (embedded by every family's answers), the instance's API
// information, the administration of users and each user's tokens, on the
// service of package users (which knows no HTTP).
package usershttp

import (
	"context"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/users"
)

// APIInfo answers GET /v1/.
// User is a user in the API (users.User).
type User = users.User

// UserURLs are a user's links (users.UserURLs).
type UserURLs = users.UserURLs

// View renders a user for the API, with links under the request's base.
func View(ctx context.Context, u model.User) User { return users.ViewUser(httpapi.APIURL(ctx), u) }

// UserContributor is a user's part in a record (a comment's replies, a
// change request's edits): how many times, and when last.
type UserContributor struct {
	User      User      `json:"user"`
	Count     int       `json:"count"`
	UpdatedAt time.Time `json:"updatedAt"`
}

type APIInfo struct {
	Version string `json:"version" doc:"Release of Galley"`
	Build   string `json:"build" doc:"Build date in ISO format"`
}

// CreateUserInput is the body of POST /v1/admin/users.
type CreateUserInput struct {
	Body struct {
		Email       ids.ID `json:"email" maxLength:"320" format:"email"`
		DisplayName string `json:"displayName" minLength:"1" maxLength:"100"`
	}
}

// CreatedUser answers POST /v1/admin/users: the user and their first token,
// shown this once.
type CreatedUser struct {
	User  User   `json:"user"`
	Token string `json:"token" doc:"The user's first API token; it is not shown again"`
}

type userIn struct {
	UserID string `path:"userId" maxLength:"64" doc:"The user's id"`
}

// AdminUser is a user as the instance administrator sees them.
type AdminUser struct {
	User
	CreatedAt     time.Time `json:"createdAt"`
	InstanceAdmin bool      `json:"instanceAdmin"`
	Disabled      bool      `json:"disabled"`
}

func adminView(ctx context.Context, u model.User) AdminUser {
	return AdminUser{User: View(ctx, u), CreatedAt: u.CreatedAt, InstanceAdmin: u.InstanceAdmin, Disabled: u.Disabled}
}

// APIToken is a token as listed: never its secret.
type APIToken struct {
	Object       string     `json:"object" enum:"api-token"`
	ID           string     `json:"id"`
	Name         string     `json:"name"`
	CreatedAt    time.Time  `json:"createdAt"`
	ExpiresAt    *time.Time `json:"expiresAt,omitempty"`
	LastUsedAt   *time.Time `json:"lastUsedAt,omitempty" doc:"When a request last used it (to the hour)"`
	Organization string     `json:"organization,omitempty" doc:"The organization a single sign-on token is scoped to"`
}

func tokenView(t users.TokenInfo) APIToken {
	return APIToken{Object: "api-token", ID: t.ID, Name: t.Name, CreatedAt: t.CreatedAt, ExpiresAt: t.ExpiresAt,
		LastUsedAt: t.LastUsedAt, Organization: t.OrgID}
}

// NewToken answers the creation or rotation of a token: the secret is
// shown this once.
type NewToken struct {
	Token  APIToken `json:"token"`
	Secret string   `json:"secret" doc:"The token's secret; it is not shown again"`
}

type listUsersIn struct {
	httpapi.ListParams
}

type updateUserIn struct {
	UserID string `path:"userId" maxLength:"64"`
	Body   struct {
		DisplayName *string `json:"displayName,omitempty" minLength:"1" maxLength:"100"`
		Disabled    *bool   `json:"disabled,omitempty" doc:"A disabled user's tokens stop at once"`
	}
}

type updateProfileIn struct {
	UserID string `path:"userId" maxLength:"64"`
	Body   struct {
		DisplayName *string       `json:"displayName,omitempty" minLength:"1" maxLength:"64"`
		PhotoURL    *string       `json:"photoURL,omitempty" format:"uri" maxLength:"2048" nullable:"true" doc:"URL of the user's picture; null removes it"`
		Nulls       httpapi.Nulls `json:"-"`
	}
}

type createTokenIn struct {
	Body struct {
		Name      string     `json:"name" minLength:"1" maxLength:"100"`
		ExpiresAt *time.Time `json:"expiresAt,omitempty" doc:"When the token stops (default: never)"`
	}
}

type tokenIn struct {
	TokenID string `path:"tokenId" maxLength:"64"`
}

type userTokenIn struct {
	UserID  string `path:"userId" maxLength:"64"`
	TokenID string `path:"tokenId" maxLength:"64"`
}

type tokensOut struct {
	Body httpapi.List[APIToken]
}

// Register adds the users family's operations.
func Register(api *httpapi.API, s *users.Service) {
	const tag = "Users"
	httpapi.Register(api, httpapi.Op{ID: "getApiInformation", Needs: access.SignedIn, Method: http.MethodGet, Path: "/v1/", Tag: tag, Summary: "Get API information"},
		func(ctx context.Context, _ *struct{}) (*httpapi.Out[APIInfo], error) {
			return &httpapi.Out[APIInfo]{Body: APIInfo{Version: api.Config().Version, Build: api.Config().Build}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getAuthenticatedUser", Needs: access.SignedIn, Method: http.MethodGet, Path: "/v1/user", Tag: tag, Summary: "Get the authenticated user"},
		func(ctx context.Context, _ *struct{}) (*httpapi.Out[User], error) {
			c, err := access.CallerFrom(ctx)
			if err != nil {
				return nil, err
			}
			u, err := s.Get(ctx, c.UserID)
			if err != nil {
				return nil, err
			}
			return &httpapi.Out[User]{Body: View(ctx, u)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getUserById", Needs: access.Role(access.ListMembers).OrSelf(), Method: http.MethodGet, Path: "/v1/users/{userId}", Tag: tag,
		Summary: "Get a user by id (yourself, a user of an organization whose members you may list, or anyone for the instance administrator)"},
		func(ctx context.Context, in *userIn) (*httpapi.Out[User], error) {
			return httpapi.Answer(httpapi.In(ctx, View))(s.Visible(ctx, in.UserID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateUserById", Needs: access.InstanceAdmin.OrSelf(), Method: http.MethodPatch, Path: "/v1/users/{userId}", Tag: tag,
		Summary: "Change your display name or photo (the instance administrator: anyone's)"},
		func(ctx context.Context, in *updateProfileIn) (*httpapi.Out[User], error) {
			photo := in.Body.PhotoURL
			if in.Body.Nulls.Has("photoURL") {
				photo = new(string)
			}
			return httpapi.Answer(httpapi.In(ctx, View))(s.UpdateProfile(ctx, in.UserID, in.Body.DisplayName, photo))
		})
	httpapi.Register(api, httpapi.Op{ID: "createUser", Needs: access.InstanceAdmin, Method: http.MethodPost, Path: "/v1/admin/users", Tag: tag, Status: http.StatusCreated,
		Summary: "Create a user (instance administrator only)"},
		func(ctx context.Context, in *CreateUserInput) (*httpapi.Out[CreatedUser], error) {
			u, tok, err := s.Create(ctx, string(in.Body.Email), in.Body.DisplayName)
			if err != nil {
				return nil, err
			}
			return &httpapi.Out[CreatedUser]{Body: CreatedUser{User: View(ctx, u), Token: tok}}, nil
		})
	registerAdmin(api, s)
}

// registerAdmin adds the management of users (instance administrator) and
// of tokens (each user's own; the administrator's for anyone).
func registerAdmin(api *httpapi.API, s *users.Service) {
	const tag = "Users"
	tokensOf := func(ctx context.Context, userID string) (*tokensOut, error) {
		ts, err := s.Tokens(ctx, userID)
		if err != nil {
			return nil, err
		}
		return &tokensOut{Body: httpapi.ListOf(ts, nil, tokenView)}, nil
	}
	httpapi.Register(api, httpapi.Op{ID: "listUsers", Needs: access.InstanceAdmin, Method: http.MethodGet, Path: "/v1/admin/users", Tag: tag,
		Summary: "List the instance's users (instance administrator only)"},
		func(ctx context.Context, in *listUsersIn) (*httpapi.Out[httpapi.List[AdminUser]], error) {
			return httpapi.AnswerPage(httpapi.In(ctx, adminView))(s.List(ctx, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateUser", Needs: access.InstanceAdmin, Method: http.MethodPatch, Path: "/v1/admin/users/{userId}", Tag: tag,
		Summary: "Rename, disable or enable a user (instance administrator only)"},
		func(ctx context.Context, in *updateUserIn) (*httpapi.Out[AdminUser], error) {
			return httpapi.Answer(httpapi.In(ctx, adminView))(s.Update(ctx, in.UserID, users.UserChange{DisplayName: in.Body.DisplayName, Disabled: in.Body.Disabled}))
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteUser", Needs: access.InstanceAdmin, Method: http.MethodDelete, Path: "/v1/admin/users/{userId}", Tag: tag,
		Status: http.StatusNoContent, Summary: "Delete a user and their tokens (instance administrator only)"},
		func(ctx context.Context, in *userIn) (*struct{}, error) {
			return nil, s.Delete(ctx, in.UserID)
		})
	httpapi.Register(api, httpapi.Op{ID: "listUserTokens", Needs: access.InstanceAdmin.OrSelf(), Method: http.MethodGet, Path: "/v1/admin/users/{userId}/tokens", Tag: tag,
		Summary: "List a user's API tokens (instance administrator only)"},
		func(ctx context.Context, in *userIn) (*tokensOut, error) { return tokensOf(ctx, in.UserID) })
	httpapi.Register(api, httpapi.Op{ID: "revokeUserToken", Needs: access.InstanceAdmin.OrSelf(), Method: http.MethodDelete, Path: "/v1/admin/users/{userId}/tokens/{tokenId}", Tag: tag,
		Status: http.StatusNoContent, Summary: "Revoke a user's API token (instance administrator only)"},
		func(ctx context.Context, in *userTokenIn) (*struct{}, error) {
			return nil, s.RevokeToken(ctx, in.UserID, in.TokenID)
		})
	httpapi.Register(api, httpapi.Op{ID: "listMyTokens", Needs: access.Themself, Method: http.MethodGet, Path: "/v1/user/tokens", Tag: tag,
		Summary: "List your API tokens (never their secrets)"},
		func(ctx context.Context, _ *struct{}) (*tokensOut, error) { return tokensOf(ctx, "") })
	httpapi.Register(api, httpapi.Op{ID: "createMyToken", Needs: access.Themself, Method: http.MethodPost, Path: "/v1/user/tokens", Tag: tag,
		Status: http.StatusCreated, Summary: "Create an API token (its secret is shown this once)"},
		func(ctx context.Context, in *createTokenIn) (*httpapi.Out[NewToken], error) {
			t, secret, err := s.CreateToken(ctx, in.Body.Name, in.Body.ExpiresAt)
			if err != nil {
				return nil, err
			}
			return &httpapi.Out[NewToken]{Body: NewToken{Token: tokenView(t), Secret: secret}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "rotateMyToken", Needs: access.Themself, Method: http.MethodPost, Path: "/v1/user/tokens/{tokenId}/rotate", Tag: tag,
		Summary: "Give an API token a new secret (the old one stops at once)"},
		func(ctx context.Context, in *tokenIn) (*httpapi.Out[NewToken], error) {
			t, secret, err := s.RotateToken(ctx, in.TokenID)
			if err != nil {
				return nil, err
			}
			return &httpapi.Out[NewToken]{Body: NewToken{Token: tokenView(t), Secret: secret}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "revokeMyToken", Needs: access.Themself, Method: http.MethodDelete, Path: "/v1/user/tokens/{tokenId}", Tag: tag,
		Status: http.StatusNoContent, Summary: "Revoke one of your API tokens (it stops at once)"},
		func(ctx context.Context, in *tokenIn) (*struct{}, error) {
			return nil, s.RevokeToken(ctx, "", in.TokenID)
		})
}
