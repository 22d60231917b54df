package gitsync_test

import (
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/testkit"
)

// A repository with GitBook's escapes and anchors: a group heading with
// its anchor, a title with markdown escapes.
var escapedRepo = map[string]string{
	"SUMMARY.md":      "# Table of contents\n\n* [Home](README.md)\n\n## Reference <a href=\"#ref\" id=\"ref\"></a>\n\n* [Windows (C++)](windows.md)\n\n## Guides\n\n* [Setup](guides/setup.md)\n",
	"README.md":       "# Home\n\nStart here.\n",
	"windows.md":      "# Windows \\(C++\\) \\_build\\_\n\nBuild it.\n",
	"guides/setup.md": "# Setup\n\nSteps.\n",
}

// A group heading GitBook wrote with its anchor is the group's title and
// slug; a title's markdown escapes are read as the characters they stand
// for. Export leaves both files as they were unless they change: a new
// body keeps the title line's bytes, a renamed group keeps its slug in
// GitBook's anchor.
func TestEscapedTitlesAndGroupAnchors(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		bare := f.git.repo(t, "docs", escapedRepo)
		sp, pages, ix := f.importNew(t, "docs", nil)
		if got := strings.Join(keysOf(pages), ","); got != "00 home,01 ref,02 ref/windows,03 guides,04 guides/setup" {
			t.Fatalf("pages %s", got)
		}
		if p := pages["01 ref"]; p.Type != content.TypeGroup || p.Title != "Reference" {
			t.Errorf("the anchored group: %+v", p)
		}
		if p := pages["02 ref/windows"]; p.Title != "Windows (C++) _build_" {
			t.Errorf("the escaped title is %q", p.Title)
		}
		f.exportNothing(t, sp, bare)

		// A new body: the title line keeps its escapes.
		win := ix.ByPath("ref/windows").ID
		f.edit(t, sp, win, func(body string) string { return body + "\nOn Windows 11.\n" })
		f.exportTo(t, sp, "docs", "edit", nil)
		if got := gitOK(bare, "show", "main:windows.md"); got != "# Windows \\(C++\\) \\_build\\_\n\nBuild it.\n\nOn Windows 11.\n" {
			t.Errorf("windows.md after an edit: %q", got)
		}
		if got := gitOK(bare, "show", "main:SUMMARY.md"); got != escapedRepo["SUMMARY.md"] {
			t.Errorf("SUMMARY.md after a page edit:\n%s", got)
		}

		// The group renamed: GitBook's anchor keeps its slug; the other
		// group (slug and title agree) has none.
		ref := ix.ByPath("ref").ID
		f.editPage(t, sp, ref, func(p *content.Page, _ *content.Index) { p.Title = "API reference" })
		f.exportTo(t, sp, "docs", "rename", nil)
		toc := gitOK(bare, "show", "main:SUMMARY.md")
		if !strings.Contains(toc, "\n## API reference <a href=\"#ref\" id=\"ref\"></a>\n") || !strings.Contains(toc, "\n## Guides\n") {
			t.Errorf("SUMMARY.md after the rename:\n%s", toc)
		}
		_, again, _ := f.importNew(t, "docs", nil)
		if p, ok := again["01 ref"]; !ok || p.Title != "API reference" {
			t.Errorf("re-imported: %v", keysOf(again))
		}
	})
}

// The gitbook-docs fixture's "## Get Started <a href="#getting-started"
// id="getting-started"></a>": the group is "Get Started" (slug
// getting-started); renamed, only its heading line changes.
func TestFixtureGroupAnchor(t *testing.T) {
	f := setup(t)
	bare := f.git.fromBundle(t, "repo", fixtureBundle(t, "gitbook-docs"))
	ref := map[string]any{"ref": "refs/heads/main"}
	sp := f.space(t)
	f.importRepo(t, sp, "repo", ref)
	_, pages, ix := f.head(t, sp)
	var group *content.Page
	for _, id := range ix.Children("") {
		if p := ix.Page(id); p.Type == content.TypeGroup && p.Slug == "getting-started" {
			group = p
		}
	}
	if group == nil || group.Title != "Get Started" {
		t.Fatalf("the group getting-started: %+v", group)
	}
	for k, p := range pages {
		if strings.Contains(p.Title, "<a ") {
			t.Errorf("%s is titled %q", k, p.Title)
		}
	}
	f.editPage(t, sp, group.ID, func(p *content.Page, _ *content.Index) { p.Title = "Start here" })
	f.exportTo(t, sp, "repo", "rename", ref)
	// A renamed group rewrites SUMMARY.md (which loses what the space
	// does not hold: its *** separator, items to anchors of a page listed
	// already); the heading is GitBook's.
	if toc := gitOK(bare, "show", "main:SUMMARY.md"); !strings.Contains(toc, "\n## Start here <a href=\"#getting-started\" id=\"getting-started\"></a>\n") {
		t.Errorf("SUMMARY.md after the rename:\n%s", toc)
	}
}
