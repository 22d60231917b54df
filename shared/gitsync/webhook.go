package gitsync

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
)

// Hook is a webhook delivery as received: its headers (names in lower
// case) and its body, unparsed (the signature is over its bytes).
type Hook struct {
	Headers map[string]string
	Body    []byte
}

func (h Hook) get(name string) string { return h.Headers[name] }

// Outcomes of a webhook.
const (
	HookQueued    = "queued"
	HookIgnored   = "ignored"
	HookDuplicate = "duplicate"
)

// HookResult is what a webhook delivery did.
type HookResult struct {
	Outcome string
	Reason  string
	JobID   string
}

// maxDeliveries bounds the delivery ids a state remembers.
const maxDeliveries = 200

// errSignature is the one answer to a delivery that does not verify,
// whatever the reason (no such space, no secret, no or a wrong
// signature), so that the endpoint tells nothing about a space.
var errSignature = apperr.New(apperr.Unauthorized, "the webhook's signature does not verify")

// host is a Git host's webhook scheme.
type host struct {
	name string
	// event, delivery: the headers naming the event and the delivery.
	event, delivery []string
	// verify checks the delivery against the secret.
	verify func(h Hook, secret []byte) bool
	// push: the event names of a push; ping: of a test delivery.
	push, ping []string
	// changes reads the branches a push moved and their new commits.
	changes func(body []byte) ([]refChange, error)
	// pull: the event names of a pull request; pulls reads one.
	pull  []string
	pulls func(event string, body []byte) (pullRequest, error)
}

type refChange struct{ ref, commit string }

