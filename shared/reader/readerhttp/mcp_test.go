package readerhttp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// The site's MCP endpoint (served by the search family, mounted in the
// fixture beside the reader): protocol and audience.

// mcpPost posts a JSON-RPC body to the site's MCP endpoint (path: the
// endpoint with its query) and checks the status.
func (f *fixture) mcpPost(t *testing.T, want int, path, body string, headers ...string) (map[string]any, *http.Response) {
	t.Helper()
	res := f.send("POST", path, strings.NewReader(body),
		append([]string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}, headers...)...)
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("POST %s %s: %d, want %d\n%.2000s", path, body, res.StatusCode, want, b)
	}
	var out map[string]any
	if len(b) > 0 && b[0] == '{' {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("answer %s: %v", b, err)
		}
	}
	return out, res
}

func rpc(id int, method string, params any) string {
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func callTool(id int, name string, args map[string]any) string {
	return rpc(id, "tools/call", map[string]any{"name": name, "arguments": args})
}

// toolText is a tools/call answer's text and isError.
func toolText(t *testing.T, ans map[string]any) (string, bool) {
	t.Helper()
	res, ok := ans["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result: %v", ans)
	}
	c := res["content"].([]any)
	if len(c) != 1 || c[0].(map[string]any)["type"] != "text" {
		t.Fatalf("content %v", c)
	}
	return c[0].(map[string]any)["text"].(string), res["isError"] == true
}

func rpcErrorCode(t *testing.T, ans map[string]any) float64 {
	t.Helper()
	e, ok := ans["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error: %v", ans)
	}
	return e["code"].(float64)
}

