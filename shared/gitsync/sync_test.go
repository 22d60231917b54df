package gitsync_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/testkit"
)

const hookSecret = "whsec-4f1c9a7e2b8d6053"

// syncRepo is the synced repository's first commit.
var syncRepo = map[string]string{"README.md": "# Welcome\n\nFirst words.\n", "guide.md": "# Guide\n\nSteps.\n"}

// synced makes a space synced both ways with repository name (its first
// sync imported), with the webhook secret set.
func (f *fixture) synced(t *testing.T, name string, extra map[string]any) string {
	t.Helper()
	f.git.repo(t, name, syncRepo)
	sp := f.space(t)
	body := map[string]any{"url": f.git.url(name), "branch": "refs/heads/main", "direction": "both", "enabled": true,
		"webhookSecret": hookSecret}
	for k, v := range extra {
		body[k] = v
	}
	res := f.As(t, "admin").Expect(http.StatusOK, "PUT", "/v1/spaces/"+sp+"/git/settings", body).Map(t)
	if res["credentials"] != true || res["webhookSecretSet"] != true || strings.Contains(fmt.Sprint(res), gitPassword) ||
		strings.Contains(fmt.Sprint(res), hookSecret) {
		t.Fatalf("settings answer %v", res)
	}
	f.work(t) // the first sync: an import (priority git)
	if got := f.pageBody(t, sp, "01 guide"); got != "Steps.\n" {
		t.Fatalf("guide after the first sync: %q", got)
	}
	return sp
}

// githubPush is a push event as GitHub sends it (fields Galley reads and a
// few around them).
func githubPush(ref, before, after string) []byte {
	b, _ := json.Marshal(map[string]any{"ref": ref, "before": before, "after": after, "created": false, "deleted": false,
		"forced": false, "compare": "https://github.com/acme/docs/compare/x...y",
		"repository":  map[string]any{"full_name": "acme/docs", "clone_url": "https://github.com/acme/docs.git", "default_branch": "main"},
		"pusher":      map[string]any{"name": "octocat", "email": "octocat@example.com"},
		"head_commit": map[string]any{"id": after, "message": "Update the guide", "timestamp": "2026-01-02T03:04:05Z"}})
	return b
}

func sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

func (f *fixture) hook(t testing.TB, want int, sp string, body []byte, headers ...string) map[string]any {
	t.Helper()
	res := f.With(t, "").Expect(want, "POST", "/v1/spaces/"+sp+"/git/webhook", body, headers...)
	return res.Map(t)
}

func (f *fixture) pageBody(t *testing.T, sp, key string) string {
	t.Helper()
	_, pages, _ := f.head(t, sp)
	p, ok := pages[key]
	if !ok {
		t.Fatalf("no page %q in %v", key, keysOf(pages))
	}
	return p.Body
}

