package gitsync_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// The credentials the test repositories require; they must never show in
// a log line, a record or an answer.
const (
	gitUser     = "sync-bot-7f3a"
	gitPassword = "s3cr3t-pat-9d2c41b8"
)

// gitServer serves the bare repositories under root over smart HTTP with
// the system's git http-backend (CGI), requiring basic authentication.
type gitServer struct {
	*httptest.Server
	root string
	// gate, when set, is called before each request is served (a test
	// holding a push where it wants it).
	gate atomic.Pointer[func(*http.Request)]
}

func newGitServer(t testing.TB) *gitServer {
	t.Helper()
	backend := filepath.Join(testenv.GitExecPath(t), "git-http-backend")
	gs := &gitServer{root: t.TempDir()}
	h := &cgi.Handler{Path: backend, Env: []string{"GIT_PROJECT_ROOT=" + gs.root, "GIT_HTTP_EXPORT_ALL=1", "REMOTE_USER=" + gitUser}}
	gs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != gitUser || p != gitPassword {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		if g := gs.gate.Load(); g != nil {
			(*g)(r)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(gs.Close)
	return gs
}

// git runs the git command line in dir.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out := testenv.Git(t, dir, args...)
	return strings.TrimSpace(out)
}

// repo makes a bare repository name.git; files (path -> content) are its
// first commit on main when given.
func (gs *gitServer) repo(t testing.TB, name string, files map[string]string) string {
	t.Helper()
	bare := filepath.Join(gs.root, name+".git")
	git(t, gs.root, "init", "-q", "--bare", "-b", "main", bare)
	git(t, bare, "config", "http.receivepack", "true")
	if files != nil {
		gs.commit(t, name, "Initial content", files)
	}
	return bare
}

// commit adds a commit on main with files changed (content "" deletes).
func (gs *gitServer) commit(t testing.TB, name, message string, files map[string]string) string {
	t.Helper()
	bare := filepath.Join(gs.root, name+".git")
	work := t.TempDir()
	git(t, work, "init", "-q", "-b", "main")
	git(t, work, "remote", "add", "origin", bare)
	if strings.TrimSpace(gitOK(bare, "rev-parse", "--verify", "-q", "refs/heads/main")) != "" {
		git(t, work, "fetch", "-q", "origin", "main")
		git(t, work, "checkout", "-q", "-B", "main", "FETCH_HEAD")
	}
	for p, c := range files {
		full := filepath.Join(work, p)
		if c == "" {
			os.Remove(full)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, work, "add", "-A")
	git(t, work, "commit", "-q", "-m", message)
	git(t, work, "push", "-q", "origin", "main")
	return git(t, work, "rev-parse", "HEAD")
}

func gitOK(dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = testenv.GitEnv(os.TempDir())
	out, _ := cmd.Output()
	return string(out)
}

// url of a repository, with the credentials.
func (gs *gitServer) url(name string) string {
	return strings.Replace(gs.URL, "http://", "http://"+gitUser+":"+gitPassword+"@", 1) + "/" + name + ".git"
}

// space makes a space "Docs" of the organization (as its admin).
func (f *fixture) space(t testing.TB) string { return f.NewSpace(t, "admin", f.Org.ID, "Docs") }

func (f *fixture) importRepo(t testing.TB, spaceID, name string, extra map[string]any) {
	t.Helper()
	body := map[string]any{"url": f.git.url(name), "ref": "refs/heads/main"}
	for k, v := range extra {
		body[k] = v
	}
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+spaceID+"/git/import", body)
	f.work(t)
}

func (f *fixture) exportTo(t testing.TB, spaceID, name, message string, extra map[string]any) {
	t.Helper()
	body := map[string]any{"url": f.git.url(name), "ref": "refs/heads/main", "commitMessage": message}
	for k, v := range extra {
		body[k] = v
	}
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+spaceID+"/git/export", body)
	f.work(t)
}

