package webhooks

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// JobKind is the kind of a delivery attempt's job (the webhook worker's).
const JobKind = "webhook-deliver"

// Headers of a delivery.
const (
	// SignatureHeader holds "t=<unix seconds>,v1=<hex HMAC-SHA256 of
	// "<t>.<body>" keyed with the endpoint's secret>".
	SignatureHeader = "X-Galley-Signature"
	EventHeader     = "X-Galley-Event"
	DeliveryHeader  = "X-Galley-Delivery"
)

// Policy is how deliveries are attempted: at most Attempts times, the
// second Backoff after the first, each further wait doubled up to
// MaxBackoff; each attempt given Timeout. A delivery whose first attempt
// has not begun Recover after it was queued is queued again (its job may
// never have reached the queue).
type Policy struct {
	Attempts   int
	Backoff    time.Duration
	MaxBackoff time.Duration
	Timeout    time.Duration
	Recover    time.Duration
}

// DefaultPolicy is the deployment's: 6 attempts over about 31 minutes
// (waits of 1, 2, 4, 8 and 15 minutes: SQS holds a message back 15
// minutes at most), 10 seconds each; first attempts not begun within 10
// minutes queued again.
func DefaultPolicy() Policy {
	return Policy{Attempts: 6, Backoff: time.Minute, MaxBackoff: 15 * time.Minute, Timeout: 10 * time.Second, Recover: 10 * time.Minute}
}

func (p Policy) withDefaults() Policy {
	d := DefaultPolicy()
	if p.Attempts <= 0 {
		p.Attempts = d.Attempts
	}
	if p.Backoff <= 0 {
		p.Backoff = d.Backoff
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = d.MaxBackoff
	}
	if p.Timeout <= 0 {
		p.Timeout = d.Timeout
	}
	if p.Recover <= 0 {
		p.Recover = d.Recover
	}
	return p
}

// Wait is the delay before the attempt after the given failed one (1:
// the first).
func (p Policy) Wait(failed int) time.Duration {
	w := p.Backoff
	for i := 1; i < failed && w < p.MaxBackoff; i++ {
		w *= 2
	}
	return min(w, p.MaxBackoff)
}

// claimLease is how long an attempt's claim keeps a second delivery of
// its message from making it again: past it, the worker that claimed it
// is taken to have stopped.
func (p Policy) claimLease() time.Duration { return max(time.Minute, 3*p.Timeout) }

// job is an attempt's job payload.
type job struct {
	WebhookID  string `json:"webhookId"`
	DeliveryID string `json:"deliveryId"`
	Attempt    int    `json:"attempt"`
}

// dispatch queues an attempt after delay, or makes it at once when the
// process has no queue (tests, one-process tools: attempts then follow
// one another without waiting).
func (s *Service) dispatch(ctx context.Context, j job, delay time.Duration) error {
	raw, err := json.Marshal(j)
	if err != nil {
		return err
	}
	qj := queue.Job{ID: j.DeliveryID + "-" + strconv.Itoa(j.Attempt), Kind: JobKind, Payload: raw, Delay: delay}
	if s.d.Queue == nil {
		return s.Handle(ctx, qj)
	}
	if err := s.d.Queue.Enqueue(ctx, qj); err != nil {
		return fmt.Errorf("queue webhook delivery: %w", err)
	}
	return nil
}

// Handlers are the webhook worker's job handlers, by kind.
func (s *Service) Handlers() map[string]queue.Handler {
	return map[string]queue.Handler{JobKind: s.Handle}
}

// errSkip ends an update that has nothing to write.
var errSkip = errors.New("nothing to do")

