package readerhttp_test

import (
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/app/wire/gitsyncwire"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// A page of a space synced with a GitHub or GitLab repository links to
// its file there when the site's page actions list `git`: an imported
// page to the file it came from (under the .gitbook.yaml root), a page
// made in Galley to where an export writes it. No link without the page
// action, for a space never synced, nor for another host.
func TestEditOnGitLinks(t *testing.T) {
	repoURL := testenv.GitRepo(t, "handbook", "main", map[string]string{
		".gitbook.yaml":               "root: ./docs/\n",
		"docs/SUMMARY.md":             "# Contents\n\n* [Welcome](README.md)\n* [Setup](guides/setup-guide.md)\n",
		"docs/README.md":              "# Welcome\n\nHello.\n",
		"docs/guides/setup-guide.md":  "# Setup\n\nSteps.\n",
		"docs/guides/not-in-toc.md":   "# Elsewhere\n",
		"README.md":                   "# The repository's readme\n",
		"docs/guides/.keep-this-file": "",
	})
	f := newFixture(t)
	f.Kit.Deps.FetchAllowPrivate = true // the repository is on loopback
	f.Kit.Deps.Queue = nil              // Git Sync runs the import at once
	c := f.As(t, "admin")
	f.space = c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/spaces", map[string]any{"title": "Handbook"}).Map(t)["id"].(string)
	admin := f.Ctx("admin")
	if err := gitsyncwire.Service(f.Root).Import(admin, f.space, gitsync.Request{URL: repoURL, Ref: "refs/heads/main"}); err != nil {
		t.Fatal(err)
	}
	// A page made in Galley after the import, with a child: a folder's README.md.
	crs := "/v1/spaces/" + f.space + "/change-requests"
	n := c.Expect(http.StatusCreated, "POST", crs, map[string]any{"subject": "new pages"}).Map(t)["number"]
	cr := crs + "/" + jsonNumber(n)
	c.Expect(http.StatusOK, "POST", cr+"/content?compat=false", map[string]any{"changes": []any{
		page("faq", "", "# FAQ\n\nAsk.\n"), page("billing", "faq", "# Billing\n\nPay.\n")}})
	c.Expect(http.StatusOK, "POST", cr+"/merge", nil)
	f.publish(t, "Handbook", map[string]any{"basename": "handbook"})

	// remote makes the state name another repository, as an import from
	// it would have left it (the same commit, files and root).
	remote := func(u string) {
		t.Helper()
		st, v, err := gitstate.Get(f.Kit.Ctx, f.Kit.Deps.Store, f.space)
		if err != nil || st.LastCommit == "" || st.Dir != "docs" {
			t.Fatalf("state after the import: %+v, %v", st, err)
		}
		st.LastURL = u
		if err := f.Kit.Deps.Store.Write(f.Kit.Ctx, gitstate.WriteOp(st, v)); err != nil {
			t.Fatal(err)
		}
	}
	editLink := func(path string) string {
		t.Helper()
		b, _ := f.body(t, http.StatusOK, f.base+path)
		return between(b, `<p class="edit-link">`, "</p>")
	}

	// The page action is off by default (pageActions.items is empty).
	remote("https://x-access-token:ghp_secret@github.com/acme/handbook.git")
	if l := editLink("/setup-guide"); l != "" {
		t.Errorf("an edit link without the git page action: %s", l)
	}
	f.customize(t, map[string]map[string]any{"pageActions": {"items": []any{"markdown", "git"}}})
	testkit.Contains(t, "imported page", editLink("/setup-guide"),
		`<a href="https://github.com/acme/handbook/edit/main/docs/guides/setup-guide.md" rel="noopener">Edit on GitHub</a>`)
	testkit.Contains(t, "first page", editLink("/"), `href="https://github.com/acme/handbook/edit/main/docs/README.md"`)
	testkit.Contains(t, "Galley page with a child", editLink("/faq"), `href="https://github.com/acme/handbook/edit/main/docs/faq/README.md"`)
	testkit.Contains(t, "Galley page", editLink("/faq/billing"), `href="https://github.com/acme/handbook/edit/main/docs/faq/billing.md"`)
	b, _ := f.body(t, http.StatusOK, f.base+"/setup-guide")
	testkit.Lacks(t, "page", b, "ghp_secret", "x-access-token")

	// GitLab, in the site's language.
	remote("https://gitlab.com/acme/docs-team/handbook")
	f.customize(t, map[string]map[string]any{"internationalization": {"locale": "fr"}})
	testkit.Contains(t, "GitLab", editLink("/setup-guide"),
		`<a href="https://gitlab.com/acme/docs-team/handbook/-/edit/main/docs/guides/setup-guide.md" rel="noopener">Modifier sur GitLab</a>`)

	// Another host (the loopback repository itself, a self-hosted
	// GitLab): no link.
	for _, u := range []string{repoURL, "https://gitlab.example.com/acme/handbook.git", "http://github.com/acme/handbook"} {
		remote(u)
		if l := editLink("/setup-guide"); l != "" {
			t.Errorf("%s: an edit link %s", u, l)
		}
	}

	// The customization turns it off again.
	remote("https://github.com/acme/handbook")
	if editLink("/setup-guide") == "" {
		t.Fatal("no edit link for a GitHub repository")
	}
	f.customize(t, map[string]map[string]any{"pageActions": {"items": []any{"markdown"}}})
	if l := editLink("/setup-guide"); l != "" {
		t.Errorf("an edit link with the git page action off: %s", l)
	}
}

// A space never synced shows no edit link, whatever the page actions.
func TestNoEditLinkForUnsyncedSpace(t *testing.T) {
	f := standardSite(t, nil)
	f.customize(t, map[string]map[string]any{"pageActions": {"items": []any{"git"}}})
	for _, p := range []string{"/", "/blocks"} {
		b, _ := f.body(t, http.StatusOK, f.base+p)
		testkit.Lacks(t, p, b, `class="edit-link"`, "Edit on")
	}
}