// succeeded fails the test unless the space's last Git operation (what)
// succeeded.
func (f *fixture) succeeded(t testing.TB, spaceID, what string) {
	t.Helper()
	if op := f.info(t, spaceID)["operation"].(map[string]any); op["state"] != "success" {
		t.Fatalf("%s: %v", what, op)
	}
}

func (f *fixture) info(t testing.TB, spaceID string) map[string]any {
	return f.As(t, "read").Expect(http.StatusOK, "GET", "/v1/spaces/"+spaceID+"/git/info", nil).Map(t)
}

// snapshotPage is what a round trip must keep of a page.
type snapshotPage struct {
	Path, Type, Title, Description, Emoji string
	Hidden                                bool
	Body                                  string
	URL                                   string
}

// head reads a space's head: the revision, and its pages by path with
// their bodies.
func (f *fixture) head(t testing.TB, spaceID string) (model.Revision, map[string]snapshotPage, *content.Index) {
	t.Helper()
	return f.revision(t, spaceID, f.Kit.Head(t, spaceID))
}

func (f *fixture) revision(t testing.TB, spaceID, revID string) (model.Revision, map[string]snapshotPage, *content.Index) {
	t.Helper()
	repo := content.NewRepo(f.Kit.Deps)
	rev, ix, err := repo.Load(f.Kit.Ctx, spaceID, revID)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]snapshotPage{}
	paths := ix.Paths()
	// Files and pages are named by id in bodies; ids differ between
	// spaces, names and paths not.
	var names []string
	for _, fl := range ix.Files() {
		names = append(names, "/files/"+fl.ID, "/files/<"+fl.Name+">")
	}
	for id, p := range paths {
		names = append(names, "/pages/"+id, "/pages/<"+p+">")
	}
	byName := strings.NewReplacer(names...)
	order := 0
	ix.Walk(func(p *content.Page, _ int) bool {
		body, err := repo.Document(f.Kit.Ctx, spaceID, p.Document)
		if err != nil {
			t.Fatal(err)
		}
		sp := snapshotPage{Path: paths[p.ID], Type: p.Type, Title: p.Title, Description: p.Description, Emoji: p.Emoji, Hidden: p.Hidden, Body: byName.Replace(body)}
		if p.Target != nil {
			sp.URL = p.Target.URL
		}
		key := fmt.Sprintf("%02d %s", order, paths[p.ID])
		if p.Type == content.TypeLink {
			key = fmt.Sprintf("%02d link %s", order, p.Title)
		}
		order++
		pages[key] = sp
		return true
	})
	return rev, pages, ix
}

// importNew imports the repository name into a new space, and returns
// the space and its head's pages and index.
func (f *fixture) importNew(t testing.TB, name string, extra map[string]any) (string, map[string]snapshotPage, *content.Index) {
	t.Helper()
	sp := f.space(t)
	f.importRepo(t, sp, name, extra)
	_, pages, ix := f.head(t, sp)
	return sp, pages, ix
}

// samePages fails unless after holds the pages of before, in the same
// order, each the same.
func samePages(t testing.TB, before, after map[string]snapshotPage) {
	t.Helper()
	if strings.Join(keysOf(after), ",") != strings.Join(keysOf(before), ",") {
		t.Fatalf("pages after the round trip:\n%v\nbefore:\n%v", keysOf(after), keysOf(before))
	}
	for k, b := range before {
		if a := after[k]; a != b {
			t.Errorf("%s changed in the round trip:\n before %+v\n after  %+v", k, b, a)
		}
	}
}

