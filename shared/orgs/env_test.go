package orgs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/galleydocs/galley/shared/audit"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
	"github.com/galleydocs/galley/shared/users/usershttp"
)

// env is one API (users and orgs families) on a fresh testkit, with a
// clock that moves one second per reading so that join times differ.
type env struct {
	t     *testing.T
	d     *deps.Deps
	api   *httpapi.API
	h     http.Handler
	users *users.Service
	root  context.Context // the instance administrator's context
}

func newEnv(t *testing.T) *env {
	t.Helper()
	k := testkit.New(t, testkit.Clock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Second))
	us := users.New(k.Deps)
	c, err := us.Authenticate(k.Ctx, testkit.AdminToken)
	if err != nil {
		t.Fatal(err)
	}
	api := httpapi.New(httpapi.Config{Auth: us, Logger: k.Deps.Logger, APIURL: "https://api.test", AppURL: "https://app.test"})
	usershttp.Register(api, us)
	orgshttp.Register(api, orgs.New(k.Deps, users.New(k.Deps), audit.New(k.Deps, 0)))
	return &env{t: t, d: k.Deps, api: api, h: api.Handler(), users: us, root: access.WithCaller(k.Ctx, c)}
}

// user is a user of the instance with an API token.
type user struct {
	ID, Email, Token string
}

// user creates a user named name, with the email <name>@<domain> (domain
// example.com unless name holds an @).
func (e *env) user(name string) user {
	e.t.Helper()
	email := name
	if !strings.Contains(name, "@") {
		email = name + "@example.com"
	}
	local, _, _ := strings.Cut(email, "@")
	u, tok, err := e.users.Create(e.root, email, strings.ToUpper(local[:1])+local[1:]+" Doe")
	if err != nil {
		e.t.Fatal(err)
	}
	return user{ID: u.ID, Email: u.Email, Token: tok}
}

// resp is an HTTP answer.
type resp struct {
	t    *testing.T
	Code int
	Raw  []byte
}

// obj decodes the body as an object.
func (r resp) obj() map[string]any {
	r.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Raw, &m); err != nil {
		r.t.Fatalf("body %q is not a JSON object: %v", r.Raw, err)
	}
	return m
}

// items returns the items of a list answer.
func (r resp) items() []map[string]any {
	r.t.Helper()
	m := r.obj()
	raw, ok := m["items"].([]any)
	if !ok {
		r.t.Fatalf("no items in %s", r.Raw)
	}
	if int(m["count"].(float64)) != len(raw) {
		r.t.Fatalf("count %v but %d items", m["count"], len(raw))
	}
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i] = it.(map[string]any)
	}
	return out
}

// next returns the next page token of a list answer, "" if none.
func (r resp) next() string {
	r.t.Helper()
	n, _ := r.obj()["next"].(map[string]any)
	if n == nil {
		return ""
	}
	return n["page"].(string)
}

// message returns the error message of an error answer.
func (r resp) message() string {
	r.t.Helper()
	e, _ := r.obj()["error"].(map[string]any)
	if e == nil {
		r.t.Fatalf("no error in %s", r.Raw)
	}
	return e["message"].(string)
}

// on returns the env reporting to t (a subtest's), so that failures are
// reported by the test that made them.
func (e *env) on(t *testing.T) *env {
	c := *e
	c.t = t
	return &c
}

// do sends a request through apitest, which checks that the status is one
// the operation declares and that the body matches the OpenAPI document. body
// is sent as is when a string, else as JSON.
func (e *env) do(method, path, token string, body any) resp {
	e.t.Helper()
	r := testkit.Client(e.t, e.api, token).Do(method, path, body)
	return resp{t: e.t, Code: r.Status, Raw: r.Body}
}

// send sends a request without checks, for goroutines (which may not fail
// a test).
func (e *env) send(method, path, token string, body any) int {
	raw, _ := json.Marshal(body)
	req := httptest.NewRequest(method, path, bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec.Code
}

// must sends a request and fails unless it answers want.
func (e *env) must(want int, method, path, token string, body any) resp {
	e.t.Helper()
	r := e.do(method, path, token, body)
	if r.Code != want {
		e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Code, want, r.Raw)
	}
	return r
}

// org creates an organization owned (as admin) by owner and adds members
// with the given roles (model.RoleGuest for guests) through the invites
// operation.
func (e *env) org(owner user, title string, members map[user]model.Role) string {
	e.t.Helper()
	id := e.must(201, "POST", "/v1/orgs", owner.Token, map[string]any{"title": title}).obj()["id"].(string)
	for u, r := range members {
		e.add(id, owner, u, r)
	}
	return id
}

// add makes u a member of org with role, as admin.
func (e *env) add(org string, admin, u user, r model.Role) {
	e.t.Helper()
	var role any
	if r != model.RoleGuest {
		role = string(r)
	}
	e.must(200, "POST", "/v1/orgs/"+org+"/invites", admin.Token, map[string]any{"emails": []any{map[string]any{"email": u.Email, "role": role}}})
}

// query builds a path with query parameters from pairs.
func query(path string, kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	if len(v) == 0 {
		return path
	}
	return path + "?" + v.Encode()
}

// collect reads every page of a list (testkit.Pages), failing on a
// duplicate id.
func (e *env) collect(path, token string, limit int, id func(map[string]any) string) []string {
	e.t.Helper()
	items, _ := testkit.Pages(e.t, testkit.Client(e.t, e.api, token), path, limit)
	var all []string
	seen := map[string]bool{}
	for _, it := range items {
		k := id(it)
		if seen[k] {
			e.t.Fatalf("%s listed twice", k)
		}
		seen[k] = true
		all = append(all, k)
	}
	return all
}

func byID(m map[string]any) string { return m["id"].(string) }

// get reads a dotted path in a decoded JSON object.
func get(m map[string]any, path string) any {
	var cur any = m
	for _, k := range strings.Split(path, ".") {
		o, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = o[k]
	}
	return cur
}

// tamper changes one character of a page token's signature.
func tamper(tok string) string {
	b := []byte(tok)
	i := len(b) - 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		if m[x] == 0 {
			return false
		}
		m[x]--
	}
	return true
}
