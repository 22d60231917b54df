// Package ids makes identifiers and secrets.
package ids

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"time"
)

// lower-case Crockford-like alphabet whose byte order is its sort order, so
// identifiers made later sort after earlier ones.
var enc = base32.NewEncoding("0123456789abcdefghijklmnopqrstuv").WithPadding(base32.NoPadding)

// New returns a 20-character identifier: 48 bits of milliseconds since the
// epoch then 52 random bits. Sorting identifiers sorts them by creation time
// (to the millisecond), which lets lists keyed by id come back in creation
// order without another index.
func New(now time.Time) string {
	var b [13]byte
	binary.BigEndian.PutUint64(b[:8], uint64(now.UnixMilli())<<16)
	// b[6:8] are zero after the shift; fill them and the rest randomly.
	if _, err := rand.Read(b[6:]); err != nil {
		panic("ids: crypto/rand failed: " + err.Error())
	}
	return enc.EncodeToString(b[:])[:20]
}

// Secret returns a random URL-safe string of n random bytes, with prefix.
func Secret(prefix string, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("ids: crypto/rand failed: " + err.Error())
	}
	return prefix + base64.RawURLEncoding.EncodeToString(b)
}

// Hash returns the hex SHA-256 of a secret; only hashes of tokens are stored.
func Hash(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// NormalizeEmail lower-cases and trims an address, the form emails are
// compared and stored in.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }
