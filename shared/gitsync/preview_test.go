package gitsync_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// githubPull is a pull_request event as GitHub sends it (the fields Galley
// reads and a few around them), from the branch head of the repository
// acme/docs (or of headRepo, a fork).
func githubPull(action string, number int, head, sha, base string, headRepo ...string) []byte {
	from := "acme/docs"
	if len(headRepo) > 0 {
		from = headRepo[0]
	}
	b, _ := json.Marshal(map[string]any{"action": action, "number": number,
		"pull_request": map[string]any{"number": number, "state": "open", "title": "Better steps", "merged": false,
			"head": map[string]any{"ref": head, "sha": sha, "label": "acme:" + head, "repo": map[string]any{"full_name": from}},
			"base": map[string]any{"ref": base, "sha": "0000000000000000000000000000000000000000", "label": "acme:" + base,
				"repo": map[string]any{"full_name": "acme/docs"}}},
		"repository": map[string]any{"full_name": "acme/docs", "default_branch": "main"}})
	return b
}

// previewsOf are the previews git/info lists, by number.
func (f *fixture) previewsOf(t *testing.T, sp string) map[int]map[string]any {
	t.Helper()
	out := map[int]map[string]any{}
	list, _ := f.info(t, sp)["galleySync"].(map[string]any)["previews"].([]any)
	for _, p := range list {
		m := p.(map[string]any)
		out[int(m["number"].(float64))] = m
	}
	return out
}

// branchAt makes branch (off main) hold files in the repository name,
// main left where it was, and answers its commit.
func (f *fixture) branchAt(t *testing.T, name, branch string, files map[string]string) string {
	t.Helper()
	bare := filepath.Join(f.git.root, name+".git")
	main := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	c := f.git.commit(t, name, "On "+branch, files)
	gitOK(bare, "update-ref", branch, c)
	gitOK(bare, "update-ref", "refs/heads/main", main)
	return c
}