func keysOf(m map[string]snapshotPage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// A PNG of one pixel.
var pixel, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")

var treeRepo = map[string]string{
	"README.md":                "# Welcome\n\nStart with the [guide](guide/README.md).\n",
	"guide/README.md":          "# The guide\n\nSee [setup](setup.md#install) and [home](../README.md).\n",
	"guide/setup.md":           "---\ndescription: How to set up\nunknownKey: kept out\n---\n\n# Setup\n\n![logo](../.gitbook/assets/logo.png)\n\n## Install\n\n```\n[not a link](x.md)\n```\n",
	"api-reference.md":         "# API reference\n\nCall it; [the code](src/main.go#L3).\n",
	"src/main.go":              "package main\n",
	".gitbook/assets/logo.png": string(pixel),
	".github/workflow.yml":     "on: push\n",
	"notes.txt":                "plain file\n",
}

func TestImportMapsTheTreeToPagesAndFiles(t *testing.T) {
	f := setup(t)
	f.git.repo(t, "docs", treeRepo)
	commit := strings.TrimSpace(gitOK(filepath.Join(f.git.root, "docs.git"), "rev-parse", "main"))
	sp := f.space(t)
	f.importRepo(t, sp, "docs", map[string]any{"repoCommitURL": "https://git.example.com/acme/docs/commit/",
		"repoTreeURL": "https://git.example.com/acme/docs/tree/main",
		"gitInfo":     map[string]any{"provider": "github", "url": "https://github.com/acme/docs/tree/main"}})
	rev, pages, ix := f.head(t, sp)
	want := []string{"00 welcome", "01 api-reference", "02 guide", "03 guide/setup"}
	if got := keysOf(pages); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("pages %v, want %v", got, want)
	}
	if p := pages["00 welcome"]; p.Title != "Welcome" || p.Body != "Start with the [guide](/pages/<guide>).\n" {
		t.Errorf("top README: %+v", p)
	}
	if p := pages["02 guide"]; p.Title != "The guide" || p.Body != "See [setup](/pages/<guide/setup>#install) and [home](/pages/<welcome>).\n" {
		t.Errorf("folder page: %+v", p)
	}
	setup := pages["03 guide/setup"]
	logo := ""
	for _, fl := range ix.Files() {
		if fl.Name == "logo.png" {
			logo = fl.ID
			if fl.ContentType != "image/png" || fl.Width != 1 || fl.Git == nil || fl.Git.Path != ".gitbook/assets/logo.png" {
				t.Errorf("logo file %+v", fl)
			}
		}
	}
	if setup.Title != "Setup" || setup.Description != "How to set up" || logo == "" ||
		setup.Body != "![logo](/files/<logo.png>)\n\n## Install\n\n```\n[not a link](x.md)\n```\n" {
		t.Errorf("setup page: %+v (logo %s)", setup, logo)
	}
	// Only the files of .gitbook/assets and those pages point at: not the
	// repository's code, notes or hidden files.
	if len(ix.Files()) != 1 {
		t.Errorf("files %+v", ix.Files())
	}
	if p := pages["01 api-reference"]; p.Body != "Call it; [the code](https://git.example.com/acme/docs/tree/main/src/main.go#L3).\n" {
		t.Errorf("a link to another file of the repository: %+v", p)
	}
	if rev.Git == nil || rev.Git.OID != commit || rev.Git.Message != "Initial content" || rev.Git.Ref != "refs/heads/main" ||
		rev.Git.URL != "https://git.example.com/acme/docs/commit/"+commit || rev.Git.CreatedByGitBook {
		t.Errorf("revision git %+v, commit %s", rev.Git, commit)
	}
	info := f.info(t, sp)
	op := info["operation"].(map[string]any)
	if info["repoName"] != "docs" {
		t.Errorf("repoName %v", info["repoName"])
	}
	if info["installationProvider"] != "github" || info["integration"] != "github-sync" || info["url"] != "https://github.com/acme/docs/tree/main" ||
		op["state"] != "success" || op["direction"] != "import" || op["completedAt"] == nil {
		t.Errorf("git info %v", info)
	}
}