// Handle makes one attempt of a delivery. It is idempotent on the
// delivery and the attempt: a message delivered twice makes its attempt
// once (the attempt is claimed before the post, and recorded after), and
// a delivery that succeeded or died is never attempted again. Only
// storage and queue failures return an error (the message is retried);
// the endpoint's failures are outcomes recorded on the delivery.
func (s *Service) Handle(ctx context.Context, qj queue.Job) error {
	var j job
	if err := json.Unmarshal(qj.Payload, &j); err != nil || j.Attempt < 1 {
		return fmt.Errorf("decode webhook job %s: not a delivery attempt", qj.ID)
	}
	k := keys.WebhookDelivery(j.WebhookID, j.DeliveryID)
	requeue := false
	d, err := records.Update(ctx, s.d.Store, k, deliveryIndexes, func(d *model.WebhookDelivery) ([]store.Op, error) {
		now := s.d.Clock()
		requeue = false
		switch {
		case d.Status == model.DeliverySucceeded || d.Status == model.DeliveryDead:
			return nil, errSkip
		case d.Attempts >= j.Attempt:
			// Made and recorded: a second delivery of the message. If the
			// next attempt's job was not queued (the queue failed), this
			// one queues it.
			requeue = d.Attempts == j.Attempt && d.Status == model.DeliveryFailed && !d.NextQueued
			return nil, errSkip
		case d.Claim == j.Attempt && d.ClaimedAt != nil && now.Sub(*d.ClaimedAt) < s.policy.claimLease():
			return nil, errSkip
		}
		d.Claim, d.ClaimedAt = j.Attempt, &now
		return nil, nil
	})
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil // its endpoint was deleted
	case errors.Is(err, errSkip):
		if requeue {
			return s.retry(ctx, d, j)
		}
		return nil
	case err != nil:
		return fmt.Errorf("claim webhook delivery: %w", err)
	}
	code, msg, final := s.attempt(ctx, d, j.Attempt)
	d, err = records.Update(ctx, s.d.Store, k, deliveryIndexes, func(d *model.WebhookDelivery) ([]store.Op, error) {
		if d.Attempts >= j.Attempt || d.Status == model.DeliverySucceeded || d.Status == model.DeliveryDead {
			return nil, errSkip // recorded by a worker that took over the claim
		}
		now := s.d.Clock()
		d.Attempts, d.LastResponseCode, d.LastError, d.LastAttemptAt = j.Attempt, code, msg, &now
		d.Claim, d.ClaimedAt, d.NextQueued, d.NextAttemptAt, d.UpdatedAt = 0, nil, false, nil, now
		switch {
		case msg == "":
			d.Status = model.DeliverySucceeded
		case final || j.Attempt >= s.policy.Attempts:
			d.Status = model.DeliveryDead
		default:
			d.Status = model.DeliveryFailed
			next := now.Add(s.policy.Wait(j.Attempt))
			d.NextAttemptAt = &next
		}
		return nil, nil
	})
	switch {
	case errors.Is(err, errSkip), errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return fmt.Errorf("record webhook delivery: %w", err)
	}
	if d.Status == model.DeliveryFailed {
		return s.retry(ctx, d, j)
	}
	return nil
}

// retry queues the attempt after j's failed one, then notes it queued.
func (s *Service) retry(ctx context.Context, d model.WebhookDelivery, j job) error {
	next := job{WebhookID: j.WebhookID, DeliveryID: j.DeliveryID, Attempt: j.Attempt + 1}
	if err := s.dispatch(ctx, next, s.policy.Wait(j.Attempt)); err != nil {
		return err
	}
	if s.d.Queue == nil {
		return nil // made already
	}
	_, err := records.Update(ctx, s.d.Store, keys.WebhookDelivery(j.WebhookID, j.DeliveryID), deliveryIndexes, func(d *model.WebhookDelivery) ([]store.Op, error) {
		if d.Attempts != j.Attempt || d.Status != model.DeliveryFailed || d.NextQueued {
			return nil, errSkip
		}
		d.NextQueued = true
		return nil, nil
	})
	if err != nil && !errors.Is(err, errSkip) && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("record webhook retry: %w", err)
	}
	return nil
}

// attempt posts a delivery's body to its endpoint: the answer's status
// (0 without one), what went wrong ("" a 2xx answer), and whether no
// further attempt can help (the endpoint is gone, or its address is not
// public).
func (s *Service) attempt(ctx context.Context, d model.WebhookDelivery, n int) (code int, msg string, final bool) {
	w, _, err := records.Get[model.Webhook](ctx, s.d.Store, keys.Webhook(d.OrgID, d.WebhookID))
	if errors.Is(err, store.ErrNotFound) {
		return 0, "the webhook was deleted", true
	}
	if err != nil {
		return 0, "could not read the webhook", false
	}
	secret, err := s.d.Secret.Open(ctx, sealPurpose, w.ID, w.SealedSecret)
	if err != nil {
		return 0, "could not read the webhook's secret", false
	}
	ctx, cancel := context.WithTimeout(ctx, s.policy.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, strings.NewReader(d.Body))
	if err != nil {
		return 0, "invalid URL", true
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Galley-Webhooks/1")
	req.Header.Set(EventHeader, d.Event)
	req.Header.Set(DeliveryHeader, d.ID)
	req.Header.Set(SignatureHeader, Sign(secret, s.d.Clock(), []byte(d.Body)))
	// A redirect is the endpoint's answer, not followed: a POST turned
	// into a GET elsewhere delivers nothing.
	client := *s.client.HTTP()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := client.Do(req)
	if err != nil {
		if fetch.Refused(err) {
			return 0, "the URL's address is not public", true
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return 0, fmt.Sprintf("no answer within %s", s.policy.Timeout), false
		}
		return 0, "could not reach the URL", false
	}
	// Read a little of the answer so that the connection can be reused.
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return res.StatusCode, fmt.Sprintf("answered %d", res.StatusCode), false
	}
	return res.StatusCode, "", false
}

// Sign is the signature header's value for body sent at t with secret.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + mac(secret, ts, body)
}

func mac(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify checks a signature header against body, as a receiver does: a
// v1 signature must match, and its time be within tolerance of now (a
// replayed old delivery is refused).
func Verify(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return errors.New("webhooks: malformed signature header")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return errors.New("webhooks: signature time out of tolerance")
	}
	want := []byte(mac(secret, ts, body))
	for _, sig := range sigs {
		if hmac.Equal([]byte(sig), want) {
			return nil
		}
	}
	return errors.New("webhooks: signature does not match")
}
