package testenv

import (
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GitExecPath is the folder of git's programs (git --exec-path); a test
// without git calls Missing.
func GitExecPath(tb testing.TB) string {
	tb.Helper()
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		Missing(tb, "git (the git command line, which serves the tests' repositories)")
	}
	return strings.TrimSpace(string(out))
}

// GitEnv is the environment of a test's git commands: the runner's
// without Git's variables (a GIT_INDEX_FILE or GIT_DIR of whoever runs the
// tests must not reach the test repositories), home as HOME, no system
// configuration, and a fixed author and committer.
func GitEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com")
}

// Git runs the git command line in dir (GitEnv, a temporary HOME) and
// returns its output; a failure fails tb.
func Git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = GitEnv(tb.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// GitRepo makes a repository of files (one commit on branch), serves a
// bare clone of it named name over smart HTTP on loopback (the system's
// git http-backend, without authentication) until the test ends, and
// returns its URL.
func GitRepo(tb testing.TB, name, branch string, files map[string]string) string {
	tb.Helper()
	backend := filepath.Join(GitExecPath(tb), "git-http-backend")
	root, work := tb.TempDir(), tb.TempDir()
	for p, c := range files {
		full := filepath.Join(work, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	Git(tb, work, "init", "-q", "-b", branch)
	Git(tb, work, "add", "-A")
	Git(tb, work, "commit", "-q", "-m", "Docs")
	Git(tb, root, "clone", "-q", "--bare", work, filepath.Join(root, name+".git"))
	srv := httptest.NewServer(&cgi.Handler{Path: backend, Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}})
	tb.Cleanup(srv.Close)
	return srv.URL + "/" + name + ".git"
}

// ServeBundle serves the fixture bundle name (../shared/fixtures/gitsync/
// <name>.bundle beside the repository; Missing when it is not there) as a
// bare repository over smart HTTP on loopback until the test ends, and
// returns its URL.
func ServeBundle(tb testing.TB, name string) string {
	tb.Helper()
	bundle := filepath.Join(ModuleRoot(tb), "..", "shared", "fixtures", "gitsync", name+".bundle")
	if _, err := os.Stat(bundle); err != nil {
		Missing(tb, "the fixture "+bundle+" (../shared/fixtures beside the repository)")
	}
	root := tb.TempDir()
	Git(tb, root, "clone", "-q", "--bare", bundle, filepath.Join(root, "repo.git"))
	backend := filepath.Join(GitExecPath(tb), "git-http-backend")
	srv := httptest.NewServer(&cgi.Handler{Path: backend, Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}})
	tb.Cleanup(srv.Close)
	return srv.URL + "/repo.git"
}

// PushableRepo is a bare repository served over smart HTTP on loopback
// with pushes allowed (what a Git export writes to), and a clone of it the
// test commits from (what an import reads).
type PushableRepo struct {
	// URL is the repository's URL, Bare its bare directory.
	URL, Bare string
	work      string
}

// NewPushableRepo makes a repository named name whose main branch holds
// one commit (a README.md), served until the test ends.
func NewPushableRepo(tb testing.TB, name string) *PushableRepo {
	tb.Helper()
	root := tb.TempDir()
	r := &PushableRepo{Bare: filepath.Join(root, name+".git"), work: tb.TempDir()}
	Git(tb, root, "init", "-q", "--bare", "-b", "main", r.Bare)
	Git(tb, r.Bare, "config", "http.receivepack", "true")
	srv := httptest.NewServer(&cgi.Handler{Path: filepath.Join(GitExecPath(tb), "git-http-backend"),
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}})
	tb.Cleanup(srv.Close)
	r.URL = srv.URL + "/" + name + ".git"
	Git(tb, r.work, "clone", "-q", r.Bare, ".")
	r.Commit(tb, "README.md", "# Docs\n\nHello.\n")
	return r
}

// Commit commits a file to main in the clone (and its line in SUMMARY.md,
// when the branch has one: an export wrote it, and files it does not list
// are not pages) and pushes it.
func (r *PushableRepo) Commit(tb testing.TB, name, content string) {
	tb.Helper()
	if strings.TrimSpace(Git(tb, r.work, "ls-remote", "origin", "main")) != "" {
		Git(tb, r.work, "pull", "-q", "--ff-only", "origin", "main")
	}
	if err := os.WriteFile(filepath.Join(r.work, name), []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	if toc, err := os.ReadFile(filepath.Join(r.work, "SUMMARY.md")); err == nil {
		toc = append(toc, "* ["+strings.TrimSuffix(name, ".md")+"]("+name+")\n"...)
		if err := os.WriteFile(filepath.Join(r.work, "SUMMARY.md"), toc, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	Git(tb, r.work, "add", "-A")
	Git(tb, r.work, "commit", "-q", "-m", "Add "+name)
	Git(tb, r.work, "push", "-q", "origin", "HEAD:main")
}

// Head is the commit of the bare repository's main branch.
func (r *PushableRepo) Head(tb testing.TB) string {
	tb.Helper()
	return strings.TrimSpace(Git(tb, r.Bare, "rev-parse", "refs/heads/main"))
}
