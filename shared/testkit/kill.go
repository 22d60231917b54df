package testkit

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/store"
)

// ErrKilled is what every storage call gets once a Killer has struck.
var ErrKilled = errors.New("testkit: the worker was killed")

// Killer stands for a worker killed between two steps of a job: wrapped
// around a kit's store and blob store (KillableStore, KillableBlobs), it
// lets Arm(n)'s first n calls through and refuses every later one, so the
// job does nothing more to what is stored, from its (n+1)th call on, as
// if its process had died there. Every call is a step boundary of the
// job (Galley's jobs change nothing but through these ports and Git).
type Killer struct {
	mu      sync.Mutex
	armed   bool
	left    int
	calls   int
	refused int
}

// Arm makes the calls after the next n fail with ErrKilled.
func (k *Killer) Arm(n int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.armed, k.left, k.calls, k.refused = true, n, 0, 0
}

// Disarm lets every call through again (a new worker).
func (k *Killer) Disarm() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.armed = false
}

// Calls is how many calls were made since Arm, and how many of them were
// refused.
func (k *Killer) Calls() (calls, refused int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.calls, k.refused
}

func (k *Killer) pass() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.armed {
		return nil
	}
	k.calls++
	if k.left == 0 {
		k.refused++
		return ErrKilled
	}
	k.left--
	return nil
}

// KillableStore is st, refusing calls once k struck.
func KillableStore(st store.Store, k *Killer) store.Store { return killableStore{st, k} }

type killableStore struct {
	store.Store
	k *Killer
}

func (s killableStore) Get(ctx context.Context, pk, sk string) (store.Item, error) {
	if err := s.k.pass(); err != nil {
		return store.Item{}, err
	}
	return s.Store.Get(ctx, pk, sk)
}

func (s killableStore) Write(ctx context.Context, ops ...store.Op) error {
	if err := s.k.pass(); err != nil {
		return err
	}
	return s.Store.Write(ctx, ops...)
}

func (s killableStore) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if err := s.k.pass(); err != nil {
		return store.Page{}, err
	}
	return s.Store.Query(ctx, q)
}

func (s killableStore) BatchGet(ctx context.Context, keys []store.ItemKey) ([]store.Item, error) {
	if err := s.k.pass(); err != nil {
		return nil, err
	}
	return s.Store.BatchGet(ctx, keys)
}

// KillableBlobs is b, refusing calls once k struck.
func KillableBlobs(b blob.Store, k *Killer) blob.Store { return killableBlobs{b, k} }

type killableBlobs struct {
	blob.Store
	k *Killer
}

func (b killableBlobs) Put(ctx context.Context, key string, data []byte, contentType string) error {
	if err := b.k.pass(); err != nil {
		return err
	}
	return b.Store.Put(ctx, key, data, contentType)
}

func (b killableBlobs) Get(ctx context.Context, key string) ([]byte, error) {
	if err := b.k.pass(); err != nil {
		return nil, err
	}
	return b.Store.Get(ctx, key)
}

func (b killableBlobs) Delete(ctx context.Context, key string) error {
	if err := b.k.pass(); err != nil {
		return err
	}
	return b.Store.Delete(ctx, key)
}

// Skew moves a kit's clock forward on demand (a lease expiring).
type Skew struct {
	mu sync.Mutex
	d  time.Duration
}

// SkewClock wraps the kit's clock; Jump then moves it.
func (k *Kit) SkewClock() *Skew {
	s := &Skew{}
	now := k.Deps.Now
	k.Deps.Now = func() time.Time {
		s.mu.Lock()
		defer s.mu.Unlock()
		return now().Add(s.d)
	}
	return s
}

// Jump moves the clock forward by d.
func (s *Skew) Jump(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d += d
}

// Killable is a kit on DynamoDB Local for tests of jobs killed mid-way:
// its store and blobs refuse calls once Killer strikes, its clock jumps
// on demand (Clock), and SQS is a queue of moto's SQS (FIFO or not) whose
// messages the test delivers. The kit's Deps.Queue is left to the caller
// (a fixture may set its own first).
type Killable struct {
	Kit    *Kit
	Killer *Killer
	Clock  *Skew
	SQS    *SQSWorker
}

// NewKillable makes a Killable kit.
func NewKillable(t *testing.T, fifo bool) Killable {
	t.Helper()
	killer := &Killer{}
	k := NewOn(t, KillableStore(DynamoStore(t), killer))
	k.Deps.Blobs = KillableBlobs(k.Deps.Blobs, killer)
	return Killable{Kit: k, Killer: killer, Clock: k.SkewClock(), SQS: NewSQSWorker(t, fifo)}
}