// hmacHex is the hex HMAC-SHA256 of body under secret.
func hmacHex(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// signedHex verifies a hex HMAC-SHA256 signature (after prefix), in
// constant time.
func signedHex(sig, prefix string, secret, body []byte) bool {
	if sig == "" || !strings.HasPrefix(sig, prefix) {
		return false
	}
	want := hmacHex(secret, body)
	return hmac.Equal([]byte(strings.ToLower(strings.TrimPrefix(sig, prefix))), []byte(want))
}

// githubLike reads the push of GitHub, Gitea and Forgejo, and GitLab's:
// {ref, after}.
func githubLike(body []byte) ([]refChange, error) {
	var p struct {
		Ref, After string
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, err
	}
	return []refChange{{p.Ref, p.After}}, nil
}

// bitbucketCloud reads repo:push: push.changes[].new {type, name, target.hash}
// (new is null when a branch is deleted).
func bitbucketCloud(body []byte) ([]refChange, error) {
	var p struct {
		Push struct {
			Changes []struct {
				New *struct {
					Type, Name string
					Target     struct{ Hash string }
				}
			}
		}
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, err
	}
	var out []refChange
	for _, c := range p.Push.Changes {
		if c.New != nil && c.New.Type == "branch" {
			out = append(out, refChange{"refs/heads/" + c.New.Name, c.New.Target.Hash})
		}
	}
	return out, nil
}

// bitbucketServer reads repo:refs_changed: changes[] {ref.id, toHash, type}.
func bitbucketServer(body []byte) ([]refChange, error) {
	var p struct {
		Changes []struct {
			Ref    struct{ ID string }
			ToHash string
			Type   string
		}
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, err
	}
	var out []refChange
	for _, c := range p.Changes {
		if c.Type != "DELETE" {
			out = append(out, refChange{c.Ref.ID, c.ToHash})
		}
	}
	return out, nil
}

func githubPulls(_ string, b []byte) (pullRequest, error) { return githubPull(b) }

// hosts are the schemes, in the order a delivery is matched against them
// (Gitea and Forgejo also send GitHub's headers: theirs come first).
var hosts = []host{
	{name: "forgejo", event: []string{"x-forgejo-event"}, delivery: []string{"x-forgejo-delivery"},
		verify: func(h Hook, s []byte) bool { return signedHex(h.get("x-forgejo-signature"), "", s, h.Body) },
		push:   []string{"push"}, changes: githubLike, pull: []string{"pull_request"}, pulls: githubPulls},
	{name: "gitea", event: []string{"x-gitea-event"}, delivery: []string{"x-gitea-delivery"},
		verify: func(h Hook, s []byte) bool { return signedHex(h.get("x-gitea-signature"), "", s, h.Body) },
		push:   []string{"push"}, changes: githubLike, pull: []string{"pull_request"}, pulls: githubPulls},
	{name: "gitlab", event: []string{"x-gitlab-event"}, delivery: []string{"x-gitlab-event-uuid"},
		verify: func(h Hook, s []byte) bool {
			t := h.get("x-gitlab-token")
			return t != "" && subtle.ConstantTimeCompare([]byte(t), s) == 1
		},
		push: []string{"Push Hook"}, changes: githubLike,
		pull: []string{"Merge Request Hook"}, pulls: func(_ string, b []byte) (pullRequest, error) { return gitlabPull(b) }},
	{name: "github", event: []string{"x-github-event"}, delivery: []string{"x-github-delivery"},
		verify: func(h Hook, s []byte) bool { return signedHex(h.get("x-hub-signature-256"), "sha256=", s, h.Body) },
		push:   []string{"push"}, ping: []string{"ping"}, changes: githubLike, pull: []string{"pull_request"}, pulls: githubPulls},
	{name: "bitbucket-cloud", event: []string{"x-event-key"}, delivery: []string{"x-request-uuid", "x-hook-uuid"},
		verify: func(h Hook, s []byte) bool { return signedHex(h.get("x-hub-signature"), "sha256=", s, h.Body) },
		push:   []string{"repo:push"}, changes: bitbucketCloud, pulls: bitbucketCloudPull,
		pull: []string{"pullrequest:created", "pullrequest:updated", "pullrequest:fulfilled", "pullrequest:rejected"}},
	{name: "bitbucket-server", event: []string{"x-event-key"}, delivery: []string{"x-request-id"},
		verify: func(h Hook, s []byte) bool { return signedHex(h.get("x-hub-signature"), "sha256=", s, h.Body) },
		push:   []string{"repo:refs_changed"}, ping: []string{"diagnostics:ping"}, changes: bitbucketServer, pulls: bitbucketServerPull,
		pull: []string{"pr:opened", "pr:from_ref_updated", "pr:merged", "pr:declined", "pr:deleted"}},
}

// first is the first non-empty header of names.
func (h Hook) first(names []string) string {
	for _, n := range names {
		if v := h.get(n); v != "" {
			return v
		}
	}
	return ""
}

// hostOf is the scheme of a delivery: the first whose event header it
// carries (Bitbucket Cloud and Server share theirs: the event names them).
func hostOf(h Hook) (host, bool) {
	for _, x := range hosts {
		ev := h.first(x.event)
		if ev == "" {
			continue
		}
		if x.name == "bitbucket-cloud" && !strings.HasPrefix(ev, "repo:push") && !strings.HasPrefix(ev, "pullrequest:") {
			continue
		}
		return x, true
	}
	return host{}, false
}

// Webhook receives a push or pull-request webhook of a space's synced
// repository. The delivery must verify against the space's webhook secret
// (401 otherwise, nothing done); a delivery seen within
// model.GitDeliveryTTL is a duplicate; a push to the synced branch of a
// space whose sync takes the repository's commits queues an import of the
// branch, as git/import does; a pull request into the synced branch
// queues (opened, updated) or removes (closed, merged) its preview
// (preview.go); anything else is ignored, with the reason.
func (s *Service) Webhook(ctx context.Context, spaceID string, h Hook) (HookResult, error) {
	if _, err := s.readSpace(ctx, spaceID); apperr.Is(err, apperr.NotFound) {
		return HookResult{}, errSignature
	} else if err != nil {
		return HookResult{}, err
	}
	st, _, err := s.state(ctx, spaceID)
	if err != nil {
		return HookResult{}, err
	}
	x, ok := hostOf(h)
	if !ok || st.WebhookSecret == "" {
		return HookResult{}, errSignature
	}
	secret, _, err := s.unseal(ctx, st.WebhookSecret)
	if err != nil {
		return HookResult{}, err
	}
	if !x.verify(h, []byte(secret)) {
		return HookResult{}, errSignature
	}
	id := h.first(x.delivery)
	if id == "" {
		sum := sha256.Sum256(h.Body)
		id = "sha256:" + hex.EncodeToString(sum[:])
	}
	id = x.name + ":" + id
	event := h.first(x.event)
	var changes []refChange
	if slices.Contains(x.push, event) {
		if changes, err = x.changes(formPayload(h.Body)); err != nil {
			return HookResult{}, apperr.Field("body", "not a %s push event", x.name)
		}
	}
	var pull *pullRequest
	if slices.Contains(x.pull, event) {
		pr, err := x.pulls(event, formPayload(h.Body))
		if err != nil {
			return HookResult{}, apperr.Field("body", "not a %s pull-request event", x.name)
		}
		pull = &pr
	}
	var res HookResult
	var queued *queue.Job
	_, err = s.updateState(ctx, spaceID, func(st *model.GitSync) error {
		queued = nil
		now := s.d.Clock()
		st.Deliveries = slices.DeleteFunc(st.Deliveries, func(d model.GitDelivery) bool { return now.Sub(d.At) > model.GitDeliveryTTL })
		if slices.ContainsFunc(st.Deliveries, func(d model.GitDelivery) bool { return d.ID == id }) {
			res = HookResult{Outcome: HookDuplicate, Reason: "this delivery was received already"}
			return nil
		}
		st.Deliveries = append(st.Deliveries, model.GitDelivery{ID: id, At: now})
		if len(st.Deliveries) > maxDeliveries {
			st.Deliveries = st.Deliveries[len(st.Deliveries)-maxDeliveries:]
		}
		var err error
		if pull != nil {
			res, queued, err = s.pullDecision(ctx, st, *pull)
			return err
		}
		res = s.hookDecision(st, x, event, changes)
		if res.Outcome != HookQueued {
			return nil
		}
		if queued, err = s.syncJob(ctx, st, ImportKind, "webhook"); err != nil {
			return err
		}
		res.JobID = queued.ID
		return nil
	})
	if err != nil {
		return HookResult{}, err
	}
	s.d.Logger.InfoContext(ctx, "Git webhook", "space", spaceID, "host", x.name, "event", event, "delivery", id,
		"outcome", res.Outcome, "reason", res.Reason, "job", res.JobID)
	if queued != nil {
		if err := s.dispatch(ctx, *queued, s.Handle); err != nil {
			return HookResult{}, err
		}
	}
	return res, nil
}

// hookDecision is what a verified, new delivery does to a state.
func (s *Service) hookDecision(st *model.GitSync, x host, event string, changes []refChange) HookResult {
	ignore := func(reason string) HookResult { return HookResult{Outcome: HookIgnored, Reason: reason} }
	switch {
	case slices.Contains(x.ping, event):
		return ignore("a test delivery: the secret verifies")
	case !slices.Contains(x.push, event):
		return ignore("not a push event: " + event)
	case st.SyncURL == "" || !importing(st.Direction):
		return ignore("the space's sync does not take the repository's commits")
	case st.Paused:
		return ignore("the space's sync is paused")
	}
	for _, c := range changes {
		if c.ref != st.SyncRef {
			continue
		}
		if strings.Trim(c.commit, "0") == "" {
			return ignore("the synced branch was deleted")
		}
		if c.commit == st.LastCommit && st.LastURL == st.SyncURL && st.LastRef == st.SyncRef {
			return ignore("the space is at this commit already")
		}
		return HookResult{Outcome: HookQueued, Reason: "a push to " + st.SyncRef}
	}
	return ignore("a push to another branch than " + st.SyncRef)
}

// formPayload is the JSON of a delivery: GitHub, Gitea and Forgejo may
// send it form-encoded (payload=<JSON>), signed as sent.
func formPayload(body []byte) []byte {
	if !bytes.HasPrefix(body, []byte("payload=")) {
		return body
	}
	v, err := url.ParseQuery(string(body))
	if err != nil {
		return body
	}
	return []byte(v.Get("payload"))
}
