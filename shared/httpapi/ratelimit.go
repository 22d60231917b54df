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

// RateLimit configures an API's rate limits by caller class (docs/http.md,
// "Rate limits"). Each class is a token bucket per caller; the buckets
// live in the process: in AWS each Lambda instance limits itself, so the
// effective limit is per instance; API Gateway's stage throttling
// (template.yaml) is the global guard. The zero value limits nothing.
//
// A caller is authenticated when its bearer token has been verified in
// this process within verifiedFor (the process remembers which tokens it
// verified, and forgets one as soon as it fails); anything else, a
// request without a token, or with a token not verified yet or never
// valid, is anonymous and counts against its client address.
type RateLimit struct {
	// Authenticated limits each verified bearer token. Zero (Galley's
	// default) lets authenticated callers through unthrottled.
	Authenticated Limit
	// Anonymous limits each client address.
	Anonymous Limit
	// Expensive limits, in addition to the class's limit, each caller's
	// operations marked Op.Expensive: a bucket of its own per verified
	// token, else per address.
	Expensive Limit
	// TrustForwardedFor keys anonymous requests by the last address of
	// X-Forwarded-For (the one the trusted proxy in front appended);
	// otherwise the header is ignored.
	TrustForwardedFor bool
	// MaxKeys bounds the buckets kept per class and the verified tokens
	// remembered (default 65536): idle buckets are dropped first, then
	// arbitrary ones.
	MaxKeys int
	// Now is the clock (tests); nil means time.Now.
	Now func() time.Time
}

// Limit is one class's token bucket per caller: it holds Burst requests
// (X-RateLimit-Limit) and refills at PerMinute a minute. PerMinute 0 is
// no limit; Burst 0 means PerMinute.
type Limit struct {
	PerMinute int
	Burst     int
}

// limiter is the in-memory rate limits of one API.
type limiter struct {
	cfg  RateLimit
	seed maphash.Seed
	// The classes' buckets; nil: the class is not limited.
	authenticated, anonymous, expensive *buckets
	verified                            tokenSet
}

// opClass is what the limiter knows of an operation, declared with its
// route (Op.Expensive).
type opClass struct {
	expensive bool
}

// limitState is a request's rate-limit state, kept in its requestInfo: the
// key of the bearer token it carries, whether the limiter counted it as
// verified (and whether that verification is due for renewal), which the
// authenticate middleware settles, and the address's anonymous bucket it
// spent from meanwhile (given back if the token proves valid).
type limitState struct {
	token    uint64
	hasToken bool
	verified bool
	stale    bool
	addr     uint64
	spent    *buckets
}

// verifiedFor is how long a verification counts. Operations that
// authenticate check the token on every request anyway (and renew it);
// public ones check a token only when its verification is missing or
// half as old as this, so a revoked token stops counting as authenticated
// there within this time.
const verifiedFor = 5 * time.Minute

// needsCheck reports whether the authenticate middleware should check
// the token of a request to a public operation (which needs none) for
// the limiter: the request carries one not verified, or verified long
// enough ago to be renewed.
func (st *limitState) needsCheck() bool { return st.hasToken && (!st.verified || st.stale) }

const defaultMaxKeys = 1 << 16

