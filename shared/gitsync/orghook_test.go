package gitsync_test

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// orgHook posts a delivery to the organization's webhook endpoint.
func (f *fixture) orgHook(t testing.TB, want int, body []byte, headers ...string) map[string]any {
	t.Helper()
	return f.With(t, "").Expect(want, "POST", "/v1/orgs/"+f.Org.ID+"/git/webhook", body, append(headers, "Authorization", "")...).Map(t)
}

// reached answers the spaces an organization webhook's answer lists, by
// id, with their outcome.
func reached(t testing.TB, res map[string]any) map[string]string {
	t.Helper()
	out := map[string]string{}
	list, _ := res["spaces"].([]any)
	for _, s := range list {
		m := s.(map[string]any)
		out[m["spaceId"].(string)] = m["outcome"].(string)
	}
	return out
}

// The organization's endpoint routes a push by the repository its payload
// names: GitHub's (repository.clone_url) and GitLab's
// (project.git_http_url) pushes reach the space synced with that
// repository, verified with its secret, and not the space synced with
// another; a redelivery, a bad signature, an unknown repository and
// another branch queue nothing.
func TestOrgWebhookRoutesByRepository(t *testing.T) {
	f := setup(t)
	sp := f.synced(t, "docs", nil)
	other := f.synced(t, "other", nil)
	f.queue.Take()
	repoURL := f.git.URL + "/docs.git"
	bare := filepath.Join(f.git.root, "docs.git")
	before := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	after := f.git.commit(t, "docs", "Update the guide", map[string]string{"guide.md": "# Guide\n\nFrom GitHub.\n"})
	github := func(ref, repo string) []byte {
		b, _ := json.Marshal(map[string]any{"ref": ref, "before": before, "after": after,
			"repository":  map[string]any{"full_name": "acme/docs", "clone_url": repo, "html_url": strings.TrimSuffix(repo, ".git")},
			"head_commit": map[string]any{"id": after, "message": "Update the guide"}})
		return b
	}
	body := github("refs/heads/main", repoURL)
	headers := []string{"X-GitHub-Event", "push", "X-GitHub-Delivery", "org-1", "X-Hub-Signature-256", "sha256=" + sign(hookSecret, body)}

	res := f.orgHook(t, http.StatusAccepted, body, headers...)
	if got := reached(t, res); res["outcome"] != "queued" || len(got) != 1 || got[sp] != "queued" {
		t.Fatalf("answer %v: want the docs space only, queued", res)
	}
	jobs := f.queue.Take()
	if len(jobs) != 1 || jobs[0].Group != sp {
		t.Fatalf("queued %+v, want one job of %s", jobs, sp)
	}
	if err := f.svc.Handle(t.Context(), jobs[0]); err != nil {
		t.Fatal(err)
	}
	if got := f.pageBody(t, sp, "01 guide"); got != "From GitHub.\n" {
		t.Fatalf("guide after the push: %q", got)
	}
	if got := f.pageBody(t, other, "01 guide"); got != "Steps.\n" {
		t.Fatalf("the other repository's space changed: %q", got)
	}

	if res := f.orgHook(t, http.StatusOK, body, headers...); reached(t, res)[sp] != "duplicate" {
		t.Fatalf("redelivery: %v", res)
	}
	f.orgHook(t, http.StatusUnauthorized, body, "X-GitHub-Event", "push", "X-GitHub-Delivery", "org-2",
		"X-Hub-Signature-256", "sha256="+sign("another-secret-0123", body))
	unknown := github("refs/heads/main", "https://github.com/acme/unknown.git")
	f.orgHook(t, http.StatusUnauthorized, unknown, "X-GitHub-Event", "push", "X-GitHub-Delivery", "org-3",
		"X-Hub-Signature-256", "sha256="+sign(hookSecret, unknown))
	branch := github("refs/heads/feature", repoURL)
	if res := f.orgHook(t, http.StatusOK, branch, "X-GitHub-Event", "push", "X-GitHub-Delivery", "org-4",
		"X-Hub-Signature-256", "sha256="+sign(hookSecret, branch)); reached(t, res)[sp] != "ignored" {
		t.Fatalf("a push to another branch: %v", res)
	}
	if n := len(f.queue.Take()); n != 0 {
		t.Fatalf("%d jobs queued by deliveries that should queue none", n)
	}

	// GitLab names the repository in project.git_http_url.
	before = after
	after = f.git.commit(t, "docs", "Update again", map[string]string{"guide.md": "# Guide\n\nFrom GitLab.\n"})
	gitlab, _ := json.Marshal(map[string]any{"object_kind": "push", "before": before, "after": after, "ref": "refs/heads/main",
		"project":    map[string]any{"name": "docs", "git_http_url": repoURL, "web_url": strings.TrimSuffix(repoURL, ".git")},
		"repository": map[string]any{"name": "docs", "git_http_url": repoURL}})
	res = f.orgHook(t, http.StatusAccepted, gitlab, "X-Gitlab-Event", "Push Hook", "X-Gitlab-Token", hookSecret,
		"X-Gitlab-Event-UUID", "13792a34-cac6-4fda-95a8-c58e00a3954e")
	if got := reached(t, res); len(got) != 1 || got[sp] != "queued" {
		t.Fatalf("GitLab push: %v", res)
	}
	f.work(t)
	if got := f.pageBody(t, sp, "01 guide"); got != "From GitLab.\n" {
		t.Fatalf("guide after GitLab's push: %q", got)
	}
	f.orgHook(t, http.StatusUnauthorized, gitlab, "X-Gitlab-Event", "Push Hook", "X-Gitlab-Token", hookSecret+"x",
		"X-Gitlab-Event-UUID", "another")
}