// TestPullRequestPreview: a signed pull_request webhook into the synced
// branch imports its head into a preview (not the space's head), served
// under the published site's ~preview/<number>/ to a member's preview
// token only (404 to an anonymous visitor and to another organization's
// member); a synchronize updates it; closing the request removes it.
func TestPullRequestPreview(t *testing.T) {
	f := setupOn(t, testkit.New(t), "git", "spaces", "sites", "content", "changerequests", "reader")
	sp := f.synced(t, "docs", nil)
	admin := f.As(t, "admin")
	site := admin.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/sites", map[string]any{"title": "Acme Docs", "spaces": []string{sp}}).Map(t)
	sitePth := "/v1/orgs/" + f.Org.ID + "/sites/" + site["id"].(string)
	admin.Expect(http.StatusOK, "PATCH", sitePth, map[string]any{"basename": "docs"})
	admin.Expect(http.StatusOK, "POST", sitePth+"/publish", nil)
	base := "/sites/" + f.Org.ID + "/docs"
	h := f.API.API.Handler()
	get := func(want int, path, cookie string) string {
		t.Helper()
		r := httptest.NewRequest("GET", "https://app.test"+path, nil)
		if cookie != "" {
			r.Header.Set("Cookie", "galley_preview="+cookie)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		b, _ := io.ReadAll(w.Result().Body)
		if w.Code != want {
			t.Fatalf("GET %s: %d, want %d\n%.1500s", path, w.Code, want, b)
		}
		return string(b)
	}
	testkit.Contains(t, "published guide", get(http.StatusOK, base+"/guide", ""), "Steps.")

	// The pull request's branch: one commit past main.
	c1 := f.branchAt(t, "docs", "refs/heads/feature", map[string]string{"guide.md": "# Guide\n\nPreview steps.\n"})
	headBefore, _, _ := f.head(t, sp)

	deliver := func(id string, body []byte) map[string]any {
		t.Helper()
		return f.hook(t, http.StatusAccepted, sp, body, "X-GitHub-Event", "pull_request", "X-GitHub-Delivery", id,
			"X-Hub-Signature-256", "sha256="+sign(hookSecret, body), "Authorization", "")
	}
	res := deliver("d-open", githubPull("opened", 7, "feature", c1, "main"))
	if res["outcome"] != "queued" {
		t.Fatalf("opened: %v", res)
	}
	f.work(t)
	if rev, _, _ := f.head(t, sp); rev.ID != headBefore.ID {
		t.Fatalf("the preview moved the space's head %s -> %s", headBefore.ID, rev.ID)
	}
	previews := f.previewsOf(t, sp)
	if p := previews[7]; len(previews) != 1 || p["commit"] != c1 || p["branch"] != "refs/heads/feature" || p["revision"] == "" ||
		p["revision"] == headBefore.ID || p["updating"] == true {
		t.Fatalf("previews %v", previews)
	}

	// A member's preview token (their signed site preview) opens it.
	u := f.As(t, "read").Expect(http.StatusOK, "GET", sitePth+"/publishing/preview", nil).Map(t)["url"].(string)
	pu, _ := url.Parse(u)
	tok := pu.Query().Get("preview")
	pr := base + "/~preview/7/guide"
	testkit.Contains(t, "member's preview", get(http.StatusOK, pr+"?preview="+url.QueryEscape(tok), ""), "Preview steps.")
	html := get(http.StatusOK, pr, tok)
	// Its links stay in the preview; its search is the published site's.
	testkit.Contains(t, "member's preview by cookie", html, "Preview steps.", `href="`+base+`/~preview/7/`, `action="`+base+`/~search"`)
	testkit.Contains(t, "the site itself", get(http.StatusOK, base+"/guide", ""), "Steps.")
	get(http.StatusNotFound, pr, "")                        // anonymous
	get(http.StatusNotFound, pr+"?preview=abc.def.ghi", "") // a forged token
	get(http.StatusNotFound, base+"/~preview/8/guide", tok) // no such pull request
	// Another organization's member: no preview token of this site, and
	// theirs of their own site opens nothing here.
	f.As(t, testkit.Outsider).Expect(http.StatusNotFound, "GET", sitePth+"/publishing/preview", nil)
	ot := f.As(t, testkit.Outsider).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Other.ID+"/sites", map[string]any{"title": "Other"}).Map(t)
	ou := f.As(t, testkit.Outsider).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Other.ID+"/sites/"+ot["id"].(string)+"/publishing/preview", nil).Map(t)["url"].(string)
	opu, _ := url.Parse(ou)
	get(http.StatusNotFound, pr, opu.Query().Get("preview"))

	// synchronize: the preview follows the branch.
	c2 := f.branchAt(t, "docs", "refs/heads/feature", map[string]string{"guide.md": "# Guide\n\nSynchronized steps.\n"})
	if res := deliver("d-sync", githubPull("synchronize", 7, "feature", c2, "main")); res["outcome"] != "queued" {
		t.Fatalf("synchronize: %v", res)
	}
	f.work(t)
	testkit.Contains(t, "synchronized preview", get(http.StatusOK, pr, tok), "Synchronized steps.")
	if p := f.previewsOf(t, sp)[7]; p["commit"] != c2 {
		t.Fatalf("preview after synchronize %v", p)
	}
	if rev, _, _ := f.head(t, sp); rev.ID != headBefore.ID {
		t.Fatalf("the update moved the space's head")
	}
	// A pull request into another branch is not previewed.
	if res := f.hook(t, http.StatusOK, sp, githubPull("opened", 9, "feature", c2, "release"), "X-GitHub-Event", "pull_request",
		"X-GitHub-Delivery", "d-other", "X-Hub-Signature-256", "sha256="+sign(hookSecret, githubPull("opened", 9, "feature", c2, "release")),
		"Authorization", ""); res["outcome"] != "ignored" {
		t.Fatalf("into another branch: %v", res)
	}

	// closed: the preview is gone.
	if res := f.hook(t, http.StatusOK, sp, githubPull("closed", 7, "feature", c2, "main"), "X-GitHub-Event", "pull_request",
		"X-GitHub-Delivery", "d-close", "X-Hub-Signature-256", "sha256="+sign(hookSecret, githubPull("closed", 7, "feature", c2, "main")),
		"Authorization", ""); res["outcome"] != "removed" {
		t.Fatalf("closed: %v", res)
	}
	get(http.StatusNotFound, pr, tok)
	if p := f.info(t, sp)["galleySync"].(map[string]any)["previews"]; p != nil && len(p.([]any)) != 0 {
		t.Fatalf("previews after the close: %v", p)
	}
}

