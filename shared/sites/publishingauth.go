package sites

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Visitor authentication (doc.go, "Visitor authentication"): a
// visitor-auth site's visitors carry a token (a JWT, HS256) signed with
// the site's private key; its claims decide what adaptive conditions show.

// privateKeyBytes is the randomness of a site's private key (base64url).
const privateKeyBytes = 32

// MaxVisitorToken bounds a visitor token's length.
const MaxVisitorToken = 8192

// PublishingAuth is a site's publishing auth (GitBook's SitePublishingAuth
// with the custom backend).
type PublishingAuth struct {
	SiteID      string    `json:"siteId"`
	PrivateKey  string    `json:"privateKey"`
	FallbackURL string    `json:"fallbackURL,omitempty"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// PublishingAuthChange is the input of UpdatePublishingAuth: a nil
// FallbackURL is left as it is; ClearFallbackURL removes it.
type PublishingAuthChange struct {
	FallbackURL      *string
	ClearFallbackURL bool
}

// PublishingAuth returns a site's publishing auth, making its private key
// on first read. Administrators of the site only: the key is a secret.
func (s *Service) PublishingAuth(ctx context.Context, orgID, siteID string) (PublishingAuth, error) {
	return s.changePublishingAuth(ctx, orgID, siteID, nil)
}

// UpdatePublishingAuth changes a site's fallback URL (an absolute http(s)
// URL).
func (s *Service) UpdatePublishingAuth(ctx context.Context, orgID, siteID string, ch PublishingAuthChange) (PublishingAuth, error) {
	return s.changePublishingAuth(ctx, orgID, siteID, func(a *PublishingAuth) error {
		switch {
		case ch.ClearFallbackURL:
			a.FallbackURL = ""
		case ch.FallbackURL != nil:
			u, err := url.Parse(*ch.FallbackURL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return apperr.Field("fallbackURL", "must be an absolute http(s) URL")
			}
			a.FallbackURL = *ch.FallbackURL
		}
		return nil
	})
}

// RegeneratePublishingAuth replaces a site's private key: tokens signed
// with the old one stop opening the site at once.
func (s *Service) RegeneratePublishingAuth(ctx context.Context, orgID, siteID string) (PublishingAuth, error) {
	return s.changePublishingAuth(ctx, orgID, siteID, func(a *PublishingAuth) error {
		a.PrivateKey = ids.Secret("", privateKeyBytes)
		return nil
	})
}

// changePublishingAuth reads a site's publishing auth as its administrator,
// makes it when missing, applies fn (when set) and writes what changed,
// under the record's version and while the site exists.
func (s *Service) changePublishingAuth(ctx context.Context, orgID, siteID string, fn func(a *PublishingAuth) error) (PublishingAuth, error) {
	var out PublishingAuth
	err := store.Retry(ctx, func() error {
		if _, err := s.load(ctx, orgID, siteID, opAdmin); err != nil {
			return err
		}
		a, v, err := s.readPublishingAuth(ctx, siteID)
		if err != nil {
			return err
		}
		if v != 0 && fn == nil {
			out = a
			return nil
		}
		if v == 0 {
			a = PublishingAuth{SiteID: siteID, PrivateKey: ids.Secret("", privateKeyBytes)}
		}
		if fn != nil {
			if err := fn(&a); err != nil {
				return err
			}
		}
		a.UpdatedAt = s.d.Clock()
		if err := s.writePublishingAuth(ctx, a, v); err != nil {
			return err
		}
		out = a
		return nil
	})
	return out, err
}

// writePublishingAuth writes a site's publishing auth over version v (0:
// a new one), while the site exists.
func (s *Service) writePublishingAuth(ctx context.Context, a PublishingAuth, v int64) error {
	it := records.Item(keys.SitePublishingAuth(a.SiteID), a, v+1)
	put := store.PutIfVersion(it, v)
	if v == 0 {
		put = store.Put(it, store.IfNotExists)
	}
	site := keys.Site(a.SiteID)
	err := s.d.Store.Write(ctx, store.Check(site.PK, site.SK, store.IfExists, 0), put)
	if errors.Is(err, store.ErrConflict) {
		return store.ErrConflict // written meanwhile, or the site is gone: read again
	}
	return err
}

// ensurePublishingAuth makes a site's private key when it has none (the
// site has just become visitor-auth).
func (s *Service) ensurePublishingAuth(ctx context.Context, siteID string) error {
	return store.Retry(ctx, func() error {
		_, v, err := s.readPublishingAuth(ctx, siteID)
		if err != nil || v != 0 {
			return err
		}
		if site, err := s.readSite(ctx, siteID); err != nil || site.ID == "" {
			return err
		}
		return s.writePublishingAuth(ctx, PublishingAuth{SiteID: siteID, PrivateKey: ids.Secret("", privateKeyBytes), UpdatedAt: s.d.Clock()}, 0)
	})
}

// readPublishingAuth reads a site's publishing auth; version 0 when it has
// none.
func (s *Service) readPublishingAuth(ctx context.Context, siteID string) (PublishingAuth, int64, error) {
	a, v, err := records.Get[PublishingAuth](ctx, s.d.Store, keys.SitePublishingAuth(siteID))
	if errors.Is(err, store.ErrNotFound) {
		return PublishingAuth{}, 0, nil
	}
	if err != nil {
		return PublishingAuth{}, 0, fmt.Errorf("read publishing auth: %w", err)
	}
	return a, v, nil
}

// VisitorAuthError is the error of a visitor-auth site's URL without a
// valid visitor token (Unauthorized); FallbackURL is where the site sends
// such visitors, when it set one.
type VisitorAuthError struct {
	Err         error
	FallbackURL string
}

func (e *VisitorAuthError) Error() string { return e.Err.Error() }
func (e *VisitorAuthError) Unwrap() error { return e.Err }

// errInvalidToken is every reason a visitor token is refused (the reason
// is not told: it would help forgers).
func errInvalidToken() error {
	return errors.New("invalid visitor token")
}

// VerifyVisitorToken checks a visitor token against a site's private key
// and returns its claims: a JWT of three base64url parts whose header
// names alg HS256 (any other is refused, "none" included), signed with
// HMAC-SHA256 keyed by the private key's text, whose payload is a JSON
// object with a numeric exp (seconds) after now and, when present, nbf
// not after now.
func VerifyVisitorToken(privateKey, token string, now time.Time) (map[string]any, error) {
	if privateKey == "" || len(token) > MaxVisitorToken {
		return nil, errInvalidToken()
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, errInvalidToken()
	}
	dec := func(s string) ([]byte, error) { return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "=")) }
	hb, err := dec(parts[0])
	if err != nil {
		return nil, errInvalidToken()
	}
	var h struct {
		Alg string `json:"alg"`
	}
	if json.Unmarshal(hb, &h) != nil || h.Alg != "HS256" {
		return nil, errInvalidToken()
	}
	sig, err := dec(parts[2])
	if err != nil {
		return nil, errInvalidToken()
	}
	mac := hmac.New(sha256.New, []byte(privateKey))
	mac.Write([]byte(parts[0] + "." + parts[1]))
	if !hmac.Equal(sig, mac.Sum(nil)) {
		return nil, errInvalidToken()
	}
	pb, err := dec(parts[1])
	if err != nil {
		return nil, errInvalidToken()
	}
	var claims map[string]any
	if json.Unmarshal(pb, &claims) != nil || claims == nil {
		return nil, errInvalidToken()
	}
	exp, ok := claims["exp"].(float64)
	if !ok || math.IsNaN(exp) || float64(now.Unix()) >= exp {
		return nil, errInvalidToken()
	}
	if nbf, ok := claims["nbf"]; ok {
		f, ok := nbf.(float64)
		if !ok || float64(now.Unix()) < f {
			return nil, errInvalidToken()
		}
	}
	return claims, nil
}

// SignVisitorToken signs claims as a visitor token with a site's private
// key (what a site's authentication backend does; tests and tools use it).
func SignVisitorToken(privateKey string, claims map[string]any) (string, error) {
	p, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding.EncodeToString
	in := enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc(p)
	mac := hmac.New(sha256.New, []byte(privateKey))
	mac.Write([]byte(in))
	return in + "." + enc(mac.Sum(nil)), nil
}