var summaryRepo = map[string]string{
	"docs/SUMMARY.md": `# Table of contents

* [Introduction](README.md)
* [Quick start](start/quick.md)
  * [Details](start/details.md "more")
* [Status page](https://status.example.com)

## Reference

* [Endpoints](reference/endpoints.md)
* [Missing](reference/missing.md)
`,
	"docs/README.md":              "# Intro title in file\n\nHello.\n",
	"docs/start/quick.md":         "Quick body without a heading.\n",
	"docs/start/details.md":       "# Details\n\nBack to [quick](quick.md).\n",
	"docs/reference/endpoints.md": "# Endpoints\n\nGET /x\n",
	"docs/unlisted.md":            "# Not in the summary\n",
	"README.md":                   "# The project's own readme\n",
}

// SUMMARY.md gives the pages, their order, nesting and titles; the
// project directory limits what is read.
func TestImportFollowsTheSummary(t *testing.T) {
	f := setup(t)
	f.git.repo(t, "proj", summaryRepo)
	_, pages, _ := f.importNew(t, "proj", map[string]any{"repoProjectDirectory": "docs"})
	want := []string{"00 intro-title-in-file", "01 quick", "02 quick/details", "03 link Status page", "04 reference", "05 reference/endpoints"}
	if got := keysOf(pages); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("pages %v, want %v", got, want)
	}
	if p := pages["01 quick"]; p.Title != "Quick start" || p.Body != "Quick body without a heading.\n" {
		t.Errorf("quick: %+v", p)
	}
	if p := pages["02 quick/details"]; p.Body != "Back to [quick](/pages/<quick>).\n" {
		t.Errorf("details: %+v", p)
	}
	if p := pages["03 link Status page"]; p.Type != content.TypeLink || p.URL != "https://status.example.com" {
		t.Errorf("link: %+v", p)
	}
	if p := pages["04 reference"]; p.Type != content.TypeGroup || p.Title != "Reference" {
		t.Errorf("group: %+v", p)
	}
}

// Export then import gives back the same pages and bodies; the export
// lands one commit with the exact message, and keeps the repository's
// other files.
func TestExportThenImportIsLossless(t *testing.T) {
	f := setup(t)
	f.git.repo(t, "source", summaryRepo)
	first, before, _ := f.importNew(t, "source", map[string]any{"repoProjectDirectory": "docs"})

	bare := f.git.repo(t, "mirror", map[string]string{"LICENSE": "MIT\n", "docs/old.md": "# Old page\n"})
	message := "Galley: sync the handbook\n\nWith a body line."
	f.exportTo(t, first, "mirror", message, map[string]any{"repoProjectDirectory": "docs"})
	if got := gitOK(bare, "log", "-1", "--format=%B", "main"); strings.TrimRight(got, "\n") != message {
		t.Errorf("commit message %q, want %q", got, message)
	}
	if n := strings.TrimSpace(gitOK(bare, "rev-list", "--count", "main")); n != "2" {
		t.Errorf("%s commits on main, want 2", n)
	}
	files := strings.Fields(gitOK(bare, "ls-tree", "-r", "--name-only", "main"))
	sort.Strings(files)
	// Pages keep the files they were imported from; docs/old.md, which the
	// space never had, stays.
	if want := "LICENSE docs/README.md docs/SUMMARY.md docs/old.md docs/reference/endpoints.md docs/start/details.md docs/start/quick.md"; strings.Join(files, " ") != want {
		t.Errorf("files %v, want %s", files, want)
	}
	info := f.info(t, first)
	if op := info["operation"].(map[string]any); op["state"] != "success" || op["direction"] != "export" {
		t.Errorf("export operation %v", op)
	}

	_, after, _ := f.importNew(t, "mirror", map[string]any{"repoProjectDirectory": "docs"})
	samePages(t, before, after)

	// Exporting again with nothing changed makes no commit; a change makes one.
	f.exportTo(t, first, "mirror", "nothing new", map[string]any{"repoProjectDirectory": "docs"})
	if n := strings.TrimSpace(gitOK(bare, "rev-list", "--count", "main")); n != "2" {
		t.Errorf("%s commits after an export without changes, want 2", n)
	}
}

