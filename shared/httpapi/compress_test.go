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

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
)

// A JSON answer of 8 KB or more is gzipped when the request accepts gzip,
// byte for byte the identity answer once decompressed, with Vary; a small
// one, a request that does not accept gzip (or with q=0), a HEAD and an
// error stay as they are.
func TestLargeJSONAnswersAreGzippedWhenAccepted(t *testing.T) {
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
