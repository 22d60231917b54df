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
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/httpapi"
)

// tokens authenticates the tokens starting with "good" unless revoked,
// and counts the calls (each would be a store read).
type tokens struct {
	mu      sync.Mutex
	revoked map[string]bool
	calls   int
}

func (a *tokens) Authenticate(_ context.Context, token string) (access.Caller, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls++
	if !strings.HasPrefix(token, "good") || a.revoked[token] {
		return access.Caller{}, apperr.New(apperr.Unauthorized, "invalid token")
	}
	return access.Caller{UserID: token}, nil
}

func (a *tokens) revoke(token string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.revoked == nil {
		a.revoked = map[string]bool{}
	}
	a.revoked[token] = true
}

type pingOut struct {
	Body struct {
		OK bool `json:"ok"`
	}
}

// limitedAPI serves, with the given limits, GET /v1/ping (public), GET
// /v1/me (token), POST /v1/render (token, expensive) and GET
// /v1/public-render (public, expensive).
func limitedAPI(rl httpapi.RateLimit) (http.Handler, *tokens) {
	auth := &tokens{}
	api := httpapi.New(httpapi.Config{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), Auth: auth, RateLimit: rl})
	ok := func(context.Context, *struct{}) (*pingOut, error) {
		out := &pingOut{}
		out.Body.OK = true
		return out, nil
	}
	httpapi.Register(api, httpapi.Op{ID: "ping", Method: http.MethodGet, Path: "/v1/ping", Tag: "T", Status: 200, Needs: access.Anyone}, ok)
	httpapi.Register(api, httpapi.Op{ID: "me", Needs: access.SignedIn, Method: http.MethodGet, Path: "/v1/me", Tag: "T", Status: 200}, ok)
	httpapi.Register(api, httpapi.Op{ID: "render", Needs: access.SignedIn, Expensive: true, Method: http.MethodPost, Path: "/v1/render", Tag: "T", Status: 200}, ok)
	httpapi.Register(api, httpapi.Op{ID: "publicRender", Expensive: true, Method: http.MethodGet, Path: "/v1/public-render", Tag: "T",
		Status: 200, Needs: access.Anyone}, ok)
	return api.Handler(), auth
}

func do(h http.Handler, method, path, token, remote string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, nil)
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

func get(h http.Handler, path, token, remote string) *httptest.ResponseRecorder {
	return do(h, http.MethodGet, path, token, remote)
}

// throttled checks a 429: Retry-After, X-RateLimit-Limit, and the error
// shape.
func throttled(t *testing.T, what string, w *httptest.ResponseRecorder, limit string) {
	t.Helper()
	if w.Code != http.StatusTooManyRequests {
		t.Fatalf("%s: %d %s, want 429", what, w.Code, w.Body)
	}
	if w.Header().Get("Retry-After") == "" || w.Header().Get("X-RateLimit-Limit") != limit ||
		w.Header().Get("X-RateLimit-Remaining") != "0" || w.Header().Get("X-RateLimit-Reset") == "" {
		t.Errorf("%s: headers %v, want Retry-After and X-RateLimit-* with limit %s", what, w.Header(), limit)
	}
	var body httpapi.ErrorBody
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Err.Code != 429 || body.Err.Message == "" {
		t.Errorf("%s: 429 body %s (%v)", what, w.Body, err)
	}
}

// unlimited reports whether an answer carries no X-RateLimit-* header.
func unlimited(w *httptest.ResponseRecorder) bool {
	return w.Header().Get("X-RateLimit-Limit") == "" && w.Header().Get("X-RateLimit-Remaining") == "" &&
		w.Header().Get("X-RateLimit-Reset") == ""
}

