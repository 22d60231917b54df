package httpapi_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
)

type echoIn struct {
	ID   string `path:"id" maxLength:"8"`
	Body struct {
		Title  string   `json:"title" maxLength:"5"`
		Tags   []string `json:"tags,omitempty" uniqueItems:"true"`
		Owners []ids.ID `json:"owners,omitempty"`
	}
}

type echoOut struct {
	Body struct {
		ID    string `json:"id"`
		Title string `json:"title"`
		Seen  string `json:"seen"`
	}
}

// newEchoAPI serves PUT /v1/things/{id} (public) and GET /v1/private (a
// token needed), with a middleware added through Use.
func newEchoAPI(lazy bool) *httpapi.API {
	api := httpapi.New(httpapi.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Lazy: lazy})
	api.Use(func(ctx huma.Context, next func(huma.Context)) {
		ctx.SetHeader("X-Seen", "yes")
		next(ctx)
	})
	httpapi.Register(api, httpapi.Op{ID: "putThing", Method: http.MethodPut, Path: "/v1/things/{id}", Needs: access.Anyone, Tag: "t"},
		func(ctx context.Context, in *echoIn) (*echoOut, error) {
			out := &echoOut{}
			out.Body.ID, out.Body.Title, out.Body.Seen = in.ID, in.Body.Title, "handler"
			return out, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getPrivate", Needs: access.SignedIn, Method: http.MethodGet, Path: "/v1/private", Tag: "t"},
		func(ctx context.Context, in *struct{}) (*echoOut, error) { return &echoOut{}, nil })
	return api
}

