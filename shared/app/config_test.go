package app_test

import (
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/httpapi"
)

// The rate limits' variables (README.md): each class's defaults, 0
// turning a class off, and the replaced RATE_LIMIT_PER_MINUTE and
// RATE_LIMIT_BURST setting the anonymous class unless its own are set.
func TestRateLimitFromEnv(t *testing.T) {
	defaults := httpapi.RateLimit{
		Anonymous: httpapi.Limit{PerMinute: 600, Burst: 120},
		Expensive: httpapi.Limit{PerMinute: 30, Burst: 10},
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want func(*httpapi.RateLimit)
	}{
		{"defaults", nil, func(*httpapi.RateLimit) {}},
		{"authenticated set", map[string]string{"RATE_LIMIT_AUTHENTICATED_PER_MINUTE": "6000", "RATE_LIMIT_AUTHENTICATED_BURST": "1000"},
			func(r *httpapi.RateLimit) { r.Authenticated = httpapi.Limit{PerMinute: 6000, Burst: 1000} }},
		{"anonymous off", map[string]string{"RATE_LIMIT_ANONYMOUS_PER_MINUTE": "0"},
			func(r *httpapi.RateLimit) { r.Anonymous.PerMinute = 0 }},
		{"expensive off", map[string]string{"RATE_LIMIT_EXPENSIVE_PER_MINUTE": "0"},
			func(r *httpapi.RateLimit) { r.Expensive.PerMinute = 0 }},
		{"expensive set", map[string]string{"RATE_LIMIT_EXPENSIVE_PER_MINUTE": "5", "RATE_LIMIT_EXPENSIVE_BURST": "2"},
			func(r *httpapi.RateLimit) { r.Expensive = httpapi.Limit{PerMinute: 5, Burst: 2} }},
		{"replaced variables", map[string]string{"RATE_LIMIT_PER_MINUTE": "0", "RATE_LIMIT_BURST": "7"},
			func(r *httpapi.RateLimit) { r.Anonymous = httpapi.Limit{PerMinute: 0, Burst: 7} }},
		{"new variables win", map[string]string{"RATE_LIMIT_PER_MINUTE": "0", "RATE_LIMIT_ANONYMOUS_PER_MINUTE": "60"},
			func(r *httpapi.RateLimit) { r.Anonymous.PerMinute = 60 }},
		{"malformed means default", map[string]string{"RATE_LIMIT_ANONYMOUS_PER_MINUTE": "-1", "RATE_LIMIT_EXPENSIVE_BURST": "ten"},
			func(*httpapi.RateLimit) {}},
		{"forwarded for", map[string]string{"RATE_LIMIT_TRUST_FORWARDED_FOR": "1"},
			func(r *httpapi.RateLimit) { r.TrustForwardedFor = true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range []string{"RATE_LIMIT_AUTHENTICATED_PER_MINUTE", "RATE_LIMIT_AUTHENTICATED_BURST",
				"RATE_LIMIT_ANONYMOUS_PER_MINUTE", "RATE_LIMIT_ANONYMOUS_BURST", "RATE_LIMIT_EXPENSIVE_PER_MINUTE",
				"RATE_LIMIT_EXPENSIVE_BURST", "RATE_LIMIT_PER_MINUTE", "RATE_LIMIT_BURST", "RATE_LIMIT_TRUST_FORWARDED_FOR"} {
				t.Setenv(v, tc.env[v])
			}
			want := defaults
			tc.want(&want)
			got := app.ConfigFromEnv().RateLimit
			if got.Authenticated != want.Authenticated || got.Anonymous != want.Anonymous || got.Expensive != want.Expensive ||
				got.TrustForwardedFor != want.TrustForwardedFor || got.MaxKeys != 0 || got.Now != nil {
				t.Errorf("RateLimit = %+v, want %+v", got, want)
			}
		})
	}
}