// TestPullRequestPreviewHosts: each host's pull-request events, signed as
// it signs them, open a preview of the request's head and remove it when
// the request closes; a fork's head is fetched from the ref the host keeps
// of it (GitHub's refs/pull/<n>/head), and a Bitbucket Cloud fork (no such
// ref) is ignored.
func TestPullRequestPreviewHosts(t *testing.T) {
	f := setup(t)
	sp := f.synced(t, "docs", nil)
	const zero = "0000000000000000000000000000000000000000"
	hub := func(b []byte) string { return "sha256=" + sign(hookSecret, b) }
	hexSig := func(b []byte) string { return sign(hookSecret, b) }
	gitlab := func(action string, n int, head, sha string) []byte {
		b, _ := json.Marshal(map[string]any{"object_kind": "merge_request", "event_type": "merge_request",
			"project": map[string]any{"id": 15, "path_with_namespace": "acme/docs"},
			"object_attributes": map[string]any{"iid": n, "action": action, "state": "opened", "source_branch": head, "target_branch": "main",
				"source_project_id": 15, "target_project_id": 15, "last_commit": map[string]any{"id": sha, "message": "On " + head}}})
		return b
	}
	bbCloud := func(n int, head, sha, fromRepo string) []byte {
		b, _ := json.Marshal(map[string]any{"pullrequest": map[string]any{"id": n, "title": "Preview", "state": "OPEN",
			"source":      map[string]any{"branch": map[string]any{"name": head}, "commit": map[string]any{"hash": sha[:12]}, "repository": map[string]any{"full_name": fromRepo}},
			"destination": map[string]any{"branch": map[string]any{"name": "main"}, "commit": map[string]any{"hash": zero[:12]}, "repository": map[string]any{"full_name": "acme/docs"}}},
			"repository": map[string]any{"full_name": "acme/docs"}})
		return b
	}
	bbServer := func(n int, head, sha string) []byte {
		repo := map[string]any{"id": 1, "slug": "docs"}
		b, _ := json.Marshal(map[string]any{"eventKey": "pr:opened", "date": "2026-01-02T03:04:05+0000", "pullRequest": map[string]any{"id": n,
			"fromRef": map[string]any{"id": "refs/heads/" + head, "displayId": head, "latestCommit": sha, "repository": repo},
			"toRef":   map[string]any{"id": "refs/heads/main", "displayId": "main", "latestCommit": zero, "repository": repo}}})
		return b
	}
	cases := []struct {
		host       string
		number     int
		open       func(sha string) []byte
		close      []byte
		openEvent  []string // headers but the signature's
		closeEvent []string
		sigHeader  string
		sig        func([]byte) string
	}{
		{host: "gitlab", number: 21, open: func(sha string) []byte { return gitlab("open", 21, "gl", sha) }, close: gitlab("merge", 21, "gl", zero),
			openEvent: []string{"X-Gitlab-Event", "Merge Request Hook", "X-Gitlab-Event-UUID", "gl-1"}, closeEvent: []string{"X-Gitlab-Event", "Merge Request Hook", "X-Gitlab-Event-UUID", "gl-2"},
			sigHeader: "X-Gitlab-Token", sig: func([]byte) string { return hookSecret }},
		{host: "gitea", number: 22, open: func(sha string) []byte { return githubPull("opened", 22, "gt", sha, "main") }, close: githubPull("closed", 22, "gt", zero, "main"),
			openEvent: []string{"X-Gitea-Event", "pull_request", "X-Gitea-Delivery", "gt-1"}, closeEvent: []string{"X-Gitea-Event", "pull_request", "X-Gitea-Delivery", "gt-2"},
			sigHeader: "X-Gitea-Signature", sig: hexSig},
		{host: "forgejo", number: 23, open: func(sha string) []byte { return githubPull("synchronized", 23, "fj", sha, "main") }, close: githubPull("closed", 23, "fj", zero, "main"),
			openEvent: []string{"X-Forgejo-Event", "pull_request", "X-Forgejo-Delivery", "fj-1"}, closeEvent: []string{"X-Forgejo-Event", "pull_request", "X-Forgejo-Delivery", "fj-2"},
			sigHeader: "X-Forgejo-Signature", sig: hexSig},
		{host: "bitbucket-cloud", number: 24, open: func(sha string) []byte { return bbCloud(24, "bbc", sha, "acme/docs") }, close: bbCloud(24, "bbc", zero, "acme/docs"),
			openEvent: []string{"X-Event-Key", "pullrequest:created", "X-Request-UUID", "bbc-1"}, closeEvent: []string{"X-Event-Key", "pullrequest:fulfilled", "X-Request-UUID", "bbc-2"},
			sigHeader: "X-Hub-Signature", sig: hub},
		{host: "bitbucket-server", number: 25, open: func(sha string) []byte { return bbServer(25, "bbs", sha) }, close: bbServer(25, "bbs", zero),
			openEvent: []string{"X-Event-Key", "pr:opened", "X-Request-Id", "bbs-1"}, closeEvent: []string{"X-Event-Key", "pr:declined", "X-Request-Id", "bbs-2"},
			sigHeader: "X-Hub-Signature", sig: hub},
		{host: "github fork", number: 26, open: func(sha string) []byte { return githubPull("opened", 26, "main", sha, "main", "someone/docs") },
			close:     githubPull("closed", 26, "main", zero, "main", "someone/docs"),
			openEvent: []string{"X-GitHub-Event", "pull_request", "X-GitHub-Delivery", "gh-1"}, closeEvent: []string{"X-GitHub-Event", "pull_request", "X-GitHub-Delivery", "gh-2"},
			sigHeader: "X-Hub-Signature-256", sig: hub},
	}
	for _, c := range cases {
		t.Run(c.host, func(t *testing.T) {
			ref := map[string]string{"gitlab": "refs/heads/gl", "gitea": "refs/heads/gt", "forgejo": "refs/heads/fj", "bitbucket-cloud": "refs/heads/bbc",
				"bitbucket-server": "refs/heads/bbs", "github fork": "refs/pull/26/head"}[c.host]
			body := "Preview of " + c.host + ".\n"
			sha := f.branchAt(t, "docs", ref, map[string]string{"guide.md": "# Guide\n\n" + body})
			open := c.open(sha)
			res := f.hook(t, http.StatusAccepted, sp, open, append(c.openEvent, c.sigHeader, c.sig(open), "Authorization", "")...)
			if res["outcome"] != "queued" {
				t.Fatalf("opened: %v", res)
			}
			f.work(t)
			p := f.previewsOf(t, sp)[c.number]
			if p == nil || p["commit"] != sha || p["branch"] != ref || p["revision"] == "" {
				t.Fatalf("preview %v", p)
			}
			_, pages, _ := f.revision(t, sp, p["revision"].(string))
			if got := pages["01 guide"].Body; got != body {
				t.Fatalf("preview's guide %q", got)
			}
			res = f.hook(t, http.StatusOK, sp, c.close, append(c.closeEvent, c.sigHeader, c.sig(c.close), "Authorization", "")...)
			if res["outcome"] != "removed" || f.previewsOf(t, sp)[c.number] != nil {
				t.Fatalf("closed: %v, previews %v", res, f.previewsOf(t, sp))
			}
		})
	}
	// A Bitbucket Cloud pull request from a fork: no ref of its head here.
	fork := bbCloud(27, "main", zero, "someone/docs")
	res := f.hook(t, http.StatusOK, sp, fork, "X-Event-Key", "pullrequest:created", "X-Request-UUID", "bbc-fork", "X-Hub-Signature", hub(fork), "Authorization", "")
	if res["outcome"] != "ignored" || !strings.Contains(res["reason"].(string), "fork") {
		t.Fatalf("fork: %v", res)
	}
	// A bad signature: 401, nothing queued.
	bad := githubPull("opened", 28, "feature", zero, "main")
	f.hook(t, http.StatusUnauthorized, sp, bad, "X-GitHub-Event", "pull_request", "X-GitHub-Delivery", "bad", "X-Hub-Signature-256", "sha256="+sign("wrong-secret-0123456789", bad), "Authorization", "")
	if n := len(f.queue.Take()); n != 0 {
		t.Fatalf("a bad signature queued %d jobs", n)
	}
}
