package infra_test

import "testing"

// The Model Context Protocol's official TypeScript SDK (the version
// infra/node pins, installed by make test-deps) connects its
// StreamableHTTPClientTransport to a published site's MCP endpoint in
// local mode (infra/node/mcp-e2e.mjs): initialize, tools/list, both
// tools, ping.
func TestOfficialMCPClient(t *testing.T) {
	dir, ok := nodePackage(t, "the MCP SDK's client", "@modelcontextprotocol/sdk", "dist/esm/client/streamableHttp.js")
	if !ok {
		return
	}
	runNodeE2E(t, "node/mcp-e2e.mjs", "gb_mcp_e2e_admin_token_0123456789abc", "MCP_SDK="+dir)
}