// A round trip of a space with files, metadata and nesting: the second
// import keeps the ids of the first.
func TestReimportKeepsIDs(t *testing.T) {
	f := setup(t)
	f.git.repo(t, "docs", treeRepo)
	sp, _, ix1 := f.importNew(t, "docs", nil)
	f.git.repo(t, "out", nil)
	f.exportTo(t, sp, "out", "export", nil)
	_, pages2, ix2 := f.importNew(t, "out", nil)
	_, pages1, _ := f.head(t, sp)
	samePages(t, pages1, pages2)
	// Importing the export into the first space keeps its ids.
	f.git.commit(t, "out", "edit", map[string]string{"guide/setup.md": "# Setup\n\nChanged.\n"})
	f.importRepo(t, sp, "out", map[string]any{"force": true})
	_, pages3, ix3 := f.head(t, sp)
	if pages3["03 guide/setup"].Body != "Changed.\n" {
		t.Errorf("edited page: %+v", pages3["03 guide/setup"])
	}
	ids := func(ix *content.Index) string {
		var out []string
		ix.Walk(func(p *content.Page, _ int) bool { out = append(out, p.ID); return true })
		for _, fl := range ix.Files() {
			out = append(out, fl.ID)
		}
		return strings.Join(out, ",")
	}
	if ids(ix1) != ids(ix3) {
		t.Errorf("ids changed by a re-import:\n%s\n%s", ids(ix1), ids(ix3))
	}
	_ = ix2
}

// Jobs older than the last applied are skipped unless forced; a job
// delivered twice does its work once.
func TestTimestampsOrderJobsAndDuplicatesAreHarmless(t *testing.T) {
	f := setup(t)
	f.git.repo(t, "docs", map[string]string{"a.md": "# A\n"})
	sp := f.space(t)
	t2 := "2026-03-01T10:00:00Z"
	t1 := "2026-03-01T09:00:00Z"
	f.importRepo(t, sp, "docs", map[string]any{"timestamp": t2})
	rev1, _, _ := f.head(t, sp)

	f.git.commit(t, "docs", "second", map[string]string{"b.md": "# B\n"})
	f.importRepo(t, sp, "docs", map[string]any{"timestamp": t1})
	if rev, _, _ := f.head(t, sp); rev.ID != rev1.ID {
		t.Errorf("an older import was applied")
	}
	if op := f.info(t, sp)["operation"].(map[string]any); op["state"] != "failure" || !strings.Contains(op["error"].(string), "older") {
		t.Errorf("skipped import's operation %v", op)
	}
	// An older export is skipped too: nothing is pushed.
	bare := filepath.Join(f.git.root, "docs.git")
	headBefore := gitOK(bare, "rev-parse", "main")
	f.exportTo(t, sp, "docs", "older export", map[string]any{"timestamp": t1})
	if gitOK(bare, "rev-parse", "main") != headBefore {
		t.Errorf("an older export was pushed")
	}
	f.importRepo(t, sp, "docs", map[string]any{"timestamp": t1, "force": true})
	rev2, pages, _ := f.head(t, sp)
	if rev2.ID == rev1.ID || len(pages) != 2 {
		t.Errorf("a forced older import was not applied: %v", keysOf(pages))
	}

	// The same job delivered three times makes one revision.
	f.git.commit(t, "docs", "third", map[string]string{"c.md": "# C\n"})
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/import",
		map[string]any{"url": f.git.url("docs"), "ref": "refs/heads/main"})
	jobs := f.queue.Take()
	for i := 0; i < 3; i++ {
		if err := f.svc.Handle(context.Background(), jobs[0]); err != nil {
			t.Fatal(err)
		}
	}
	rev3, pages, _ := f.head(t, sp)
	if len(rev3.Parents) != 1 || rev3.Parents[0] != rev2.ID || len(pages) != 3 {
		t.Errorf("three deliveries: head %s with parents %v (want one revision on %s), pages %v", rev3.ID, rev3.Parents, rev2.ID, keysOf(pages))
	}
	// The same export delivered twice pushes one commit (into another
	// repository: the space has no change for its own).
	bare = f.git.repo(t, "mirror", map[string]string{"LICENSE": "MIT\n"})
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/export",
		map[string]any{"url": f.git.url("mirror"), "ref": "refs/heads/main", "commitMessage": "once"})
	jobs = f.queue.Take()
	count := strings.TrimSpace(gitOK(bare, "rev-list", "--count", "main"))
	for i := 0; i < 2; i++ {
		if err := f.svc.Handle(context.Background(), jobs[0]); err != nil {
			t.Fatal(err)
		}
	}
	after := strings.TrimSpace(gitOK(bare, "rev-list", "--count", "main"))
	if fmt.Sprint(atoi(count)+1) != after {
		t.Errorf("commits %s -> %s after an export delivered twice, want one more", count, after)
	}
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

