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

// The theme toggle (themes.toggeable, on by default): the dark rules in
// an element of their own, the head's script after it applying the
// visitor's choice, the header's menu; a site that turns it off has
// none of them.
func TestThemeToggle(t *testing.T) {
	f := standardSite(t, nil)
	html, _ := f.body(t, http.StatusOK, f.base+"/")
	head := between(html, "<head>", "</head>")
	testkit.Contains(t, "head", head, `<script data-default="system">`, "localStorage.getItem(")
	// The dark rules are sent once, in their own element, whose media the
	// script (in the head: before the first paint) sets from the choice.
	dark := strings.Index(head, `<style id="theme-dark" media="(prefers-color-scheme: dark)">`)
	if dark < 0 || strings.Index(head, "<script") < dark || strings.Count(head, ".logo-light{display:none}") != 1 {
		t.Errorf("the head's dark style element (at %d), its script (at %d), the dark rules %d times",
			dark, strings.Index(head, "<script"), strings.Count(head, ".logo-light{display:none}"))
	}
	testkit.Contains(t, "toggle", html, `<select class="theme-choice" aria-label="Theme" hidden><option value="system">System</option><option value="light">Light</option><option value="dark">Dark</option></select>`)
	f.customize(t, map[string]map[string]any{"themes": {"default": "dark", "toggeable": true}})
	html, _ = f.body(t, http.StatusOK, f.base+"/")
	testkit.Contains(t, "dark by default", html, `<script data-default="dark">`)
	f.customize(t, map[string]map[string]any{"themes": {"default": "light", "toggeable": false}})
	html, _ = f.body(t, http.StatusOK, f.base+"/")
	testkit.Lacks(t, "no toggle", html, "data-default=", `class="theme-choice"`, `id="theme-dark"`)
}
