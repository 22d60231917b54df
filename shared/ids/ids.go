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

// ID is an identifier a request names in its body: the id of another
// record (a parent, a member, a space to add). The HTTP layer gives the
// type its schema, so every such field has the same rule in the API's
// document and at the edge: at most MaxLen characters, and none of the
// characters refused in path ids (controls, bidirectional controls); see
// docs/http.md, "Input hardening". Services take plain strings.
type ID string

// MaxLen is the longest id a request may name, in characters (the limit of
// path ids too). Ids made by New have 20 characters, GitBook's 20 to 28,
// generated pages' 33 (content.generatedID); a field that names something
// longer (an email address) declares its own maxLength.
const MaxLen = 64

// Strings converts ids to the strings services take.
func Strings(v []ID) []string {
	if v == nil {
		return nil
	}
	out := make([]string, len(v))
	for i, id := range v {
		out[i] = string(id)
	}
	return out
}

// FromStrings converts strings to ids (a record's ids, rendered).
func FromStrings(v []string) []ID {
	if v == nil {
		return nil
	}
	out := make([]ID, len(v))
	for i, s := range v {
		out[i] = ID(s)
	}
	return out
}