// An export onto a branch that moved since the space last synced fails
// and changes nothing, unless forced.
func TestNonFastForwardExportFailsUnlessForced(t *testing.T) {
	f := setup(t)
	bare := f.git.repo(t, "docs", map[string]string{"a.md": "# A\n"})
	sp := f.space(t)
	f.importRepo(t, sp, "docs", nil)
	theirs := f.git.commit(t, "docs", "someone else's edit", map[string]string{"a.md": "# A\n\nTheirs.\n"})
	f.exportTo(t, sp, "docs", "ours", nil)
	if got := strings.TrimSpace(gitOK(bare, "rev-parse", "main")); got != theirs {
		t.Fatalf("the branch moved to %s, want it left at %s", got, theirs)
	}
	op := f.info(t, sp)["operation"].(map[string]any)
	if op["state"] != "failure" || !strings.Contains(op["error"].(string), "non-fast-forward") {
		t.Fatalf("operation %v", op)
	}
	f.exportTo(t, sp, "docs", "ours, forced", map[string]any{"force": true})
	if got := strings.TrimSpace(gitOK(bare, "log", "-1", "--format=%s %P", "main")); got != "ours, forced "+theirs {
		t.Errorf("forced export: %q, want a commit on top of %s", got, theirs)
	}
}

// A standalone import makes a revision without moving the head.
func TestStandaloneImportLeavesTheHead(t *testing.T) {
	f := setup(t)
	f.git.repo(t, "docs", map[string]string{"a.md": "# A\n"})
	sp := f.space(t)
	before, _, _ := f.head(t, sp)
	f.importRepo(t, sp, "docs", map[string]any{"standalone": true})
	after, _, _ := f.head(t, sp)
	if after.ID != before.ID {
		t.Error("a standalone import moved the head")
	}
	st, _, err := records.Get[model.GitSync](f.Kit.Ctx, f.Kit.Deps.Store, keys.GitSync(sp))
	if err != nil || st.Operation == nil || st.Operation.Revision == "" {
		t.Fatalf("state %+v, %v", st, err)
	}
	_, pages, _ := f.revision(t, sp, st.Operation.Revision)
	if len(pages) != 1 {
		t.Errorf("standalone revision pages %v", keysOf(pages))
	}
}

