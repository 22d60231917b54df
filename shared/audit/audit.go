// Package audit is the audit family: the organization's audit log
// (docs/audit.md). It owns the audit event records: the families that make
// administrative changes describe each change (model.AuditChange) to a
// Recorder interface of their own, which this service implements; it
// answers the write of the event as an operation of the change's own
// transaction (Op), or writes it alone right after a change that is not
// one transaction (Record). The reads (List, Get, Actions) are the
// organization's admins'.
package audit

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/logging"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// DefaultRetention is how long events are kept when AUDIT_RETENTION_DAYS
// is unset.
const DefaultRetention = 365 * 24 * time.Hour

// Service records and reads audit events.
type Service struct {
	d         *deps.Deps
	retention time.Duration
}

// New returns the audit service keeping events for retention
// (DefaultRetention when not positive).
func New(d *deps.Deps, retention time.Duration) *Service {
	if retention <= 0 {
		retention = DefaultRetention
	}
	return &Service{d: d, retention: retention}
}

// stampLayout is the fixed-width UTC form of times in index sort keys.
const stampLayout = "2006-01-02T15:04:05.000Z"

// Op returns the write of ch's event, for the change's own transaction
// (the event is written if and only if the change is). Each call makes a
// new event: a change retried after a conflict asks again.
func (s *Service) Op(ctx context.Context, ch model.AuditChange) store.Op {
	return store.Put(s.item(s.event(ctx, ch)), store.IfNotExists)
}

// Record writes ch's event alone: for a change made of several
// transactions, right after the last one (docs/audit.md says which).
func (s *Service) Record(ctx context.Context, ch model.AuditChange) error {
	if err := s.d.Store.Write(ctx, s.Op(ctx, ch)); err != nil {
		return fmt.Errorf("record audit event: %w", err)
	}
	return nil
}

// event completes ch with who made it, when and from where.
func (s *Service) event(ctx context.Context, ch model.AuditChange) model.AuditEvent {
	now := s.d.Clock()
	actor := model.AuditRef{Type: "system", ID: "galley"}
	if c, err := access.CallerFrom(ctx); err == nil {
		actor = model.AuditRef{Type: "user", ID: c.UserID}
	} else if ch.Actor != nil {
		actor = *ch.Actor
	}
	o := access.OriginFrom(ctx)
	return model.AuditEvent{ID: newEventID(now), OrgID: ch.OrgID, OccurredAt: now, Action: ch.Action, Actor: actor, Target: ch.Target,
		Address: o.Address, UserAgent: o.UserAgent, RequestID: logging.RequestID(ctx), Payload: ch.Payload, ExpiresAt: now.Add(s.retention)}
}

func (s *Service) item(e model.AuditEvent) store.Item {
	it := records.Item(keys.AuditEvent(e.OrgID, e.ID), e, 1)
	ix := keys.AuditEventByExpiry(e.ExpiresAt.UTC().Format(stampLayout), e.OrgID, e.ID)
	it.GSI1PK, it.GSI1SK = ix.PK, ix.SK
	it.Expires = e.ExpiresAt.Unix()
	return it
}

// newEventID returns a UUID version 7 (RFC 9562): 48 bits of milliseconds,
// then random bits, so that ids sort by time of occurrence (to the
// millisecond) and GitBook's `format: uuid` holds.
func newEventID(now time.Time) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(now.UnixMilli())<<16)
	if _, err := rand.Read(b[6:]); err != nil {
		panic("audit: crypto/rand failed: " + err.Error())
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

func formatUUID(b [16]byte) string {
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// idBound is a string that sorts after every event id of a millisecond at
// or before t and before every later one: the first 13 characters of the
// ids of t's next millisecond.
func idBound(t time.Time) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(t.UnixMilli()+1)<<16)
	return formatUUID(b)[:13]
}

// Filter narrows a list of events; zero fields do not filter.
type Filter struct {
	From, To              time.Time
	Action, Actor, Target string
}

func (f Filter) keeps(e model.AuditEvent) bool {
	return (f.From.IsZero() || !e.OccurredAt.Before(f.From)) && (f.To.IsZero() || !e.OccurredAt.After(f.To)) &&
		(f.Action == "" || e.Action == f.Action) && (f.Actor == "" || e.Actor.ID == f.Actor) && (f.Target == "" || e.Target.ID == f.Target)
}

