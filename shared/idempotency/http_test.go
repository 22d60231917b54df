package idempotency_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/idempotency"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

const keyHeader = httpapi.IdempotencyKeyHeader

// create is one create operation that accepts a key: its request and the
// list that shows its records.
type create struct {
	path, list func(a *testkit.API, t *testing.T) string
	body       func(n int) any
	status     int
}

var creates = map[string]create{
	"createSpace": {status: 201,
		path: func(a *testkit.API, _ *testing.T) string { return "/v1/orgs/" + a.Org.ID + "/spaces" },
		body: func(n int) any { return map[string]any{"title": fmt.Sprint("Space ", n)} }},
	"createCollection": {status: 201,
		path: func(a *testkit.API, _ *testing.T) string { return "/v1/orgs/" + a.Org.ID + "/collections" },
		body: func(n int) any { return map[string]any{"title": fmt.Sprint("Guides ", n)} }},
	"createChangeRequest": {status: 201,
		path: func(a *testkit.API, t *testing.T) string { return "/v1/spaces/" + a.Space(t) + "/change-requests" },
		list: func(a *testkit.API, t *testing.T) string {
			return "/v1/spaces/" + a.Space(t) + "/change-requests?status=draft"
		},
		body: func(n int) any { return map[string]any{"subject": fmt.Sprint("Change ", n)} }},
	"postCommentInSpace": {status: 200,
		path: func(a *testkit.API, t *testing.T) string { return "/v1/spaces/" + a.Space(t) + "/comments" },
		body: func(n int) any { return map[string]any{"body": map[string]any{"markdown": fmt.Sprint("Comment ", n)}} }},
}

func (c create) count(t *testing.T, a *testkit.API, cl *apitest.Client) int {
	t.Helper()
	path := c.path(a, t)
	if c.list != nil {
		path = c.list(a, t)
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var page struct {
		Items []any `json:"items"`
	}
	cl.Expect(http.StatusOK, "GET", path+sep+"limit=100", nil).JSON(t, &page)
	return len(page.Items)
}

// The same key and body twice: one record; the second answer is the
// first's (status, body, Location), marked replayed. The same key with
// another body: 422, nothing made. Without a key: a record each time.
func TestSameKeyAppliesOnce(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		a := testkit.NewAPI(t, k, []string{"spaces", "collections", "changerequests", "comments"})
		for name, c := range creates {
			t.Run(name, func(t *testing.T) {
				cl := a.As(t, "admin")
				path := c.path(a, t)
				before := c.count(t, a, cl)
				first := cl.Expect(c.status, "POST", path, c.body(1), keyHeader, "key-1")
				again := cl.Expect(c.status, "POST", path, c.body(1), keyHeader, "key-1")
				if first.Header.Get(httpapi.ReplayedHeader) != "" || again.Header.Get(httpapi.ReplayedHeader) != "true" {
					t.Errorf("replayed headers %q, %q; want none, then true", first.Header.Get(httpapi.ReplayedHeader), again.Header.Get(httpapi.ReplayedHeader))
				}
				if !bytes.Equal(first.Body, again.Body) {
					t.Errorf("replayed body differs:\n%s\n%s", first.Body, again.Body)
				}
				if first.Header.Get("Location") != again.Header.Get("Location") {
					t.Errorf("Location %q, replayed %q", first.Header.Get("Location"), again.Header.Get("Location"))
				}
				if got := c.count(t, a, cl); got != before+1 {
					t.Fatalf("%d records after the same key twice, want %d", got, before+1)
				}
				res := cl.Expect(http.StatusUnprocessableEntity, "POST", path, c.body(2), keyHeader, "key-1")
				if !strings.Contains(string(res.Body), keyHeader) {
					t.Errorf("422 does not name the header: %s", res.Body)
				}
				cl.Expect(c.status, "POST", path, c.body(3))
				cl.Expect(c.status, "POST", path, c.body(3))
				if got := c.count(t, a, cl); got != before+3 {
					t.Fatalf("%d records, want %d (the 422 made none; no key, two)", got, before+3)
				}
			})
		}
	})
}