// Credentials are used for the fetch and the push and appear in no log
// line, no record, no answer and no queued job.
func TestCredentialsNeverLeak(t *testing.T) {
	f := setup(t)
	bare := f.git.repo(t, "private", map[string]string{"a.md": "# A\n"})
	sp := f.space(t)
	f.importRepo(t, sp, "private", nil)
	f.exportTo(t, sp, "private", "export with credentials", map[string]any{"force": true})
	if op := f.info(t, sp)["operation"].(map[string]any); op["state"] != "success" {
		t.Fatalf("operation with credentials %v", op)
	}
	// Wrong credentials fail, and the failure does not quote them either.
	wrong := strings.Replace(f.git.url("private"), gitPassword, "wrong-pass-1234", 1)
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/import", map[string]any{"url": wrong, "ref": "refs/heads/main"})
	jobs := f.queue.Take()
	for _, j := range jobs {
		if strings.Contains(string(j.Payload), gitPassword) || strings.Contains(string(j.Payload), "wrong-pass") || strings.Contains(string(j.Payload), gitUser) {
			t.Errorf("a queued job holds the credentials: %s", j.Payload)
		}
		if err := f.svc.Handle(context.Background(), j); err != nil {
			t.Fatal(err)
		}
	}
	info := f.As(t, "read").Expect(http.StatusOK, "GET", "/v1/spaces/"+sp+"/git/info", nil)
	op := info.Map(t)["operation"].(map[string]any)
	if op["state"] != "failure" {
		t.Errorf("import with wrong credentials: %v", op)
	}
	// Everything stored about the space, every answer and every log line.
	var stored []string
	items, err := store.QueryAll(f.Kit.Ctx, f.Kit.Deps.Store, store.Query{PK: "SPACE#" + sp})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		stored = append(stored, string(it.Data))
	}
	for what, text := range map[string]string{"logs": f.logs.String(), "info": string(info.Body), "records": strings.Join(stored, "\n")} {
		for _, secret := range []string{gitPassword, "wrong-pass-1234", gitUser} {
			if strings.Contains(text, secret) {
				t.Errorf("%s hold %q", what, secret)
			}
		}
	}
	if !strings.Contains(f.logs.String(), "Git import") {
		t.Error("the logs were not captured")
	}
	_ = bare
}

// Without FETCH_ALLOW_PRIVATE a repository on loopback is refused.
func TestLoopbackRepositoryIsRefusedByDefault(t *testing.T) {
	f := setup(t)
	f.Kit.Deps.FetchAllowPrivate = false
	f.git.repo(t, "docs", map[string]string{"a.md": "# A\n"})
	sp := f.space(t)
	before, _, _ := f.head(t, sp)
	for _, u := range []string{f.git.url("docs"), strings.Replace(f.git.url("docs"), "127.0.0.1", "localhost", 1)} {
		f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/import", map[string]any{"url": u, "ref": "refs/heads/main"})
		f.work(t)
		op := f.info(t, sp)["operation"].(map[string]any)
		if op["state"] != "failure" || !strings.Contains(op["error"].(string), "not public") {
			t.Errorf("%s: %v", u, op)
		}
	}
	if after, _, _ := f.head(t, sp); after.ID != before.ID {
		t.Error("a refused import changed the space")
	}
}

