package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

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

// start records new deliveries and queues their first attempts.
func (s *Service) start(ctx context.Context, ds []model.WebhookDelivery) error {
	ops := make([]store.Op, len(ds))
	for i, d := range ds {
		ops[i] = store.Put(records.Item(keys.WebhookDelivery(d.WebhookID, d.ID), d, 1), store.IfNotExists)
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
