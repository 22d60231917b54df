package idempotency_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/idempotency"
	"github.com/galleydocs/galley/shared/testkit"
)

// A kept answer replays until Retention, then the key is free again; a
// claim without an answer lapses after Lease; Sweep deletes what expired
// (local mode; DynamoDB's TTL in AWS) and nothing else.
func TestExpiryAndSweep(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		s := idempotency.New(k.Deps.Store, func() time.Time { return now })
		r := idempotency.Request{Scope: "tok", Operation: "createSpace", Key: "k1", Fingerprint: "f1"}
		_, c, err := s.Begin(k.Ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Save(k.Ctx, c, idempotency.Answer{Status: 201, Header: http.Header{"Location": {"/x"}}, Body: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
		now = now.Add(idempotency.Retention - time.Second)
		if a, _, err := s.Begin(k.Ctx, r); err != nil || a == nil || a.Status != 201 || a.Header.Get("Location") != "/x" {
			t.Fatalf("before retention: %+v, %v; want the answer", a, err)
		}
		// Another key, claimed and never answered: 409, until its lease.
		held := idempotency.Request{Scope: "tok", Operation: "createSpace", Key: "k2", Fingerprint: "f2"}
		if _, _, err := s.Begin(k.Ctx, held); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Begin(k.Ctx, held); !errors.Is(err, idempotency.ErrInProgress) {
			t.Fatalf("claimed key: %v, want ErrInProgress", err)
		}
		if n, err := s.Sweep(k.Ctx); err != nil || n != 0 {
			t.Fatalf("sweep before any expiry: %d, %v", n, err)
		}
		now = now.Add(2 * time.Second) // the answer expired, the claim not yet
		if n, err := s.Sweep(k.Ctx); err != nil || n != 1 {
			t.Fatalf("sweep: %d, %v; want 1", n, err)
		}
		if a, _, err := s.Begin(k.Ctx, idempotency.Request{Scope: "tok", Operation: "createSpace", Key: "k1", Fingerprint: "other"}); err != nil || a != nil {
			t.Fatalf("after retention, another body: %+v, %v; want a new claim", a, err)
		}
		now = now.Add(idempotency.Lease)
		if a, _, err := s.Begin(k.Ctx, held); err != nil || a != nil {
			t.Fatalf("after the lease: %+v, %v; want a new claim", a, err)
		}
	})
}
