package users

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
)

// User is the API shape of a user.
type User struct {
	Object      string   `json:"object" enum:"user"`
	ID          string   `json:"id"`
	DisplayName string   `json:"displayName"`
	Email       string   `json:"email,omitempty"`
	PhotoURL    string   `json:"photoURL,omitempty"`
	URLs        UserURLs `json:"urls"`
}

// UserURLs are a user's links.
type UserURLs struct {
	Location string `json:"location" format:"uri"`
}

// View renders a user for the API.
func View(ctx context.Context, u model.User) User {
	return User{Object: "user", ID: u.ID, DisplayName: u.DisplayName, Email: u.Email, PhotoURL: u.PhotoURL,
		URLs: UserURLs{Location: httpapi.APIURL(ctx) + "/v1/users/" + u.ID}}
}

// APIInfo answers GET /v1/.
type APIInfo struct {
	Version string `json:"version" doc:"Release of Galley"`
	Build   string `json:"build" doc:"Build date in ISO format"`
}

type body[T any] struct {
	Body T
}

// CreateUserInput is the body of POST /v1/admin/users.
type CreateUserInput struct {
	Body struct {
		Email       string `json:"email" maxLength:"320" format:"email"`
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

// Routes adds the users family's operations, on the service built from d.
func Routes(api *httpapi.API, d *deps.Deps) { Register(api, New(d)) }

// Register adds the users family's operations.
func Register(api *httpapi.API, s *Service) {
	const tag = "Users"
	httpapi.Register(api, httpapi.Op{ID: "getApiInformation", Method: http.MethodGet, Path: "/v1/", Tag: tag, Summary: "Get API information"},
		func(ctx context.Context, _ *struct{}) (*body[APIInfo], error) {
			return &body[APIInfo]{Body: APIInfo{Version: api.Config().Version, Build: api.Config().Build}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getAuthenticatedUser", Method: http.MethodGet, Path: "/v1/user", Tag: tag, Summary: "Get the authenticated user"},
		func(ctx context.Context, _ *struct{}) (*body[User], error) {
			c, err := access.CallerFrom(ctx)
			if err != nil {
				return nil, err
			}
			u, err := s.Get(ctx, c.UserID)
			if err != nil {
				return nil, err
			}
			return &body[User]{Body: View(ctx, u)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getUserById", Method: http.MethodGet, Path: "/v1/users/{userId}", Tag: tag,
		Summary: "Get a user by id (yourself, a user of an organization whose members you may list, or anyone for the instance administrator)"},
		func(ctx context.Context, in *userIn) (*body[User], error) {
			u, err := s.Visible(ctx, in.UserID)
			if err != nil {
				return nil, err
			}
			return &body[User]{Body: View(ctx, u)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "createUser", Method: http.MethodPost, Path: "/v1/admin/users", Tag: tag, Status: http.StatusCreated,
		Summary: "Create a user (instance administrator only)"},
		func(ctx context.Context, in *CreateUserInput) (*body[CreatedUser], error) {
			u, tok, err := s.Create(ctx, in.Body.Email, in.Body.DisplayName)
			if err != nil {
				return nil, err
			}
			return &body[CreatedUser]{Body: CreatedUser{User: View(ctx, u), Token: tok}}, nil
		})
}
