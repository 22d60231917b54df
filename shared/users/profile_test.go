package users_test

import (
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// PATCH /v1/users/{userId} changes a user's display name and photo: the
// user themself or the instance administrator; an organization's admin
// who sees the user is refused (403), anyone else does not see them (404).
func TestUpdateUserProfile(t *testing.T) {
	a := testkit.NewAPI(t, testkit.New(t), []string{"users", "orgs"})
	me := "/v1/users/" + a.Users["read"].ID
	a.Check(t, []testkit.Case{
		{"401 without token", "", "PATCH", me, map[string]any{"displayName": "X"}, 401, ""},
		{"404 for an outsider", a.Tokens[testkit.Outsider], "PATCH", me, map[string]any{"displayName": "X"}, 404, ""},
		{"404 for an unknown user", a.Tokens["read"], "PATCH", "/v1/users/nobody", map[string]any{"displayName": "X"}, 404, ""},
		{"403 for an admin who sees them", a.Tokens["admin"], "PATCH", me, map[string]any{"displayName": "X"}, 403, ""},
		{"400 an empty name", a.Tokens["read"], "PATCH", me, map[string]any{"displayName": ""}, 400, "displayName"},
		{"400 a long name", a.Tokens["read"], "PATCH", me, map[string]any{"displayName": strings.Repeat("n", 65)}, 400, "displayName"},
		{"400 a blank name", a.Tokens["read"], "PATCH", me, map[string]any{"displayName": "   "}, 400, "displayName"},
		{"400 a photo that is no URL", a.Tokens["read"], "PATCH", me, map[string]any{"photoURL": "me.png"}, 400, "photoURL"},
		{"400 a photo that is not http", a.Tokens["read"], "PATCH", me, map[string]any{"photoURL": "javascript:alert(1)"}, 400, "photoURL"},
		{"400 an unknown field", a.Tokens["read"], "PATCH", me, map[string]any{"tittle": "X"}, 400, "tittle"},
	})
	c := a.As(t, "read")
	u := c.Expect(200, "PATCH", me, map[string]any{"displayName": "  Rita Reader ", "photoURL": "https://img.example.com/rita.png"}).Map(t)
	if u["displayName"] != "Rita Reader" || u["photoURL"] != "https://img.example.com/rita.png" {
		t.Fatalf("answer %v", u)
	}
	if got := c.Expect(200, "GET", me, nil).Map(t); got["displayName"] != "Rita Reader" || got["photoURL"] != "https://img.example.com/rita.png" {
		t.Fatalf("read back %v", got)
	}
	// The GET answer sent back changes nothing; null removes the photo.
	c.Expect(200, "PATCH", me, u)
	if got := c.Expect(200, "PATCH", me, map[string]any{"photoURL": nil}).Map(t); got["photoURL"] != nil || got["displayName"] != "Rita Reader" {
		t.Fatalf("after removing the photo: %v", got)
	}
	// The instance administrator changes anyone's.
	if got := a.WithToken(t, testkit.AdminToken).Expect(200, "PATCH", me, map[string]any{"displayName": "R."}).Map(t); got["displayName"] != "R." {
		t.Fatalf("administrator's change: %v", got)
	}
}