func TestSignedPushWebhookUpdatesTheSpace(t *testing.T) {
	f := setup(t)
	sp := f.synced(t, "docs", nil)
	bare := filepath.Join(f.git.root, "docs.git")
	before := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	after := f.git.commit(t, "docs", "Update the guide", map[string]string{"guide.md": "# Guide\n\nNew steps.\n"})
	body := githubPush("refs/heads/main", before, after)
	headers := []string{"X-GitHub-Event", "push", "X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"X-Hub-Signature-256", "sha256=" + sign(hookSecret, body), "Authorization", ""}

	res := f.hook(t, http.StatusAccepted, sp, body, headers...)
	if res["outcome"] != "queued" || res["jobId"] == "" {
		t.Fatalf("webhook answer %v", res)
	}
	info := f.info(t, sp)["galleySync"].(map[string]any)
	if pend := info["pending"].([]any); len(pend) != 1 || pend[0].(map[string]any)["trigger"] != "webhook" {
		t.Fatalf("pending before the job runs: %v", info["pending"])
	}
	if jobs := f.queue.Take(); len(jobs) != 1 {
		t.Fatalf("queued %d jobs, want exactly one", len(jobs))
	} else {
		for _, j := range jobs {
			if err := f.svc.Handle(t.Context(), j); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := f.pageBody(t, sp, "01 guide"); got != "New steps.\n" {
		t.Fatalf("guide after the push: %q", got)
	}
	info = f.info(t, sp)["galleySync"].(map[string]any)
	last := info["lastImport"].(map[string]any)
	if last["state"] != "success" || last["commit"] != after || last["trigger"] != "webhook" || len(info["pending"].([]any)) != 0 {
		t.Fatalf("status after the job: %v", info)
	}
	revBefore, _, _ := f.head(t, sp)

	// Redelivered (GitHub's "Redeliver" keeps the delivery id): nothing.
	res = f.hook(t, http.StatusOK, sp, body, headers...)
	if res["outcome"] != "duplicate" {
		t.Fatalf("redelivery answer %v", res)
	}
	if n := len(f.queue.Take()); n != 0 {
		t.Fatalf("a redelivery queued %d jobs", n)
	}
	if rev, _, _ := f.head(t, sp); rev.ID != revBefore.ID {
		t.Fatalf("a redelivery moved the head %s -> %s", revBefore.ID, rev.ID)
	}

	// A new delivery of the same commit: the space is at it already.
	res = f.hook(t, http.StatusOK, sp, body, "X-GitHub-Event", "push", "X-GitHub-Delivery", "another",
		"X-Hub-Signature-256", "sha256="+sign(hookSecret, body), "Authorization", "")
	if res["outcome"] != "ignored" || len(f.queue.Take()) != 0 {
		t.Fatalf("same commit again: %v", res)
	}
}

func TestWebhookRefusesBadSignaturesAndIgnoresOtherBranches(t *testing.T) {
	f := setup(t)
	sp := f.synced(t, "docs", nil)
	after := f.git.commit(t, "docs", "Change", map[string]string{"guide.md": "# Guide\n\nChanged.\n"})
	body := githubPush("refs/heads/main", strings.Repeat("0", 40), after)
	for name, headers := range map[string][]string{
		"wrong secret":       {"X-GitHub-Event", "push", "X-GitHub-Delivery", "d1", "X-Hub-Signature-256", "sha256=" + sign("another-secret-123456", body)},
		"no signature":       {"X-GitHub-Event", "push", "X-GitHub-Delivery", "d2"},
		"body changed":       {"X-GitHub-Event", "push", "X-GitHub-Delivery", "d3", "X-Hub-Signature-256", "sha256=" + sign(hookSecret, append([]byte(" "), body...))},
		"sha1 form":          {"X-GitHub-Event", "push", "X-GitHub-Delivery", "d4", "X-Hub-Signature-256", "sha1=" + sign(hookSecret, body)},
		"no event header":    {"X-Hub-Signature-256", "sha256=" + sign(hookSecret, body)},
		"gitlab wrong token": {"X-Gitlab-Event", "Push Hook", "X-Gitlab-Token", hookSecret + "x"},
	} {
		res := f.hook(t, http.StatusUnauthorized, sp, body, append(headers, "Authorization", "")...)
		if n := len(f.queue.Take()); n != 0 {
			t.Fatalf("%s: queued %d jobs (%v)", name, n, res)
		}
	}
	// A space that does not exist answers the same.
	f.hook(t, http.StatusUnauthorized, "nosuchspace", body, "X-GitHub-Event", "push", "X-Hub-Signature-256", "sha256="+sign(hookSecret, body))

	other := githubPush("refs/heads/feature", strings.Repeat("0", 40), after)
	res := f.hook(t, http.StatusOK, sp, other, "X-GitHub-Event", "push", "X-GitHub-Delivery", "d5",
		"X-Hub-Signature-256", "sha256="+sign(hookSecret, other), "Authorization", "")
	if res["outcome"] != "ignored" || !strings.Contains(res["reason"].(string), "another branch") || len(f.queue.Take()) != 0 {
		t.Fatalf("push to another branch: %v", res)
	}
	// Form-encoded (GitHub's application/x-www-form-urlencoded), signed as sent.
	form := []byte("payload=" + url.QueryEscape(string(githubPush("refs/heads/main", strings.Repeat("0", 40), after))))
	res = f.hook(t, http.StatusAccepted, sp, form, "X-GitHub-Event", "push", "X-GitHub-Delivery", "d-form",
		"X-Hub-Signature-256", "sha256="+sign(hookSecret, form), "Content-Type", "application/x-www-form-urlencoded", "Authorization", "")
	if res["outcome"] != "queued" || len(f.queue.Take()) != 1 {
		t.Fatalf("form-encoded push: %v", res)
	}
	ping := []byte(`{"zen":"Keep it logically awesome.","hook_id":1}`)
	res = f.hook(t, http.StatusOK, sp, ping, "X-GitHub-Event", "ping", "X-GitHub-Delivery", "d6",
		"X-Hub-Signature-256", "sha256="+sign(hookSecret, ping))
	if res["outcome"] != "ignored" || len(f.queue.Take()) != 0 {
		t.Fatalf("ping: %v", res)
	}

	// Paused: answered, nothing queued.
	f.As(t, "admin").Expect(http.StatusOK, "PUT", "/v1/spaces/"+sp+"/git/settings", map[string]any{"url": f.git.url("docs"),
		"branch": "refs/heads/main", "direction": "both", "enabled": false})
	res = f.hook(t, http.StatusOK, sp, body, "X-GitHub-Event", "push", "X-GitHub-Delivery", "d7",
		"X-Hub-Signature-256", "sha256="+sign(hookSecret, body))
	if res["outcome"] != "ignored" || !strings.Contains(res["reason"].(string), "paused") || len(f.queue.Take()) != 0 {
		t.Fatalf("paused: %v", res)
	}
}

// TestEachHostsWebhook posts each host's push event, shaped as its
// documentation shows it, with its signature scheme.
func TestEachHostsWebhook(t *testing.T) {
	f := setup(t)
	sp := f.synced(t, "docs", nil)
	bare := filepath.Join(f.git.root, "docs.git")
	for i, host := range []struct {
		name    string
		body    func(before, after string) []byte
		headers func(body []byte) []string
	}{
		{"gitlab", func(before, after string) []byte {
			b, _ := json.Marshal(map[string]any{"object_kind": "push", "event_name": "push", "before": before, "after": after,
				"ref": "refs/heads/main", "checkout_sha": after, "user_name": "Jane", "project_id": 15,
				"project": map[string]any{"name": "docs", "git_http_url": "https://gitlab.example.com/acme/docs.git", "default_branch": "main"},
				"commits": []any{map[string]any{"id": after, "message": "Change"}}, "total_commits_count": 1})
			return b
		}, func(body []byte) []string {
			return []string{"X-Gitlab-Event", "Push Hook", "X-Gitlab-Token", hookSecret, "X-Gitlab-Event-UUID", "13792a34-cac6-4fda-95a8-c58e00a3954e"}
		}},
		{"gitea", func(before, after string) []byte { return githubPush("refs/heads/main", before, after) }, func(body []byte) []string {
			// Gitea sends GitHub's headers too; its own come first.
			return []string{"X-Gitea-Event", "push", "X-Gitea-Delivery", "f6266f16-1bf3-46a5-9ea4-602e06ead473",
				"X-Gitea-Signature", sign(hookSecret, body), "X-GitHub-Event", "push", "X-Hub-Signature-256", "sha256=" + sign(hookSecret, body)}
		}},
		{"forgejo", func(before, after string) []byte { return githubPush("refs/heads/main", before, after) }, func(body []byte) []string {
			return []string{"X-Forgejo-Event", "push", "X-Forgejo-Delivery", "a1b2c3d4-0000-4000-8000-000000000001",
				"X-Forgejo-Signature", sign(hookSecret, body), "X-Gitea-Event", "push", "X-Gitea-Signature", sign(hookSecret, body)}
		}},
		{"bitbucket-cloud", func(before, after string) []byte {
			b, _ := json.Marshal(map[string]any{"actor": map[string]any{"display_name": "Jane"},
				"repository": map[string]any{"full_name": "acme/docs", "type": "repository"},
				"push": map[string]any{"changes": []any{map[string]any{
					"old":     map[string]any{"type": "branch", "name": "main", "target": map[string]any{"type": "commit", "hash": before}},
					"new":     map[string]any{"type": "branch", "name": "main", "target": map[string]any{"type": "commit", "hash": after}},
					"created": false, "forced": false, "closed": false}}}})
			return b
		}, func(body []byte) []string {
			return []string{"X-Event-Key", "repo:push", "X-Request-UUID", "9e5bd0a2-6b1c-4c53-a1c3-3fcd6c4c0f31",
				"X-Hook-UUID", "{f1d1c5a0-4b3e-4c26-9c8d-6f0a3f5e1b77}", "X-Hub-Signature", "sha256=" + sign(hookSecret, body)}
		}},
		{"bitbucket-server", func(before, after string) []byte {
			b, _ := json.Marshal(map[string]any{"eventKey": "repo:refs_changed", "date": "2026-01-02T03:04:05+0000",
				"actor":      map[string]any{"name": "admin"},
				"repository": map[string]any{"slug": "docs", "project": map[string]any{"key": "ACME"}},
				"changes": []any{map[string]any{"ref": map[string]any{"id": "refs/heads/main", "displayId": "main", "type": "BRANCH"},
					"refId": "refs/heads/main", "fromHash": before, "toHash": after, "type": "UPDATE"}}})
			return b
		}, func(body []byte) []string {
			return []string{"X-Event-Key", "repo:refs_changed", "X-Request-Id", "d3f0a0c2-3b4a-4e8e-9d0a-1c2b3a4d5e6f",
				"X-Hub-Signature", "sha256=" + sign(hookSecret, body)}
		}},
	} {
		t.Run(host.name, func(t *testing.T) {
			before := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
			text := fmt.Sprintf("Steps, version %d.\n", i)
			after := f.git.commit(t, "docs", "Change "+host.name, map[string]string{"guide.md": "# Guide\n\n" + text})
			body := host.body(before, after)
			headers := append(host.headers(body), "Authorization", "")
			// Signed with another secret: refused.
			bad := strings.ReplaceAll(strings.Join(host.headers([]byte("tampered")), "\x00"), hookSecret, "wrong-secret-0000000")
			f.hook(t, http.StatusUnauthorized, sp, body, append(strings.Split(bad, "\x00"), "Authorization", "")...)
			if n := len(f.queue.Take()); n != 0 {
				t.Fatalf("a bad signature queued %d jobs", n)
			}
			res := f.hook(t, http.StatusAccepted, sp, body, headers...)
			if res["outcome"] != "queued" {
				t.Fatalf("answer %v", res)
			}
			f.work(t)
			if got := f.pageBody(t, sp, "01 guide"); got != text {
				t.Fatalf("guide after the %s push: %q", host.name, got)
			}
			if res := f.hook(t, http.StatusOK, sp, body, headers...); res["outcome"] != "duplicate" || len(f.queue.Take()) != 0 {
				t.Fatalf("redelivery: %v", res)
			}
		})
	}
}

func TestSettingsAndStatus(t *testing.T) {
	f := setup(t)
	f.git.repo(t, "docs", syncRepo)
	sp := f.space(t)
	path := "/v1/spaces/" + sp + "/git/settings"
	body := map[string]any{"url": f.git.url("docs"), "branch": "refs/heads/main", "direction": "git-to-galley", "enabled": true,
		"webhookSecret": hookSecret, "pollInterval": 120, "commitMessageTemplate": "Galley: {{summary}}", "priority": "git"}
	f.As(t, "edit").Expect(http.StatusForbidden, "PUT", path, body)
	for field, v := range map[string]any{"branch": "main", "direction": "sideways", "pollInterval": 30, "webhookSecret": "short", "priority": "both"} {
		bad := map[string]any{}
		for k, x := range body {
			bad[k] = x
		}
		bad[field] = v
		f.As(t, "admin").Expect(http.StatusBadRequest, "PUT", path, bad)
	}
	res := f.As(t, "admin").Expect(http.StatusOK, "PUT", path, body).Map(t)
	if res["url"] != strings.Replace(f.git.url("docs"), gitUser+":"+gitPassword+"@", "", 1) || res["branch"] != "refs/heads/main" ||
		res["pollInterval"] != float64(120) || res["enabled"] != true || res["webhookPath"] != "/v1/spaces/"+sp+"/git/webhook" {
		t.Fatalf("settings %v", res)
	}
	// The secrets are sealed in the record.
	raw, err := f.Root.Deps.Store.Get(t.Context(), keys.GitSync(sp).PK, keys.GitSync(sp).SK)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw.Data), hookSecret) || strings.Contains(string(raw.Data), gitPassword) {
		t.Fatalf("the record holds a secret in clear: %s", raw.Data)
	}
	// The same URL without credentials keeps them; no secret keeps it.
	delete(body, "webhookSecret")
	body["url"] = res["url"]
	res = f.As(t, "admin").Expect(http.StatusOK, "PUT", path, body).Map(t)
	if res["credentials"] != true || res["webhookSecretSet"] != true {
		t.Fatalf("settings lost their secrets: %v", res)
	}
	f.work(t) // the first sync (queued once per settings that enable it)
	st, _, err := records.Get[model.GitSync](t.Context(), f.Root.Deps.Store, keys.GitSync(sp))
	if err != nil {
		t.Fatal(err)
	}
	if st.LastImport == nil || st.LastImport.State != model.GitSuccess || st.LastImport.Trigger != "settings" {
		t.Fatalf("first sync %+v", st.LastImport)
	}

	// A branch that does not exist: the status says so in plain words.
	body["branch"] = "refs/heads/gone"
	f.As(t, "admin").Expect(http.StatusOK, "PUT", path, body)
	f.work(t)
	g := f.info(t, sp)["galleySync"].(map[string]any)["lastImport"].(map[string]any)
	if g["state"] != "failure" || g["problem"] != "branch-missing" || !strings.HasPrefix(g["message"].(string), "Branch missing") {
		t.Fatalf("branch missing: %v", g)
	}
	// Wrong credentials: authentication failed (a push makes it run).
	body["branch"] = "refs/heads/main"
	body["url"] = strings.Replace(f.git.url("docs"), gitPassword, "wrong-password", 1)
	f.As(t, "admin").Expect(http.StatusOK, "PUT", path, body)
	after := f.git.commit(t, "docs", "Change", map[string]string{"guide.md": "# Guide\n\nChanged.\n"})
	push := githubPush("refs/heads/main", strings.Repeat("1", 40), after)
	f.hook(t, http.StatusAccepted, sp, push, "X-GitHub-Event", "push", "X-GitHub-Delivery", "a1",
		"X-Hub-Signature-256", "sha256="+sign(hookSecret, push), "Authorization", "")
	f.work(t)
	g = f.info(t, sp)["galleySync"].(map[string]any)["lastImport"].(map[string]any)
	if g["problem"] != "authentication-failed" || strings.Contains(fmt.Sprint(g), "wrong-password") {
		t.Fatalf("authentication: %v", g)
	}
}

func TestPollFallbackImportsWhenTheBranchMoved(t *testing.T) {
	f := setupOn(t, testkit.New(t, testkit.Clock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), 61*time.Second)))
	f.git.repo(t, "docs", syncRepo)
	sp := f.space(t)
	f.As(t, "admin").Expect(http.StatusOK, "PUT", "/v1/spaces/"+sp+"/git/settings", map[string]any{"url": f.git.url("docs"),
		"branch": "refs/heads/main", "direction": "both", "enabled": true, "pollInterval": 60})
	f.work(t)
	if n, err := f.svc.Poll(t.Context()); err != nil || n != 0 {
		t.Fatalf("poll of an unmoved branch: %d, %v", n, err)
	}
	f.git.commit(t, "docs", "Change", map[string]string{"guide.md": "# Guide\n\nPolled.\n"})
	if n, err := f.svc.Poll(t.Context()); err != nil || n != 1 {
		t.Fatalf("poll of a moved branch: %d, %v", n, err)
	}
	f.work(t)
	if got := f.pageBody(t, sp, "01 guide"); got != "Polled.\n" {
		t.Fatalf("guide after the poll: %q", got)
	}
	// Off: the space is no longer polled.
	f.As(t, "admin").Expect(http.StatusOK, "PUT", "/v1/spaces/"+sp+"/git/settings", map[string]any{"url": f.git.url("docs"),
		"branch": "refs/heads/main", "direction": "both", "enabled": true})
	f.git.commit(t, "docs", "Change again", map[string]string{"guide.md": "# Guide\n\nNot polled.\n"})
	if n, err := f.svc.Poll(t.Context()); err != nil || n != 0 {
		t.Fatalf("poll when off: %d, %v", n, err)
	}
}

