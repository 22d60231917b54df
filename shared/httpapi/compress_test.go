package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
)

// A text answer of 8 KB or more (JSON, a page) is gzipped when the request
// accepts gzip, byte for byte the identity answer once decompressed, with
// Vary and its ETag; a small one, a request that does not accept gzip (or
// with q=0), a HEAD, an error, a stream of events and binary bytes stay
// as they are.
func TestLargeTextAnswersAreGzippedWhenAccepted(t *testing.T) {
	api := httpapi.New(httpapi.Config{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	type item struct {
		ID    int    `json:"id"`
		Title string `json:"title"`
	}
	list := func(n int) func(context.Context, *struct{}) (*struct{ Body []item }, error) {
		return func(context.Context, *struct{}) (*struct{ Body []item }, error) {
			out := &struct{ Body []item }{}
			for i := 0; i < n; i++ {
				out.Body = append(out.Body, item{i, "A page of the space's tree"})
			}
			return out, nil
		}
	}
	httpapi.Register(api, httpapi.Op{ID: "big", Method: http.MethodGet, Path: "/v1/big", Tag: "t", Needs: access.Anyone}, list(5000))
	httpapi.Register(api, httpapi.Op{ID: "small", Method: http.MethodGet, Path: "/v1/small", Tag: "t", Needs: access.Anyone}, list(3))
	page := strings.Repeat("<p>A paragraph of the page.</p>\n", 1000)
	raw := func(typ string) func(context.Context, *struct{}) (*struct{ Body func(huma.Context) }, error) {
		return func(context.Context, *struct{}) (*struct{ Body func(huma.Context) }, error) {
			return &struct{ Body func(huma.Context) }{func(hc huma.Context) {
				hc.SetHeader("Content-Type", typ)
				hc.SetHeader("ETag", `"page-1"`)
				hc.SetStatus(http.StatusOK)
				_, _ = hc.BodyWriter().Write([]byte(page))
			}}, nil
		}
	}
	httpapi.Register(api, httpapi.Op{ID: "html", Method: http.MethodGet, Path: "/v1/html", Tag: "t", Needs: access.Anyone}, raw("text/html; charset=utf-8"))
	httpapi.Register(api, httpapi.Op{ID: "events", Method: http.MethodGet, Path: "/v1/events", Tag: "t", Needs: access.Anyone}, raw("text/event-stream"))
	httpapi.Register(api, httpapi.Op{ID: "binary", Method: http.MethodGet, Path: "/v1/binary", Tag: "t", Needs: access.Anyone}, raw("application/octet-stream"))
	h := api.Handler()
	get := func(method, path, accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	plain := get("GET", "/v1/big", "")
	if plain.Code != 200 || plain.Header().Get("Content-Encoding") != "" || plain.Body.Len() < 100_000 {
		t.Fatalf("identity: %d %v, %d bytes", plain.Code, plain.Header(), plain.Body.Len())
	}
	for _, accept := range []string{"gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "*"} {
		z := get("GET", "/v1/big", accept)
		if z.Code != 200 || z.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(z.Header().Get("Vary"), "Accept-Encoding") || z.Header().Get("Content-Length") != "" {
			t.Fatalf("%q: %d %v", accept, z.Code, z.Header())
		}
		zr, err := gzip.NewReader(z.Body)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(body, plain.Body.Bytes()) {
			t.Fatalf("%q: the gzipped answer is not the identity one (%v)", accept, err)
		}
		if z.Body.Len() > plain.Body.Len()/5 {
			t.Errorf("%q: %d bytes gzipped for %d", accept, z.Body.Len(), plain.Body.Len())
		}
	}
	// A page (text) is gzipped too, its ETag kept; a stream of events
	// and binary bytes are not.
	html := get("GET", "/v1/html", "gzip")
	if html.Header().Get("Content-Encoding") != "gzip" || html.Header().Get("ETag") != `"page-1"` {
		t.Errorf("a page: %v", html.Header())
	} else if zr, err := gzip.NewReader(html.Body); err != nil {
		t.Error(err)
	} else if body, _ := io.ReadAll(zr); string(body) != page {
		t.Errorf("a page gzipped: %d bytes back for %d", len(body), len(page))
	}
	for _, path := range []string{"/v1/events", "/v1/binary"} {
		if r := get("GET", path, "gzip"); r.Header().Get("Content-Encoding") != "" || r.Body.String() != page {
			t.Errorf("%s: %v, %d bytes", path, r.Header(), r.Body.Len())
		}
	}
	for _, tc := range []struct{ method, path, accept string }{
		{"GET", "/v1/big", "gzip;q=0"},
		{"GET", "/v1/big", "identity"},
		{"GET", "/v1/small", "gzip"},
		{"HEAD", "/v1/big", "gzip"},
		{"GET", "/v1/nowhere", "gzip"},
	} {
		r := get(tc.method, tc.path, tc.accept)
		if r.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s %s (%q): gzipped", tc.method, tc.path, tc.accept)
		}
		if tc.method == "GET" && r.Code == 200 && !json.Valid(r.Body.Bytes()) {
			t.Errorf("%s %s (%q): %.100s", tc.method, tc.path, tc.accept, r.Body)
		}
	}
	if r := get("GET", "/v1/small", "gzip"); r.Header().Get("Content-Length") != "" && r.Header().Get("Content-Length") != strconv.Itoa(r.Body.Len()) {
		t.Errorf("small answer: Content-Length %s for %d bytes", r.Header().Get("Content-Length"), r.Body.Len())
	}
}
