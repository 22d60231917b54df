// Package webhookshttp is the webhooks family's HTTP layer: its
// operations, request bodies and response shapes, on the service of
// package webhooks (which knows no HTTP).
package webhookshttp

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/webhooks"
)

// The events enums below are webhooks.Types (TestEveryEventTypeMayBeAskedFor
// creates an endpoint asking for each).

// Webhook is the API shape of a webhook endpoint. Its secret is never
// answered.
type Webhook struct {
	Object    string      `json:"object" enum:"webhook"`
	ID        string      `json:"id"`
	URL       string      `json:"url" format:"uri"`
	Events    []string    `json:"events" nullable:"false" enum:"space_content_updated,space_gitsync_completed,site_published,site_unpublished,change_request_opened,change_request_merged,page_feedback"`
	Enabled   bool        `json:"enabled"`
	CreatedAt time.Time   `json:"createdAt"`
	UpdatedAt time.Time   `json:"updatedAt"`
	URLs      WebhookURLs `json:"urls"`
}

// WebhookURLs are the links of an endpoint.
type WebhookURLs struct {
	Location   string `json:"location" format:"uri"`
	Deliveries string `json:"deliveries" format:"uri"`
}

// View renders an endpoint.
func View(ctx context.Context, w model.Webhook) Webhook {
	loc := httpapi.APIURL(ctx) + "/v1/orgs/" + w.OrgID + "/webhooks/" + w.ID
	return Webhook{Object: "webhook", ID: w.ID, URL: w.URL, Events: w.Events, Enabled: w.Enabled, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt,
		URLs: WebhookURLs{Location: loc, Deliveries: loc + "/deliveries"}}
}

// Delivery is the API shape of a delivery.
type Delivery struct {
	Object           string         `json:"object" enum:"webhook-delivery"`
	ID               string         `json:"id"`
	Webhook          string         `json:"webhook" doc:"The endpoint's id"`
	Event            string         `json:"event"`
	EventID          string         `json:"eventId"`
	Status           string         `json:"status" enum:"pending,failed,succeeded,dead" doc:"pending: not attempted yet; failed: the last attempt failed, another is scheduled (nextAttemptAt); succeeded: an attempt got a 2xx answer; dead: the last attempt failed and none will follow"`
	Attempts         int            `json:"attempts" doc:"Attempts made"`
	LastResponseCode int            `json:"lastResponseCode,omitempty" doc:"HTTP status of the last attempt's answer (absent: none)"`
	LastError        string         `json:"lastError,omitempty"`
	RedeliveryOf     string         `json:"redeliveryOf,omitempty" doc:"The delivery this one sends again"`
	Payload          map[string]any `json:"payload" doc:"The JSON body posted"`
	CreatedAt        time.Time      `json:"createdAt"`
	UpdatedAt        time.Time      `json:"updatedAt"`
	LastAttemptAt    *time.Time     `json:"lastAttemptAt,omitempty"`
	NextAttemptAt    *time.Time     `json:"nextAttemptAt,omitempty"`
}

// ViewDelivery renders a delivery.
func ViewDelivery(_ context.Context, d model.WebhookDelivery) Delivery {
	var body map[string]any
	_ = json.Unmarshal([]byte(d.Body), &body) // written by the service: always an object
	return Delivery{Object: "webhook-delivery", ID: d.ID, Webhook: d.WebhookID, Event: d.Event, EventID: d.EventID, Status: d.Status,
		Attempts: d.Attempts, LastResponseCode: d.LastResponseCode, LastError: d.LastError, RedeliveryOf: d.RedeliveryOf, Payload: body,
		CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt, LastAttemptAt: d.LastAttemptAt, NextAttemptAt: d.NextAttemptAt}
}

// CreateWebhookBody is the body of POST /v1/orgs/{organizationId}/webhooks.
type CreateWebhookBody struct {
	URL     string   `json:"url" minLength:"1" maxLength:"2048" doc:"http or https URL the events are posted to"`
	Secret  string   `json:"secret" minLength:"16" maxLength:"256" writeOnly:"true" doc:"Key of the deliveries' HMAC-SHA256 signatures (X-Galley-Signature); never answered"`
	Events  []string `json:"events" minItems:"1" maxItems:"7" uniqueItems:"true" nullable:"false" enum:"space_content_updated,space_gitsync_completed,site_published,site_unpublished,change_request_opened,change_request_merged,page_feedback"`
	Enabled *bool    `json:"enabled,omitempty" doc:"Default true"`
}

// UpdateWebhookBody is the body of PATCH /v1/orgs/{organizationId}/webhooks/{webhookId}.
type UpdateWebhookBody struct {
	URL     *string   `json:"url,omitempty" minLength:"1" maxLength:"2048"`
	Secret  *string   `json:"secret,omitempty" minLength:"16" maxLength:"256" writeOnly:"true" doc:"Replaces the secret; omitted: unchanged"`
	Events  *[]string `json:"events,omitempty" minItems:"1" maxItems:"7" uniqueItems:"true" nullable:"false" enum:"space_content_updated,space_gitsync_completed,site_published,site_unpublished,change_request_opened,change_request_merged,page_feedback"`
	Enabled *bool     `json:"enabled,omitempty"`
}

