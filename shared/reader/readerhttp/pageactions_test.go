package readerhttp_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// The site's announcement (customization announcement) is a banner above
// the header on every page, with its link resolved as header links are;
// the page actions pageActions.items enables are under the title:
// markdown (copy the page as Markdown, its .md link) and external-ai
// (plain links opening an assistant with the page's Markdown URL).
func TestAnnouncementAndPageActions(t *testing.T) {
	f := standardSite(t, nil)
	html, _ := f.body(t, http.StatusOK, f.base+"/blocks")
	testkit.Lacks(t, "default customization", html, `class="announcement`, `class="page-actions"`)

	f.customize(t, map[string]map[string]any{
		"announcement": {"enabled": true, "message": "Version 2 is out", "style": "warning",
			"link": map[string]any{"title": "Read the API", "to": map[string]any{"kind": "page", "page": f.pages["api"]}}},
		"pageActions": {"items": []any{"markdown", "external-ai"}},
	})
	html, _ = f.body(t, http.StatusOK, f.base+"/blocks")
	md := f.base + "/blocks.md"
	question := strings.ReplaceAll(url.QueryEscape("Read https://app.test"+md+" so I can ask questions about it."), "+", "%20")
	testkit.Contains(t, "customized page", html,
		`<aside class="announcement announcement-warning" aria-label="Announcement"><p>Version 2 is out <a href="`+f.base+`/reference/api">Read the API</a></p></aside>`,
		`<nav class="page-actions" aria-label="Page actions">`,
		`<button type="button" class="copy-page" data-src="`+md+`" hidden>Copy page</button>`,
		`<a href="`+md+`" type="text/markdown">View as Markdown</a>`,
		`<a href="https://chatgpt.com/?hints=search&amp;q=`+question+`" target="_blank" rel="noopener noreferrer">Open in ChatGPT</a>`,
		`<a href="https://claude.ai/new?q=`+question+`" target="_blank" rel="noopener noreferrer">Open in Claude</a>`)
	// Each page's actions name its own Markdown; the .md itself is there.
	root, _ := f.body(t, http.StatusOK, f.base+"/")
	testkit.Contains(t, "first page", root, `data-src="`+f.base+`/introduction.md"`, "Version 2 is out")
	if res := f.get(t, md); res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Errorf("GET %s: %d %s", md, res.StatusCode, b)
	}

	// Only the actions listed; a disabled announcement is not shown.
	f.customize(t, map[string]map[string]any{"announcement": {"enabled": false, "message": "Version 2 is out", "style": "info"},
		"pageActions": {"items": []any{"markdown"}}})
	html, _ = f.body(t, http.StatusOK, f.base+"/blocks")
	testkit.Contains(t, "markdown only", html, `class="copy-page"`)
	testkit.Lacks(t, "markdown only", html, "chatgpt.com", "claude.ai", `class="announcement`)
	// A site closed to agents (agentsContext excluded) has no .md: no
	// Markdown actions.
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"agentsContext": "excluded"})
	html, _ = f.body(t, http.StatusOK, f.base+"/blocks")
	testkit.Lacks(t, "agents excluded", html, `class="page-actions"`)
}
