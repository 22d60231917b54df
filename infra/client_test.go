package infra_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/local"
	"github.com/galleydocs/galley/shared/testenv"
)

// GitBook's official client (@gitbook/api, the version infra/node pins,
// installed by make test-deps) drives local mode end to end:
// infra/node/client-e2e.mjs authors pages and a file, has a change
// request reviewed under merge rules and merged, reads by path and
// revision, customizes, publishes, resolves and searches a site. Each of
// its steps is an operation of the client, called as a script would.
func TestOfficialClientEndToEnd(t *testing.T) {
	dir, ok := nodePackage(t, "GitBook's client", "@gitbook/api", "dist/index.js")
	if !ok {
		return
	}
	runNodeE2E(t, "node/client-e2e.mjs", "gb_client_e2e_admin_token_0123456789", "GITBOOK_API="+filepath.Join(dir, "dist", "index.js"))
}

// nodePackage is the folder of the npm package pkg that make test-deps
// installs (infra/node/install.sh), once node (which runs client) and the
// package's file are found; else it reports what is missing
// (testenv.Missing) and answers false.
func nodePackage(t *testing.T, client, pkg, file string) (string, bool) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node (Node.js, which runs "+client+")")
		return "", false
	}
	dir := filepath.Join(testenv.CacheDir(), "node", "node_modules", filepath.FromSlash(pkg))
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(file))); err != nil {
		testenv.Missing(t, pkg+" (npm; make test-deps installs it: infra/node/install.sh)")
		return "", false
	}
	return dir, true
}

// runNodeE2E serves local mode (operations built lazily, as `make run`
// does) with an administrator holding token, runs the Node script with
// GALLEY_URL, GALLEY_TOKEN and env, and checks it ran to its last line
// ("done").
func runNodeE2E(t *testing.T, script, token string, env ...string) {
	t.Helper()
	base := serveLocal(t, app.Config{BootstrapToken: token, Lazy: true})
	cmd := exec.Command("node", script)
	cmd.Env = append(append(os.Environ(), "GALLEY_URL="+base, "GALLEY_TOKEN="+token), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s failed: %v\n%s", script, err, out)
	}
	if !strings.HasSuffix(strings.TrimSpace(string(out)), "\ndone") {
		t.Fatalf("%s did not finish:\n%s", script, out)
	}
	t.Logf("%s", out)
}

// serveLocal serves local mode with c (its data in a temporary folder) on
// a loopback port until the test ends, and answers its base URL.
func serveLocal(t *testing.T, c app.Config) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c.DataDir = t.TempDir()
	l, err := local.Open(ctx, c)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		l.Close()
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- l.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		<-served
		l.Close()
	})
	return "http://" + ln.Addr().String()
}