// scanBudget bounds the events one page reads to find its matches: a
// page of a narrow filter may hold fewer items than asked, with a next
// page resuming where the reading stopped.
const scanBudget = 1000

// List returns an organization's events, newest first (admins only).
func (s *Service) List(ctx context.Context, orgID string, f Filter, r paging.Request) (paging.Page[model.AuditEvent], error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg); err != nil {
		return paging.Page[model.AuditEvent]{}, err
	}
	if !f.From.IsZero() && !f.To.IsZero() && f.To.Before(f.From) {
		return paging.Page[model.AuditEvent]{}, apperr.Field("to", "must not be before from")
	}
	stamp := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	scope := paging.Scope("listOrganizationAuditEvents", keys.AuditPartition(orgID), stamp(f.From), stamp(f.To), f.Action, f.Actor, f.Target)
	after, err := s.d.Cursors.After(scope, r.Cursor)
	if err != nil {
		return paging.Page[model.AuditEvent]{}, err
	}
	part := keys.AuditPartition(orgID)
	if after == nil && !f.To.IsZero() {
		after = &store.Key{PK: part, SK: keys.AuditEventPrefix + idBound(f.To)}
	}
	now := s.d.Clock()
	want := r.Size()
	limit := want + 1
	if f.Action != "" || f.Actor != "" || f.Target != "" {
		limit = max(limit, 200) // sparse matches: fewer round trips
	}
	out := []model.AuditEvent{}
	scanned := 0
	for {
		p, err := s.d.Store.Query(ctx, store.Query{PK: part, SKPrefix: keys.AuditEventPrefix, Reverse: true, Limit: min(limit, store.MaxQueryLimit), After: after})
		if err != nil {
			return paging.Page[model.AuditEvent]{}, fmt.Errorf("list audit events: %w", err)
		}
		for _, it := range p.Items {
			e, err := records.Decode[model.AuditEvent](it)
			if err != nil {
				return paging.Page[model.AuditEvent]{}, err
			}
			if !f.From.IsZero() && e.OccurredAt.Before(f.From) {
				return paging.Page[model.AuditEvent]{Items: out}, nil // older than the window: the end
			}
			if f.keeps(e) && e.ExpiresAt.After(now) {
				if len(out) == want {
					// Another match follows: the next page resumes after
					// the last one shown.
					k := keys.AuditEvent(orgID, out[len(out)-1].ID)
					return paging.Page[model.AuditEvent]{Items: out, Next: s.d.Cursors.Cursor(scope, store.Key{PK: k.PK, SK: k.SK})}, nil
				}
				out = append(out, e)
			}
			scanned++
			after = &store.Key{PK: it.PK, SK: it.SK}
			if scanned >= scanBudget {
				return paging.Page[model.AuditEvent]{Items: out, Next: s.d.Cursors.Cursor(scope, *after)}, nil
			}
		}
		if p.Next == nil {
			return paging.Page[model.AuditEvent]{Items: out}, nil
		}
	}
}

// Get returns one event of an organization (admins only); an expired one
// not swept yet is not found.
func (s *Service) Get(ctx context.Context, orgID, eventID string) (model.AuditEvent, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg); err != nil {
		return model.AuditEvent{}, err
	}
	e, _, err := records.Read[model.AuditEvent](ctx, s.d.Store, keys.AuditEvent(orgID, eventID), "audit event", eventID)
	if err != nil {
		return model.AuditEvent{}, err
	}
	if !e.ExpiresAt.After(s.d.Clock()) {
		return model.AuditEvent{}, apperr.NotFoundf("audit event %s not found", eventID)
	}
	return e, nil
}

// ListActions returns the catalogue of actions (admins only).
func (s *Service) ListActions(ctx context.Context, orgID string) ([]Action, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg); err != nil {
		return nil, err
	}
	return Actions(), nil
}

// Sweep deletes the events whose retention ended, oldest first, and
// returns how many. Local mode runs it (app/local); in AWS DynamoDB's TTL
// deletes them (the items' Expires attribute), and reads skip an expired
// event TTL has not removed yet.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	n, err := records.SweepExpired(ctx, s.d.Store, keys.AuditExpiries, s.d.Clock(), true,
		func(e model.AuditEvent) time.Time { return e.ExpiresAt },
		func(it store.Item) store.Op { return store.Delete(it.PK, it.SK, store.Always) })
	if err != nil {
		return n, fmt.Errorf("sweep audit events: %w", err)
	}
	return n, nil
}
