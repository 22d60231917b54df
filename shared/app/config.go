// Package app assembles Galley: configuration from the environment, the
// ports for AWS or for local mode, and the families each entry point serves.
package app

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
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
	// WebhooksQueueURL is WEBHOOKS_QUEUE_URL: the queue of webhook
	// delivery attempts.
	WebhooksQueueURL string
	// InsightsQueueURL is INSIGHTS_QUEUE_URL: the queue of tracked site
	// events (the reader function sends, the insights worker counts).
	InsightsQueueURL string

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
	// ReaderAssets is READER_ASSETS: the directory of the reader's
	// browser assets (mermaid, fetched by functions/assets); empty:
	// diagrams show their source (docs/reader.md, "Diagrams").
	ReaderAssets string
	// AuditRetentionDays is AUDIT_RETENTION_DAYS: how long audit events
	// are kept (default 365; docs/audit.md).
	AuditRetentionDays int
}

// DefaultAuditRetentionDays is AUDIT_RETENTION_DAYS when unset.
const DefaultAuditRetentionDays = 365

// ConfigFromEnv reads the configuration. A variable set to a value it
// cannot hold is an error naming it (all such variables, joined), so that a
// typo stops the start instead of falling back to a default: LOG_LEVEL is
// one of debug, info, warn or error; the rate limits are non-negative
// integers; the switches are 1, 0, true or false; API_URL and APP_URL are
// absolute http(s) URLs. An unset or empty variable takes its default.
func ConfigFromEnv() (Config, error) {
	var e envReader
	c := Config{
		Addr:              env("ADDR", "127.0.0.1:8080"),
		DataDir:           env("DATA_DIR", "./.data"),
		BootstrapToken:    os.Getenv("BOOTSTRAP_TOKEN"),
		TableName:         os.Getenv("TABLE_NAME"),
		BucketName:        os.Getenv("BUCKET_NAME"),
		QueueURL:          os.Getenv("QUEUE_URL"),
		GitQueueURL:       os.Getenv("GIT_QUEUE_URL"),
		WebhooksQueueURL:  os.Getenv("WEBHOOKS_QUEUE_URL"),
		InsightsQueueURL:  os.Getenv("INSIGHTS_QUEUE_URL"),
		APIURL:            e.url("API_URL"),
		AppURL:            e.url("APP_URL"),
		FetchAllowPrivate: e.bool("FETCH_ALLOW_PRIVATE"),
		SitesDomain:       strings.ToLower(strings.Trim(os.Getenv("SITES_DOMAIN"), ". ")),
		LogLevel:          e.level("LOG_LEVEL"),
		Build:             env("BUILD", "unknown"),
		RateLimit:         e.rateLimit(),
		Lazy:              true,
		ReaderAssets:      os.Getenv("READER_ASSETS"),
	}
	if c.AuditRetentionDays = e.int("AUDIT_RETENTION_DAYS", DefaultAuditRetentionDays); c.AuditRetentionDays == 0 {
		e.bad("AUDIT_RETENTION_DAYS", "0", "a positive number of days")
	}
	if err := errors.Join(e.errs...); err != nil {
		return Config{}, fmt.Errorf("configuration: %w", err)
	}
	return c, nil
}

// envReader reads typed variables, collecting one error per variable set
// to a value of the wrong kind.
type envReader struct{ errs []error }

func (e *envReader) bad(name, v, want string) {
	e.errs = append(e.errs, fmt.Errorf("%s=%q: want %s", name, v, want))
}

// int reads a non-negative integer; unset means def.
func (e *envReader) int(name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		e.bad(name, v, "a non-negative integer")
		return def
	}
	return n
}

// bool reads a switch: 1 or true, 0 or false (either case); unset is off.
func (e *envReader) bool(name string) bool {
	switch v := os.Getenv(name); strings.ToLower(v) {
	case "", "0", "false":
		return false
	case "1", "true":
		return true
	default:
		e.bad(name, v, "1, 0, true or false")
		return false
	}
}

// level reads a log level: debug, info, warn or error (either case); unset
// is info.
func (e *envReader) level(name string) slog.Level {
	switch v := os.Getenv(name); strings.ToLower(v) {
	case "debug":
		return slog.LevelDebug
	case "", "info":
		return slog.LevelInfo
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	default:
		e.bad(name, v, "debug, info, warn or error")
		return slog.LevelInfo
	}
}

// url reads an absolute http or https URL, without its trailing slashes;
// unset is "" (the default the variable's reader chooses).
func (e *envReader) url(name string) string {
	v := os.Getenv(name)
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		e.bad(name, v, "an absolute http or https URL without query or fragment")
		return ""
	}
	return strings.TrimRight(v, "/")
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

// rateLimit reads the rate limits. RATE_LIMIT_PER_MINUTE and
// RATE_LIMIT_BURST, the single per-caller limit they replace, still set
// the anonymous class when its own variables are unset: a limit an
// operator set keeps holding for anonymous callers.
func (e *envReader) rateLimit() httpapi.RateLimit {
	return httpapi.RateLimit{
		Authenticated: httpapi.Limit{
			PerMinute: e.int("RATE_LIMIT_AUTHENTICATED_PER_MINUTE", DefaultRateLimitAuthenticatedPerMinute),
			Burst:     e.int("RATE_LIMIT_AUTHENTICATED_BURST", DefaultRateLimitAuthenticatedBurst),
		},
		Anonymous: httpapi.Limit{
			PerMinute: e.int("RATE_LIMIT_ANONYMOUS_PER_MINUTE", e.int("RATE_LIMIT_PER_MINUTE", DefaultRateLimitAnonymousPerMinute)),
			Burst:     e.int("RATE_LIMIT_ANONYMOUS_BURST", e.int("RATE_LIMIT_BURST", DefaultRateLimitAnonymousBurst)),
		},
		Expensive: httpapi.Limit{
			PerMinute: e.int("RATE_LIMIT_EXPENSIVE_PER_MINUTE", DefaultRateLimitExpensivePerMinute),
			Burst:     e.int("RATE_LIMIT_EXPENSIVE_BURST", DefaultRateLimitExpensiveBurst),
		},
		TrustForwardedFor: e.bool("RATE_LIMIT_TRUST_FORWARDED_FOR"),
	}
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
