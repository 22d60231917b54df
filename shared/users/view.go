package users

import "github.com/galleydocs/galley/shared/model"

// The API's shape of a user: the users family renders it for every family
// that shows a user (content, change requests, members), over base URLs
// given to it, so that none of them needs the HTTP layer.

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

// ViewUser renders a user in the API's shape, with links under apiBase.
func ViewUser(apiBase string, u model.User) User {
	return User{Object: "user", ID: u.ID, DisplayName: u.DisplayName, Email: u.Email, PhotoURL: u.PhotoURL,
		URLs: UserURLs{Location: apiBase + "/v1/users/" + u.ID}}
}
