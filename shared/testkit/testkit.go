// Package testkit builds a service on a fresh embedded store for tests:
// the real ports, a fixed clock, users with tokens, seeded organizations.
package testkit

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/blob/fsblob"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/secret"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/boltstore"
	"github.com/galleydocs/galley/shared/users"
)

// AdminToken is the instance administrator's token in every kit.
const AdminToken = "gly_test-admin"

// Kit is a fresh service backing.
type Kit struct {
	T    testing.TB
	Deps *deps.Deps
	Ctx  context.Context
}

// Option changes how a kit is built.
type Option func(*options)

type options struct {
	start time.Time
	step  time.Duration
}

// Clock makes the kit's clock start at start and move by step at each
// reading (default: 2026-01-02T03:04:05Z, one millisecond), for tests whose
// times must differ by more than a millisecond.
func Clock(start time.Time, step time.Duration) Option {
	return func(o *options) { o.start, o.step = start, step }
}

// New returns a kit on a temporary bbolt store with the instance
// administrator bootstrapped.
func New(t testing.TB, opts ...Option) *Kit {
	return NewOn(t, BoltStore(t), opts...)
}

// BoltStore returns a fresh bbolt store in a temporary directory, closed
// when t ends, for tests that wrap the store before NewOn.
func BoltStore(t testing.TB) *boltstore.Store {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "galley.db"))
	if err != nil {
		t.Fatal(err)
	}
	st.DB().NoSync = true // tests need no durability
	t.Cleanup(func() { st.Close() })
	return st
}

// NewOn returns a kit on the given (empty) store, with the instance
// administrator bootstrapped: tests that must hold on every storage
// backend run on DynamoDB Local this way.
func NewOn(t testing.TB, st store.Store, opts ...Option) *Kit {
	o := options{start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), step: time.Millisecond}
	for _, opt := range opts {
		opt(&o)
	}
	dir := t.TempDir()
	blobs, err := fsblob.New(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	clock := o.start
	// Concurrent requests of one test read the clock at once.
	var clockMu sync.Mutex
	d := &deps.Deps{Store: st, Blobs: blobs, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Authz: access.NewAuthorizer(st), Secret: secret.New(st),
		Now: func() time.Time {
			clockMu.Lock()
			defer clockMu.Unlock()
			clock = clock.Add(o.step)
			return clock
		}}
	d.Cursors = paging.NewSigner([]byte("test-secret"))
	k := &Kit{T: t, Deps: d, Ctx: context.Background()}
	if _, _, err := users.New(d).Bootstrap(k.Ctx, AdminToken); err != nil {
		t.Fatal(err)
	}
	return k
}

// User creates a user and returns it with its token.
func (k *Kit) User(name string) (model.User, string) {
	k.T.Helper()
	ctx := access.WithCaller(k.Ctx, access.Caller{UserID: "admin", InstanceAdmin: true})
	u, tok, err := users.New(k.Deps).Create(ctx, name+"@example.com", name)
	if err != nil {
		k.T.Fatal(err)
	}
	return u, tok
}

// Org seeds an organization directly in the store with the given members
// (user id -> role), without the organizations service (its rules and
// authorization); the member items are the family's own (orgs.MemberItem).
func (k *Kit) Org(title string, members map[string]model.Role) model.Organization {
	k.T.Helper()
	now := k.Deps.Clock()
	o := model.Organization{ID: ids.New(now), Title: title, CreatedAt: now, EmailDomains: []string{}, Type: "business", Plan: "free_2024", InviteLinks: true}
	ops := []store.Op{store.Put(records.Item(keys.Org(o.ID), o, 1), store.IfNotExists)}
	for uid, role := range members {
		m := model.Member{OrgID: o.ID, UserID: uid, Role: role, JoinedAt: now}
		// The item, index keys included, as the organizations family makes it.
		ops = append(ops, store.Put(orgs.MemberItem(m, 1), store.IfNotExists))
	}
	if err := k.Deps.Store.Write(k.Ctx, ops...); err != nil {
		k.T.Fatal(err)
	}
	return o
}
