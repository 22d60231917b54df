package scimhttp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// idp is an identity provider calling the SCIM endpoints of one
// organization with its token.
type idp struct {
	t     *testing.T
	h     http.Handler
	base  string
	token string
}

func (c idp) do(method, path string, body any) (int, map[string]any, http.Header) {
	c.t.Helper()
	var rd *bytes.Reader
	switch b := body.(type) {
	case nil:
		rd = bytes.NewReader(nil)
	case string:
		rd = bytes.NewReader([]byte(b))
	default:
		raw, _ := json.Marshal(b)
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, c.base+path, rd)
	req.Header.Set("Content-Type", "application/scim+json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	var m map[string]any
	if rec.Body.Len() > 0 {
		if ct := rec.Header().Get("Content-Type"); ct != "application/scim+json" {
			c.t.Fatalf("%s %s: Content-Type %q, body %s", method, path, ct, rec.Body)
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
			c.t.Fatalf("%s %s: %v in %s", method, path, err, rec.Body)
		}
	}
	return rec.Code, m, rec.Header()
}

func (c idp) expect(want int, method, path string, body any) map[string]any {
	c.t.Helper()
	code, m, _ := c.do(method, path, body)
	if code != want {
		c.t.Fatalf("%s %s: status %d, want %d: %v", method, path, code, want, m)
	}
	return m
}

// scimError checks a SCIM error answer.
func scimError(t *testing.T, m map[string]any, status, scimType string) {
	t.Helper()
	st, _ := m["scimType"].(string)
	if m["status"] != status || st != scimType || m["schemas"].([]any)[0] != "urn:ietf:params:scim:api:messages:2.0:Error" {
		t.Fatalf("error %v, want status %s scimType %q", m, status, scimType)
	}
}

// setup makes the fixture and a SCIM token of its organization.
func setup(t *testing.T, k *testkit.Kit) (*testkit.API, idp) {
	a := testkit.NewAPI(t, k, []string{"users", "orgs"})
	res := a.As(t, "admin").Expect(201, "POST", "/v1/orgs/"+a.Org.ID+"/scim/tokens", map[string]any{"name": "Okta"})
	tok := res.Map(t)["token"].(string)
	return a, idp{t: t, h: a.API.Handler(), base: "/scim/v2/orgs/" + a.Org.ID, token: tok}
}

func resources(m map[string]any) []map[string]any {
	var out []map[string]any
	for _, r := range m["Resources"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

func auditActions(t *testing.T, a *testkit.API) []string {
	t.Helper()
	items := testkit.Items(t, a.As(t, "admin"), "/v1/orgs/"+a.Org.ID+"/audit-events", 100)
	var out []string
	for _, it := range items {
		out = append(out, it["action"].(string))
	}
	return out
}

func TestSCIMTokens(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		a, c := setup(t, k)
		org := "/v1/orgs/" + a.Org.ID + "/scim/tokens"
		a.As(t, "edit").Expect(403, "GET", org, nil)
		a.As(t, testkit.Outsider).Expect(404, "GET", org, nil)
		list := a.As(t, "admin").Expect(200, "GET", org, nil).Map(t)
		items := list["items"].([]any)
		if len(items) != 1 || items[0].(map[string]any)["token"] != nil {
			t.Fatalf("tokens %v: want one, without its secret", list)
		}
		c.expect(200, "GET", "/ServiceProviderConfig", nil)
		// No token, another organization's token, a user's token: 401.
		code, m, _ := idp{t: t, h: c.h, base: c.base}.do("GET", "/Users", nil)
		if code != 401 {
			t.Fatalf("no token: %d", code)
		}
		scimError(t, m, "401", "")
		other := a.As(t, testkit.Outsider).Expect(201, "POST", "/v1/orgs/"+a.Other.ID+"/scim/tokens", map[string]any{"name": "x"}).Map(t)["token"].(string)
		for _, tok := range []string{other, a.Tokens["admin"]} {
			if code, _, _ := (idp{t: t, h: c.h, base: c.base, token: tok}).do("GET", "/Users", nil); code != 401 {
				t.Fatalf("foreign token: %d", code)
			}
		}
		id := items[0].(map[string]any)["id"].(string)
		a.As(t, "admin").Expect(205, "DELETE", org+"/"+id, nil)
		a.As(t, "admin").Expect(204, "DELETE", org+"/"+id, nil)
		if code, _, _ := c.do("GET", "/Users", nil); code != 401 {
			t.Fatalf("revoked token: %d", code)
		}
		acts := strings.Join(auditActions(t, a), " ")
		for _, want := range []string{model.AuditSCIMTokenCreated, model.AuditSCIMTokenRevoked} {
			if !strings.Contains(acts, want) {
				t.Errorf("audit log %s lacks %s", acts, want)
			}
		}
	})
}

// TestOkta drives the calls Okta's SCIM 2.0 provisioning documents: a
// lookup by userName, a create, a PUT, a deactivation by PATCH with a
// value object, groups pushed with PATCH member add and filtered remove.
func TestOkta(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		a, c := setup(t, k)
		l := c.expect(200, "GET", `/Users?filter=userName%20eq%20%22jane%40example.com%22&startIndex=1&count=100`, nil)
		if l["totalResults"].(float64) != 0 {
			t.Fatalf("lookup of a new user: %v", l)
		}
		u := c.expect(201, "POST", "/Users", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"jane@example.com",
			"name":{"givenName":"Jane","familyName":"Doe"},"emails":[{"primary":true,"value":"jane@example.com","type":"work"}],
			"displayName":"Jane Doe","locale":"en-US","externalId":"00u1","groups":[],"password":"x","active":true}`)
		id := u["id"].(string)
		if u["userName"] != "jane@example.com" || u["externalId"] != "00u1" || u["active"] != true || u["meta"].(map[string]any)["location"] != "https://api.test"+c.base+"/Users/"+id {
			t.Fatalf("created %v", u)
		}
		c.expect(409, "POST", "/Users", `{"userName":"JANE@example.com"}`)
		l = c.expect(200, "GET", `/Users?filter=userName%20eq%20%22jane%40example.com%22`, nil)
		if rs := resources(l); len(rs) != 1 || rs[0]["id"] != id {
			t.Fatalf("lookup: %v", l)
		}
		// Okta's profile update is a PUT of the whole user.
		u = c.expect(200, "PUT", "/Users/"+id, `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"id":"`+id+`","userName":"jane@example.com",
			"name":{"givenName":"Janet","familyName":"Doe"},"emails":[{"primary":true,"value":"jane@example.com","type":"work"}],"active":true}`)
		// SCIM's displayName is the provider's, as given (none now); the
		// Galley user's display name follows the name.
		if u["name"].(map[string]any)["givenName"] != "Janet" || u["displayName"] != nil {
			t.Fatalf("replaced %v", u)
		}
		// An address's primary reads back as sent: false stays false,
		// absent stays absent (scim2-tester sends either at random).
		u = c.expect(200, "PUT", "/Users/"+id, `{"userName":"jane@example.com","name":{"givenName":"Janet","familyName":"Doe"},
			"emails":[{"primary":false,"value":"jane@example.com"},{"value":"jd@example.com"}],"active":true}`)
		if es := u["emails"].([]any); len(es) != 2 || es[0].(map[string]any)["primary"] != false || es[1].(map[string]any)["primary"] != nil {
			t.Fatalf("emails %v", u["emails"])
		}
		// The member shows in Galley's API, with role read.
		mem := a.As(t, "admin").Expect(200, "GET", "/v1/orgs/"+a.Org.ID+"/members/"+id, nil).Map(t)
		if mem["role"] != "read" || mem["disabled"] != false || mem["user"].(map[string]any)["displayName"] != "Janet Doe" {
			t.Fatalf("member %v", mem)
		}
		// Groups: create, add member, remove by filter, rename.
		g := c.expect(201, "POST", "/Groups", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Writers","members":[]}`)
		gid := g["id"].(string)
		g = c.expect(200, "PATCH", "/Groups/"+gid, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[
			{"op":"add","path":"members","value":[{"value":"`+id+`","display":"jane@example.com"}]},
			{"op":"replace","value":{"id":"`+gid+`","displayName":"Authors"}}]}`)
		if g["displayName"] != "Authors" || len(g["members"].([]any)) != 1 {
			t.Fatalf("patched group %v", g)
		}
		team := a.As(t, "admin").Expect(200, "GET", "/v1/orgs/"+a.Org.ID+"/teams/"+gid, nil).Map(t)
		if team["title"] != "Authors" {
			t.Fatalf("team %v", team)
		}
		g = c.expect(200, "PATCH", "/Groups/"+gid, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[
			{"op":"remove","path":"members[value eq \"`+id+`\"]"}]}`)
		if len(g["members"].([]any)) != 0 {
			t.Fatalf("group after remove %v", g)
		}
		l = c.expect(200, "GET", `/Groups?filter=displayName%20eq%20%22Authors%22`, nil)
		if rs := resources(l); len(rs) != 1 || rs[0]["id"] != gid {
			t.Fatalf("group lookup %v", l)
		}
		// Deactivation of an existing member with a token: the next
		// request with it answers 401.
		read := a.Users["read"]
		l = c.expect(200, "GET", `/Users?filter=userName%20eq%20%22`+read.Email+`%22`, nil)
		rid := resources(l)[0]["id"].(string)
		a.As(t, "read").Expect(200, "GET", "/v1/orgs/"+a.Org.ID, nil)
		u = c.expect(200, "PATCH", "/Users/"+rid, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"active":false}}]}`)
		if u["active"] != false {
			t.Fatalf("deactivated %v", u)
		}
		a.As(t, "read").Expect(401, "GET", "/v1/orgs/"+a.Org.ID, nil)
		mem = a.As(t, "admin").Expect(200, "GET", "/v1/orgs/"+a.Org.ID+"/members/"+rid, nil).Map(t)
		if mem["disabled"] != true {
			t.Fatalf("member %v", mem)
		}
		// Reactivation and deletion.
		c.expect(200, "PATCH", "/Users/"+rid, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"active":true}}]}`)
		c.expect(204, "DELETE", "/Users/"+id, nil)
		c.expect(404, "GET", "/Users/"+id, nil)
		a.As(t, "admin").Expect(404, "GET", "/v1/orgs/"+a.Org.ID+"/members/"+id, nil)
		c.expect(204, "DELETE", "/Groups/"+gid, nil)
		c.expect(404, "GET", "/Groups/"+gid, nil)
		acts := strings.Join(auditActions(t, a), " ")
		for _, want := range []string{model.AuditMemberAdded, model.AuditMemberDisabled, model.AuditMemberEnabled, model.AuditMemberRemoved,
			model.AuditTeamCreated, model.AuditTeamUpdated, model.AuditTeamMembersSet, model.AuditTeamDeleted} {
			if !strings.Contains(acts, want) {
				t.Errorf("audit log %s lacks %s", acts, want)
			}
		}
	})
}