func newLimiter(cfg RateLimit) *limiter {
	if cfg.Authenticated.PerMinute <= 0 && cfg.Anonymous.PerMinute <= 0 && cfg.Expensive.PerMinute <= 0 {
		return nil
	}
	if cfg.MaxKeys <= 0 {
		cfg.MaxKeys = defaultMaxKeys
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &limiter{cfg: cfg, seed: maphash.MakeSeed(),
		authenticated: newBuckets(cfg, cfg.Authenticated, "authenticated requests", "token"),
		anonymous:     newBuckets(cfg, cfg.Anonymous, "anonymous requests", "address"),
		expensive:     newBuckets(cfg, cfg.Expensive, "expensive operations", "caller"),
		verified:      tokenSet{m: map[uint64]time.Time{}, max: cfg.MaxKeys}}
}

// bearerToken is the token of an Authorization header, or "" when it is
// not a bearer token. The authenticate middleware reads it the same way.
func bearerToken(header string) string {
	scheme, token, _ := strings.Cut(header, " ")
	if !strings.EqualFold(scheme, "bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// hash is the key of a token ('t') or an address ('a'): the token itself
// is never kept.
func (l *limiter) hash(kind byte, s string) uint64 {
	var h maphash.Hash
	h.SetSeed(l.seed)
	_ = h.WriteByte(kind)
	_, _ = h.WriteString(s)
	return h.Sum64()
}

// clientAddr is API Gateway's source IP (the proxy's request context),
// else the forwarded address when trusted, else the connection's.
func (l *limiter) clientAddr(r *http.Request) string { return clientAddr(r, l.cfg.TrustForwardedFor) }

// clientAddr is the client address of r: API Gateway's source IP, else the
// last X-Forwarded-For address when trustForwarded, else the connection's.
// The rate limiter keys anonymous callers by it; the audit log records it
// (access.Origin).
func clientAddr(r *http.Request, trustForwarded bool) string {
	if rc, ok := core.GetAPIGatewayV2ContextFromContext(r.Context()); ok && rc.HTTP.SourceIP != "" {
		return rc.HTTP.SourceIP
	}
	if trustForwarded {
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

// allow applies the limits to r, a request of an operation of class c
// (the zero class for a path no operation serves): it sets GitBook's
// X-RateLimit-* headers of the bucket that decided (on success, of the
// one with fewer requests left; none when no bucket applies) and, past a
// limit, answers 429 with Retry-After and returns false.
func (l *limiter) allow(w http.ResponseWriter, r *http.Request, c opClass, st *limitState) bool {
	class, key, authenticated := l.anonymous, uint64(0), false
	if tok := bearerToken(r.Header.Get("Authorization")); tok != "" {
		st.token, st.hasToken = l.hash('t', tok), true
		if at, ok := l.verified.get(st.token); ok {
			if age := l.cfg.Now().Sub(at); age < verifiedFor {
				st.verified, st.stale, authenticated = true, age > verifiedFor/2, true
				class, key = l.authenticated, st.token
			}
		}
	}
	var exp *buckets
	if c.expensive {
		exp = l.expensive
	}
	if class == nil && exp == nil {
		return true
	}
	if !authenticated {
		key = l.hash('a', l.clientAddr(r))
	}
	var d decision
	if class != nil {
		if d = class.take(key); !d.ok {
			return d.refuse(w)
		}
	}
	if exp != nil {
		e := exp.take(key)
		if !e.ok {
			return e.refuse(w)
		}
		if class == nil || e.remaining < d.remaining {
			d = e
		}
	}
	if st.hasToken && !authenticated {
		// Kept so that a token verified now costs its address's anonymous
		// requests nothing.
		st.addr, st.spent = key, class
	}
	d.headers(w)
	return true
}

// noteAuthentication records the outcome of authenticating the token of
// a request allow saw: a valid token is remembered (its next requests are
// the authenticated class's) or its verification renewed, a refused one
// forgotten.
func (l *limiter) noteAuthentication(st *limitState, valid bool) {
	switch {
	case !st.hasToken:
	case valid && (!st.verified || st.stale):
		l.verified.add(st.token, l.cfg.Now())
		if !st.verified && st.spent != nil {
			st.spent.give(st.addr)
		}
	case !valid:
		l.verified.remove(st.token)
	}
}

// buckets is one class's token buckets, by caller key.
type buckets struct {
	what, per string // the class and its caller, for the 429's message
	perMinute int
	rate      float64 // tokens per second
	burst     float64
	maxKeys   int
	now       func() time.Time
	mu        sync.Mutex
	m         map[uint64]*bucket
	nextScan  time.Time
	// limitValue is X-RateLimit-Limit, formatted once.
	limitValue string
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newBuckets(cfg RateLimit, lim Limit, what, per string) *buckets {
	if lim.PerMinute <= 0 {
		return nil
	}
	if lim.Burst <= 0 {
		lim.Burst = lim.PerMinute
	}
	return &buckets{what: what, per: per, perMinute: lim.PerMinute, rate: float64(lim.PerMinute) / 60,
		burst: float64(lim.Burst), maxKeys: cfg.MaxKeys, now: cfg.Now, m: map[uint64]*bucket{},
		limitValue: strconv.Itoa(lim.Burst)}
}

// decision is the outcome of one take: whether the request may go on, the
// tokens left, when the bucket is full again and, when refused, how long
// until the next token.
type decision struct {
	b         *buckets
	ok        bool
	remaining int
	reset     time.Time
	retry     time.Duration
}

// take spends one token of key's bucket.
func (bs *buckets) take(key uint64) decision {
	now := bs.now()
	d := decision{b: bs}
	bs.mu.Lock()
	b := bs.m[key]
	if b == nil {
		bs.makeRoom(now)
		b = &bucket{tokens: bs.burst, last: now}
		bs.m[key] = b
	} else if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = math.Min(bs.burst, b.tokens+dt*bs.rate)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		d.ok = true
	} else {
		d.retry = time.Duration((1 - b.tokens) / bs.rate * float64(time.Second))
	}
	tokens := b.tokens
	bs.mu.Unlock()
	d.remaining = int(tokens)
	d.reset = now.Add(time.Duration((bs.burst - tokens) / bs.rate * float64(time.Second)))
	return d
}

// give returns a token to key's bucket (spent by a request found
// afterwards not to be the key's).
func (bs *buckets) give(key uint64) {
	bs.mu.Lock()
	if b := bs.m[key]; b != nil {
		b.tokens = math.Min(bs.burst, b.tokens+1)
	}
	bs.mu.Unlock()
}

// makeRoom drops idle buckets (those refilled to the full burst, which a
// new bucket would equal) once a minute, and when the map is full; if none
// is idle it drops arbitrary ones. Called with bs.mu held.
func (bs *buckets) makeRoom(now time.Time) {
	full := len(bs.m) >= bs.maxKeys
	if !full && now.Before(bs.nextScan) {
		return
	}
	bs.nextScan = now.Add(time.Minute)
	for k, b := range bs.m {
		if b.tokens+now.Sub(b.last).Seconds()*bs.rate >= bs.burst {
			delete(bs.m, k)
		}
	}
	for k := range bs.m {
		if len(bs.m) < bs.maxKeys {
			break
		}
		delete(bs.m, k)
	}
}

// headers sets GitBook's X-RateLimit-* headers of d's bucket.
func (d decision) headers(w http.ResponseWriter) {
	// Canonical keys (X-Ratelimit-*) set directly: Header.Set would
	// canonicalize GitBook's spelling again on every request. The three
	// values share one allocation.
	v := [...]string{d.b.limitValue, strconv.Itoa(d.remaining),
		strconv.FormatInt(int64(math.Ceil(float64(d.reset.UnixNano())/1e9)), 10)}
	vals := v[:]
	h := w.Header()
	h["X-Ratelimit-Limit"] = vals[0:1:1]
	h["X-Ratelimit-Remaining"] = vals[1:2:2]
	h["X-Ratelimit-Reset"] = vals[2:3:3]
}

// refuse answers 429 for d's bucket, with its headers and Retry-After.
func (d decision) refuse(w http.ResponseWriter) bool {
	d.headers(w)
	secs := int(math.Ceil(d.retry.Seconds()))
	if secs < 1 {
		secs = 1
	}
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	writeError(w, http.StatusTooManyRequests, "rate limit exceeded: "+d.b.what+" are limited to "+
		strconv.Itoa(d.b.perMinute)+" a minute per "+d.b.per+"; retry in "+strconv.Itoa(secs)+"s")
	return false
}

// tokenSet is the keys of the tokens verified in this process, with when,
// bounded: when full, an arbitrary one goes (its next request is
// anonymous again until verified anew). Only valid tokens enter it, so
// callers cannot fill it with made-up ones.
type tokenSet struct {
	mu  sync.RWMutex
	m   map[uint64]time.Time
	max int
}

func (s *tokenSet) get(k uint64) (time.Time, bool) {
	s.mu.RLock()
	at, ok := s.m[k]
	s.mu.RUnlock()
	return at, ok
}

func (s *tokenSet) add(k uint64, at time.Time) {
	s.mu.Lock()
	if _, renew := s.m[k]; !renew {
		for old := range s.m {
			if len(s.m) < s.max {
				break
			}
			delete(s.m, old)
		}
	}
	s.m[k] = at
	s.mu.Unlock()
}

func (s *tokenSet) remove(k uint64) {
	s.mu.Lock()
	delete(s.m, k)
	s.mu.Unlock()
}