func TestMCPProtocol(t *testing.T) {
	f := standardSite(t, nil)
	ep := f.base + "/~gitbook/mcp"
	// initialize: the client's version when supported, else the latest.
	ans, res := f.mcpPost(t, http.StatusOK, ep, rpc(1, "initialize", map[string]any{"protocolVersion": "2025-03-26",
		"capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "test", "version": "1"}}))
	if res.Header.Get("Content-Type") != "application/json" {
		t.Errorf("Content-Type %q", res.Header.Get("Content-Type"))
	}
	r := ans["result"].(map[string]any)
	if r["protocolVersion"] != "2025-03-26" || r["serverInfo"].(map[string]any)["name"] != "Acme Docs" || ans["id"].(float64) != 1 {
		t.Errorf("initialize %v", ans)
	}
	if _, ok := r["capabilities"].(map[string]any)["tools"]; !ok {
		t.Errorf("capabilities %v", r["capabilities"])
	}
	ans, _ = f.mcpPost(t, http.StatusOK, ep, rpc(2, "initialize", map[string]any{"protocolVersion": "2099-01-01"}))
	if v := ans["result"].(map[string]any)["protocolVersion"]; v != "2025-06-18" {
		t.Errorf("unsupported version negotiated to %v", v)
	}
	// Notifications and client responses: 202, no body.
	_, res = f.mcpPost(t, http.StatusAccepted, ep, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "MCP-Protocol-Version", "2025-06-18")
	if b, _ := io.ReadAll(res.Body); len(b) != 0 {
		t.Errorf("202 with a body %q", b)
	}
	f.mcpPost(t, http.StatusAccepted, ep, `{"jsonrpc":"2.0","id":7,"result":{}}`)
	// An unsupported protocol version header: 400.
	f.mcpPost(t, http.StatusBadRequest, ep, rpc(3, "ping", nil), "MCP-Protocol-Version", "1999-01-01")
	ans, _ = f.mcpPost(t, http.StatusOK, ep, `{"jsonrpc":"2.0","id":"p","method":"ping"}`, "MCP-Protocol-Version", "2024-11-05")
	if ans["id"] != "p" || ans["result"] == nil {
		t.Errorf("ping %v", ans)
	}
	// tools/list: two tools with object input schemas.
	ans, _ = f.mcpPost(t, http.StatusOK, ep, rpc(4, "tools/list", nil))
	tools := ans["result"].(map[string]any)["tools"].([]any)
	names := map[string]bool{}
	for _, x := range tools {
		tl := x.(map[string]any)
		names[tl["name"].(string)] = true
		if tl["inputSchema"].(map[string]any)["type"] != "object" {
			t.Errorf("schema of %v", tl)
		}
	}
	if len(tools) != 2 || !names["searchDocumentation"] || !names["getPage"] {
		t.Errorf("tools %v", tools)
	}
	// Errors.
	for _, c := range []struct {
		name, body string
		status     int
		code       float64
	}{
		{"bad JSON", `{"jsonrpc":"2.0","id":1,`, http.StatusBadRequest, -32700},
		{"empty body", ``, http.StatusBadRequest, -32700},
		{"not an object", `"hello"`, http.StatusBadRequest, -32600},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, http.StatusBadRequest, -32600},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, http.StatusBadRequest, -32600},
		{"empty batch", `[]`, http.StatusBadRequest, -32600},
		{"unknown method", rpc(5, "resources/list", nil), http.StatusOK, -32601},
		{"initialize without version", rpc(5, "initialize", map[string]any{}), http.StatusOK, -32602},
		{"params not an object", rpc(5, "tools/list", []int{1}), http.StatusOK, -32602},
		{"unknown tool", callTool(5, "deleteEverything", map[string]any{}), http.StatusOK, -32602},
		{"missing argument", callTool(5, "searchDocumentation", map[string]any{}), http.StatusOK, -32602},
		{"wrong argument type", callTool(5, "getPage", map[string]any{"url": 12}), http.StatusOK, -32602},
		{"arguments not an object", rpc(5, "tools/call", map[string]any{"name": "getPage", "arguments": "x"}), http.StatusOK, -32602},
	} {
		ans, _ := f.mcpPost(t, c.status, ep, c.body)
		if got := rpcErrorCode(t, ans); got != c.code {
			t.Errorf("%s: code %v, want %v", c.name, got, c.code)
		}
	}
	// A batch: answers for its requests only.
	b := "[" + rpc(8, "ping", nil) + `,{"jsonrpc":"2.0","method":"notifications/initialized"},` + rpc(9, "nope", nil) + "]"
	res = f.send("POST", ep, strings.NewReader(b))
	raw, _ := io.ReadAll(res.Body)
	var batch []map[string]any
	if err := json.Unmarshal(raw, &batch); err != nil || res.StatusCode != http.StatusOK || len(batch) != 2 {
		t.Fatalf("batch: %d %s", res.StatusCode, raw)
	}
	if batch[0]["id"].(float64) != 8 || rpcErrorCode(t, batch[1]) != -32601 {
		t.Errorf("batch %v", batch)
	}
	// GET (no event stream) and DELETE (no sessions): 405, Allow: POST.
	for _, m := range []string{"GET", "DELETE"} {
		res := f.send(m, ep, nil)
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "POST" {
			t.Errorf("%s: %d, Allow %q", m, res.StatusCode, res.Header.Get("Allow"))
		}
	}
	// Another site's scripts in a browser: refused.
	f.mcpPost(t, http.StatusForbidden, ep, rpc(1, "ping", nil), "Origin", "https://evil.example")
	f.mcpPost(t, http.StatusOK, ep, rpc(1, "ping", nil), "Origin", "https://app.test")
}

func TestMCPTools(t *testing.T) {
	f := standardSite(t, nil)
	ep := f.base + "/~gitbook/mcp"
	abs := "https://app.test" + f.base
	ans, _ := f.mcpPost(t, http.StatusOK, ep, callTool(1, "searchDocumentation", map[string]any{"query": "child"}))
	text, isErr := toolText(t, ans)
	if isErr {
		t.Fatalf("search failed: %s", text)
	}
	testkit.Contains(t, "search", text, "### Child page\nURL: "+abs+"/blocks/child-page\n", "In: Blocks")
	ans, _ = f.mcpPost(t, http.StatusOK, ep, callTool(2, "searchDocumentation", map[string]any{"query": "zzzqqq"}))
	text, _ = toolText(t, ans)
	testkit.Contains(t, "no match", text, "No page of Acme Docs matches")
	// Empty query: a tool error.
	ans, _ = f.mcpPost(t, http.StatusOK, ep, callTool(2, "searchDocumentation", map[string]any{"query": "  "}))
	if _, isErr := toolText(t, ans); !isErr {
		t.Errorf("empty query: %v", ans)
	}
	// getPage answers what the page's .md serves, by URL or path.
	md, _ := f.body(t, http.StatusOK, f.base+"/blocks/child-page.md")
	for _, ref := range []string{abs + "/blocks/child-page", abs + "/blocks/child-page.md#x", "blocks/child-page", "/blocks/child-page",
		f.base + "/blocks/child-page"} {
		ans, _ = f.mcpPost(t, http.StatusOK, ep, callTool(3, "getPage", map[string]any{"url": ref}))
		text, isErr = toolText(t, ans)
		if isErr || text != md {
			t.Errorf("getPage %s: %v %q, want %q", ref, isErr, text, md)
		}
	}
	// The site's root is its first page; a hidden page is read at its URL, as in HTML.
	intro, _ := f.body(t, http.StatusOK, f.base+"/introduction.md")
	ans, _ = f.mcpPost(t, http.StatusOK, ep, callTool(4, "getPage", map[string]any{"url": abs + "/"}))
	if text, _ = toolText(t, ans); text != intro {
		t.Errorf("root: %q", text)
	}
	ans, _ = f.mcpPost(t, http.StatusOK, ep, callTool(4, "getPage", map[string]any{"url": "secret"}))
	text, _ = toolText(t, ans)
	testkit.Contains(t, "hidden page", text, "Not in navigation.")
	// Not pages: a tool error, not a protocol one.
	for _, ref := range []string{"no/such/page", "https://other.example/sites/x/docs/blocks", "reference", "https://app.test/sites/other/docs/blocks"} {
		ans, _ = f.mcpPost(t, http.StatusOK, ep, callTool(5, "getPage", map[string]any{"url": ref}))
		if text, isErr := toolText(t, ans); !isErr {
			t.Errorf("getPage %s: %q", ref, text)
		}
	}
}

func TestMCPAudience(t *testing.T) {
	t.Run("unpublished and excluded", func(t *testing.T) {
		f := standardSite(t, nil)
		ep := f.base + "/~gitbook/mcp"
		f.mcpPost(t, http.StatusOK, ep, rpc(1, "ping", nil))
		f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"agentsContext": "excluded"})
		f.mcpPost(t, http.StatusNotFound, ep, rpc(1, "initialize", map[string]any{"protocolVersion": "2025-06-18"}))
		f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"agentsContext": "included"})
		f.mcpPost(t, http.StatusOK, ep, rpc(1, "ping", nil))
		f.As(t, "admin").Expect(http.StatusOK, "POST", f.sitePth+"/unpublish", nil)
		ans, _ := f.mcpPost(t, http.StatusNotFound, ep, rpc(1, "ping", nil))
		if strings.Contains(ans["error"].(map[string]any)["message"].(string), "Acme") {
			t.Errorf("404 names the site: %v", ans)
		}
		f.mcpPost(t, http.StatusNotFound, "/sites/"+f.Org.ID+"/nosuch/~gitbook/mcp", rpc(1, "ping", nil))
	})
	t.Run("share link", func(t *testing.T) {
		f := standardSite(t, map[string]any{"visibility": "share-link"})
		ep := f.base + "/~gitbook/mcp"
		f.mcpPost(t, http.StatusNotFound, ep, rpc(1, "ping", nil))
		l := f.As(t, "admin").Expect(http.StatusCreated, "POST", f.sitePth+"/share-links", map[string]any{"name": "Partners"}).Map(t)
		_, key, _ := strings.Cut(l["urls"].(map[string]any)["published"].(string), "?shareKey=")
		f.mcpPost(t, http.StatusNotFound, ep+"?shareKey=wrong", rpc(1, "ping", nil))
		withKey := ep + "?shareKey=" + key
		ans, _ := f.mcpPost(t, http.StatusOK, withKey, callTool(1, "searchDocumentation", map[string]any{"query": "child"}))
		text, _ := toolText(t, ans)
		testkit.Contains(t, "share-link search", text, "https://app.test"+f.base+"/blocks/child-page?shareKey="+key)
		ans, _ = f.mcpPost(t, http.StatusOK, withKey, callTool(2, "getPage", map[string]any{"url": "blocks/child-page"}))
		text, _ = toolText(t, ans)
		testkit.Contains(t, "share-link page", text, "A child.")
		f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth+"/share-links/"+l["id"].(string), map[string]any{"active": false})
		f.mcpPost(t, http.StatusNotFound, withKey, rpc(1, "ping", nil))
	})
	t.Run("visitor auth and conditions", func(t *testing.T) {
		f := standardSite(t, map[string]any{"visibility": "visitor-auth"})
		beta, _ := f.newSpace(t, "Beta", page("b", "", "# Beta notes\n\nFor testers, zebra.\n"))
		extra, _ := f.newSpace(t, "Extra", page("e", "", "# Extra\n\nMore.\n"))
		c := f.As(t, "admin")
		c.Expect(http.StatusCreated, "POST", f.sitePth+"/sections", map[string]any{"spaceId": extra, "title": "Guide"})
		betaID := c.Expect(http.StatusCreated, "POST", f.sitePth+"/sections", map[string]any{"spaceId": beta, "title": "Beta"}).Map(t)["id"].(string)
		c.Expect(http.StatusOK, "PATCH", f.sitePth+"/sections/"+betaID, map[string]any{"path": "testers", "condition": "visitor.claims.isBeta === true"})
		ep := f.base + "/~gitbook/mcp"
		_, res := f.mcpPost(t, http.StatusUnauthorized, ep, rpc(1, "ping", nil))
		if !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("WWW-Authenticate %q", res.Header.Get("WWW-Authenticate"))
		}
		f.mcpPost(t, http.StatusUnauthorized, ep, rpc(1, "ping", nil), "Authorization", "Bearer not-a-token")
		tester := f.visitorToken(t, map[string]any{"isBeta": true})
		other := f.visitorToken(t, map[string]any{"isBeta": false})
		search := callTool(1, "searchDocumentation", map[string]any{"query": "zebra"})
		read := callTool(2, "getPage", map[string]any{"url": "testers/beta-notes"})
		// The tester sees the section (by the header, or the reader's cookie).
		ans, _ := f.mcpPost(t, http.StatusOK, ep, search, "Authorization", "Bearer "+tester)
		text, _ := toolText(t, ans)
		testkit.Contains(t, "tester's search", text, "Beta notes")
		ans, _ = f.mcpPost(t, http.StatusOK, ep, read, "Cookie", "galley_visitor="+tester)
		text, isErr := toolText(t, ans)
		if isErr {
			t.Fatalf("tester's read: %s", text)
		}
		testkit.Contains(t, "tester's read", text, "For testers")
		// Another visitor finds and reads nothing of it.
		ans, _ = f.mcpPost(t, http.StatusOK, ep, search, "Authorization", "Bearer "+other)
		text, _ = toolText(t, ans)
		testkit.Lacks(t, "other's search", text, "Beta notes", "testers")
		testkit.Contains(t, "other's search", text, "No page of Acme Docs matches")
		for _, ref := range []string{"testers/beta-notes", "https://app.test" + f.base + "/testers/beta-notes", "testers/"} {
			ans, _ = f.mcpPost(t, http.StatusOK, ep, callTool(3, "getPage", map[string]any{"url": ref}), "Authorization", "Bearer "+other)
			text, isErr = toolText(t, ans)
			if !isErr && strings.Contains(text, "testers") {
				t.Errorf("other visitor read %s: %q", ref, text)
			}
			testkit.Lacks(t, "other's read of "+ref, text, "Beta notes", "For testers")
		}
		// The URL's token works too.
		f.mcpPost(t, http.StatusOK, ep+"?jwt_token="+url.QueryEscape(tester), rpc(1, "ping", nil))
	})
}