// TestUnreachableRepositoryIsRetriedThenConcluded: an automatic job whose
// repository does not answer is left to the queue (retried with its
// backoff) four times, the status showing each attempt, then concludes
// as failed, in plain words, and is no longer pending.
func TestUnreachableRepositoryIsRetriedThenConcluded(t *testing.T) {
	f := setup(t)
	sp := f.synced(t, "docs", nil)
	gone := httptest.NewServer(http.NotFoundHandler())
	addr := gone.URL
	gone.Close()
	f.As(t, "admin").Expect(http.StatusOK, "PUT", "/v1/spaces/"+sp+"/git/settings", map[string]any{"url": addr + "/docs.git",
		"branch": "refs/heads/main", "direction": "both", "enabled": true})
	jobs := f.queue.Take()
	if len(jobs) != 1 {
		t.Fatalf("%d jobs queued", len(jobs))
	}
	for attempt := 1; attempt < 5; attempt++ {
		if err := f.svc.Handle(t.Context(), jobs[0]); err == nil {
			t.Fatalf("attempt %d: no error for the queue to retry", attempt)
		}
		g := f.info(t, sp)["galleySync"].(map[string]any)
		pend := g["pending"].([]any)
		if len(pend) != 1 || pend[0].(map[string]any)["attempts"] != float64(attempt) ||
			g["lastImport"].(map[string]any)["problem"] != "unreachable" {
			t.Fatalf("attempt %d: status %v", attempt, g)
		}
	}
	if err := f.svc.Handle(t.Context(), jobs[0]); err != nil {
		t.Fatalf("last attempt: %v", err)
	}
	g := f.info(t, sp)["galleySync"].(map[string]any)
	last := g["lastImport"].(map[string]any)
	if len(g["pending"].([]any)) != 0 || last["state"] != "failure" || last["problem"] != "unreachable" ||
		!strings.HasPrefix(last["message"].(string), "Repository unreachable") {
		t.Fatalf("after the last attempt: %v", g)
	}
}
