package model

import "time"

// Webhook is an organization's webhook endpoint: where Galley posts the
// events it wants, signed with its secret (docs/webhooks.md).
type Webhook struct {
	ID    string `json:"id"`
	OrgID string `json:"orgId"`
	URL   string `json:"url"`
	// SealedSecret is the signing secret, sealed with a key derived from
	// the installation's secret: the API never answers it.
	SealedSecret string `json:"sealedSecret"`
	// Events are the event types it wants.
	Events    []string  `json:"events"`
	Enabled   bool      `json:"enabled"`
	CreatedBy string    `json:"createdBy,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Webhook delivery statuses.
const (
	// DeliveryPending: no attempt made yet.
	DeliveryPending = "pending"
	// DeliveryFailed: the last attempt failed; another is scheduled.
	DeliveryFailed = "failed"
	// DeliverySucceeded: an attempt got a 2xx answer.
	DeliverySucceeded = "succeeded"
	// DeliveryDead: the last attempt failed and no other will be made.
	DeliveryDead = "dead"
)

// WebhookDelivery is one event sent to one endpoint, with its attempts.
type WebhookDelivery struct {
	ID        string `json:"id"`
	WebhookID string `json:"webhookId"`
	OrgID     string `json:"orgId"`
	EventID   string `json:"eventId"`
	Event     string `json:"event"`
	// Body is the JSON posted, the same at every attempt.
	Body string `json:"body"`
	// RedeliveryOf is the delivery this one sends again ("" none).
	RedeliveryOf string `json:"redeliveryOf,omitempty"`
	Status       string `json:"status"`
	// Attempts counts the attempts made (recorded).
	Attempts int `json:"attempts"`
	// LastResponseCode is the last attempt's HTTP status (0: no answer).
	LastResponseCode int    `json:"lastResponseCode,omitempty"`
	LastError        string `json:"lastError,omitempty"`
	// Claim is the attempt a worker is making now (0 none), since
	// ClaimedAt: a second delivery of the same queue message does not make
	// it again while the claim is fresh.
	Claim     int        `json:"claim,omitempty"`
	ClaimedAt *time.Time `json:"claimedAt,omitempty"`
	// NextQueued: the job of the attempt after the last failed one is on
	// the queue.
	NextQueued bool `json:"nextQueued,omitempty"`
	// QueuedAt is when its first attempt was queued (again, when it was
	// recovered: docs/webhooks.md).
	QueuedAt      time.Time  `json:"queuedAt"`
	NextAttemptAt *time.Time `json:"nextAttemptAt,omitempty"`
	LastAttemptAt *time.Time `json:"lastAttemptAt,omitempty"`
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
}

// Event is something that happened, told by a family once it is written
// (a merge, a site published, a Git Sync finished) to whoever the
// composition root gives it (the webhooks family's emitter).
type Event struct {
	// Type is the event's name: GitBook's where GitBook has one
	// (space_content_updated), Galley's otherwise (docs/webhooks.md).
	Type  string
	OrgID string
	// Fields are the payload's fields besides eventId, type and
	// installationId, in the event's documented shape.
	Fields map[string]any
	// UpdatedBy are the ids of the users the payload's updatedBy lists
	// (GitBook's users); nil: the payload has no updatedBy.
	UpdatedBy []string
}
