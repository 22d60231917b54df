package infra_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/testenv"
)

// The Model Context Protocol's official TypeScript SDK (the version
// infra/node pins, installed by make test-deps) connects its
// StreamableHTTPClientTransport to a published site's MCP endpoint in
// local mode (infra/node/mcp-e2e.mjs): initialize, tools/list, both
// tools, ping.
func TestOfficialMCPClient(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node (Node.js, which runs the MCP SDK's client)")
		return
	}
	dir := filepath.Join(testenv.CacheDir(), "node", "node_modules", "@modelcontextprotocol", "sdk")
	if _, err := os.Stat(filepath.Join(dir, "dist", "esm", "client", "streamableHttp.js")); err != nil {
		testenv.Missing(t, "@modelcontextprotocol/sdk (npm; make test-deps installs it: infra/node/install.sh)")
		return
	}
	const token = "gb_mcp_e2e_admin_token_0123456789abc"
	base := serveLocal(t, app.Config{BootstrapToken: token})
	cmd := exec.Command("node", "node/mcp-e2e.mjs")
	cmd.Env = append(os.Environ(), "GALLEY_URL="+base, "GALLEY_TOKEN="+token, "MCP_SDK="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mcp-e2e.mjs failed: %v\n%s", err, out)
	}
	if !strings.HasSuffix(strings.TrimSpace(string(out)), "\ndone") {
		t.Fatalf("mcp-e2e.mjs did not finish:\n%s", out)
	}
	t.Logf("%s", out)
}
