package users_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

// newUser makes a user through the administration API: id and token.
func newUser(t *testing.T, api *httpapi.API, email string) (string, string) {
	t.Helper()
	res := testkit.Client(t, api, testkit.AdminToken).Expect(http.StatusCreated, "POST", "/v1/admin/users", map[string]any{"email": email, "displayName": "U"}).Map(t)
	return res["user"].(map[string]any)["id"].(string), res["token"].(string)
}

// Named tokens: made with their secret shown once, listed without it,
// rotated and revoked, each change taking effect at once; expired tokens
// stop.
func TestTokensAreNamedListedRotatedRevokedAndExpire(t *testing.T) {
	k := testkit.New(t)
	api := newAPI(k)
	_, first := newUser(t, api, "ada@example.com")
	ada := testkit.Client(t, api, first)
	made := ada.Expect(http.StatusCreated, "POST", "/v1/user/tokens", map[string]any{"name": "CI deploys"}).Map(t)
	secret := made["secret"].(string)
	tok := made["token"].(map[string]any)
	if !strings.HasPrefix(secret, users.TokenPrefix) || tok["name"] != "CI deploys" || tok["id"] == "" {
		t.Fatalf("new token %v", made)
	}
	testkit.Client(t, api, secret).Expect(http.StatusOK, "GET", "/v1/user", nil)
	list := ada.Expect(http.StatusOK, "GET", "/v1/user/tokens", nil)
	if strings.Contains(string(list.Body), secret) || strings.Contains(string(list.Body), first) {
		t.Fatalf("a list shows a secret: %s", list.Body)
	}
	items := list.Map(t)["items"].([]any)
	if len(items) != 2 || items[1].(map[string]any)["name"] != "CI deploys" || items[1].(map[string]any)["lastUsedAt"] == nil {
		t.Fatalf("tokens %v", items)
	}

	rotated := ada.Expect(http.StatusOK, "POST", "/v1/user/tokens/"+tok["id"].(string)+"/rotate", nil).Map(t)
	testkit.Client(t, api, secret).Expect(http.StatusUnauthorized, "GET", "/v1/user", nil)
	fresh := rotated["secret"].(string)
	testkit.Client(t, api, fresh).Expect(http.StatusOK, "GET", "/v1/user", nil)
	if rotated["token"].(map[string]any)["id"] != tok["id"] {
		t.Fatalf("rotation changed the token's id: %v", rotated)
	}
	ada.Expect(http.StatusNoContent, "DELETE", "/v1/user/tokens/"+tok["id"].(string), nil)
	testkit.Client(t, api, fresh).Expect(http.StatusUnauthorized, "GET", "/v1/user", nil)
	ada.Expect(http.StatusNotFound, "DELETE", "/v1/user/tokens/"+tok["id"].(string), nil)

	// Another user's token is not found; the administrator sees and
	// revokes anyone's.
	_, bobToken := newUser(t, api, "bob@example.com")
	bobs := testkit.Client(t, api, bobToken).Expect(http.StatusOK, "GET", "/v1/user/tokens", nil).Map(t)["items"].([]any)
	bobTok := bobs[0].(map[string]any)["id"].(string)
	ada.Expect(http.StatusNotFound, "DELETE", "/v1/user/tokens/"+bobTok, nil)

	soon := k.Deps.Clock().Add(time.Hour)
	exp := ada.Expect(http.StatusCreated, "POST", "/v1/user/tokens", map[string]any{"name": "short", "expiresAt": soon.Format(time.RFC3339)}).Map(t)
	testkit.Client(t, api, exp["secret"].(string)).Expect(http.StatusOK, "GET", "/v1/user", nil)
	ada.Expect(http.StatusBadRequest, "POST", "/v1/user/tokens", map[string]any{"name": "past", "expiresAt": k.Deps.Clock().Add(-time.Hour).Format(time.RFC3339)})
	later := soon.Add(time.Minute)
	k.Deps.Now = func() time.Time { return later }
	testkit.Client(t, api, exp["secret"].(string)).Expect(http.StatusUnauthorized, "GET", "/v1/user", nil)
	ada.Expect(http.StatusOK, "GET", "/v1/user", nil)
}

// The administrator lists, renames, disables, enables and deletes users;
// a disabled user's tokens stop at once; nobody else may.
func TestAdministratorManagesUsers(t *testing.T) {
	k := testkit.New(t)
	api := newAPI(k)
	admin := testkit.Client(t, api, testkit.AdminToken)
	bob, bobToken := newUser(t, api, "bob@example.com")
	_, carlToken := newUser(t, api, "carl@example.com")
	bobAPI := testkit.Client(t, api, bobToken)
	bobAPI.Expect(http.StatusOK, "GET", "/v1/user", nil)

	page := admin.Expect(http.StatusOK, "GET", "/v1/admin/users?limit=2", nil).Map(t)
	rest := admin.Expect(http.StatusOK, "GET", "/v1/admin/users?limit=2&page="+page["next"].(map[string]any)["page"].(string), nil).Map(t)
	var emails []string
	for _, it := range append(page["items"].([]any), rest["items"].([]any)...) {
		emails = append(emails, it.(map[string]any)["email"].(string))
	}
	if strings.Join(emails, " ") != users.AdminEmail+" bob@example.com carl@example.com" {
		t.Fatalf("users %v", emails)
	}
	testkit.Client(t, api, carlToken).Expect(http.StatusForbidden, "GET", "/v1/admin/users", nil)
	testkit.Client(t, api, carlToken).Expect(http.StatusForbidden, "PATCH", "/v1/admin/users/"+bob, map[string]any{"disabled": true})

	got := admin.Expect(http.StatusOK, "PATCH", "/v1/admin/users/"+bob, map[string]any{"disabled": true, "displayName": "Robert"}).Map(t)
	if got["disabled"] != true || got["displayName"] != "Robert" {
		t.Fatalf("updated %v", got)
	}
	bobAPI.Expect(http.StatusUnauthorized, "GET", "/v1/user", nil)
	admin.Expect(http.StatusOK, "PATCH", "/v1/admin/users/"+bob, map[string]any{"disabled": false})
	bobAPI.Expect(http.StatusOK, "GET", "/v1/user", nil)
	me := admin.Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t)["id"].(string)
	admin.Expect(http.StatusConflict, "PATCH", "/v1/admin/users/"+me, map[string]any{"disabled": true})
	admin.Expect(http.StatusConflict, "DELETE", "/v1/admin/users/"+me, nil)

	tokens := admin.Expect(http.StatusOK, "GET", "/v1/admin/users/"+bob+"/tokens", nil).Map(t)["items"].([]any)
	if len(tokens) != 1 {
		t.Fatalf("bob's tokens %v", tokens)
	}
	admin.Expect(http.StatusNoContent, "DELETE", "/v1/admin/users/"+bob, nil)
	bobAPI.Expect(http.StatusUnauthorized, "GET", "/v1/user", nil)
	admin.Expect(http.StatusNotFound, "GET", "/v1/users/"+bob, nil)
	admin.Expect(http.StatusNotFound, "DELETE", "/v1/admin/users/"+bob, nil)
	// The address is free again.
	newUser(t, api, "bob@example.com")
}
