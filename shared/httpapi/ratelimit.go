package httpapi

import (
	"hash/maphash"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/awslabs/aws-lambda-go-api-proxy/core"
)

// RateLimit configures the per-caller limit of an API: a token bucket per
// bearer token (or, for requests without one, per client address) that
// holds Burst requests and refills at PerMinute a minute. The buckets live
// in the process: in AWS each Lambda instance limits itself, so the
// effective limit is per instance; API Gateway's stage throttling
// (template.yaml) is the global guard. PerMinute 0 disables the limit.
type RateLimit struct {
	PerMinute int
	// Burst is the bucket's size (X-RateLimit-Limit); 0 means PerMinute.
	Burst int
	// TrustForwardedFor keys requests without a token by the last address
	// of X-Forwarded-For (the one the trusted proxy in front appended);
	// otherwise the header is ignored.
	TrustForwardedFor bool
	// MaxKeys bounds the buckets kept (default 65536): idle ones are
	// dropped first, then arbitrary ones.
	MaxKeys int
	// Now is the clock (tests); nil means time.Now.
	Now func() time.Time
}

// limiter is the in-memory token buckets of one API.
type limiter struct {
	cfg      RateLimit
	rate     float64 // tokens per second
	burst    float64
	seed     maphash.Seed
	mu       sync.Mutex
	buckets  map[uint64]*bucket
	nextScan time.Time
	// limitValue is X-RateLimit-Limit, formatted once.
	limitValue string
}

type bucket struct {
	tokens float64
	last   time.Time
}

const defaultMaxKeys = 1 << 16

func newLimiter(cfg RateLimit) *limiter {
	if cfg.PerMinute <= 0 {
		return nil
	}
	if cfg.Burst <= 0 {
		cfg.Burst = cfg.PerMinute
	}
	if cfg.MaxKeys <= 0 {
		cfg.MaxKeys = defaultMaxKeys
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &limiter{cfg: cfg, rate: float64(cfg.PerMinute) / 60, burst: float64(cfg.Burst),
		seed: maphash.MakeSeed(), buckets: map[uint64]*bucket{}, limitValue: strconv.Itoa(cfg.Burst)}
}

// key is the bucket of r: a hash of its bearer token, else of its client
// address. The token itself is never kept.
func (l *limiter) key(r *http.Request) uint64 {
	var h maphash.Hash
	h.SetSeed(l.seed)
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if token = strings.TrimSpace(token); token != "" && strings.EqualFold(scheme, "bearer") {
		_ = h.WriteByte('t')
		_, _ = h.WriteString(token)
	} else {
		_ = h.WriteByte('a')
		_, _ = h.WriteString(l.clientAddr(r))
	}
	return h.Sum64()
}

// clientAddr is API Gateway's source IP (the proxy's request context),
// else the forwarded address when trusted, else the connection's.
func (l *limiter) clientAddr(r *http.Request) string {
	if rc, ok := core.GetAPIGatewayV2ContextFromContext(r.Context()); ok && rc.HTTP.SourceIP != "" {
		return rc.HTTP.SourceIP
	}
	if l.cfg.TrustForwardedFor {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			if i := strings.LastIndexByte(xff, ','); i >= 0 {
				xff = xff[i+1:]
			}
			if a := strings.TrimSpace(xff); a != "" {
				return a
			}
		}
	}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// take spends one token of key's bucket. It returns whether the request
// may go on, the tokens left, when the bucket is full again and, when
// refused, how long until the next token.
func (l *limiter) take(key uint64) (ok bool, remaining int, reset time.Time, retry time.Duration) {
	now := l.cfg.Now()
	l.mu.Lock()
	b := l.buckets[key]
	if b == nil {
		l.makeRoom(now)
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	} else if d := now.Sub(b.last).Seconds(); d > 0 {
		b.tokens = math.Min(l.burst, b.tokens+d*l.rate)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		ok = true
	} else {
		retry = time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
	}
	tokens := b.tokens
	l.mu.Unlock()
	reset = now.Add(time.Duration((l.burst - tokens) / l.rate * float64(time.Second)))
	return ok, int(tokens), reset, retry
}

// makeRoom drops idle buckets (those refilled to the full burst, which a
// new bucket would equal) once a minute, and when the map is full; if none
// is idle it drops arbitrary ones. Called with l.mu held.
func (l *limiter) makeRoom(now time.Time) {
	full := len(l.buckets) >= l.cfg.MaxKeys
	if !full && now.Before(l.nextScan) {
		return
	}
	l.nextScan = now.Add(time.Minute)
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
	for k := range l.buckets {
		if len(l.buckets) < l.cfg.MaxKeys {
			break
		}
		delete(l.buckets, k)
	}
}

// allow applies the limit to r: it sets GitBook's X-RateLimit-* headers
// and, past the limit, answers 429 with Retry-After and returns false.
func (l *limiter) allow(w http.ResponseWriter, r *http.Request) bool {
	ok, remaining, reset, retry := l.take(l.key(r))
	// Canonical keys (X-Ratelimit-*) set directly: Header.Set would
	// canonicalize GitBook's spelling again on every request.
	h := w.Header()
	h["X-Ratelimit-Limit"] = []string{l.limitValue}
	h["X-Ratelimit-Remaining"] = []string{strconv.Itoa(remaining)}
	h["X-Ratelimit-Reset"] = []string{strconv.FormatInt(int64(math.Ceil(float64(reset.UnixNano())/1e9)), 10)}
	if ok {
		return true
	}
	secs := int(math.Ceil(retry.Seconds()))
	if secs < 1 {
		secs = 1
	}
	h.Set("Retry-After", strconv.Itoa(secs))
	writeError(w, http.StatusTooManyRequests, "rate limit exceeded: "+strconv.Itoa(l.cfg.PerMinute)+
		" requests a minute; retry in "+strconv.Itoa(secs)+"s")
	return false
}
