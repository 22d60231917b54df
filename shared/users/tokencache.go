package users

import (
	"sync"
	"time"

	"github.com/galleydocs/galley/shared/access"
)

// TokenCacheTTL is how long a process reuses what it read of a token.
//
// A token revoked, rotated or disabled stops at once in the process that
// did it (it drops the token from its cache); another process that read it
// just before keeps accepting it for at most this long. An expiring token
// is cached no longer than its expiry. Unknown tokens are not cached: a
// token made in another process works at once. The caller's rights are
// never cached: every request reads its memberships and grants.
const TokenCacheTTL = 5 * time.Second

// maxCachedTokens bounds the cache; when full, it starts afresh.
const maxCachedTokens = 10000

// tokenCache maps the hash of a token to its caller, for TokenCacheTTL.
type tokenCache struct {
	mu sync.RWMutex
	m  map[string]cachedToken
}

type cachedToken struct {
	caller access.Caller
	until  time.Time
}

func newTokenCache() *tokenCache { return &tokenCache{m: map[string]cachedToken{}} }

func (c *tokenCache) get(hash string, now time.Time) (access.Caller, bool) {
	c.mu.RLock()
	e, ok := c.m[hash]
	c.mu.RUnlock()
	if !ok || !now.Before(e.until) {
		return access.Caller{}, false
	}
	return e.caller, true
}

func (c *tokenCache) put(hash string, caller access.Caller, until time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxCachedTokens {
		c.m = map[string]cachedToken{}
	}
	c.m[hash] = cachedToken{caller: caller, until: until}
}

// drop forgets a token (revoked, rotated, disabled).
func (c *tokenCache) drop(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, hash)
}
