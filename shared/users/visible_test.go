package users_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// A user is seen by themselves, by the instance administrator, and by the
// members of an organization of theirs who may list its members; to
// everyone else (a guest of that organization, a stranger) it does not
// exist.
func TestGetUserByIDIsForThoseWhoShareAnOrganization(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		alice, ta := k.User("alice")
		bob, tb := k.User("bob")
		_, ts := k.User("sam")
		carol, tc := k.User("carol")
		guest, tgw := k.User("gwen")
		k.Org("Acme", map[string]model.Role{alice.ID: model.RoleAdmin, bob.ID: model.RoleRead, guest.ID: model.RoleGuest})
		k.Org("Other", map[string]model.Role{carol.ID: model.RoleAdmin})
		path := "/v1/users/" + alice.ID
		u := client(t, k, tb).Expect(http.StatusOK, "GET", path, nil).Map(t)
		if u["object"] != "user" || u["id"] != alice.ID || u["displayName"] == "" {
			t.Fatalf("user %v", u)
		}
		client(t, k, ta).Expect(http.StatusOK, "GET", path, nil)                 // oneself
		client(t, k, testkit.AdminToken).Expect(http.StatusOK, "GET", path, nil) // the instance administrator
		client(t, k, ta).Expect(http.StatusOK, "GET", "/v1/users/"+guest.ID, nil)
		client(t, k, tc).Expect(http.StatusNotFound, "GET", path, nil) // another organization's
		client(t, k, ts).Expect(http.StatusNotFound, "GET", path, nil) // in no organization
		client(t, k, ta).Expect(http.StatusNotFound, "GET", "/v1/users/"+carol.ID, nil)
		client(t, k, ta).Expect(http.StatusNotFound, "GET", "/v1/users/nobody", nil)
		client(t, k, tgw).Expect(http.StatusNotFound, "GET", path, nil) // a guest may not list members
		client(t, k, tgw).Expect(http.StatusOK, "GET", "/v1/users/"+guest.ID, nil)
		client(t, k, "").Expect(http.StatusUnauthorized, "GET", path, nil)
		res := client(t, k, ta).Expect(http.StatusBadRequest, "GET", "/v1/users/"+strings.Repeat("u", 65), nil)
		if !strings.Contains(string(res.Body), "userId") {
			t.Fatalf("400 %s does not name userId", res.Body)
		}
	})
}