// TestEntra drives Microsoft Entra ID's documented shapes: capitalised
// ops, active as the string "False", emails[type eq "work"].value paths,
// enterprise extension attributes, members removed by value, and
// excludedAttributes=members.
func TestEntra(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		a, c := setup(t, k)
		c.expect(200, "GET", `/Users?filter=userName+eq+%22ann%40example.com%22`, nil)
		u := c.expect(201, "POST", "/Users", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
			"externalId":"ann","userName":"ann@example.com","active":true,"emails":[{"primary":true,"type":"work","value":"ann@example.com"}],
			"meta":{"resourceType":"User"},"name":{"formatted":"Ann Lee","familyName":"Lee","givenName":"Ann"},"roles":[],
			"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":{"department":"Docs"}}`)
		id := u["id"].(string)
		l := c.expect(200, "GET", `/Users?filter=externalId+eq+%22ann%22`, nil)
		if rs := resources(l); len(rs) != 1 || rs[0]["id"] != id {
			t.Fatalf("externalId lookup %v", l)
		}
		u = c.expect(200, "PATCH", "/Users/"+id, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[
			{"op":"Replace","path":"emails[type eq \"work\"].value","value":"ann.lee@example.com"},
			{"op":"Replace","path":"name.familyName","value":"Lee-Smith"},
			{"op":"Add","path":"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber","value":"7"}]}`)
		if u["emails"].([]any)[0].(map[string]any)["value"] != "ann.lee@example.com" || u["name"].(map[string]any)["familyName"] != "Lee-Smith" {
			t.Fatalf("patched %v", u)
		}
		g := c.expect(201, "POST", "/Groups", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"externalId":"g1","displayName":"Support","meta":{"resourceType":"Group"}}`)
		gid := g["id"].(string)
		c.expect(200, "PATCH", "/Groups/"+gid, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Add","path":"members","value":[{"value":"`+id+`"}]}]}`)
		l = c.expect(200, "GET", `/Groups?excludedAttributes=members&filter=externalId+eq+%22g1%22`, nil)
		if rs := resources(l); len(rs) != 1 || rs[0]["members"] != nil {
			t.Fatalf("group lookup %v", l)
		}
		g = c.expect(200, "GET", "/Groups/"+gid, nil)
		if len(g["members"].([]any)) != 1 {
			t.Fatalf("group %v", g)
		}
		c.expect(200, "PATCH", "/Groups/"+gid, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Remove","path":"members","value":[{"value":"`+id+`"}]}]}`)
		if g = c.expect(200, "GET", "/Groups/"+gid, nil); len(g["members"].([]any)) != 0 {
			t.Fatalf("group after remove %v", g)
		}
		// Unknown members and unsupported filters are SCIM 400s.
		scimError(t, c.expect(400, "PATCH", "/Groups/"+gid, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Add","path":"members","value":[{"value":"nobody"}]}]}`), "400", "invalidValue")
		scimError(t, c.expect(400, "GET", `/Users?filter=userName+sw+%22a%22`, nil), "400", "invalidFilter")
		scimError(t, c.expect(400, "GET", `/Users?filter=title+eq+%22a%22`, nil), "400", "invalidFilter")
		// Entra deactivates with "False" as a string; the member's own
		// token stops at the next request.
		edit := a.Users["edit"]
		l = c.expect(200, "GET", `/Users?filter=userName+eq+%22`+edit.Email+`%22`, nil)
		eid := resources(l)[0]["id"].(string)
		a.As(t, "edit").Expect(200, "GET", "/v1/orgs/"+a.Org.ID+"/members", nil)
		c.expect(200, "PATCH", "/Users/"+eid, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Replace","path":"active","value":"False"}]}`)
		a.As(t, "edit").Expect(401, "GET", "/v1/orgs/"+a.Org.ID+"/members", nil)
		// Paging.
		l = c.expect(200, "GET", `/Users?startIndex=2&count=3`, nil)
		if l["startIndex"].(float64) != 2 || l["itemsPerPage"].(float64) != 3 || len(resources(l)) != 3 || l["totalResults"].(float64) < 5 {
			t.Fatalf("page %v", l)
		}
		// Nothing of another organization is visible.
		c.expect(404, "GET", "/Users/"+a.Users[testkit.Outsider].ID, nil)
		c.expect(204, "DELETE", "/Groups/"+gid, nil)
		c.expect(204, "DELETE", "/Users/"+id, nil)
	})
}

// TestUserNameIsClaimedOnce: a userName is unique in the organization
// (ignoring case) under concurrent requests, because its claim is written
// only if absent in the transaction that makes the member: of several
// creates at once with one userName (different people, different
// emails), exactly one succeeds and the others answer 409 uniqueness; the
// same holds for renames. The claim of a member removed through Galley's
// API (which knows nothing of SCIM) is taken over.
func TestUserNameIsClaimedOnce(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		a, c := setup(t, k)
		const n = 8
		race := func(method string, path func(i int) string, body func(i int) string) []int {
			codes := make([]int, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					req := httptest.NewRequest(method, c.base+path(i), strings.NewReader(body(i)))
					req.Header.Set("Content-Type", "application/scim+json")
					req.Header.Set("Authorization", "Bearer "+c.token)
					rec := httptest.NewRecorder()
					c.h.ServeHTTP(rec, req)
					codes[i] = rec.Code
					if rec.Code == 409 && !strings.Contains(rec.Body.String(), `"scimType":"uniqueness"`) {
						codes[i] = -409
					}
				}()
			}
			wg.Wait()
			return codes
		}
		count := func(codes []int, code int) int {
			m := 0
			for _, c := range codes {
				if c == code {
					m++
				}
			}
			return m
		}
		codes := race("POST", func(int) string { return "/Users" }, func(i int) string {
			return fmt.Sprintf(`{"userName":"%s","emails":[{"value":"jdoe%d@example.com","primary":true}]}`, []string{"jdoe", "JDoe"}[i%2], i)
		})
		if count(codes, 201) != 1 || count(codes, 409) != n-1 {
			t.Fatalf("concurrent creates of one userName answered %v: want one 201, the others 409 uniqueness", codes)
		}
		l := c.expect(200, "GET", `/Users?filter=userName%20eq%20%22jdoe%22`, nil)
		if rs := resources(l); len(rs) != 1 {
			t.Fatalf("userName jdoe: %v", l)
		}
		holder := resources(l)[0]["id"].(string)

		// Renames of several users to one free userName at once.
		var ids []string
		for i := range n {
			u := c.expect(201, "POST", "/Users", fmt.Sprintf(`{"userName":"u%d@example.com"}`, i))
			ids = append(ids, u["id"].(string))
		}
		codes = race("PUT", func(i int) string { return "/Users/" + ids[i] }, func(i int) string {
			return fmt.Sprintf(`{"userName":"lead","emails":[{"value":"u%d@example.com"}]}`, i)
		})
		if count(codes, 200) != 1 || count(codes, 409) != n-1 {
			t.Fatalf("concurrent renames to one userName answered %v: want one 200, the others 409 uniqueness", codes)
		}
		// The winner's old userName is free again: a loser takes it.
		won := slices.Index(codes, 200)
		loser := (won + 1) % n
		c.expect(200, "PUT", "/Users/"+ids[loser], fmt.Sprintf(`{"userName":"u%d@example.com","emails":[{"value":"u%d@example.com"}]}`, won, loser))

		// Removed through the API: the claim is taken over by a new member.
		a.As(t, "admin").Expect(204, "DELETE", "/v1/orgs/"+a.Org.ID+"/members/"+holder, nil)
		u := c.expect(201, "POST", "/Users", `{"userName":"JDOE","emails":[{"value":"other@example.com"}]}`)
		if u["userName"] != "JDOE" || u["id"] == holder {
			t.Fatalf("taken over: %v", u)
		}
		c.expect(409, "POST", "/Users", `{"userName":"jdoe","emails":[{"value":"third@example.com"}]}`)
		// Deleting the member through SCIM frees it.
		c.expect(204, "DELETE", "/Users/"+u["id"].(string), nil)
		c.expect(201, "POST", "/Users", `{"userName":"jdoe","emails":[{"value":"third@example.com"}]}`)
	})
}

// TestGroupOfManyMembers: a Group created with more members than one
// transaction holds keeps its SCIM record (written with the team and its
// first members) and every member.
func TestGroupOfManyMembers(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		_, c := setup(t, k)
		var members []string
		for i := range 60 {
			u := c.expect(201, "POST", "/Users", fmt.Sprintf(`{"userName":"m%d@example.com"}`, i))
			members = append(members, fmt.Sprintf(`{"value":%q}`, u["id"]))
		}
		g := c.expect(201, "POST", "/Groups", `{"displayName":"Everyone","externalId":"all","members":[`+strings.Join(members, ",")+`]}`)
		g = c.expect(200, "GET", "/Groups/"+g["id"].(string), nil)
		if g["externalId"] != "all" || len(g["members"].([]any)) != 60 {
			t.Fatalf("group: externalId %v, %d members", g["externalId"], len(g["members"].([]any)))
		}
	})
}
