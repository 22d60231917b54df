package local_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app"
)

// rateLimitVars are the variables of the rate limits (README.md).
var rateLimitVars = []string{
	"RATE_LIMIT_AUTHENTICATED_PER_MINUTE", "RATE_LIMIT_AUTHENTICATED_BURST",
	"RATE_LIMIT_ANONYMOUS_PER_MINUTE", "RATE_LIMIT_ANONYMOUS_BURST",
	"RATE_LIMIT_EXPENSIVE_PER_MINUTE", "RATE_LIMIT_EXPENSIVE_BURST",
	"RATE_LIMIT_PER_MINUTE", "RATE_LIMIT_BURST", "RATE_LIMIT_TRUST_FORWARDED_FOR",
}

// defaultLimits is the configuration `make run` builds (app.ConfigFromEnv)
// with the rate-limit variables unset but for set, and the limiter's clock
// stopped, so that a burst is exactly a bucket's size however slow the
// machine (the limits themselves are the defaults).
func defaultLimits(t *testing.T, token string, set map[string]string) app.Config {
	for _, v := range rateLimitVars {
		t.Setenv(v, set[v])
	}
	c, err := app.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	c.DataDir, c.BootstrapToken, c.APIURL, c.AppURL = t.TempDir(), token, "", ""
	c.LogLevel = 8 // quiet
	stopped := time.Now()
	c.RateLimit.Now = func() time.Time { return stopped }
	return c
}

// answer is one response: status, headers and the decoded JSON body.
type answer struct {
	code   int
	header http.Header
	body   map[string]any
	raw    []byte
}

func send(t *testing.T, client *http.Client, method, url, token string, body any) answer {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	a := answer{code: res.StatusCode, header: res.Header}
	a.raw, _ = io.ReadAll(res.Body)
	_ = json.Unmarshal(a.raw, &a.body)
	return a
}

// checkThrottled checks a 429 of a bucket of size limit: the headers and
// the error shape.
func checkThrottled(t *testing.T, what string, a answer, limit int) {
	t.Helper()
	if a.code != http.StatusTooManyRequests {
		t.Fatalf("%s: %d %s, want 429", what, a.code, a.raw)
	}
	if a.header.Get("X-RateLimit-Limit") != strconv.Itoa(limit) || a.header.Get("X-RateLimit-Remaining") != "0" ||
		a.header.Get("X-RateLimit-Reset") == "" || a.header.Get("Retry-After") == "" {
		t.Errorf("%s: headers %v, want X-RateLimit-Limit %d, Remaining 0, a Reset and Retry-After", what, a.header, limit)
	}
	e, _ := a.body["error"].(map[string]any)
	if len(a.body) != 1 || e == nil || e["code"] != float64(429) || e["message"] == "" || len(e) != 2 {
		t.Errorf("%s: body %s, want {\"error\":{\"code\":429,\"message\":...}}", what, a.raw)
	}
}

