package app_test

import (
	"log/slog"
	"strings"
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
		{"forwarded for", map[string]string{"RATE_LIMIT_TRUST_FORWARDED_FOR": "1"},
			func(r *httpapi.RateLimit) { r.TrustForwardedFor = true }},
		{"forwarded for, true", map[string]string{"RATE_LIMIT_TRUST_FORWARDED_FOR": "true"},
			func(r *httpapi.RateLimit) { r.TrustForwardedFor = true }},
		{"forwarded for, off", map[string]string{"RATE_LIMIT_TRUST_FORWARDED_FOR": "0"},
			func(*httpapi.RateLimit) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range []string{"RATE_LIMIT_AUTHENTICATED_PER_MINUTE", "RATE_LIMIT_AUTHENTICATED_BURST",
				"RATE_LIMIT_ANONYMOUS_PER_MINUTE", "RATE_LIMIT_ANONYMOUS_BURST", "RATE_LIMIT_EXPENSIVE_PER_MINUTE",
				"RATE_LIMIT_EXPENSIVE_BURST", "RATE_LIMIT_PER_MINUTE", "RATE_LIMIT_BURST", "RATE_LIMIT_TRUST_FORWARDED_FOR"} {
				t.Setenv(v, tc.env[v])
			}
			want := defaults
			tc.want(&want)
			c, err := app.ConfigFromEnv()
			if err != nil {
				t.Fatal(err)
			}
			got := c.RateLimit
			if got.Authenticated != want.Authenticated || got.Anonymous != want.Anonymous || got.Expensive != want.Expensive ||
				got.TrustForwardedFor != want.TrustForwardedFor || got.MaxKeys != 0 || got.Now != nil {
				t.Errorf("RateLimit = %+v, want %+v", got, want)
			}
		})
	}
}

// configVars are the variables ConfigFromEnv checks; each test clears them
// all, so that the environment the tests run in does not leak in.
var configVars = []string{"LOG_LEVEL", "API_URL", "APP_URL", "FETCH_ALLOW_PRIVATE",
	"RATE_LIMIT_AUTHENTICATED_PER_MINUTE", "RATE_LIMIT_AUTHENTICATED_BURST",
	"RATE_LIMIT_ANONYMOUS_PER_MINUTE", "RATE_LIMIT_ANONYMOUS_BURST", "RATE_LIMIT_EXPENSIVE_PER_MINUTE",
	"RATE_LIMIT_EXPENSIVE_BURST", "RATE_LIMIT_PER_MINUTE", "RATE_LIMIT_BURST", "RATE_LIMIT_TRUST_FORWARDED_FOR"}

// A variable set to a value of the wrong kind stops the configuration with
// an error naming it and quoting the value, instead of falling back to its
// default (README.md, "Configuration").
func TestConfigFromEnvRefusesInvalidValues(t *testing.T) {
	for _, tc := range []struct{ name, value string }{
		{"LOG_LEVEL", "verbose"},
		{"LOG_LEVEL", "warn+2"}, // slog's own syntax, not one of the four
		{"API_URL", "api.example.com"},
		{"APP_URL", "ftp://app.example.com"},
		{"FETCH_ALLOW_PRIVATE", "yes"},
		{"RATE_LIMIT_TRUST_FORWARDED_FOR", "2"},
		{"RATE_LIMIT_AUTHENTICATED_PER_MINUTE", "lots"},
		{"RATE_LIMIT_AUTHENTICATED_BURST", "-1"},
		{"RATE_LIMIT_ANONYMOUS_PER_MINUTE", "1.5"},
		{"RATE_LIMIT_ANONYMOUS_BURST", "ten"},
		{"RATE_LIMIT_EXPENSIVE_PER_MINUTE", "-30"},
		{"RATE_LIMIT_EXPENSIVE_BURST", "99999999999999999999"},
		{"RATE_LIMIT_PER_MINUTE", "x"},
		{"RATE_LIMIT_BURST", " 5"},
	} {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			for _, v := range configVars {
				t.Setenv(v, "")
			}
			t.Setenv(tc.name, tc.value)
			_, err := app.ConfigFromEnv()
			if err == nil {
				t.Fatalf("%s=%q accepted", tc.name, tc.value)
			}
			if !strings.Contains(err.Error(), tc.name+"=") || !strings.Contains(err.Error(), tc.value) {
				t.Fatalf("error %q does not name %s and its value", err, tc.name)
			}
		})
	}
}