func TestRejects(t *testing.T) {
	f := setup(t)
	sp := f.space(t)
	imp := "/v1/spaces/" + sp + "/git/import"
	exp := "/v1/spaces/" + sp + "/git/export"
	good := func(extra map[string]any) map[string]any {
		b := map[string]any{"url": "https://git.example.com/a/b.git", "ref": "refs/heads/main"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	goodExport := func(extra map[string]any) map[string]any {
		b := good(map[string]any{"commitMessage": "m"})
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	f.As(t, "read").Expect(http.StatusNotFound, "GET", "/v1/spaces/"+sp+"/git/info", nil)
	cases := []struct {
		name, user, method, path string
		body                     any
		status                   int
		field                    string
	}{
		{"400NoURL", "edit", "POST", imp, map[string]any{"ref": "refs/heads/main"}, 400, "url"},
		{"400URLNotHTTP", "edit", "POST", imp, good(map[string]any{"url": "ssh://git@example.com/a.git"}), 400, "url"},
		{"400URLFile", "edit", "POST", imp, good(map[string]any{"url": "file:///etc"}), 400, "url"},
		{"400NoRef", "edit", "POST", imp, map[string]any{"url": "https://git.example.com/a.git"}, 400, "ref"},
		{"400RefNotABranch", "edit", "POST", imp, good(map[string]any{"ref": "main"}), 400, "ref"},
		{"400RefDotDot", "edit", "POST", imp, good(map[string]any{"ref": "refs/heads/a..b"}), 400, "ref"},
		{"400ProjectDirOutside", "edit", "POST", imp, good(map[string]any{"repoProjectDirectory": "../up"}), 400, "repoProjectDirectory"},
		{"400ProviderUnknown", "edit", "POST", imp, good(map[string]any{"gitInfo": map[string]any{"provider": "svn"}}), 400, "gitInfo.provider"},
		{"400CommitURLWithCredentials", "edit", "POST", imp, good(map[string]any{"repoCommitURL": "https://u:p@example.com/c/"}), 400, "repoCommitURL"},
		{"400BadTimestamp", "edit", "POST", imp, good(map[string]any{"timestamp": "yesterday"}), 400, "timestamp"},
		{"400ExportNoMessage", "edit", "POST", exp, good(nil), 400, "commitMessage"},
		{"400ExportBlankMessage", "edit", "POST", exp, goodExport(map[string]any{"commitMessage": "  "}), 400, "commitMessage"},
		{"400MalformedJSON", "edit", "POST", imp, `{"url":`, 400, ""},
		{"401NoToken", "", "POST", imp, good(nil), 401, ""},
		{"401NoTokenInfo", "", "GET", "/v1/spaces/" + sp + "/git/info", nil, 401, ""},
		{"403ReaderImports", "read", "POST", imp, good(nil), 403, ""},
		{"403ReaderExports", "read", "POST", exp, goodExport(nil), 403, ""},
		{"404OutsiderImports", testkit.Outsider, "POST", imp, good(nil), 404, ""},
		{"404OutsiderExports", testkit.Outsider, "POST", exp, goodExport(nil), 404, ""},
		{"404OutsiderInfo", testkit.Outsider, "GET", "/v1/spaces/" + sp + "/git/info", nil, 404, ""},
		{"404UnknownSpace", "edit", "POST", "/v1/spaces/nope/git/import", good(nil), 404, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := f.As(t, tc.user).Expect(tc.status, tc.method, tc.path, tc.body)
			if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
	if jobs := f.queue.Take(); len(jobs) != 0 {
		t.Errorf("rejected requests enqueued %d jobs", len(jobs))
	}
	// A valid request answers 204, enqueues one job in the space's group,
	// and shows a running operation.
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", exp, goodExport(map[string]any{"gitInfo": map[string]any{"provider": "gitlab"}}))
	jobs := f.queue.Take()
	if len(jobs) != 1 || jobs[0].Kind != gitsync.ExportKind || jobs[0].Group != sp {
		t.Fatalf("jobs %+v", jobs)
	}
	info := f.info(t, sp)
	if op := info["operation"].(map[string]any); op["state"] != "running" || op["direction"] != "export" || info["installationProvider"] != "gitlab" || info["repoName"] != "a/b" {
		t.Errorf("info %v", info)
	}
}

// Import, export and re-import on both storage backends.
func TestRoundTripOnBothBackends(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		f.git.repo(t, "docs", summaryRepo)
		f.git.repo(t, "copy", nil)
		first, second := f.space(t), f.space(t)
		f.importRepo(t, first, "docs", map[string]any{"repoProjectDirectory": "docs"})
		f.exportTo(t, first, "copy", "copy", nil)
		f.importRepo(t, second, "copy", nil)
		_, a, _ := f.head(t, first)
		_, b, _ := f.head(t, second)
		if len(a) != 6 {
			t.Fatalf("pages %v", keysOf(a))
		}
		samePages(t, a, b)
	})
}