// With the default configuration an authenticated script is not
// throttled: it makes an organization, a space with a page and a site,
// then 5,000 calls in a burst (reads, writes and a public operation, 8 at
// a time), none answered 429.
func TestDefaultRateLimitLetsAuthenticatedCallsThrough(t *testing.T) {
	s := start(t, defaultLimits(t, "admin", nil))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	orgID, spaceID, page := publishSite(t, client, s.url, "admin")
	calls := []struct{ method, path string }{
		{"GET", "/v1/user"}, {"GET", "/v1/orgs/" + orgID}, {"GET", "/v1/spaces/" + spaceID},
		{"GET", "/v1/orgs/" + orgID + "/spaces"}, {"GET", "/v1/orgs/" + orgID + "/sites"},
		// A public operation (GitBook's renderer resolves each page view's
		// URL so), sent the token.
		{"GET", "/v1/urls/published?url=" + url.QueryEscape(s.url+page)},
	}
	const total, workers = 5000, 8
	var (
		mu       sync.Mutex
		statuses = map[int]int{}
		headers  int
		wg       sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < total; i += workers {
				var a answer
				if i%100 == 0 { // a write now and then
					a = send(t, client, "PATCH", s.url+"/v1/spaces/"+spaceID, "admin", map[string]any{"title": fmt.Sprintf("Handbook %d", i)})
				} else {
					c := calls[i%len(calls)]
					a = send(t, client, c.method, s.url+c.path, "admin", nil)
				}
				mu.Lock()
				statuses[a.code]++
				if a.header.Get("X-RateLimit-Limit") != "" {
					headers++
				}
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	if statuses[200] != total {
		t.Errorf("%d authenticated calls answered %v, want all 200", total, statuses)
	}
	// Only the calls made before the token was first verified (at most
	// one per worker) were counted as the address's.
	if headers > workers {
		t.Errorf("%d authenticated answers carry X-RateLimit-* headers, want at most %d", headers, workers)
	}
}

// With the default configuration an anonymous burst on a published site's
// pages is throttled at the anonymous bucket's size (120) per address: 429
// in the error shape with X-RateLimit-* and Retry-After. With
// RATE_LIMIT_ANONYMOUS_PER_MINUTE=0 it is not.
func TestDefaultRateLimitThrottlesAnonymousReaderPages(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want int // requests answered before the first 429; 0: none refused
	}{
		{"defaults", nil, app.DefaultRateLimitAnonymousBurst},
		{"anonymous off", map[string]string{"RATE_LIMIT_ANONYMOUS_PER_MINUTE": "0"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, defaultLimits(t, "admin", tc.env))
			client := &http.Client{}
			_, _, page := publishSite(t, client, s.url, "admin")
			for i := 0; i < 3*app.DefaultRateLimitAnonymousBurst; i++ {
				a := send(t, client, "GET", s.url+page, "", nil)
				if a.code == http.StatusTooManyRequests {
					if i != tc.want {
						t.Fatalf("the reader answered 429 after %d pages, want %d", i, tc.want)
					}
					checkThrottled(t, "reader page past the burst", a, app.DefaultRateLimitAnonymousBurst)
					if a.header.Get("Retry-After") != "1" { // 600 a minute: one every 0.1 s
						t.Errorf("Retry-After %q, want 1", a.header.Get("Retry-After"))
					}
					// Site search and the API's public operations share the
					// address's bucket.
					checkThrottled(t, "public API operation", send(t, client, "GET", s.url+"/v1/openapi.json", "", nil), app.DefaultRateLimitAnonymousBurst)
					// A made-up token does not escape it.
					checkThrottled(t, "made-up token", send(t, client, "GET", s.url+"/v1/user", "made-up", nil), app.DefaultRateLimitAnonymousBurst)
					// The administrator's token, verified already, goes on.
					if a := send(t, client, "GET", s.url+"/v1/user", "admin", nil); a.code != 200 {
						t.Errorf("the administrator from the throttled address: %d %s", a.code, a.raw)
					}
					return
				}
				if a.code != 200 {
					t.Fatalf("reader page %d: %d %s", i, a.code, a.raw)
				}
				if tc.want > 0 && a.header.Get("X-RateLimit-Remaining") != strconv.Itoa(tc.want-1-i) {
					t.Fatalf("reader page %d: X-RateLimit-Remaining %q, want %d", i, a.header.Get("X-RateLimit-Remaining"), tc.want-1-i)
				}
			}
			if tc.want > 0 {
				t.Fatalf("no 429 after %d anonymous reader pages", 3*app.DefaultRateLimitAnonymousBurst)
			}
		})
	}
}

