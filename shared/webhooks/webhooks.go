// Package webhooks is the webhooks family: an organization's endpoints
// (URL, signing secret, the events wanted), the events other families tell
// it of (Emit, given to them by the composition root), and their delivery:
// signed posts, retried with exponential backoff through the queue, each
// recorded (docs/webhooks.md).
//
// Decisions:
//   - Organization admins only, for every operation (endpoints receive
//     the organization's content changes). Others get 403, outsiders 404.
//   - The secret is write-only: sealed in the record with a key derived
//     from the installation's secret, never answered.
//   - Endpoint URLs: http or https, no credentials, at most 2048
//     characters; a loopback, private or otherwise non-public literal
//     address, and localhost, answer 400 naming url unless
//     FETCH_ALLOW_PRIVATE=1. Names are checked when each delivery
//     connects (the guarded fetcher's dialer: DNS rebinding included).
//   - An organization has at most MaxWebhooks endpoints.
//   - Deliveries are listed newest first; deleting an endpoint deletes
//     them.
package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Event types (docs/webhooks.md): GitBook's names and payload shapes where
// GitBook documents the event, Galley's otherwise.
const (
	// SpaceContentUpdated: a change request was merged into a space
	// (GitBook's SpaceContentUpdatedEvent).
	SpaceContentUpdated = "space_content_updated"
	// SpaceGitSyncCompleted: a Git Sync import or export of a space
	// finished, state success or failure (GitBook's
	// SpaceGitSyncCompletedEvent).
	SpaceGitSyncCompleted = "space_gitsync_completed"
	// SitePublished and SiteUnpublished: Galley's.
	SitePublished   = "site_published"
	SiteUnpublished = "site_unpublished"
	// ChangeRequestOpened (a request became open) and
	// ChangeRequestMerged: Galley's.
	ChangeRequestOpened = "change_request_opened"
	ChangeRequestMerged = "change_request_merged"
	// PageFeedback is GitBook's PageFeedbackEvent: endpoints may ask for
	// it; it is sent once the reader records page feedback (issue 28).
	PageFeedback = "page_feedback"
	// Ping is the test ping's event (Galley's); it cannot be asked for:
	// every endpoint gets the pings sent to it.
	Ping = "ping"
)

// Types are the event types an endpoint may ask for, in the documented
// order.
func Types() []string {
	return []string{SpaceContentUpdated, SpaceGitSyncCompleted, SitePublished, SiteUnpublished,
		ChangeRequestOpened, ChangeRequestMerged, PageFeedback}
}

// Limits.
const (
	MaxWebhooks     = 20
	MaxURLLength    = 2048
	MinSecretLength = 16
	MaxSecretLength = 256
)

// Service manages webhook endpoints and delivers their events.
type Service struct {
	d      *deps.Deps
	policy Policy
	client *fetch.Client
}

// New returns the webhooks service delivering with policy p (zero fields
// take DefaultPolicy's), through the guarded fetcher.
func New(d *deps.Deps, p Policy) *Service {
	p = p.withDefaults()
	return &Service{d: d, policy: p, client: fetch.NewWithTimeout(d.FetchAllowPrivate, p.Timeout)}
}

// Create is the input of Create.
type Create struct {
	URL, Secret string
	Events      []string
	// Enabled: nil is true.
	Enabled *bool
}

// Change is the input of Update: nil fields are left as they are.
type Change struct {
	URL, Secret *string
	Events      *[]string
	Enabled     *bool
}

func notFound(id string) error { return apperr.NotFoundf("webhook %s not found", id) }