// Every invalid variable is named at once, not only the first.
func TestConfigFromEnvNamesEveryInvalidVariable(t *testing.T) {
	for _, v := range configVars {
		t.Setenv(v, "")
	}
	t.Setenv("LOG_LEVEL", "loud")
	t.Setenv("RATE_LIMIT_EXPENSIVE_BURST", "-2")
	_, err := app.ConfigFromEnv()
	if err == nil || !strings.Contains(err.Error(), "LOG_LEVEL=") || !strings.Contains(err.Error(), "RATE_LIMIT_EXPENSIVE_BURST=") {
		t.Fatalf("err = %v, want both variables named", err)
	}
}

// The values each variable accepts.
func TestConfigFromEnvAcceptsValidValues(t *testing.T) {
	for _, v := range configVars {
		t.Setenv(v, "")
	}
	c, err := app.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if c.LogLevel != slog.LevelInfo || c.FetchAllowPrivate || c.APIURL != "" {
		t.Fatalf("defaults: %+v", c)
	}
	for level, want := range map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "WARN": slog.LevelWarn, "error": slog.LevelError} {
		t.Setenv("LOG_LEVEL", level)
		if c, err := app.ConfigFromEnv(); err != nil || c.LogLevel != want {
			t.Errorf("LOG_LEVEL=%s: level %v, err %v", level, c.LogLevel, err)
		}
	}
	for value, want := range map[string]bool{"1": true, "true": true, "TRUE": true, "0": false, "false": false} {
		t.Setenv("FETCH_ALLOW_PRIVATE", value)
		if c, err := app.ConfigFromEnv(); err != nil || c.FetchAllowPrivate != want {
			t.Errorf("FETCH_ALLOW_PRIVATE=%s: %v, err %v", value, c.FetchAllowPrivate, err)
		}
	}
	t.Setenv("API_URL", "https://api.example.com/prefix/")
	t.Setenv("APP_URL", "http://localhost:8080")
	if c, err := app.ConfigFromEnv(); err != nil || c.APIURL != "https://api.example.com/prefix" || c.AppURL != "http://localhost:8080" {
		t.Errorf("URLs: %q %q, err %v", c.APIURL, c.AppURL, err)
	}
}

// AUDIT_RETENTION_DAYS: unset is the default (365), a positive integer is
// taken, and 0, a negative number or anything else stops the start with an
// error naming the variable and its value.
func TestAuditRetentionDaysFromEnv(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  int // 0: refused
	}{
		{"", app.DefaultAuditRetentionDays}, {"1", 1}, {"30", 30}, {"3650", 3650},
		{"0", 0}, {"-7", 0}, {"a year", 0}, {"1.5", 0}, {"90d", 0},
	} {
		t.Run(tc.value, func(t *testing.T) {
			for _, v := range configVars {
				t.Setenv(v, "")
			}
			t.Setenv("AUDIT_RETENTION_DAYS", tc.value)
			c, err := app.ConfigFromEnv()
			switch {
			case tc.want == 0 && err == nil:
				t.Fatalf("AUDIT_RETENTION_DAYS=%q accepted: %d days", tc.value, c.AuditRetentionDays)
			case tc.want == 0 && !strings.Contains(err.Error(), "AUDIT_RETENTION_DAYS=\""+tc.value+"\""):
				t.Fatalf("error %q does not name AUDIT_RETENTION_DAYS and its value", err)
			case tc.want != 0 && err != nil:
				t.Fatalf("AUDIT_RETENTION_DAYS=%q: %v", tc.value, err)
			case tc.want != 0 && c.AuditRetentionDays != tc.want:
				t.Fatalf("AUDIT_RETENTION_DAYS=%q: %d days, want %d", tc.value, c.AuditRetentionDays, tc.want)
			}
		})
	}
}
