package infra_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

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
	runNodeE2E(t, "node/mcp-e2e.mjs", "gb_mcp_e2e_admin_token_0123456789abc", "MCP_SDK="+dir)
}