// checkURL refuses what cannot be an endpoint; allowPrivate lets loopback
// and private literal addresses through (FETCH_ALLOW_PRIVATE).
func checkURL(raw string, allowPrivate bool) error {
	if utf8.RuneCountInString(raw) > MaxURLLength {
		return apperr.Field("url", "must be at most %d characters", MaxURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return apperr.Field("url", "must be an absolute http or https URL")
	}
	if u.User != nil {
		return apperr.Field("url", "must not hold credentials: the secret signs the deliveries")
	}
	if allowPrivate {
		return nil
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return apperr.Field("url", "the URL's address is not public")
	}
	if a, err := netip.ParseAddr(host); err == nil && !fetch.Public(a) {
		return apperr.Field("url", "the URL's address is not public")
	}
	return nil
}

func checkSecret(secret string) error {
	if n := utf8.RuneCountInString(secret); n < MinSecretLength || n > MaxSecretLength {
		return apperr.Field("secret", "must be %d to %d characters", MinSecretLength, MaxSecretLength)
	}
	return nil
}

// checkEvents refuses unknown and repeated types and an empty list.
func checkEvents(events []string) ([]string, error) {
	if len(events) == 0 {
		return nil, apperr.Field("events", "must name at least one event")
	}
	out := make([]string, 0, len(events))
	for i, e := range events {
		if !slices.Contains(Types(), e) {
			return nil, apperr.Field(fmt.Sprintf("events[%d]", i), "unknown event %q", e)
		}
		if slices.Contains(out, e) {
			return nil, apperr.Field(fmt.Sprintf("events[%d]", i), "event %q appears twice", e)
		}
		out = append(out, e)
	}
	return out, nil
}

// sealPurpose derives the key sealing the endpoints' secrets.
const sealPurpose = "galley webhook secrets v1"

func (s *Service) seal(ctx context.Context, webhookID, secret string) (string, error) {
	return s.d.Secret.Seal(ctx, sealPurpose, webhookID, secret)
}

// Create registers an endpoint (admins).
func (s *Service) Create(ctx context.Context, orgID string, in Create) (model.Webhook, error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return model.Webhook{}, err
	}
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg); err != nil {
		return model.Webhook{}, err
	}
	if err := checkURL(in.URL, s.d.FetchAllowPrivate); err != nil {
		return model.Webhook{}, err
	}
	if err := checkSecret(in.Secret); err != nil {
		return model.Webhook{}, err
	}
	events, err := checkEvents(in.Events)
	if err != nil {
		return model.Webhook{}, err
	}
	now := s.d.Clock()
	w := model.Webhook{ID: ids.New(now), OrgID: orgID, URL: in.URL, Events: events, Enabled: in.Enabled == nil || *in.Enabled,
		CreatedBy: c.UserID, CreatedAt: now, UpdatedAt: now}
	if w.SealedSecret, err = s.seal(ctx, w.ID, in.Secret); err != nil {
		return model.Webhook{}, err
	}
	err = orgs.AddRecord(ctx, s.d.Store, orgID, keys.WebhookPrefix, MaxWebhooks, "webhooks", keys.Webhook(orgID, w.ID), w)
	if errors.Is(err, store.ErrConflict) {
		return model.Webhook{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	return w, err
}

// List returns a page of an organization's endpoints, oldest first (admins).
func (s *Service) List(ctx context.Context, orgID string, r paging.Request) (paging.Page[model.Webhook], error) {
	p, _, err := orgs.ListRecords[model.Webhook](ctx, s.d, orgID, access.AdminOrg, "webhooks", keys.WebhookPrefix, "webhooks", r)
	return p, err
}

// Get returns an endpoint (admins).
func (s *Service) Get(ctx context.Context, orgID, webhookID string) (model.Webhook, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg); err != nil {
		return model.Webhook{}, err
	}
	w, _, err := records.Read[model.Webhook](ctx, s.d.Store, keys.Webhook(orgID, webhookID), "webhook", webhookID)
	return w, err
}

// Update changes an endpoint (admins).
func (s *Service) Update(ctx context.Context, orgID, webhookID string, ch Change) (model.Webhook, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg); err != nil {
		return model.Webhook{}, err
	}
	if ch.URL != nil {
		if err := checkURL(*ch.URL, s.d.FetchAllowPrivate); err != nil {
			return model.Webhook{}, err
		}
	}
	var sealed string
	if ch.Secret != nil {
		if err := checkSecret(*ch.Secret); err != nil {
			return model.Webhook{}, err
		}
		var err error
		if sealed, err = s.seal(ctx, webhookID, *ch.Secret); err != nil {
			return model.Webhook{}, err
		}
	}
	if ch.Events != nil {
		events, err := checkEvents(*ch.Events)
		if err != nil {
			return model.Webhook{}, err
		}
		ch.Events = &events
	}
	w, err := records.Update(ctx, s.d.Store, keys.Webhook(orgID, webhookID), nil, func(w *model.Webhook) ([]store.Op, error) {
		was := *w
		records.Set(&w.URL, ch.URL)
		records.Set(&w.Events, ch.Events)
		records.Set(&w.Enabled, ch.Enabled)
		if ch.Secret != nil {
			w.SealedSecret = sealed
		}
		if !records.Same(was, *w) {
			w.UpdatedAt = s.d.Clock()
		}
		return nil, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return w, notFound(webhookID)
	}
	if err != nil {
		return w, fmt.Errorf("update webhook: %w", err)
	}
	return w, nil
}