// A lazy API (operations built on their first request) answers every
// request exactly as the eager one does: bodies, validation errors naming
// the field, strict JSON (duplicate keys, uniqueItems), middlewares,
// authentication, 405 with Allow and 404 for unknown routes.
func TestLazyOperationsAnswerAsEagerOnes(t *testing.T) {
	eager, lazy := newEchoAPI(false).Handler(), newEchoAPI(true).Handler()
	if n := len(newEchoAPI(true).Huma.OpenAPI().Paths); n != 0 {
		t.Fatalf("a lazy API built %d paths before any request", n)
	}
	cases := []struct{ method, path, body string }{
		{"PUT", "/v1/things/a1", `{"title":"hello","tags":["x","y"]}`},
		{"PUT", "/v1/things/a1", `{"title":"too long"}`},
		{"PUT", "/v1/things/toolongid", `{"title":"a"}`},
		{"PUT", "/v1/things/a1", `{"title":"a","title":"b"}`},
		{"PUT", "/v1/things/a1", `{"title":"a","tags":["x","x"]}`},
		{"PUT", "/v1/things/a1", `{"title":"a","owners":["u1","u\u0000"]}`},
		{"PUT", "/v1/things/a1", `{"title":"a","Owners":["u\u202e"]}`},
		{"PUT", "/v1/things/a1", `{"title":`},
		{"PUT", "/v1/things/a1", `{"title":"a","id":"other","seen":"x"}`}, // the answer's fields: read only
		{"PUT", "/v1/things/a1", `{"title":"a","seen":1}`},
		{"PUT", "/v1/things/a1", `{"title":"a","typo":1}`},
		{"GET", "/v1/things/a1", ``},
		{"GET", "/v1/private", ``},
		{"GET", "/v1/nowhere", ``},
	}
	for _, c := range cases {
		answer := func(h http.Handler) (int, string, http.Header) {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(c.method, c.path, bytes.NewBufferString(c.body))
			req.Header.Set("X-Request-Id", "same")
			h.ServeHTTP(rec, req)
			return rec.Code, rec.Body.String(), rec.Header()
		}
		ec, eb, eh := answer(eager)
		lc, lb, lh := answer(lazy)
		if ec != lc || eb != lb || eh.Get("Allow") != lh.Get("Allow") || eh.Get("X-Seen") != lh.Get("X-Seen") {
			t.Errorf("%s %s %s: eager %d %q (Allow %q, X-Seen %q), lazy %d %q (Allow %q, X-Seen %q)", c.method, c.path, c.body,
				ec, eb, eh.Get("Allow"), eh.Get("X-Seen"), lc, lb, lh.Get("Allow"), lh.Get("X-Seen"))
		}
	}
	// The cases above cover each class: check a few answers outright.
	rec := httptest.NewRecorder()
	lazy.ServeHTTP(rec, httptest.NewRequest("PUT", "/v1/things/a1", bytes.NewBufferString(`{"title":"a","tags":["x","x"]}`)))
	if rec.Code != 400 || !bytes.Contains(rec.Body.Bytes(), []byte("tags")) {
		t.Fatalf("duplicate tags: %d %s", rec.Code, rec.Body)
	}
	// The answer's fields sent back are accepted and ignored; others refused.
	rec = httptest.NewRecorder()
	lazy.ServeHTTP(rec, httptest.NewRequest("PUT", "/v1/things/a1", bytes.NewBufferString(`{"title":"a","id":"other","seen":"x"}`)))
	if rec.Code != 200 || !bytes.Contains(rec.Body.Bytes(), []byte(`"id":"a1"`)) || !bytes.Contains(rec.Body.Bytes(), []byte(`"seen":"handler"`)) {
		t.Fatalf("read-only fields: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	lazy.ServeHTTP(rec, httptest.NewRequest("PUT", "/v1/things/a1", bytes.NewBufferString(`{"title":"a","typo":1}`)))
	if rec.Code != 400 || !bytes.Contains(rec.Body.Bytes(), []byte("typo")) {
		t.Fatalf("an unknown field: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	lazy.ServeHTTP(rec, httptest.NewRequest("PUT", "/v1/things/a1", bytes.NewBufferString(`{"title":"a","owners":["u1","u\u0000"]}`)))
	if rec.Code != 400 || !bytes.Contains(rec.Body.Bytes(), []byte(`"owners[1]: contains a NUL character"`)) {
		t.Fatalf("NUL in an id: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	lazy.ServeHTTP(rec, httptest.NewRequest("PUT", "/v1/things/a1", bytes.NewBufferString(`{"title":"hello"}`)))
	if rec.Code != 200 || rec.Header().Get("X-Seen") != "yes" || !bytes.Contains(rec.Body.Bytes(), []byte(`"seen":"handler"`)) {
		t.Fatalf("a valid request: %d %s %v", rec.Code, rec.Body, rec.Header())
	}
}

// First requests to a lazy API's operations may come at once (local mode
// serves concurrently): each operation is built once, none interferes.
func TestLazyOperationsBuildOnceUnderConcurrentFirstRequests(t *testing.T) {
	h := newEchoAPI(true).Handler()
	var wg sync.WaitGroup
	codes := make([]int, 32)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := httptest.NewRecorder()
			if i%2 == 0 {
				h.ServeHTTP(rec, httptest.NewRequest("PUT", "/v1/things/a1", bytes.NewBufferString(`{"title":"ok"}`)))
			} else {
				h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/private", nil))
			}
			codes[i] = rec.Code
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if want := []int{200, 401}[i%2]; c != want {
			t.Fatalf("request %d: %d, want %d", i, c, want)
		}
	}
}

// A GET of a served path with a trailing slash is redirected to the path
// without it (its query kept); other methods and unknown paths answer as
// before.
func TestTrailingSlashRedirectsToTheOperation(t *testing.T) {
	h := newEchoAPI(false).Handler()
	for _, c := range []struct {
		method, target string
		status         int
		location       string
	}{
		{http.MethodGet, "/v1/private/", http.StatusPermanentRedirect, "/v1/private"},
		{http.MethodHead, "/v1/private//?x=1", http.StatusPermanentRedirect, "/v1/private?x=1"},
		{http.MethodGet, "/v1/nowhere/", http.StatusNotFound, ""},
		{http.MethodGet, "//v1/private/", http.StatusNotFound, ""},
		{http.MethodPut, "/v1/things/a/", http.StatusNotFound, ""},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(c.method, c.target, nil))
		if w.Code != c.status || w.Header().Get("Location") != c.location {
			t.Errorf("%s %s: %d Location %q, want %d %q", c.method, c.target, w.Code, w.Header().Get("Location"), c.status, c.location)
		}
	}
}