// WebhookPath is the path of an endpoint's operations.
type WebhookPath struct {
	orgshttp.OrgPath
	WebhookID string `path:"webhookId" maxLength:"64"`
}

type deliveriesIn struct {
	WebhookPath
	httpapi.ListParams
}

// location is an endpoint's API URL (the Location of its creation).
func location(w Webhook) string { return w.URLs.Location }

// Register adds the webhooks operations.
func Register(api *httpapi.API, s *webhooks.Service) {
	const tag = "Webhooks"
	const base = "/v1/orgs/{organizationId}/webhooks"
	const one = base + "/{webhookId}"
	admin := access.Role(access.AdminOrg)
	httpapi.Register(api, httpapi.Op{ID: "listWebhooks", Needs: admin, Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "List the organization's webhook endpoints (oldest first)"},
		func(ctx context.Context, in *orgshttp.OrgListIn) (*httpapi.Out[httpapi.List[Webhook]], error) {
			return httpapi.AnswerPage(httpapi.In(ctx, View))(s.List(ctx, in.OrganizationID, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "createWebhook", Needs: admin, Method: http.MethodPost, Path: base, Tag: tag, Status: http.StatusCreated,
		Summary: "Register a webhook endpoint"},
		func(ctx context.Context, in *struct {
			orgshttp.OrgPath
			Body CreateWebhookBody
		}) (*httpapi.Created[Webhook], error) {
			b := in.Body
			return httpapi.AnswerCreated(httpapi.In(ctx, View), location)(s.Create(ctx, in.OrganizationID, webhooks.Create{URL: b.URL, Secret: b.Secret, Events: b.Events, Enabled: b.Enabled}))
		})
	httpapi.Register(api, httpapi.Op{ID: "getWebhook", Needs: admin, Method: http.MethodGet, Path: one, Tag: tag,
		Summary: "Get a webhook endpoint (without its secret)"},
		func(ctx context.Context, in *WebhookPath) (*httpapi.Out[Webhook], error) {
			return httpapi.Answer(httpapi.In(ctx, View))(s.Get(ctx, in.OrganizationID, in.WebhookID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateWebhook", Needs: admin, Method: http.MethodPatch, Path: one, Tag: tag,
		Summary: "Change a webhook endpoint's URL, secret, events or enabled"},
		func(ctx context.Context, in *struct {
			WebhookPath
			Body UpdateWebhookBody
		}) (*httpapi.Out[Webhook], error) {
			b := in.Body
			return httpapi.Answer(httpapi.In(ctx, View))(s.Update(ctx, in.OrganizationID, in.WebhookID, webhooks.Change{URL: b.URL, Secret: b.Secret, Events: b.Events, Enabled: b.Enabled}))
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteWebhook", Needs: admin, Method: http.MethodDelete, Path: one, Tag: tag,
		Status: http.StatusResetContent, Summary: "Delete a webhook endpoint and its deliveries (205; 204 when there was none)", Also: httpapi.NothingToRemove("webhook")},
		func(ctx context.Context, in *WebhookPath) (*httpapi.RemovedOut, error) {
			return httpapi.Removed(s.Delete(ctx, in.OrganizationID, in.WebhookID))
		})
	httpapi.Register(api, httpapi.Op{ID: "listWebhookDeliveries", Needs: admin, Method: http.MethodGet, Path: one + "/deliveries", Tag: tag,
		Summary: "List a webhook endpoint's deliveries (newest first)"},
		func(ctx context.Context, in *deliveriesIn) (*httpapi.Out[httpapi.List[Delivery]], error) {
			return httpapi.AnswerPage(httpapi.In(ctx, ViewDelivery))(s.Deliveries(ctx, in.OrganizationID, in.WebhookID, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "redeliverWebhookDelivery", Needs: admin, Method: http.MethodPost, Path: one + "/deliveries/{deliveryId}/redeliver", Tag: tag,
		Status: http.StatusAccepted, Summary: "Send a delivery's event again, as a new delivery (queued)"},
		func(ctx context.Context, in *struct {
			WebhookPath
			DeliveryID string `path:"deliveryId" maxLength:"64"`
		}) (*httpapi.Out[Delivery], error) {
			return httpapi.Answer(httpapi.In(ctx, ViewDelivery))(s.Redeliver(ctx, in.OrganizationID, in.WebhookID, in.DeliveryID))
		})
	httpapi.Register(api, httpapi.Op{ID: "pingWebhook", Needs: admin, Method: http.MethodPost, Path: one + "/ping", Tag: tag,
		Status: http.StatusAccepted, Summary: "Send the endpoint a ping event (queued), enabled or not"},
		func(ctx context.Context, in *WebhookPath) (*httpapi.Out[Delivery], error) {
			return httpapi.Answer(httpapi.In(ctx, ViewDelivery))(s.SendPing(ctx, in.OrganizationID, in.WebhookID))
		})
}