// Delete removes an endpoint and its deliveries (admins); false when there
// was none. Jobs still queued for its deliveries find nothing and end.
func (s *Service) Delete(ctx context.Context, orgID, webhookID string) (bool, error) {
	if ok, err := orgs.RemoveRecord(ctx, s.d, orgID, access.AdminOrg, keys.Webhook(orgID, webhookID), "webhook"); !ok || err != nil {
		return ok, err
	}
	q := store.Query{PK: keys.WebhookPartition(webhookID), SKPrefix: keys.WebhookDeliveryPrefix, Limit: store.MaxTransactionOps}
	for {
		p, err := s.d.Store.Query(ctx, q)
		if err != nil {
			return true, fmt.Errorf("delete webhook deliveries: %w", err)
		}
		ops := make([]store.Op, 0, len(p.Items))
		for _, it := range p.Items {
			ops = append(ops, store.Delete(it.PK, it.SK, store.Always))
		}
		if len(ops) > 0 {
			if err := s.d.Store.Write(ctx, ops...); err != nil {
				return true, fmt.Errorf("delete webhook deliveries: %w", err)
			}
		}
		if p.Next == nil {
			return true, nil
		}
	}
}

// Deliveries returns a page of an endpoint's deliveries, newest first
// (admins).
func (s *Service) Deliveries(ctx context.Context, orgID, webhookID string, r paging.Request) (paging.Page[model.WebhookDelivery], error) {
	if _, err := s.Get(ctx, orgID, webhookID); err != nil {
		return paging.Page[model.WebhookDelivery]{}, err
	}
	s.recover(ctx, orgID)
	return records.Page[model.WebhookDelivery](ctx, s.d.Store, s.d.Cursors, "webhook-deliveries:"+webhookID,
		store.Query{PK: keys.WebhookPartition(webhookID), SKPrefix: keys.WebhookDeliveryPrefix, Reverse: true}, r, "webhook deliveries")
}

// Redeliver sends a delivery's event again as a new delivery, with
// attempts of its own (admins).
func (s *Service) Redeliver(ctx context.Context, orgID, webhookID, deliveryID string) (model.WebhookDelivery, error) {
	w, err := s.Get(ctx, orgID, webhookID)
	if err != nil {
		return model.WebhookDelivery{}, err
	}
	old, _, err := records.Read[model.WebhookDelivery](ctx, s.d.Store, keys.WebhookDelivery(webhookID, deliveryID), "delivery", deliveryID)
	if err != nil {
		return model.WebhookDelivery{}, err
	}
	now := s.d.Clock()
	d := newDelivery(w, now, old.EventID, old.Event, old.Body)
	d.RedeliveryOf = old.ID
	return d, s.start(ctx, []model.WebhookDelivery{d})
}

// SendPing sends the endpoint a ping event (admins), whether or not it is
// enabled: how an admin checks the URL and the secret.
func (s *Service) SendPing(ctx context.Context, orgID, webhookID string) (model.WebhookDelivery, error) {
	w, err := s.Get(ctx, orgID, webhookID)
	if err != nil {
		return model.WebhookDelivery{}, err
	}
	now := s.d.Clock()
	eventID := ids.New(now)
	body, err := payload(model.Event{Type: Ping, OrgID: orgID, Fields: map[string]any{"organizationId": orgID, "webhookId": w.ID}}, eventID, w.ID, nil)
	if err != nil {
		return model.WebhookDelivery{}, err
	}
	d := newDelivery(w, now, eventID, Ping, body)
	return d, s.start(ctx, []model.WebhookDelivery{d})
}

// newDelivery is a pending delivery of body to w.
func newDelivery(w model.Webhook, now time.Time, eventID, event, body string) model.WebhookDelivery {
	return model.WebhookDelivery{ID: ids.New(now), WebhookID: w.ID, OrgID: w.OrgID, EventID: eventID, Event: event, Body: body,
		Status: model.DeliveryPending, QueuedAt: now, CreatedAt: now, UpdatedAt: now}
}
