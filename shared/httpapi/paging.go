package httpapi

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/store"
)

// DefaultLimit is the page size of lists when `limit` is absent.
const DefaultLimit = 50

// ListParams are the paging query parameters of every list.
type ListParams struct {
	Page  string `query:"page" doc:"Token of the page to read, from the previous page's next.page"`
	Limit int    `query:"limit" minimum:"1" maximum:"1000" doc:"Most items to return (default 50)"`
}

// Size is the requested page size, DefaultLimit when absent.
func (p ListParams) Size() int {
	if p.Limit == 0 {
		return DefaultLimit
	}
	return p.Limit
}

// List is the envelope of every list response.
type List[T any] struct {
	Next  *NextPage `json:"next,omitempty"`
	Count int       `json:"count" doc:"Number of items in this page"`
	Items []T       `json:"items"`
}

// ListOf is the list response of one page: items, each shown through view,
// and next, the following page (nil on the last).
func ListOf[T, V any](items []T, next *NextPage, view func(T) V) List[V] {
	l := List[V]{Next: next, Count: len(items), Items: make([]V, 0, len(items))}
	for _, it := range items {
		l.Items = append(l.Items, view(it))
	}
	return l
}

// NextPage points at the following page.
type NextPage struct {
	Page string `json:"page"`
}

// Pager signs page tokens. A token carries the position where its list
// stopped and is bound to a scope naming that list (operation, partition and
// filters): a tampered token, or one from another list, is refused, so a
// token can never read a partition its list could not.
type Pager struct {
	secret func(context.Context) ([]byte, error)
}

// NewPager returns a Pager signing with secret.
func NewPager(secret []byte) *Pager {
	return &Pager{secret: func(context.Context) ([]byte, error) { return secret, nil }}
}

// NewLazyPager returns a Pager whose secret is read by key on first use
// (key keeps it once read). The API loads it before the first operation
// runs (Load), so that start-up does no I/O and a failed read answers an
// error instead of a token signed with nothing.
func NewLazyPager(key func(context.Context) ([]byte, error)) *Pager { return &Pager{secret: key} }

// Load reads the signing secret if it is not read yet.
func (p *Pager) Load(ctx context.Context) error {
	_, err := p.secret(ctx)
	return err
}

func (p *Pager) mac(scope string, payload []byte) []byte {
	// Load ran before the operation; a Pager used outside the API (jobs,
	// tools) reads its secret here.
	secret, err := p.secret(context.Background())
	if err != nil {
		// Unreachable once Load succeeded. Signing with a fresh random key
		// makes a token nobody can verify, never one anybody can forge.
		secret = make([]byte, 32)
		_, _ = rand.Read(secret)
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(scope))
	m.Write([]byte{0})
	m.Write(payload)
	return m.Sum(nil)[:16]
}

// Token returns the token resuming scope's list after key.
func (p *Pager) Token(scope string, key store.Key) string {
	payload, _ := json.Marshal(key)
	return base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(p.mac(scope, payload))
}

// Key reads a token of scope's list; "" reads from the start (nil key).
func (p *Pager) Key(scope, token string) (*store.Key, error) {
	if token == "" {
		return nil, nil
	}
	bad := apperr.Field("page", "invalid page token")
	a, b, ok := strings.Cut(token, ".")
	if !ok {
		return nil, bad
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(a)
	sig, err2 := base64.RawURLEncoding.DecodeString(b)
	if err1 != nil || err2 != nil || !hmac.Equal(sig, p.mac(scope, payload)) {
		return nil, bad
	}
	var k store.Key
	if err := json.Unmarshal(payload, &k); err != nil {
		return nil, bad
	}
	return &k, nil
}

// Next returns the envelope's next field for a page's next key.
func (p *Pager) Next(scope string, next *store.Key) *NextPage {
	if next == nil {
		return nil
	}
	return &NextPage{Page: p.Token(scope, *next)}
}

// Scope names one list for the page-token signer: the operation, then the
// partition it reads and every filter, sort and order, each quoted so that no
// two lists share a scope.
func Scope(op string, parts ...string) string {
	var b strings.Builder
	b.WriteString(op)
	for _, p := range parts {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(p))
	}
	return b.String()
}

// Window cuts the page lp asks for out of a list built in memory, and
// returns it with the next page, if any. items must be sorted by key in the
// list's order (descending when desc) and keys must be unique and non-empty.
// A page token carries the key of the last item of its page, so the next
// page resumes after that item even when items were added, removed or moved
// in between.
func Window[T any](p *Pager, scope string, lp ListParams, items []T, key func(T) string, desc bool) ([]T, *NextPage, error) {
	after, err := p.Key(scope, lp.Page)
	if err != nil {
		return nil, nil, err
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
	end := min(start+lp.Size(), len(items))
	var next *NextPage
	if end < len(items) {
		next = p.Next(scope, &store.Key{PK: "memory", SK: key(items[end-1])})
	}
	return items[start:end], next, nil
}
