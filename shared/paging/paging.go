// Package paging is the services' contract for lists: a Request
// ({limit, cursor}) in, a Page ({items, next}) out. Cursors are opaque to
// clients, signed with the installation's secret and bound to the list
// (scope) that made them, so a cursor can never read a partition its list
// could not. It knows nothing of HTTP: package httpapi adapts the `page`
// and `limit` query parameters to a Request and a Page to the list
// envelope.
package paging

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/store"
)

// DefaultLimit is the page size when a Request sets none.
const DefaultLimit = 50

// CursorField is the name under which clients send a cursor (the `page`
// query parameter): an invalid cursor is a 400 naming it.
const CursorField = "page"

// Request asks for one page of a list.
type Request struct {
	// Limit is the most items to return; 0 means DefaultLimit.
	Limit int
	// Cursor is the Next of the previous page; "" reads from the start.
	Cursor string
}

// Size is the page size asked for.
func (r Request) Size() int {
	if r.Limit <= 0 {
		return DefaultLimit
	}
	return r.Limit
}

// Page is one page of a list.
type Page[T any] struct {
	Items []T
	// Next is the cursor of the following page, "" on the last.
	Next string
}

// Map returns the page with each item turned by f.
func Map[T, V any](p Page[T], f func(T) V) Page[V] {
	out := Page[V]{Items: make([]V, 0, len(p.Items)), Next: p.Next}
	for _, it := range p.Items {
		out.Items = append(out.Items, f(it))
	}
	return out
}

// Signer signs and reads cursors.
type Signer struct {
	secret func(context.Context) ([]byte, error)
}

// NewSigner returns a Signer signing with secret.
func NewSigner(secret []byte) *Signer {
	return &Signer{secret: func(context.Context) ([]byte, error) { return secret, nil }}
}

// NewLazySigner returns a Signer whose secret is read by key on first use
// (key keeps it once read): start-up does no I/O. The API calls Load before
// the first operation runs, so that a failed read answers an error.
func NewLazySigner(key func(context.Context) ([]byte, error)) *Signer { return &Signer{secret: key} }

// Load reads the signing secret if it is not read yet.
func (s *Signer) Load(ctx context.Context) error {
	_, err := s.secret(ctx)
	return err
}

// mac signs payload for scope. The secret is the installation's: when it
// cannot be read, that is an error, never a stand-in key (a random key
// would make cursors nobody can verify, which come back as a baffling
// "invalid page token" 400 on the next page).
func (s *Signer) mac(scope string, payload []byte) ([]byte, error) {
	secret, err := s.secret(context.Background())
	if err != nil {
		return nil, fmt.Errorf("paging: read the cursor secret: %w", err)
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(scope))
	m.Write([]byte{0})
	m.Write(payload)
	return m.Sum(nil)[:16], nil
}

// Cursor returns the cursor resuming scope's list after key. It panics when
// the secret cannot be read: the API reads it (Load) before any operation
// runs and keeps it, so in a request that is unreachable, and a panic (a
// 500, logged, by the API's recovery) is the one answer that is neither a
// cursor signed with a stand-in key nor a list silently cut short.
func (s *Signer) Cursor(scope string, key store.Key) string {
	payload, _ := json.Marshal(key)
	sum, err := s.mac(scope, payload)
	if err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(sum)
}

// After reads a cursor of scope's list: the key its page resumes after, nil
// for "" (the start). A cursor that was not made for scope is a 400 naming
// the page parameter; a secret that cannot be read is an internal error
// (500), whatever the cursor.
func (s *Signer) After(scope, cursor string) (*store.Key, error) {
	if cursor == "" {
		return nil, nil
	}
	bad := apperr.Field(CursorField, "invalid page token")
	a, b, ok := strings.Cut(cursor, ".")
	if !ok {
		return nil, bad
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(a)
	sig, err2 := base64.RawURLEncoding.DecodeString(b)
	if err1 != nil || err2 != nil {
		return nil, bad
	}
	sum, err := s.mac(scope, payload)
	if err != nil {
		return nil, err
	}
	if !hmac.Equal(sig, sum) {
		return nil, bad
	}
	var k store.Key
	if err := json.Unmarshal(payload, &k); err != nil {
		return nil, bad
	}
	return &k, nil
}

// Next returns the cursor of the page after a page whose next key is next
// ("" when next is nil: the last page).
func (s *Signer) Next(scope string, next *store.Key) string {
	if next == nil {
		return ""
	}
	return s.Cursor(scope, *next)
}

// Scope names one list for the signer: the operation, then the partition it
// reads and every filter, sort and order, each quoted so that no two lists
// share a scope.
func Scope(op string, parts ...string) string {
	var b strings.Builder
	b.WriteString(op)
	for _, p := range parts {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(p))
	}
	return b.String()
}

// Window cuts the page r asks for out of a list built in memory. items must
// be sorted by key in the list's order (descending when desc) and keys must
// be unique and non-empty. A cursor carries the key of the last item of its
// page, so the next page resumes after that item even when items were
// added, removed or moved in between.
func Window[T any](s *Signer, scope string, r Request, items []T, key func(T) string, desc bool) (Page[T], error) {
	after, err := s.After(scope, r.Cursor)
	if err != nil {
		return Page[T]{}, err
	}
	start := 0
	if after != nil {
		start = sort.Search(len(items), func(i int) bool {
			if desc {
				return key(items[i]) < after.SK
			}
			return key(items[i]) > after.SK
		})
	}
	end := min(start+r.Size(), len(items))
	p := Page[T]{Items: items[start:end]}
	if end < len(items) {
		p.Next = s.Cursor(scope, store.Key{PK: "memory", SK: key(items[end-1])})
	}
	return p, nil
}
