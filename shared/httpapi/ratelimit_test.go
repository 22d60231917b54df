package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
)

type allowAll struct{}

func (allowAll) Authenticate(context.Context, string) (access.Caller, error) {
	return access.Caller{UserID: "u"}, nil
}

type pingOut struct {
	Body struct {
		OK bool `json:"ok"`
	}
}

// limitedAPI serves GET /v1/ping (public) and GET /v1/me (token) with the
// given limit, on a clock the test moves.
func limitedAPI(rl httpapi.RateLimit) http.Handler {
	api := httpapi.New(httpapi.Config{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), Auth: allowAll{}, RateLimit: rl})
	ok := func(context.Context, *struct{}) (*pingOut, error) {
		out := &pingOut{}
		out.Body.OK = true
		return out, nil
	}
	httpapi.Register(api, httpapi.Op{ID: "ping", Method: http.MethodGet, Path: "/v1/ping", Tag: "T", Status: 200, Public: true}, ok)
	httpapi.Register(api, httpapi.Op{ID: "me", Method: http.MethodGet, Path: "/v1/me", Tag: "T", Status: 200}, ok)
	return api.Handler()
}

func get(h http.Handler, path, token, remote string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if remote != "" {
		req.RemoteAddr = remote
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func TestRateLimitPerTokenAndAddress(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	h := limitedAPI(httpapi.RateLimit{PerMinute: 60, Burst: 3, Now: func() time.Time { return now }})

	for i := 0; i < 3; i++ {
		w := get(h, "/v1/me", "alice", "10.0.0.1:1234")
		if w.Code != 200 {
			t.Fatalf("request %d: %d %s", i, w.Code, w.Body)
		}
		if got := w.Header().Get("X-RateLimit-Limit"); got != "3" {
			t.Errorf("X-RateLimit-Limit = %q, want 3", got)
		}
		if got := w.Header().Get("X-RateLimit-Remaining"); got != strconv.Itoa(2-i) {
			t.Errorf("request %d: X-RateLimit-Remaining = %q, want %d", i, got, 2-i)
		}
		// One token a second: full again i+1 seconds from now.
		if got := w.Header().Get("X-RateLimit-Reset"); got != strconv.FormatInt(now.Unix()+int64(i+1), 10) {
			t.Errorf("request %d: X-RateLimit-Reset = %q, want %d", i, got, now.Unix()+int64(i+1))
		}
	}
	w := get(h, "/v1/me", "alice", "10.0.0.1:1234")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("past the burst: %d Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
	var body httpapi.ErrorBody
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Err.Code != 429 || body.Err.Message == "" {
		t.Fatalf("429 body %s (%v)", w.Body, err)
	}
	// Unknown routes count too, and answer the headers.
	if w := get(h, "/v1/nowhere", "alice", "10.0.0.1:1234"); w.Code != 429 {
		t.Errorf("unknown route past the limit: %d", w.Code)
	}
	// Another token from the same address has its own bucket; so has a
	// request without a token, keyed by its address.
	if w := get(h, "/v1/me", "bob", "10.0.0.1:1234"); w.Code != 200 {
		t.Errorf("bob: %d", w.Code)
	}
	for i := 0; i < 3; i++ {
		if w := get(h, "/v1/ping", "", "10.0.0.2:5"); w.Code != 200 {
			t.Fatalf("anonymous %d: %d", i, w.Code)
		}
	}
	if w := get(h, "/v1/ping", "", "10.0.0.2:6"); w.Code != 429 {
		t.Errorf("anonymous past the burst (same address, other port): %d", w.Code)
	}
	if w := get(h, "/v1/ping", "", "10.0.0.3:5"); w.Code != 200 {
		t.Errorf("other address: %d", w.Code)
	}
	// The bucket refills at one token a second.
	now = now.Add(1500 * time.Millisecond)
	if w := get(h, "/v1/me", "alice", ""); w.Code != 200 {
		t.Errorf("after 1.5s: %d", w.Code)
	}
	if w := get(h, "/v1/me", "alice", ""); w.Code != 429 || w.Header().Get("Retry-After") != "1" {
		t.Errorf("after 1.5s, second request: %d Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
}

// X-Forwarded-For is ignored unless trusted; API Gateway's source IP (the
// proxy's request context) is the address in Lambda.
func TestRateLimitClientAddress(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { return now }
	forwarded := func(h http.Handler, xff string) int {
		req := httptest.NewRequest(http.MethodGet, "/v1/ping", nil)
		req.Header.Set("X-Forwarded-For", xff)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
	h := limitedAPI(httpapi.RateLimit{PerMinute: 60, Burst: 1, Now: clock})
	if forwarded(h, "1.1.1.1") != 200 || forwarded(h, "2.2.2.2") != 429 {
		t.Error("untrusted X-Forwarded-For chose the bucket")
	}
	h = limitedAPI(httpapi.RateLimit{PerMinute: 60, Burst: 1, Now: clock, TrustForwardedFor: true})
	if forwarded(h, "9.9.9.9, 1.1.1.1") != 200 || forwarded(h, "9.9.9.9, 2.2.2.2") != 200 || forwarded(h, "8.8.8.8, 2.2.2.2") != 429 {
		t.Error("trusted X-Forwarded-For: the last address should choose the bucket")
	}

	h = limitedAPI(httpapi.RateLimit{PerMinute: 60, Burst: 1, Now: clock})
	viaGateway := func(ip string) int {
		var acc core.RequestAccessorV2
		req, err := acc.EventToRequestWithContext(context.Background(), events.APIGatewayV2HTTPRequest{
			RawPath: "/v1/ping", RequestContext: events.APIGatewayV2HTTPRequestContext{
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "GET", Path: "/v1/ping", SourceIP: ip}}})
		if err != nil {
			t.Fatal(err)
		}
		req.RemoteAddr = "127.0.0.1:9" // the same for all: the context decides
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
	if viaGateway("3.3.3.3") != 200 || viaGateway("4.4.4.4") != 200 || viaGateway("3.3.3.3") != 429 {
		t.Error("API Gateway's source IP should choose the bucket")
	}
}

// Memory stays bounded: past MaxKeys, idle buckets (or arbitrary ones) go.
func TestRateLimitEvictsKeys(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	h := limitedAPI(httpapi.RateLimit{PerMinute: 60, Burst: 1, MaxKeys: 2, Now: func() time.Time { return now }})
	for _, tok := range []string{"a", "b"} {
		get(h, "/v1/me", tok, "")
	}
	if w := get(h, "/v1/me", "a", ""); w.Code != 429 {
		t.Fatalf("a's bucket forgotten early: %d", w.Code)
	}
	now = now.Add(time.Hour) // a and b idle: their buckets are full again
	get(h, "/v1/me", "c", "")
	get(h, "/v1/me", "d", "")
	if w := get(h, "/v1/me", "a", ""); w.Code != 200 {
		t.Errorf("a after an hour: %d", w.Code)
	}
}

// The limiter's cost: one request through the handler with and without it.
func BenchmarkRateLimit(b *testing.B) {
	for _, bc := range []struct {
		name string
		rl   httpapi.RateLimit
	}{
		{"without", httpapi.RateLimit{}},
		{"with", httpapi.RateLimit{PerMinute: 1 << 30, Burst: 1 << 30}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			h := limitedAPI(bc.rl)
			req := httptest.NewRequest(http.MethodGet, "/v1/me", nil)
			req.Header.Set("Authorization", "Bearer gb_api_0123456789abcdef0123456789abcdef")
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				w := httptest.NewRecorder()
				w.Body = bytes.NewBuffer(make([]byte, 0, 64))
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatal(w.Code, w.Body)
				}
			}
		})
	}
}