func TestRateLimitAnonymousPerAddress(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	h, _ := limitedAPI(httpapi.RateLimit{Anonymous: httpapi.Limit{PerMinute: 60, Burst: 3}, Now: func() time.Time { return now }})

	for i := 0; i < 3; i++ {
		w := get(h, "/v1/ping", "", "10.0.0.1:1234")
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
	w := get(h, "/v1/ping", "", "10.0.0.1:999") // same address, other port
	throttled(t, "past the burst", w, "3")
	if w.Header().Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q, want 1", w.Header().Get("Retry-After"))
	}
	// Unknown routes count too, and answer the headers.
	throttled(t, "unknown route past the limit", get(h, "/v1/nowhere", "", "10.0.0.1:1234"), "3")
	if w := get(h, "/v1/ping", "", "10.0.0.3:5"); w.Code != 200 {
		t.Errorf("other address: %d", w.Code)
	}
	// The bucket refills at one token a second.
	now = now.Add(1500 * time.Millisecond)
	if w := get(h, "/v1/ping", "", "10.0.0.1:1234"); w.Code != 200 {
		t.Errorf("after 1.5s: %d", w.Code)
	}
	if w := get(h, "/v1/ping", "", "10.0.0.1:1234"); w.Code != 429 || w.Header().Get("Retry-After") != "1" {
		t.Errorf("after 1.5s, second request: %d Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
}

// A verified token is not limited when the authenticated class is off
// (the default): its answers carry no X-RateLimit-* headers, and the
// address's anonymous bucket is left alone.
func TestRateLimitAuthenticatedUnthrottled(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	h, _ := limitedAPI(httpapi.RateLimit{Anonymous: httpapi.Limit{PerMinute: 60, Burst: 3}, Now: func() time.Time { return now }})
	for i := 0; i < 1000; i++ {
		w := get(h, "/v1/me", "good-alice", "10.0.0.1:1")
		if w.Code != 200 {
			t.Fatalf("authenticated request %d: %d %s", i, w.Code, w.Body)
		}
		if i > 0 && !unlimited(w) {
			t.Fatalf("authenticated request %d carries rate-limit headers: %v", i, w.Header())
		}
	}
	// The token's first request (not verified yet) was counted as the
	// address's, then given back: the address's bucket is full.
	for i := 0; i < 3; i++ {
		if w := get(h, "/v1/ping", "", "10.0.0.1:2"); w.Code != 200 {
			t.Fatalf("anonymous %d: %d", i, w.Code)
		}
	}
	throttled(t, "anonymous past the burst", get(h, "/v1/ping", "", "10.0.0.1:2"), "3")
	// The verified token goes on while its address is throttled.
	if w := get(h, "/v1/me", "good-alice", "10.0.0.1:1"); w.Code != 200 {
		t.Errorf("verified token from a throttled address: %d", w.Code)
	}
	// So does it on public operations; a made-up token there is the
	// address's.
	if w := get(h, "/v1/ping", "good-alice", "10.0.0.1:1"); w.Code != 200 || !unlimited(w) {
		t.Errorf("public operation with a verified token: %d %v", w.Code, w.Header())
	}
	throttled(t, "public operation with a made-up token", get(h, "/v1/ping", "made-up", "10.0.0.1:1"), "3")
}

// Public operations need no token, but one sent to them is checked for
// the limiter when it has not been verified lately: a valid one is then
// unthrottled as on any operation, a made-up one stays its address's (and
// is checked only while the address may make requests); a revoked one
// stops counting within verifiedFor (5 minutes), being checked again once
// its verification is half as old.
func TestRateLimitPublicOperationsCheckTokens(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	h, auth := limitedAPI(httpapi.RateLimit{Anonymous: httpapi.Limit{PerMinute: 60, Burst: 3}, Now: func() time.Time { return now }})
	if w := get(h, "/v1/ping", "good-renderer", "10.0.0.1:1"); w.Code != 200 || auth.calls != 1 {
		t.Fatalf("a token's first request to a public operation: %d, %d authentications", w.Code, auth.calls)
	}
	for i := 0; i < 100; i++ {
		if w := get(h, "/v1/ping", "good-renderer", "10.0.0.1:1"); w.Code != 200 || !unlimited(w) {
			t.Fatalf("verified token on a public operation, request %d: %d %v", i, w.Code, w.Header())
		}
	}
	if auth.calls != 1 {
		t.Errorf("%d authentications, want 1 (a fresh verification is not checked again)", auth.calls)
	}
	auth.revoke("good-renderer")
	now = now.Add(2 * time.Minute) // not yet half of verifiedFor
	if w := get(h, "/v1/ping", "good-renderer", "10.0.0.1:1"); w.Code != 200 || !unlimited(w) || auth.calls != 1 {
		t.Errorf("revoked, 2 minutes after its verification: %d %v, %d authentications", w.Code, w.Header(), auth.calls)
	}
	now = now.Add(time.Minute) // 3 minutes: checked again, and refused
	if w := get(h, "/v1/ping", "good-renderer", "10.0.0.1:1"); w.Code != 200 || !unlimited(w) || auth.calls != 2 {
		t.Errorf("revoked, 3 minutes after its verification: %d %v, %d authentications", w.Code, w.Header(), auth.calls)
	}
	for i := 0; i < 3; i++ { // the address's bucket is full again
		if w := get(h, "/v1/ping", "good-renderer", "10.0.0.1:1"); w.Code != 200 || unlimited(w) {
			t.Fatalf("revoked token, forgotten, request %d: %d %v", i, w.Code, w.Header())
		}
	}
	throttled(t, "revoked token past the address's burst", get(h, "/v1/ping", "good-renderer", "10.0.0.1:1"), "3")
	if auth.calls != 5 {
		t.Errorf("%d authentications, want 5 (none once the address is throttled)", auth.calls)
	}
	// A valid token whose verification is past verifiedFor is the
	// address's until verified anew.
	now = now.Add(time.Hour)
	get(h, "/v1/me", "good-dave", "10.0.0.2:1")
	now = now.Add(verifiedFor)
	if w := get(h, "/v1/me", "good-dave", "10.0.0.2:1"); w.Code != 200 || unlimited(w) {
		t.Errorf("a verification past verifiedFor: %d %v, want the address's headers", w.Code, w.Header())
	}
	if w := get(h, "/v1/me", "good-dave", "10.0.0.2:1"); w.Code != 200 || !unlimited(w) {
		t.Errorf("verified anew: %d %v", w.Code, w.Header())
	}
}

// verifiedFor is httpapi's (ratelimit.go).
const verifiedFor = 5 * time.Minute

// The limiter runs before authentication: a token it has not seen
// verified counts against the address, so made-up tokens neither escape
// the anonymous limit nor reach the authenticator without limit.
func TestRateLimitUnverifiedTokensAreAnonymous(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	h, auth := limitedAPI(httpapi.RateLimit{Anonymous: httpapi.Limit{PerMinute: 60, Burst: 3}, Now: func() time.Time { return now }})
	for i := 0; i < 3; i++ {
		if w := get(h, "/v1/me", "made-up-"+strconv.Itoa(i), "10.0.0.1:1"); w.Code != 401 {
			t.Fatalf("made-up token %d: %d", i, w.Code)
		}
	}
	for i := 3; i < 20; i++ {
		throttled(t, "made-up token past the address's burst", get(h, "/v1/me", "made-up-"+strconv.Itoa(i), "10.0.0.1:1"), "3")
	}
	if auth.calls != 3 {
		t.Errorf("the authenticator was called %d times, want 3 (throttled requests must not reach it)", auth.calls)
	}
	// A valid token not seen yet is the address's too until verified.
	throttled(t, "a valid token's first request from a throttled address", get(h, "/v1/me", "good-bob", "10.0.0.1:1"), "3")
	if w := get(h, "/v1/me", "good-bob", "10.0.0.2:1"); w.Code != 200 || w.Header().Get("X-RateLimit-Limit") != "3" {
		t.Fatalf("a valid token's first request from another address: %d %v", w.Code, w.Header())
	}
	if w := get(h, "/v1/me", "good-bob", "10.0.0.1:1"); w.Code != 200 || !unlimited(w) {
		t.Errorf("the verified token from the throttled address: %d %v", w.Code, w.Header())
	}
}

// A verified token that stops authenticating (revoked, expired) is
// anonymous again at once.
func TestRateLimitForgetsRefusedTokens(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	h, auth := limitedAPI(httpapi.RateLimit{Anonymous: httpapi.Limit{PerMinute: 60, Burst: 2}, Now: func() time.Time { return now }})
	if w := get(h, "/v1/me", "good-carol", "10.0.0.1:1"); w.Code != 200 {
		t.Fatal(w.Code)
	}
	auth.revoke("good-carol")
	if w := get(h, "/v1/me", "good-carol", "10.0.0.1:1"); w.Code != 401 || !unlimited(w) {
		t.Fatalf("revoked token, first request (still counted as verified): %d %v", w.Code, w.Header())
	}
	for i := 1; i >= 0; i-- {
		if w := get(h, "/v1/me", "good-carol", "10.0.0.1:1"); w.Code != 401 || w.Header().Get("X-RateLimit-Remaining") != strconv.Itoa(i) {
			t.Fatalf("revoked token: %d %v, want the address's bucket with %d left", w.Code, w.Header(), i)
		}
	}
	throttled(t, "revoked token past the address's burst", get(h, "/v1/me", "good-carol", "10.0.0.1:1"), "2")
}

// Expensive operations have a bucket of their own per caller, for
// authenticated callers too; the other operations are not affected.
func TestRateLimitExpensivePerCaller(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	h, _ := limitedAPI(httpapi.RateLimit{Anonymous: httpapi.Limit{PerMinute: 600, Burst: 100},
		Expensive: httpapi.Limit{PerMinute: 6, Burst: 2}, Now: func() time.Time { return now }})
	get(h, "/v1/me", "good-alice", "10.0.0.1:1") // verified from now on
	for i := 0; i < 2; i++ {
		w := do(h, http.MethodPost, "/v1/render", "good-alice", "10.0.0.1:1")
		if w.Code != 200 || w.Header().Get("X-RateLimit-Limit") != "2" || w.Header().Get("X-RateLimit-Remaining") != strconv.Itoa(1-i) {
			t.Fatalf("expensive %d: %d %v", i, w.Code, w.Header())
		}
	}
	w := do(h, http.MethodPost, "/v1/render", "good-alice", "10.0.0.1:1")
	throttled(t, "authenticated caller past the expensive burst", w, "2")
	if w.Header().Get("Retry-After") != "10" { // 6 a minute: one every 10 s
		t.Errorf("Retry-After %q, want 10", w.Header().Get("Retry-After"))
	}
	if w := get(h, "/v1/me", "good-alice", "10.0.0.1:1"); w.Code != 200 || !unlimited(w) {
		t.Errorf("an ordinary operation of the same caller: %d %v", w.Code, w.Header())
	}
	// Another caller, from the same address, has its own bucket.
	get(h, "/v1/me", "good-bob", "10.0.0.1:1")
	if w := do(h, http.MethodPost, "/v1/render", "good-bob", "10.0.0.1:1"); w.Code != 200 {
		t.Errorf("another token: %d", w.Code)
	}
	// Anonymous callers: by address, and the answer shows whichever
	// bucket has fewer requests left (the expensive one here).
	for i := 0; i < 2; i++ {
		if w := get(h, "/v1/public-render", "", "10.0.0.9:1"); w.Code != 200 || w.Header().Get("X-RateLimit-Limit") != "2" {
			t.Fatalf("anonymous expensive %d: %d %v", i, w.Code, w.Header())
		}
	}
	throttled(t, "anonymous past the expensive burst", get(h, "/v1/public-render", "made-up", "10.0.0.9:2"), "2")
	if w := get(h, "/v1/ping", "", "10.0.0.9:1"); w.Code != 200 || w.Header().Get("X-RateLimit-Limit") != "100" ||
		w.Header().Get("X-RateLimit-Remaining") != "96" {
		t.Errorf("the address's anonymous bucket: %d %v, want 4 of 100 spent (one refused request counted)", w.Code, w.Header())
	}
	// An unverified token on an expensive operation is its address's.
	throttled(t, "made-up token on an expensive operation", do(h, http.MethodPost, "/v1/render", "made-up", "10.0.0.9:3"), "2")
}

// An authenticated limit, when an administrator sets one, is per token.
func TestRateLimitAuthenticatedWhenSet(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	h, _ := limitedAPI(httpapi.RateLimit{Authenticated: httpapi.Limit{PerMinute: 120, Burst: 3},
		Anonymous: httpapi.Limit{PerMinute: 60, Burst: 50}, Now: func() time.Time { return now }})
	get(h, "/v1/me", "good-alice", "10.0.0.1:1") // the first request is the address's
	for i := 0; i < 3; i++ {
		if w := get(h, "/v1/me", "good-alice", "10.0.0.1:1"); w.Code != 200 || w.Header().Get("X-RateLimit-Limit") != "3" {
			t.Fatalf("authenticated %d: %d %v", i, w.Code, w.Header())
		}
	}
	w := get(h, "/v1/me", "good-alice", "10.0.0.1:1")
	throttled(t, "authenticated past its burst", w, "3")
	if !strings.Contains(w.Body.String(), "120 a minute per token") {
		t.Errorf("the message names the class's limit: %s", w.Body)
	}
	if w := get(h, "/v1/ping", "", "10.0.0.1:1"); w.Code != 200 {
		t.Errorf("the address's anonymous requests: %d", w.Code)
	}
}

// 0 a minute turns each class off; all three off is no limiter at all.
func TestRateLimitZeroDisablesEachClass(t *testing.T) {
	on := httpapi.Limit{PerMinute: 60, Burst: 2}
	// The expensive bucket is smaller, so that its check (two requests)
	// stays within the authenticated class's.
	expensive := httpapi.Limit{PerMinute: 60, Burst: 1}
	for _, tc := range []struct {
		name                   string
		rl                     httpapi.RateLimit
		anon, authd, exp       bool // throttled past the burst
		headersOnAuthenticated bool
	}{
		{"all on", httpapi.RateLimit{Authenticated: on, Anonymous: on, Expensive: expensive}, true, true, true, true},
		{"authenticated off", httpapi.RateLimit{Anonymous: on, Expensive: expensive}, true, false, true, false},
		{"anonymous off", httpapi.RateLimit{Authenticated: on, Expensive: expensive}, false, true, true, true},
		{"expensive off", httpapi.RateLimit{Authenticated: on, Anonymous: on}, true, true, false, true},
		{"all off", httpapi.RateLimit{}, false, false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Unix(1_700_000_000, 0)
			tc.rl.Now = func() time.Time { return now }
			h, _ := limitedAPI(tc.rl)
			// Each check uses its own address and token: the classes are
			// tested one at a time.
			last := func(n int, method, path, token, addr string) int {
				code := 0
				for i := 0; i < n; i++ {
					code = do(h, method, path, token, addr).Code
				}
				return code
			}
			if got := last(3, http.MethodGet, "/v1/ping", "", "10.0.0.1:1"); (got == 429) != tc.anon {
				t.Errorf("anonymous: third request %d, throttled want %v", got, tc.anon)
			}
			get(h, "/v1/me", "good-a", "10.0.0.2:1") // verifies the token
			if got := last(3, http.MethodGet, "/v1/me", "good-a", "10.0.0.2:1"); (got == 429) != tc.authd {
				t.Errorf("authenticated: third request %d, throttled want %v", got, tc.authd)
			}
			if w := get(h, "/v1/me", "good-a", "10.0.0.2:1"); unlimited(w) == tc.headersOnAuthenticated {
				t.Errorf("authenticated answer's headers %v, want some: %v", w.Header(), tc.headersOnAuthenticated)
			}
			get(h, "/v1/me", "good-b", "10.0.0.3:1")
			if got := last(2, http.MethodPost, "/v1/render", "good-b", "10.0.0.3:1"); (got == 429) != tc.exp {
				t.Errorf("expensive: second request %d, throttled want %v", got, tc.exp)
			}
		})
	}
}

// X-Forwarded-For is ignored unless trusted; API Gateway's source IP (the
// proxy's request context) is the address in Lambda.
func TestRateLimitClientAddress(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	one := httpapi.Limit{PerMinute: 60, Burst: 1}
	clock := func() time.Time { return now }
	forwarded := func(h http.Handler, xff string) int {
		req := httptest.NewRequest(http.MethodGet, "/v1/ping", nil)
		req.Header.Set("X-Forwarded-For", xff)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
	h, _ := limitedAPI(httpapi.RateLimit{Anonymous: one, Now: clock})
	if forwarded(h, "1.1.1.1") != 200 || forwarded(h, "2.2.2.2") != 429 {
		t.Error("untrusted X-Forwarded-For chose the bucket")
	}
	h, _ = limitedAPI(httpapi.RateLimit{Anonymous: one, Now: clock, TrustForwardedFor: true})
	if forwarded(h, "9.9.9.9, 1.1.1.1") != 200 || forwarded(h, "9.9.9.9, 2.2.2.2") != 200 || forwarded(h, "8.8.8.8, 2.2.2.2") != 429 {
		t.Error("trusted X-Forwarded-For: the last address should choose the bucket")
	}

	h, _ = limitedAPI(httpapi.RateLimit{Anonymous: one, Now: clock})
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
	h, _ := limitedAPI(httpapi.RateLimit{Anonymous: httpapi.Limit{PerMinute: 60, Burst: 1}, MaxKeys: 2, Now: func() time.Time { return now }})
	for _, addr := range []string{"10.0.0.1:1", "10.0.0.2:1"} {
		get(h, "/v1/ping", "", addr)
	}
	if w := get(h, "/v1/ping", "", "10.0.0.1:1"); w.Code != 429 {
		t.Fatalf("the first address's bucket forgotten early: %d", w.Code)
	}
	now = now.Add(time.Hour) // both idle: their buckets are full again
	get(h, "/v1/ping", "", "10.0.0.3:1")
	get(h, "/v1/ping", "", "10.0.0.4:1")
	if w := get(h, "/v1/ping", "", "10.0.0.1:1"); w.Code != 200 {
		t.Errorf("the first address after an hour: %d", w.Code)
	}
}

// The limiter's cost: one request through the handler, without a limiter
// and with the default limits (app.ConfigFromEnv's: anonymous 600 a
// minute, burst 120; expensive 30, burst 10; authenticated none; the
// bursts made large enough never to refuse), for a caller with a verified
// token (GET /v1/me: the token's lookup only), an anonymous one (GET
// /v1/ping: its address's bucket) and an expensive operation (POST
// /v1/render, authenticated: the caller's expensive bucket). The two
// handlers take turns of 1,000 requests, so that both see the same
// machine; each reports wall and CPU time per request (the process's CPU
// time, which other processes on a shared machine disturb less than the
// wall clock) and allocations, and the differences.
func BenchmarkRateLimit(b *testing.B) {
	defaults := httpapi.RateLimit{Anonymous: httpapi.Limit{PerMinute: 600, Burst: 1 << 30},
		Expensive: httpapi.Limit{PerMinute: 30, Burst: 1 << 30}}
	for _, rc := range []struct {
		name, method, path, token string
	}{
		{"authenticated", http.MethodGet, "/v1/me", "good_0123456789abcdef0123456789abcdef"},
		{"anonymous", http.MethodGet, "/v1/ping", ""},
		{"expensive", http.MethodPost, "/v1/render", "good_0123456789abcdef0123456789abcdef"},
	} {
		b.Run(rc.name, func(b *testing.B) {
			r := httptest.NewRequest(rc.method, rc.path, nil)
			if rc.token != "" {
				r.Header.Set("Authorization", "Bearer "+rc.token)
			}
			serve := func(h http.Handler) {
				w := httptest.NewRecorder()
				w.Body = bytes.NewBuffer(make([]byte, 0, 64))
				h.ServeHTTP(w, r)
				if w.Code != 200 {
					b.Fatal(w.Code, w.Body)
				}
			}
			without, _ := limitedAPI(httpapi.RateLimit{})
			with, _ := limitedAPI(defaults)
			serve(with) // verifies the token
			allocs := func(h http.Handler) float64 { return testing.AllocsPerRun(1000, func() { serve(h) }) }
			withoutAllocs, withAllocs := allocs(without), allocs(with)
			var wall, cpu [2]time.Duration
			b.ResetTimer()
			for done := 0; done < b.N; {
				n := min(1000, b.N-done)
				for i, h := range []http.Handler{without, with} {
					cpu0, start := cpuTime(b), time.Now()
					for range n {
						serve(h)
					}
					wall[i] += time.Since(start)
					cpu[i] += cpuTime(b) - cpu0
				}
				done += n
			}
			b.StopTimer()
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
			b.ReportMetric(per(wall[0]), "without-ns/req")
			b.ReportMetric(per(wall[1]), "with-ns/req")
			b.ReportMetric(per(cpu[0]), "without-cpu-ns/req")
			b.ReportMetric(per(cpu[1]), "with-cpu-ns/req")
			b.ReportMetric(per(cpu[1]-cpu[0]), "limiter-cpu-ns/req")
			b.ReportMetric(withoutAllocs, "without-allocs/req")
			b.ReportMetric(withAllocs-withoutAllocs, "limiter-allocs/req")
		})
	}
}

// cpuTime is the user and system time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
