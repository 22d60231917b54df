// Package idempotency keeps the answers of API writes sent with an
// Idempotency-Key header (docs/faults.md, "Idempotency keys"), so that a
// client retrying a create after a timeout or a lost answer gets the first
// answer again instead of a second record. It owns the idempotent request
// records (package keys); the HTTP layer (httpapi) claims a key before the
// operation runs, then saves its answer or releases the key.
package idempotency

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

const (
	// Retention is how long an answer is kept and replayed.
	Retention = 24 * time.Hour
	// Lease is how long a claimed key stays "in progress" without an
	// answer: longer than any API function runs (29 s, template.yaml), so
	// that a request whose process died does not hold its key for a day.
	Lease = 2 * time.Minute
)

var (
	// ErrInProgress: the key's first request has not answered yet (409).
	ErrInProgress = apperr.New(apperr.Conflict, "a request with this Idempotency-Key is still in progress; retry once it has answered")
	// ErrMismatch: the key was used with another request (another method,
	// path or body) by the same token and operation (422).
	ErrMismatch = errors.New("this Idempotency-Key was used with a different request")
)

// Request names one use of a key.
type Request struct {
	// Scope is the caller's credential (a hash of the bearer token).
	Scope string
	// Operation is the operation's id.
	Operation string
	// Key is the Idempotency-Key header.
	Key string
	// Fingerprint identifies the request's method, path and body.
	Fingerprint string
}

// Answer is a kept response.
type Answer struct {
	Status int         `json:"status"`
	Header http.Header `json:"header,omitempty"`
	Body   []byte      `json:"body,omitempty"`
}

// record is the stored item: a claim (Answer nil) or an answer.
type record struct {
	Fingerprint string    `json:"fingerprint"`
	Answer      *Answer   `json:"answer,omitempty"`
	ExpiresAt   time.Time `json:"expiresAt"`
}

// Store keeps the answers.
type Store struct {
	s   store.Store
	now func() time.Time
}

// New returns the store of answers on s, reading the time from now.
func New(s store.Store, now func() time.Time) *Store { return &Store{s: s, now: now} }

// Claim is a request's hold on its key.
type Claim struct {
	hash    string
	version int64
	fp      string
}

// hash names the record of r: the key is the caller's only within its
// token and operation.
func hash(r Request) string {
	h := sha256.New()
	for _, p := range []string{r.Scope, r.Operation, r.Key} {
		fmt.Fprintf(h, "%d:%s", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Begin claims r's key. It returns the kept answer when the key was used
// with the same request before (replay), ErrMismatch when with another,
// ErrInProgress while that request runs; otherwise a claim the caller
// ends with Save or Release.
func (s *Store) Begin(ctx context.Context, r Request) (*Answer, Claim, error) {
	h := hash(r)
	k := keys.IdempotentRequest(h)
	now := s.now()
	claim := record{Fingerprint: r.Fingerprint, ExpiresAt: now.Add(Lease)}
	for range 3 {
		rec, v, err := records.Get[record](ctx, s.s, k)
		version := int64(1)
		var op store.Op
		switch {
		case errors.Is(err, store.ErrNotFound):
			op = store.Put(s.item(h, claim, version), store.IfNotExists)
		case err != nil:
			return nil, Claim{}, fmt.Errorf("read idempotent request: %w", err)
		case rec.ExpiresAt.After(now) && rec.Fingerprint != r.Fingerprint:
			return nil, Claim{}, ErrMismatch
		case rec.ExpiresAt.After(now) && rec.Answer != nil:
			return rec.Answer, Claim{}, nil
		case rec.ExpiresAt.After(now):
			return nil, Claim{}, ErrInProgress
		default: // expired (TTL has not removed it yet), or a lapsed claim
			version = v + 1
			op = store.PutIfVersion(s.item(h, claim, version), v)
		}
		err = s.s.Write(ctx, op)
		if errors.Is(err, store.ErrConflict) {
			continue // another request claimed it first: read what it left
		}
		if err != nil {
			return nil, Claim{}, fmt.Errorf("claim idempotency key: %w", err)
		}
		return nil, Claim{hash: h, version: version, fp: r.Fingerprint}, nil
	}
	return nil, Claim{}, ErrInProgress
}

// Save keeps a's answer for Retention.
func (s *Store) Save(ctx context.Context, c Claim, a Answer) error {
	it := s.item(c.hash, record{Fingerprint: c.fp, Answer: &a, ExpiresAt: s.now().Add(Retention)}, c.version+1)
	if err := s.s.Write(ctx, store.PutIfVersion(it, c.version)); err != nil {
		return fmt.Errorf("save idempotent answer: %w", err)
	}
	return nil
}

// Release frees the key of a request that failed: the client may retry it.
func (s *Store) Release(ctx context.Context, c Claim) error {
	k := keys.IdempotentRequest(c.hash)
	err := s.s.Write(ctx, store.DeleteIfVersion(k.PK, k.SK, c.version))
	if err != nil && !errors.Is(err, store.ErrConflict) {
		return fmt.Errorf("release idempotency key: %w", err)
	}
	return nil
}

// stampLayout is the fixed-width UTC form of times in index sort keys.
const stampLayout = "2006-01-02T15:04:05.000Z"

func (s *Store) item(h string, rec record, version int64) store.Item {
	it := records.Item(keys.IdempotentRequest(h), rec, version)
	ix := keys.IdempotentRequestByExpiry(rec.ExpiresAt.UTC().Format(stampLayout), h)
	it.GSI1PK, it.GSI1SK = ix.PK, ix.SK
	it.Expires = rec.ExpiresAt.Unix()
	return it
}

// Sweep deletes the expired records, oldest first, and returns how many.
// Local mode runs it (app/local); in AWS DynamoDB's TTL deletes them (the
// items' Expires attribute), and Begin treats an expired record TTL has
// not removed yet as absent.
func (s *Store) Sweep(ctx context.Context) (int, error) {
	// Only at the version read: a request that claimed the key again
	// meanwhile keeps it.
	n, err := records.SweepExpired(ctx, s.s, keys.IdempotencyExpiries, s.now(), false,
		func(r record) time.Time { return r.ExpiresAt },
		func(it store.Item) store.Op { return store.DeleteIfVersion(it.PK, it.SK, it.Version) })
	if err != nil {
		return n, fmt.Errorf("sweep idempotent requests: %w", err)
	}
	return n, nil
}