// A key is the token's and the request's: another token's same key makes
// its own record; the same key on another organization's path is another
// request (422), never the first's answer.
func TestKeyOfAnotherTokenOrOrgDoesNotReplay(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		a := testkit.NewAPI(t, k, []string{"spaces"}, testkit.AlsoInOther("admin"))
		body := map[string]any{"title": "Handbook"}
		admin, creator := a.As(t, "admin"), a.As(t, "create")
		path := "/v1/orgs/" + a.Org.ID + "/spaces"
		first := admin.Expect(201, "POST", path, body, keyHeader, "shared")
		other := creator.Expect(201, "POST", path, body, keyHeader, "shared")
		if other.Header.Get(httpapi.ReplayedHeader) != "" || bytes.Equal(first.Body, other.Body) {
			t.Fatalf("another token's key replayed the first answer: %s", other.Body)
		}
		admin.Expect(http.StatusUnprocessableEntity, "POST", "/v1/orgs/"+a.Other.ID+"/spaces", body, keyHeader, "shared")
		var page struct {
			Items []any `json:"items"`
		}
		admin.Expect(200, "GET", path+"?limit=100", nil).JSON(t, &page)
		if len(page.Items) != 2 {
			t.Fatalf("%d spaces, want 2 (one per token)", len(page.Items))
		}
		admin.Expect(200, "GET", "/v1/orgs/"+a.Other.ID+"/spaces?limit=100", nil).JSON(t, &page)
		if len(page.Items) != 0 {
			t.Fatalf("%d spaces in the other organization, want 0", len(page.Items))
		}
	})
}

// Keys are 1 to 255 printable ASCII characters, one value; a failed
// request keeps nothing, so the same key then serves another body.
func TestBadKeysAndFailuresKeepNothing(t *testing.T) {
	a := testkit.NewAPI(t, testkit.New(t), []string{"spaces"})
	cl := a.As(t, "admin")
	path := "/v1/orgs/" + a.Org.ID + "/spaces"
	for _, key := range []string{strings.Repeat("k", 256), "caf\u00e9", "tab\there", " lead"} {
		res := cl.Expect(http.StatusBadRequest, "POST", path, map[string]any{"title": "x"}, keyHeader, key)
		if !strings.Contains(string(res.Body), keyHeader) {
			t.Errorf("key %q: 400 does not name the header: %s", key, res.Body)
		}
	}
	cl.Expect(201, "POST", path, map[string]any{"title": "ok"}, keyHeader, strings.Repeat("k", 255))
	// Refused by the service (a title too long), then the same key with a
	// good body: made, as the failure kept nothing.
	cl.Expect(http.StatusBadRequest, "POST", path, map[string]any{"title": strings.Repeat("t", 1000)}, keyHeader, "retry-me")
	cl.Expect(201, "POST", path, map[string]any{"title": "fixed"}, keyHeader, "retry-me")
	// An operation that takes no key ignores it.
	cl.Expect(200, "GET", path, nil, keyHeader, "retry-me")
}

