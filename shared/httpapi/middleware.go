package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/logging"
)

type requestInfo struct {
	id      string
	userID  string
	apiURL  string
	appURL  string
	base    *slog.Logger // the API's logger; LoggerFrom adds the request id
	version string
	limit   limitState
}

type infoKey struct{}

func requestInfoFrom(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(infoKey{}).(*requestInfo)
	return info
}

// LoggerFrom returns the request's logger (with its request id).
func LoggerFrom(ctx context.Context) *slog.Logger {
	if info := requestInfoFrom(ctx); info != nil {
		// Made on demand: most requests log only their one line, which
		// Handler writes with the id itself.
		return info.base.With("request_id", info.id)
	}
	return slog.Default()
}

// APIURL returns the absolute base URL of the API for this request, e.g.
// https://api.example.com; urls.location values are built on it.
func APIURL(ctx context.Context) string {
	if info := requestInfoFrom(ctx); info != nil {
		return info.apiURL
	}
	return ""
}

// AppURL returns the base of application URLs (urls.app).
func AppURL(ctx context.Context) string {
	if info := requestInfoFrom(ctx); info != nil {
		return info.appURL
	}
	return ""
}

// Handler returns the API as an http.Handler wrapped in the request
// middleware: request id, X-Content-Type-Options: nosniff, structured log
// line, panic recovery, and JSON answers for unknown routes and methods.
func (a *API) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 128 {
			id = newRequestID()
		}
		apiURL := a.cfg.APIURL
		if apiURL == "" {
			apiURL = requestBase(r)
		}
		appURL := a.cfg.AppURL
		if appURL == "" {
			appURL = apiURL
		}
		info := &requestInfo{id: id, apiURL: strings.TrimRight(apiURL, "/"), appURL: strings.TrimRight(appURL, "/"),
			base: a.cfg.Logger, version: a.cfg.Version}
		w.Header().Set("X-Request-Id", id)
		// Every answer states its Content-Type; no browser is to guess
		// another (an error's JSON, a file's stored type).
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if r.URL.Path == "/v1" {
			// API Gateway routes /v1 and /v1/ alike; so does the API.
			r.URL.Path = "/v1/"
		}
		// A JSON answer is gzipped when the client accepts it (compress.go).
		var out http.ResponseWriter = w
		var cw *compressWriter
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			cw = &compressWriter{ResponseWriter: w, head: r.Method == http.MethodHead}
			out = cw
		}
		rec := &statusRecorder{ResponseWriter: out, status: http.StatusOK}
		ctx := access.WithOrigin(logging.WithRequestID(r.Context(), id),
			access.Origin{Address: clientAddr(r, a.cfg.RateLimit.TrustForwardedFor), UserAgent: r.UserAgent()})
		r = r.WithContext(context.WithValue(ctx, infoKey{}, info))
		defer func() {
			if p := recover(); p != nil {
				a.cfg.Logger.Error("panic", "request_id", id, "panic", p, "method", r.Method, "path", r.URL.Path)
				if !rec.wrote {
					writeError(rec, http.StatusInternalServerError, "Internal error")
				}
			}
			if cw != nil {
				cw.close()
			}
			// Written without the request's context, which would add the id
			// a second time (package logging).
			if a.cfg.Metrics != nil {
				a.emitMetrics(start, rec.status)
			}
			if a.cfg.Logger.Enabled(r.Context(), slog.LevelInfo) {
				a.cfg.Logger.LogAttrs(context.Background(), slog.LevelInfo, "request", slog.String("request_id", id),
					slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Int("status", rec.status),
					slog.Int64("duration_ms", time.Since(start).Milliseconds()), slog.String("user", info.userID))
			}
		}()
		// A pattern ending in "/" (GET /v1/) matches its whole subtree in
		// ServeMux; only the exact path is an operation.
		_, pattern := a.mux.Handler(r)
		routed := pattern != "" && (!strings.HasSuffix(pattern, "/") || strings.HasSuffix(pattern, " "+r.URL.Path))
		if a.limit != nil {
			var c opClass // a path no operation serves: the zero class
			if routed {
				c = a.classes[pattern]
			}
			if !a.limit.allow(rec, r, c, &info.limit) {
				return
			}
		}
		if !routed {
			a.noRoute(rec, r)
			return
		}
		if msg := badParams(r, pattern); msg != "" {
			writeError(rec, http.StatusBadRequest, msg)
			return
		}
		a.mux.ServeHTTP(rec, r)
	})
}

// noRoute answers a request no operation matches: 405 when the path is an
// operation's with other methods (Allow lists them), 404 otherwise, in the
// error shape. ServeMux's own 405 is not enough: a subtree pattern (GET
// /v1/) matches every path under it, so it would answer 405 for any
// method on an unknown path.
//
// A GET or HEAD of a path with a trailing slash that an operation serves
// without it (a site typed as /sites/<id>/) is redirected there (308).
func (a *API) noRoute(w http.ResponseWriter, r *http.Request) {
	if p := r.URL.Path; (r.Method == http.MethodGet || r.Method == http.MethodHead) && len(p) > 1 && strings.HasSuffix(p, "/") {
		probe := r.Clone(r.Context())
		probe.URL.Path = strings.TrimRight(p, "/")
		probe.URL.RawPath = ""
		// Never "//host": a browser reads it as another site.
		if probe.URL.Path != "" && !strings.HasPrefix(probe.URL.Path, "//") && a.routed(probe, r.Method) {
			http.Redirect(w, r, probe.URL.RequestURI(), http.StatusPermanentRedirect)
			return
		}
	}
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m != r.Method && a.routed(r, m) {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed on "+r.URL.Path)
		return
	}
	writeError(w, http.StatusNotFound, "no route "+r.Method+" "+r.URL.Path)
}

// routed reports whether an operation serves r's path with method: a
// pattern matches it, and a subtree pattern ("/v1/") only its exact path.
func (a *API) routed(r *http.Request, method string) bool {
	probe := r.Clone(r.Context())
	probe.Method = method
	_, pattern := a.mux.Handler(probe)
	if pattern == "" {
		return false
	}
	return !strings.HasSuffix(pattern, "/") || strings.HasSuffix(pattern, " "+r.URL.Path)
}

func requestBase(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		scheme = p
	}
	host := r.Host
	if h := r.Header.Get("X-Forwarded-Host"); h != "" {
		host = h
	}
	return scheme + "://" + host
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

// WriteHeader records the status. Every 503, whoever writes it (the error
// mapping, the reader's pages), tells when to come back: Retry-After, unless
// the writer set its own.
func (s *statusRecorder) WriteHeader(code int) {
	if !s.wrote {
		s.status, s.wrote = code, true
		if code == http.StatusServiceUnavailable && s.Header().Get("Retry-After") == "" {
			s.Header().Set("Retry-After", RetryAfterUnavailable)
		}
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	s.wrote = true
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
