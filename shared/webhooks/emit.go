package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/users"
)

// Emit sends an event to the organization's enabled endpoints that want
// it: a delivery recorded for each, then its first attempt queued. The
// families call it (through the interface each declares) after their
// change is written; its failures are logged, never theirs: the change
// stands.
func (s *Service) Emit(ctx context.Context, e model.Event) {
	if err := s.emit(ctx, e); err != nil {
		s.d.Logger.WarnContext(ctx, "webhook event not sent", "event", e.Type, "org", e.OrgID, "err", err.Error())
	}
}

func (s *Service) emit(ctx context.Context, e model.Event) error {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OrgPartition(e.OrgID), SKPrefix: keys.WebhookPrefix})
	if err != nil {
		return fmt.Errorf("read webhooks: %w", err)
	}
	hooks, err := records.DecodeAll[model.Webhook](items)
	if err != nil {
		return err
	}
	if len(hooks) > 0 {
		s.recover(ctx, e.OrgID)
	}
	hooks = slices.DeleteFunc(hooks, func(w model.Webhook) bool { return !w.Enabled || !slices.Contains(w.Events, e.Type) })
	if len(hooks) == 0 {
		return nil
	}
	var by []users.User
	if e.UpdatedBy != nil {
		us, err := users.ReadAll(ctx, s.d.Store, e.UpdatedBy)
		if err != nil {
			return err
		}
		by = make([]users.User, len(us))
		for i, u := range us {
			by[i] = users.ViewUser(s.d.APIURL, u)
		}
	}
	now := s.d.Clock()
	eventID := ids.New(now)
	ds := make([]model.WebhookDelivery, 0, len(hooks))
	for _, w := range hooks {
		body, err := payload(e, eventID, w.ID, by)
		if err != nil {
			return err
		}
		ds = append(ds, newDelivery(w, now, eventID, e.Type, body))
	}
	return s.start(ctx, ds)
}

// payload is an event's body for one endpoint: its fields, eventId, type,
// and installationId (GitBook's installation of an integration; here the
// endpoint's id), and updatedBy when the event lists users.
func payload(e model.Event, eventID, webhookID string, by []users.User) (string, error) {
	m := make(map[string]any, len(e.Fields)+4)
	for k, v := range e.Fields {
		m[k] = v
	}
	m["eventId"], m["type"], m["installationId"] = eventID, e.Type, webhookID
	if e.UpdatedBy != nil {
		m["updatedBy"] = by
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("encode %s event: %w", e.Type, err)
	}
	return string(raw), nil
}

// start records new deliveries and queues their first attempts. A
// delivery whose job did not reach the queue stays pending, listed for
// recovery (recover).
func (s *Service) start(ctx context.Context, ds []model.WebhookDelivery) error {
	ops := make([]store.Op, len(ds))
	for i, d := range ds {
		ops[i] = store.Put(deliveryItem(d, 1), store.IfNotExists)
	}
	if err := s.d.Store.Write(ctx, ops...); err != nil {
		return fmt.Errorf("record webhook deliveries: %w", err)
	}
	for _, d := range ds {
		if err := s.dispatch(ctx, job{WebhookID: d.WebhookID, DeliveryID: d.ID, Attempt: 1}, 0); err != nil {
			return err
		}
	}
	return nil
}

// deliveryItem is a delivery's item with its index key.
func deliveryItem(d model.WebhookDelivery, version int64) store.Item {
	it := records.Item(keys.WebhookDelivery(d.WebhookID, d.ID), d, version)
	deliveryIndexes(&d, &it)
	return it
}

// deliveryIndexes lists a delivery among its organization's deliveries not
// attempted yet, by the time its first attempt was queued, until an
// attempt claims it.
func deliveryIndexes(d *model.WebhookDelivery, it *store.Item) {
	if d.Status == model.DeliveryPending && d.Attempts == 0 && d.Claim == 0 {
		k := keys.WebhookPendingInOrg(d.OrgID, queuedKey(d.QueuedAt), d.ID)
		it.GSI1PK, it.GSI1SK = k.PK, k.SK
	}
}

func queuedKey(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000000Z") }

// recoverBatch bounds the deliveries one recovery looks at.
const recoverBatch = 25

// recover queues again the first attempts of an organization's
// deliveries queued more than the policy's Recover ago and not begun: a
// job that never reached the queue (the queue failed after the delivery
// was recorded) would leave them pending for ever. Each emission to the
// organization and each list of deliveries runs it; a job queued twice is
// harmless (attempts are claimed). Its failures are logged: the next run
// tries again.
func (s *Service) recover(ctx context.Context, orgID string) {
	if err := s.recoverPending(ctx, orgID); err != nil {
		s.d.Logger.WarnContext(ctx, "webhook deliveries not recovered", "org", orgID, "err", err.Error())
	}
}

func (s *Service) recoverPending(ctx context.Context, orgID string) error {
	p, err := s.d.Store.Query(ctx, store.Query{Index: store.GSI1, PK: keys.OrgPendingDeliveries(orgID), Limit: recoverBatch})
	if err != nil {
		return fmt.Errorf("read pending deliveries: %w", err)
	}
	now := s.d.Clock()
	cutoff := now.Add(-s.policy.Recover)
	for _, it := range p.Items {
		d, err := records.Decode[model.WebhookDelivery](it)
		if err != nil {
			return err
		}
		if !d.QueuedAt.Before(cutoff) {
			return nil // oldest first: the others are younger
		}
		// Moved along first, so that the next run leaves it alone for
		// another Recover; the index may lag: the write checks the
		// delivery itself.
		_, err = records.Update(ctx, s.d.Store, keys.WebhookDelivery(d.WebhookID, d.ID), deliveryIndexes, func(d *model.WebhookDelivery) ([]store.Op, error) {
			if d.Status != model.DeliveryPending || d.Attempts != 0 || d.Claim != 0 || !d.QueuedAt.Before(cutoff) {
				return nil, errSkip
			}
			d.QueuedAt = now
			return nil, nil
		})
		switch {
		case errors.Is(err, errSkip), errors.Is(err, store.ErrNotFound):
			continue
		case err != nil:
			return fmt.Errorf("recover webhook delivery: %w", err)
		}
		s.d.Logger.InfoContext(ctx, "webhook delivery queued again", "org", orgID, "webhook", d.WebhookID, "delivery", d.ID)
		if err := s.dispatch(ctx, job{WebhookID: d.WebhookID, DeliveryID: d.ID, Attempt: 1}, 0); err != nil {
			return err
		}
	}
	return nil
}
