package users_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/usersroot"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

// newAPI is the users family's API on k, as one process builds it: its
// authenticator is the family's service.
func newAPI(k *testkit.Kit) *httpapi.API {
	r := app.NewRoot(k.Deps)
	api := httpapi.New(httpapi.Config{Auth: app.Users(r), Logger: k.Deps.Logger, Version: "9.9.9", Build: "2026-01-01"})
	usersroot.Routes(api, r)
	return api
}

// client is a client of a new API on k sending token.
func client(t *testing.T, k *testkit.Kit, token string) *apitest.Client {
	return testkit.Client(t, newAPI(k), token)
}

func TestAPIInformationAndCurrentUser(t *testing.T) {
	k := testkit.New(t)
	c := client(t, k, testkit.AdminToken)
	info := c.Expect(http.StatusOK, "GET", "/v1/", nil).Map(t)
	if info["version"] != "9.9.9" || info["build"] != "2026-01-01" {
		t.Fatalf("info = %v", info)
	}
	me := c.Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t)
	if me["object"] != "user" || me["email"] != users.AdminEmail || me["id"] == "" {
		t.Fatalf("user = %v", me)
	}
	if loc := me["urls"].(map[string]any)["location"].(string); !strings.HasSuffix(loc, "/v1/users/"+me["id"].(string)) {
		t.Fatalf("urls.location = %s", loc)
	}
}

func TestEveryCallNeedsAValidToken(t *testing.T) {
	k := testkit.New(t)
	for _, tc := range []struct{ name, header string }{
		{"missing", ""}, {"not bearer", "Basic abc"}, {"empty bearer", "Bearer "}, {"unknown", "Bearer gly_unknown"},
		{"overlong", "Bearer " + strings.Repeat("x", 300)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := client(t, k, "")
			for _, path := range []string{"/v1/", "/v1/user"} {
				c.Expect(http.StatusUnauthorized, "GET", path, nil, "Authorization", tc.header)
			}
			c.Expect(http.StatusUnauthorized, "POST", "/v1/admin/users", map[string]any{"email": "a@b.c", "displayName": "A"}, "Authorization", tc.header)
		})
	}
}

func TestAdminCreatesUsersWhoseTokenWorks(t *testing.T) {
	k := testkit.New(t)
	admin := client(t, k, testkit.AdminToken)
	res := admin.Expect(http.StatusCreated, "POST", "/v1/admin/users", map[string]any{"email": "Bob@Example.com", "displayName": "Bob"}).Map(t)
	user := res["user"].(map[string]any)
	if user["email"] != "bob@example.com" || user["displayName"] != "Bob" {
		t.Fatalf("created user = %v", user)
	}
	bob := client(t, k, res["token"].(string))
	me := bob.Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t)
	if me["id"] != user["id"] {
		t.Fatalf("token authenticates %v, want %v", me["id"], user["id"])
	}
	// Only the instance administrator creates users.
	bob.Expect(http.StatusForbidden, "POST", "/v1/admin/users", map[string]any{"email": "eve@example.com", "displayName": "Eve"})
	// Emails are unique, case-insensitively.
	admin.Expect(http.StatusConflict, "POST", "/v1/admin/users", map[string]any{"email": "bob@example.COM", "displayName": "Bob 2"})
	for name, body := range map[string]any{
		"email":       map[string]any{"email": "not-an-email", "displayName": "X"},
		"displayName": map[string]any{"email": "x@example.com", "displayName": ""},
		"":            `{"email": "x@example.com"`,
	} {
		res := admin.Expect(http.StatusBadRequest, "POST", "/v1/admin/users", body)
		if !strings.Contains(string(res.Body), name) {
			t.Errorf("error does not name %q: %s", name, res.Body)
		}
	}
}

func TestBootstrapHappensOnce(t *testing.T) {
	k := testkit.New(t) // bootstraps with testkit.AdminToken
	created, _, err := users.New(k.Deps).Bootstrap(k.Ctx, "another")
	if err != nil || created {
		t.Fatalf("second bootstrap: created=%v err=%v", created, err)
	}
	client(t, k, "another").Expect(http.StatusUnauthorized, "GET", "/v1/user", nil)
}

func TestUnknownRoutesAnswerInTheErrorShape(t *testing.T) {
	k := testkit.New(t)
	c := client(t, k, testkit.AdminToken)
	c.Expect(http.StatusNotFound, "GET", "/v1/nothing-here", nil)
	c.Expect(http.StatusMethodNotAllowed, "DELETE", "/v1/user", nil)
	// An unknown path is not found whatever the method (GET /v1/ is a
	// subtree pattern in ServeMux: it must not make every path a 405).
	for _, m := range []string{"POST", "PUT", "PATCH", "DELETE"} {
		c.Expect(http.StatusNotFound, m, "/v1/nothing-here", nil)
	}
	// A known path with a wrong method lists only the methods it has.
	res := c.Expect(http.StatusMethodNotAllowed, "PUT", "/v1/admin/users", nil)
	if got := res.Header.Get("Allow"); got != "GET, HEAD, POST" {
		t.Errorf("Allow = %q, want GET, HEAD, POST", got)
	}
	res = c.Expect(http.StatusMethodNotAllowed, "POST", "/v1/user", nil)
	if got := res.Header.Get("Allow"); got != "GET, HEAD" {
		t.Errorf("Allow = %q, want GET, HEAD", got)
	}
	c.Expect(http.StatusOK, "GET", "/v1", nil)
	c.Expect(http.StatusUnsupportedMediaType, "POST", "/v1/admin/users", "email=a", "Content-Type", "application/x-www-form-urlencoded")
}
