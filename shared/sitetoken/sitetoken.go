// Package sitetoken issues and verifies the API tokens of published sites'
// visitors: short-lived JWTs (HS256) with kind "site", signed with a key
// derived from the installation's secret (secret.Instance.Derive with
// Purpose). GitBook's renderer decodes them (it reads exp); Galley accepts
// them as bearer tokens for the reads the visitor may make of that site
// (access.SiteVisitor).
//
// A preview token (kind "preview", IssuePreview) is what a member's
// preview URL of a site carries: it opens the site, published or not, as
// the claims it holds, in the reader (which then issues a site token
// marked Preview). It is no bearer token: Verify refuses its kind.
package sitetoken

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// Purpose names the key derived from the installation's secret.
const Purpose = "site-visitor-token"

// TTL is how long a token lasts.
const TTL = time.Hour

// Kind is the kind claim of a site token.
const Kind = "site"

// PreviewKind is the kind claim of a preview token.
const PreviewKind = "preview"

// Claims are what a site token says.
type Claims struct {
	Kind         string   `json:"kind"`
	Site         string   `json:"site"`
	Organization string   `json:"organization"`
	Spaces       []string `json:"spaces"`
	// Links are the site's external links the visitor was shown.
	Links []string `json:"links,omitempty"`
	// Preview marks a member's preview: the site may be unpublished.
	Preview bool `json:"preview,omitempty"`
	// Visitor and Draft are a preview token's: the claims of the visitor
	// previewed, and whether draft items are shown.
	Visitor  map[string]any `json:"claims,omitempty"`
	Draft    bool           `json:"draft,omitempty"`
	IssuedAt int64          `json:"iat"`
	// Expires is when the token stops being valid; Issue sets it TTL after
	// now, or keeps an earlier one given (a preview's site token lasts no
	// longer than the preview).
	Expires int64 `json:"exp"`
}

// ErrInvalid is every reason a token is refused: malformed, signed with
// another key, of another kind, or expired.
var ErrInvalid = errors.New("invalid or expired site token")

var header = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))

// Looks tells whether a bearer token is a site token (it starts with the
// header every site token has), so that it is verified here rather than
// looked up as an API token (an operator's BOOTSTRAP_TOKEN may be any
// string, dots included).
func Looks(token string) bool { return strings.HasPrefix(token, header+".") }

// Issue signs claims for a visitor, valid TTL from now.
func Issue(key []byte, c Claims, now time.Time) (string, error) {
	return issue(key, Kind, c, now)
}

// IssuePreview signs the claims of a preview URL, valid TTL from now.
func IssuePreview(key []byte, c Claims, now time.Time) (string, error) {
	return issue(key, PreviewKind, c, now)
}

func issue(key []byte, kind string, c Claims, now time.Time) (string, error) {
	c.Kind = kind
	c.IssuedAt = now.Unix()
	if exp := now.Add(TTL).Unix(); c.Expires == 0 || c.Expires > exp {
		c.Expires = exp
	}
	body, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	signing := header + "." + base64.RawURLEncoding.EncodeToString(body)
	return signing + "." + sign(key, signing), nil
}

func sign(key []byte, s string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(s))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Verify returns the claims of a token signed with key, of kind site and
// not expired at now; ErrInvalid otherwise.
func Verify(key []byte, token string, now time.Time) (Claims, error) {
	return verify(key, Kind, token, now)
}

// VerifyPreview is Verify for a preview token.
func VerifyPreview(key []byte, token string, now time.Time) (Claims, error) {
	return verify(key, PreviewKind, token, now)
}

func verify(key []byte, kind, token string, now time.Time) (Claims, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 || parts[0] != header {
		return Claims{}, ErrInvalid
	}
	want := sign(key, parts[0]+"."+parts[1])
	if !hmac.Equal([]byte(want), []byte(parts[2])) {
		return Claims{}, ErrInvalid
	}
	body, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return Claims{}, ErrInvalid
	}
	var c Claims
	if err := json.Unmarshal(body, &c); err != nil {
		return Claims{}, ErrInvalid
	}
	if c.Kind != kind || c.Site == "" || c.Organization == "" || now.Unix() >= c.Expires {
		return Claims{}, ErrInvalid
	}
	return c, nil
}