// Requests with one key at once: one applies; the others answer 409 while
// it runs, or its answer replayed once it has answered.
func TestConcurrentSameKey(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		// One operation that waits until released: the first request is
		// held in flight while the second is sent.
		api := httpapi.New(httpapi.Config{Auth: anyone{}, Idempotency: idempotency.New(k.Deps.Store, k.Deps.Clock)})
		release, entered := make(chan struct{}), make(chan struct{}, 1)
		var made atomic.Int32
		type out struct {
			Location string `header:"Location"`
			Body     struct {
				N int32 `json:"n"`
			}
		}
		httpapi.Register(api, httpapi.Op{ID: "makeThing", Method: "POST", Path: "/v1/things", Status: 201, Needs: access.Role(access.CreateContent), Idempotent: true},
			func(ctx context.Context, in *struct{ Body struct{ Name string } }) (*out, error) {
				select {
				case entered <- struct{}{}:
				default:
				}
				<-release
				o := &out{}
				o.Body.N = made.Add(1)
				o.Location = fmt.Sprint("/v1/things/", o.Body.N)
				return o, nil
			})
		h := api.Handler()
		send := func() *httptest.ResponseRecorder {
			r := httptest.NewRequest("POST", "/v1/things", strings.NewReader(`{"name":"a"}`))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Authorization", "Bearer tok")
			r.Header.Set(keyHeader, "k1")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			return w
		}
		var wg sync.WaitGroup
		var first *httptest.ResponseRecorder
		wg.Add(1)
		go func() { defer wg.Done(); first = send() }()
		<-entered // the first request holds the key, in its handler
		if second := send(); second.Code != http.StatusConflict {
			t.Fatalf("second request while the first runs: %d %s, want 409", second.Code, second.Body)
		}
		close(release)
		wg.Wait()
		if first.Code != 201 || made.Load() != 1 {
			t.Fatalf("first: %d %s; made %d, want 201 and 1", first.Code, first.Body, made.Load())
		}
		third := send()
		if third.Code != 201 || third.Body.String() != first.Body.String() || third.Header().Get("Location") != "/v1/things/1" ||
			third.Header().Get(httpapi.ReplayedHeader) != "true" || made.Load() != 1 {
			t.Fatalf("after: %d %s %v; made %d", third.Code, third.Body, third.Header(), made.Load())
		}
		// Many at once, on a new key, through the real spaces family: one space.
		a := testkit.NewAPI(t, k, []string{"spaces"})
		path := "/v1/orgs/" + a.Org.ID + "/spaces"
		var made201, conflicts, replays atomic.Int32
		var all sync.WaitGroup
		for range 8 {
			all.Add(1)
			go func() {
				defer all.Done()
				res := apitest.New(t, a.API).Do("POST", path, map[string]any{"title": "Once"}, "Authorization", "Bearer "+a.Tokens["admin"], keyHeader, "burst")
				switch {
				case res.Status == 409:
					conflicts.Add(1)
				case res.Status == 201 && res.Header.Get(httpapi.ReplayedHeader) == "true":
					replays.Add(1)
				case res.Status == 201:
					made201.Add(1)
				default:
					t.Errorf("answer %d %s", res.Status, res.Body)
				}
			}()
		}
		all.Wait()
		var page struct {
			Items []any `json:"items"`
		}
		a.As(t, "admin").Expect(200, "GET", path+"?limit=100", nil).JSON(t, &page)
		if made201.Load() != 1 || len(page.Items) != 1 {
			t.Fatalf("8 at once: %d applied (%d conflicts, %d replays), %d spaces; want 1 and 1", made201.Load(), conflicts.Load(), replays.Load(), len(page.Items))
		}
		t.Logf("8 at once: 1 applied, %d answered 409, %d replayed", conflicts.Load(), replays.Load())
	})
}

// anyone authenticates every token as one user.
type anyone struct{}

func (anyone) Authenticate(context.Context, string) (access.Caller, error) {
	return access.Caller{UserID: "u1"}, nil
}

// A proxy in front of the API forwards the first request and drops its
// answer (the connection closed, as a timeout or a lost network reply):
// the client retries with its key and gets the first answer; one record.
func TestLostAnswerRetriedAppliesOnce(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		a := testkit.NewAPI(t, k, []string{"spaces"})
		h := a.API.Handler()
		var dropped atomic.Bool
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if r.Method == "POST" && dropped.CompareAndSwap(false, true) {
				conn, _, err := w.(http.Hijacker).Hijack()
				if err != nil {
					t.Error(err)
					return
				}
				_ = conn.Close()
				return
			}
			for name, vs := range rec.Header() {
				w.Header()[name] = vs
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
		}))
		defer srv.Close()
		path := srv.URL + "/v1/orgs/" + a.Org.ID + "/spaces"
		post := func() (*http.Response, []byte, error) {
			req, _ := http.NewRequest("POST", path, strings.NewReader(`{"title":"Retried"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+a.Tokens["admin"])
			req.Header.Set(keyHeader, "lost-1")
			res, err := srv.Client().Do(req)
			if err != nil {
				return nil, nil, err
			}
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			return res, b, err
		}
		if _, _, err := post(); err == nil {
			t.Fatal("the first answer was not dropped")
		}
		res, body, err := post()
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != 201 || res.Header.Get(httpapi.ReplayedHeader) != "true" {
			t.Fatalf("retry: %d %v %s; want the first answer replayed", res.StatusCode, res.Header, body)
		}
		var sp struct{ ID, Title string }
		if err := json.Unmarshal(body, &sp); err != nil || sp.Title != "Retried" {
			t.Fatalf("retry body %s: %v", body, err)
		}
		var page struct {
			Items []struct{ ID string } `json:"items"`
		}
		a.As(t, "admin").Expect(200, "GET", "/v1/orgs/"+a.Org.ID+"/spaces?limit=100", nil).JSON(t, &page)
		if len(page.Items) != 1 || page.Items[0].ID != sp.ID {
			t.Fatalf("spaces %+v, want the one %s", page.Items, sp.ID)
		}
	})
}