// publishSite makes, as a script would, an organization, a space with a
// page (a change request's content, merged) and a site publishing it at
// /sites/<org>/docs; it returns the ids and the page's path.
func publishSite(t *testing.T, client *http.Client, base, token string) (orgID, spaceID, page string) {
	t.Helper()
	must := func(want int, method, path string, body any) answer {
		t.Helper()
		a := send(t, client, method, base+path, token, body)
		if a.code != want {
			t.Fatalf("%s %s: %d %s, want %d", method, path, a.code, a.raw, want)
		}
		return a
	}
	orgID = must(201, "POST", "/v1/orgs", map[string]any{"title": "Acme"}).body["id"].(string)
	spaceID = must(201, "POST", "/v1/orgs/"+orgID+"/spaces", map[string]any{"title": "Handbook"}).body["id"].(string)
	crs := "/v1/spaces/" + spaceID + "/change-requests"
	cr := crs + "/" + strconv.Itoa(int(must(201, "POST", crs, map[string]any{"subject": "pages"}).body["number"].(float64)))
	must(200, "POST", cr+"/content?compat=false", map[string]any{"changes": []any{map[string]any{"operation": "insert_page", "ref": "intro",
		"document": map[string]any{"markdown": "# Introduction\n\nWelcome.\n"}}}})
	must(200, "POST", cr+"/merge", nil)
	siteID := must(201, "POST", "/v1/orgs/"+orgID+"/sites", map[string]any{"title": "Docs", "spaces": []string{spaceID}}).body["id"].(string)
	must(200, "PATCH", "/v1/orgs/"+orgID+"/sites/"+siteID, map[string]any{"basename": "docs"})
	must(200, "POST", "/v1/orgs/"+orgID+"/sites/"+siteID+"/publish", nil)
	return orgID, spaceID, "/sites/" + orgID + "/docs/"
}

// Expensive operations are limited per caller with the default
// configuration, for an authenticated caller too: the administrator's
// eleventh OpenAPI spec in a burst answers 429 (bucket of 10), while its
// other calls go on. With RATE_LIMIT_EXPENSIVE_PER_MINUTE=0 it does not.
func TestDefaultRateLimitLimitsExpensiveOperations(t *testing.T) {
	const spec = `{"openapi":"3.0.3","info":{"title":"Pets","version":"1"},"paths":{}}`
	for _, tc := range []struct {
		name string
		env  map[string]string
		want int
	}{
		{"defaults", nil, app.DefaultRateLimitExpensiveBurst},
		{"expensive off", map[string]string{"RATE_LIMIT_EXPENSIVE_PER_MINUTE": "0"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, defaultLimits(t, "admin", tc.env))
			client := &http.Client{}
			org := send(t, client, "POST", s.url+"/v1/orgs", "admin", map[string]any{"title": "Acme"})
			if org.code != 201 {
				t.Fatalf("POST /v1/orgs: %d %s", org.code, org.raw)
			}
			orgID := org.body["id"].(string)
			for i := 0; i < 2*app.DefaultRateLimitExpensiveBurst; i++ {
				a := send(t, client, "PUT", s.url+"/v1/orgs/"+orgID+"/openapi/spec-"+strconv.Itoa(i), "admin",
					map[string]any{"source": map[string]any{"text": spec}})
				if a.code == http.StatusTooManyRequests {
					if i != tc.want {
						t.Fatalf("the %dth spec answered 429, want the %dth", i+1, tc.want+1)
					}
					checkThrottled(t, "expensive operation past the burst", a, app.DefaultRateLimitExpensiveBurst)
					if a.header.Get("Retry-After") != "2" { // 30 a minute: one every 2 s
						t.Errorf("Retry-After %q, want 2", a.header.Get("Retry-After"))
					}
					if a := send(t, client, "GET", s.url+"/v1/orgs/"+orgID+"/openapi", "admin", nil); a.code != 200 || a.header.Get("X-RateLimit-Limit") != "" {
						t.Errorf("an ordinary call of the throttled caller: %d %v", a.code, a.header)
					}
					return
				}
				if a.code != 201 {
					t.Fatalf("spec %d: %d %s", i, a.code, a.raw)
				}
			}
			if tc.want > 0 {
				t.Fatalf("no 429 after %d expensive operations", 2*app.DefaultRateLimitExpensiveBurst)
			}
		})
	}
}
