// Package app assembles Galley: configuration from the environment, the
// ports for AWS or for local mode, and the families each entry point serves.
package app

import (
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/logging"
)

// Version is the release reported by GET /v1/.
const Version = "0.1.0"

// Config is read from the environment (documented in README.md).
type Config struct {
	// Local mode.
	Addr           string // ADDR, default 127.0.0.1:8080
	DataDir        string // DATA_DIR, default ./.data
	BootstrapToken string // BOOTSTRAP_TOKEN

	// AWS mode.
	TableName  string // TABLE_NAME
	BucketName string // BUCKET_NAME
	QueueURL   string // QUEUE_URL: the jobs queue (OpenAPI)
	// GitQueueURL is GIT_QUEUE_URL: the FIFO queue of Git jobs.
	GitQueueURL string

	APIURL            string // API_URL: base of urls.location; default from the request
	AppURL            string // APP_URL: base of urls.app; default API_URL
	FetchAllowPrivate bool   // FETCH_ALLOW_PRIVATE=1
	// SitesDomain is SITES_DOMAIN: organizations with a hostname publish
	// their sites at https://<hostname>.<SITES_DOMAIN>/<basename> (a
	// wildcard domain whose proxy forwards to /~proxy/, docs/reader.md).
	SitesDomain string
	LogLevel    slog.Level
	Build       string // BUILD: build date, reported by GET /v1/
	// RateLimit is the rate limits by caller class (docs/http.md, "Rate
	// limits"): RATE_LIMIT_{AUTHENTICATED,ANONYMOUS,EXPENSIVE}_PER_MINUTE
	// and _BURST (defaults below; 0 a minute disables the class) and
	// RATE_LIMIT_TRUST_FORWARDED_FOR=1. The zero Config (tests) has none.
	RateLimit httpapi.RateLimit
	// Metrics receives the API's CloudWatch embedded-metric records (set
	// by StartLambda: stdout, which Lambda sends to CloudWatch Logs; nil
	// in local mode).
	Metrics *slog.Logger
	// Lazy builds each API operation on its first request (httpapi.Config.
	// Lazy): set by ConfigFromEnv, so for Lambda functions and `make run`;
	// the zero Config (tests reading the API's document) builds them all.
	Lazy bool
}

// ConfigFromEnv reads the configuration.
func ConfigFromEnv() Config {
	c := Config{
		Addr:              env("ADDR", "127.0.0.1:8080"),
		DataDir:           env("DATA_DIR", "./.data"),
		BootstrapToken:    os.Getenv("BOOTSTRAP_TOKEN"),
		TableName:         os.Getenv("TABLE_NAME"),
		BucketName:        os.Getenv("BUCKET_NAME"),
		QueueURL:          os.Getenv("QUEUE_URL"),
		GitQueueURL:       os.Getenv("GIT_QUEUE_URL"),
		APIURL:            strings.TrimRight(os.Getenv("API_URL"), "/"),
		AppURL:            strings.TrimRight(os.Getenv("APP_URL"), "/"),
		FetchAllowPrivate: os.Getenv("FETCH_ALLOW_PRIVATE") == "1",
		SitesDomain:       strings.ToLower(strings.Trim(os.Getenv("SITES_DOMAIN"), ". ")),
		Build:             env("BUILD", "unknown"),
		RateLimit:         rateLimitFromEnv(),
		Lazy:              true,
	}
	_ = c.LogLevel.UnmarshalText([]byte(env("LOG_LEVEL", "info")))
	return c
}

// The default rate limits by caller class, each per caller and per
// process (docs/http.md, "Rate limits"): authenticated callers are not
// limited; anonymous ones 600 a minute per address with bursts of 120;
// expensive operations 30 a minute per caller with bursts of 10.
const (
	DefaultRateLimitAuthenticatedPerMinute = 0
	DefaultRateLimitAuthenticatedBurst     = 0
	DefaultRateLimitAnonymousPerMinute     = 600
	DefaultRateLimitAnonymousBurst         = 120
	DefaultRateLimitExpensivePerMinute     = 30
	DefaultRateLimitExpensiveBurst         = 10
)

// rateLimitFromEnv reads the rate limits. RATE_LIMIT_PER_MINUTE and
// RATE_LIMIT_BURST, the single per-caller limit they replace, still set
// the anonymous class when its own variables are unset: a limit an
// operator set keeps holding for anonymous callers.
func rateLimitFromEnv() httpapi.RateLimit {
	return httpapi.RateLimit{
		Authenticated: httpapi.Limit{
			PerMinute: envInt("RATE_LIMIT_AUTHENTICATED_PER_MINUTE", DefaultRateLimitAuthenticatedPerMinute),
			Burst:     envInt("RATE_LIMIT_AUTHENTICATED_BURST", DefaultRateLimitAuthenticatedBurst),
		},
		Anonymous: httpapi.Limit{
			PerMinute: envInt("RATE_LIMIT_ANONYMOUS_PER_MINUTE", envInt("RATE_LIMIT_PER_MINUTE", DefaultRateLimitAnonymousPerMinute)),
			Burst:     envInt("RATE_LIMIT_ANONYMOUS_BURST", envInt("RATE_LIMIT_BURST", DefaultRateLimitAnonymousBurst)),
		},
		Expensive: httpapi.Limit{
			PerMinute: envInt("RATE_LIMIT_EXPENSIVE_PER_MINUTE", DefaultRateLimitExpensivePerMinute),
			Burst:     envInt("RATE_LIMIT_EXPENSIVE_BURST", DefaultRateLimitExpensiveBurst),
		},
		TrustForwardedFor: os.Getenv("RATE_LIMIT_TRUST_FORWARDED_FOR") == "1",
	}
}

// envInt reads a non-negative integer; unset or malformed means def.
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n >= 0 {
		return n
	}
	return def
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// Logger returns the structured JSON logger of the configuration, on stderr.
func (c Config) Logger() *slog.Logger { return c.LoggerTo(os.Stderr) }

// LoggerTo returns the structured JSON logger of the configuration on w.
func (c Config) LoggerTo(w io.Writer) *slog.Logger {
	// Records written with a request's context carry its id (package logging).
	return slog.New(logging.Handler(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: c.LogLevel})))
}
