package gitsync_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/sites"

	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testenv"
)

// syncedPage tells whether a state's synced files give page the file rel.
func syncedPage(t testing.TB, f *fixture, st model.GitSync, page, rel string) bool {
	t.Helper()
	files, err := gitstate.SyncedOf(f.Kit.Ctx, f.Kit.Deps.Blobs, st)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Page == page {
			return f.Path == rel
		}
	}
	return false
}

// fixtureBundle is a Git bundle of ../shared/fixtures/gitsync (real
// repositories GitBook's Git Sync wrote).
func fixtureBundle(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "fixtures", "gitsync", name+".bundle"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		testenv.Missing(t, "the fixture "+p+" (../shared/fixtures beside the repository)")
	}
	return p
}

// fromBundle serves a bundle's clone as name.git.
func (gs *gitServer) fromBundle(t testing.TB, name, bundle string) string {
	t.Helper()
	bare := filepath.Join(gs.root, name+".git")
	git(t, gs.root, "clone", "-q", "--bare", bundle, bare)
	git(t, bare, "config", "http.receivepack", "true")
	return bare
}

// edit replaces a page's body in the space's head (a new revision).
func (f *fixture) edit(t *testing.T, spaceID, pageID string, change func(string) string) {
	t.Helper()
	repo := content.NewRepo(f.Kit.Deps)
	f.restructure(t, spaceID, func(ix *content.Index) {
		p := *ix.Page(pageID)
		body, err := repo.Document(f.Kit.Ctx, spaceID, p.Document)
		if err == nil {
			p.Document, err = repo.PutDocument(f.Kit.Ctx, spaceID, change(body))
		}
		if err != nil {
			t.Fatal(err)
		}
		ix.Put(p)
	})
}

// relativeLink finds relative links to markdown files left in bodies:
// links an import could not resolve to a page.
var relativeLink = regexp.MustCompile(`\]\((?:<)?([^)#:>]+\.md)`)

// Real repositories written by GitBook round-trip: an import then an
// export without edit pushes nothing; one edited page changes exactly
// that page's file; the export imported again gives the same pages,
// titles, order, bodies and files.
func TestFixtureRepositoriesRoundTrip(t *testing.T) {
	for name, branch := range map[string]string{"git-sync-normalization": "master", "gitbook-docs": "main"} {
		t.Run(name, func(t *testing.T) {
			ref := map[string]any{"ref": "refs/heads/" + branch}
			f := setup(t)
			bare := f.git.fromBundle(t, "repo", fixtureBundle(t, name))
			sp := f.space(t)
			start := time.Now()
			f.importRepo(t, sp, "repo", ref)
			imported := time.Since(start)
			f.succeeded(t, sp, "import")
			_, before, ix := f.head(t, sp)
			head0 := strings.TrimSpace(gitOK(bare, "rev-parse", branch))

			start = time.Now()
			f.exportTo(t, sp, "repo", "no edit", ref)
			exported := time.Since(start)
			f.succeeded(t, sp, "export")
			if got := strings.TrimSpace(gitOK(bare, "rev-parse", branch)); got != head0 {
				t.Fatalf("an export without edit pushed %s over %s:\n%s", got, head0, gitOK(bare, "diff", "--stat", head0, got))
			}

			// One page edited: its file changes, and nothing else.
			var page *content.Page
			ix.Walk(func(p *content.Page, depth int) bool {
				if page == nil && depth > 0 && p.Type == content.TypeDocument && p.Document != "" && p.Git != nil {
					page = p
				}
				return page == nil
			})
			if page == nil {
				ix.Walk(func(p *content.Page, _ int) bool {
					if page == nil && p.Type == content.TypeDocument && p.Document != "" && p.Git != nil {
						page = p
					}
					return page == nil
				})
			}
			f.edit(t, sp, page.ID, func(body string) string { return body + "\nEdited in Galley.\n" })
			f.exportTo(t, sp, "repo", "one edit", ref)
			head1 := strings.TrimSpace(gitOK(bare, "rev-parse", branch))
			changed := strings.Split(strings.TrimRight(gitOK(bare, "diff", "-z", "--name-only", head0, head1), "\x00"), "\x00")
			if len(changed) != 1 || changed[0] != page.Git.Path {
				t.Fatalf("editing %s changed %v", page.Git.Path, changed)
			}
			text := gitOK(bare, "show", head1+":"+page.Git.Path)
			if !strings.HasSuffix(text, "\nEdited in Galley.\n") {
				t.Fatalf("the edited page's file ends %q", text[max(0, len(text)-80):])
			}
			all := strings.Split(strings.TrimRight(gitOK(bare, "ls-tree", "-r", "-z", "--name-only", head1), "\x00"), "\x00")
			identical := 0
			for _, p := range all {
				if strings.HasSuffix(p, ".md") && gitOK(bare, "rev-parse", head0+":"+p) == gitOK(bare, "rev-parse", head1+":"+p) {
					identical++
				}
			}

			// The export, imported again, is the same space.
			_, again, ix2 := f.importNew(t, "repo", ref)
			_, edited, ix1 := f.head(t, sp)
			samePages(t, edited, again)
			names := func(ix *content.Index) string {
				var out []string
				for _, fl := range ix.Files() {
					out = append(out, fl.Name)
				}
				sort.Strings(out)
				return strings.Join(out, ",")
			}
			if names(ix1) != names(ix2) {
				t.Errorf("files after the round trip differ: %d before, %d after", len(ix1.Files()), len(ix2.Files()))
			}
			broken := 0
			for _, p := range before {
				broken += len(relativeLink.FindAllString(withoutCode(p.Body), -1))
			}
			t.Logf("%s: %d pages, %d files; import %v, export without edit %v; after one edit %d of %d markdown files byte-identical; %d relative .md links left unresolved",
				name, len(before), len(ix.Files()), imported.Round(time.Millisecond), exported.Round(time.Millisecond), identical, countMD(all), broken)
		})
	}
}

// withoutCode is a body without its fenced code blocks (examples of
// markdown, not links).
func withoutCode(body string) string {
	var b strings.Builder
	fence := ""
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
		default:
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

func countMD(paths []string) int {
	n := 0
	for _, p := range paths {
		if strings.HasSuffix(p, ".md") {
			n++
		}
	}
	return n
}

// exportNothing exports the space to the repository docs (bare) without
// an edit, fails if that made a commit, and returns main's commit.
func (f *fixture) exportNothing(t *testing.T, sp, bare string) string {
	t.Helper()
	head := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	f.exportTo(t, sp, "docs", "nothing", nil)
	if got := strings.TrimSpace(gitOK(bare, "rev-parse", "main")); got != head {
		t.Fatalf("an export without edit committed:\n%s", gitOK(bare, "show", "--stat", got))
	}
	return head
}

// restructure changes the space's head tree with fn (a new revision).
// editPage changes one page of a space's head, as restructure does.
func (f *fixture) editPage(t *testing.T, spaceID, pageID string, fn func(p *content.Page, ix *content.Index)) {
	t.Helper()
	f.restructure(t, spaceID, func(ix *content.Index) {
		p := *ix.Page(pageID)
		fn(&p, ix)
		ix.Put(p)
	})
}

func (f *fixture) restructure(t *testing.T, spaceID string, fn func(ix *content.Index)) {
	t.Helper()
	repo := content.NewRepo(f.Kit.Deps)
	_, _, err := changerequestswire.Service(f.Root).LandOnSpace(f.Kit.Ctx, spaceID, false,
		func(ctx context.Context, base model.Revision, ix *content.Index) (model.Revision, []store.Op, error) {
			fn(ix)
			rev, err := repo.NewRevision(ctx, spaceID, content.RevisionEdits, []string{base.ID}, ix)
			return rev, nil, err
		})
	if err != nil {
		t.Fatal(err)
	}
}

var gitbookRepo = map[string]string{
	"SUMMARY.md": "# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Error 001](guide/error\\_001.md)\n* [Shots](shots.md)\n",
	"README.md": "---\ndescription: Start here\ncover: .gitbook/assets/cover.png\ncoverY: 12\nlayout:\n  title:\n    visible: false\n  cover:\n    visible: true\n    size: full\n---\n\n" +
		"# Home\n\nRead the [guide](guide/) and [error 1](guide/error_001.md).\n\n\n",
	"guide/README.md":                   "# Guide\n\nBack [home](../README.md), or [contribute](../CONTRIBUTING.md).\n",
	"guide/error_001.md":                "# Error 001\n\nFix it.\n",
	"shots.md":                          "# Shots\n\n![Screen](<.gitbook/assets/Screen Shot 1.png>)\n",
	".gitbook/assets/Screen Shot 1.png": string(pixel),
	".gitbook/assets/cover.png":         string(pixel),
	"CONTRIBUTING.md":                   "# Contributing\n",
}

// GitBook's markdown as GitBook writes it: documented frontmatter, escaped
// SUMMARY.md targets, folder links, angle-bracket destinations. A moved
// page moves its file and the links to it are rewritten in pages left as
// they were; files the space does not own stay; a new branch starts from
// the one the space synced with.
func TestExportMovesFilesAndKeepsWhatItDoesNotOwn(t *testing.T) {
	f := setup(t)
	bare := f.git.repo(t, "docs", gitbookRepo)
	sp, pages, ix := f.importNew(t, "docs", nil)
	want := []string{"00 home", "01 guide", "02 guide/error-001", "03 shots"}
	if got := keysOf(pages); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("pages %v, want %v", got, want)
	}
	home := ix.Page(ix.ByPath("home").ID)
	if home.Description != "Start here" || home.Layout == nil || home.Layout.Title || home.Layout.CoverSize != "full" ||
		home.Cover == nil || home.Cover.Ref.Kind != "file" || home.Cover.YPos != 12 {
		t.Errorf("home's frontmatter: %+v layout %+v cover %+v", home, home.Layout, home.Cover)
	}
	if b := pages["00 home"].Body; b != "Read the [guide](/pages/<guide>) and [error 1](/pages/<guide/error-001>).\n" {
		t.Errorf("home body %q", b)
	}
	if b := pages["03 shots"].Body; b != "![Screen](/files/<Screen Shot 1.png>)\n" {
		t.Errorf("shots body %q", b)
	}
	head0 := f.exportNothing(t, sp, bare)

	// Error 001 moves to the top level.
	errID := ix.ByPath("guide/error-001").ID
	f.editPage(t, sp, errID, func(p *content.Page, ix *content.Index) { p.Parent, p.Pos = "", ix.PosAt("", -1, p.ID) })
	f.exportTo(t, sp, "docs", "move", nil)
	head1 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	diff := strings.Fields(gitOK(bare, "diff", "--name-status", head0, head1))
	if got := strings.Join(diff, " "); got != "M README.md M SUMMARY.md R100 guide/error_001.md error-001.md" && got != "M README.md M SUMMARY.md D guide/error_001.md A error-001.md" {
		t.Fatalf("the move changed: %s", got)
	}
	readme := gitOK(bare, "show", head1+":README.md")
	if want := strings.Replace(gitbookRepo["README.md"], "(guide/error_001.md)", "(error-001.md)", 1); readme != want {
		t.Errorf("README.md after the move:\n%q\nwant\n%q", readme, want)
	}
	if !strings.Contains(gitOK(bare, "show", head1+":SUMMARY.md"), "* [Error 001](error-001.md)") {
		t.Errorf("SUMMARY.md after the move:\n%s", gitOK(bare, "show", head1+":SUMMARY.md"))
	}

	// A new branch starts from main: the files the space does not own are
	// there, and its commit follows main's.
	f.edit(t, sp, errID, func(body string) string { return body + "\nAnd check the logs.\n" })
	f.exportTo(t, sp, "docs", "preview", map[string]any{"ref": "refs/heads/preview"})
	if parent := strings.TrimSpace(gitOK(bare, "rev-parse", "preview^")); parent != head1 {
		t.Errorf("the new branch's commit follows %s, want main's %s", parent, head1)
	}
	if got := gitOK(bare, "show", "preview:CONTRIBUTING.md"); got != "# Contributing\n" {
		t.Errorf("CONTRIBUTING.md on the new branch: %q", got)
	}
	if diff := strings.Fields(gitOK(bare, "diff", "--name-only", "main", "preview")); strings.Join(diff, " ") != "error-001.md" {
		t.Errorf("the new branch differs from main by %v", diff)
	}

	// A new page goes to its slug path, its links written relative to it.
	repo := content.NewRepo(f.Kit.Deps)
	doc, err := repo.PutDocument(f.Kit.Ctx, sp, "See [the error](/pages/"+errID+").\n")
	if err != nil {
		t.Fatal(err)
	}
	guide := ix.ByPath("guide").ID
	f.restructure(t, sp, func(ix *content.Index) {
		ix.Put(content.Page{ID: "faq-page", Parent: guide, Pos: ix.PosAt(guide, -1, ""), Type: content.TypeDocument,
			Title: "FAQ", Slug: "faq", Document: doc})
	})
	f.exportTo(t, sp, "docs", "faq", nil)
	if got := gitOK(bare, "show", "main:guide/faq.md"); got != "# FAQ\n\nSee [the error](../error-001.md).\n" {
		t.Errorf("the new page's file: %q", got)
	}
	if toc := gitOK(bare, "show", "main:SUMMARY.md"); !strings.Contains(toc, "  * [FAQ](guide/faq.md)") {
		t.Errorf("SUMMARY.md with the new page:\n%s", toc)
	}
}

// .gitbook.yaml moves the docs' root and renames the first page and the
// table of contents; an export writes there, and leaves the file (and its
// redirects) as it is.
func TestGitBookYAMLPlacesTheProject(t *testing.T) {
	f := setup(t)
	yml := "root: ./docs/\n\nstructure:\n  readme: intro.md\n  summary: toc.md\n\nredirects:\n  old/page: guide.md\n"
	bare := f.git.repo(t, "docs", map[string]string{
		".gitbook.yaml":  yml,
		"README.md":      "# The repository's own readme\n",
		"docs/toc.md":    "# Contents\n\n* [Introduction](intro.md)\n* [Guide](guide.md)\n",
		"docs/intro.md":  "# Introduction\n\nSee the [guide](guide.md).\n",
		"docs/guide.md":  "# Guide\n\nSteps.\n",
		"docs/README.md": "# Not a page of the summary\n",
	})
	sp, pages, ix := f.importNew(t, "docs", nil)
	if got := strings.Join(keysOf(pages), ","); got != "00 intro,01 guide" {
		t.Fatalf("pages %s", got)
	}
	head0 := f.exportNothing(t, sp, bare)
	guide := ix.ByPath("guide").ID
	f.editPage(t, sp, guide, func(p *content.Page, _ *content.Index) { p.Title = "The guide" })
	f.exportTo(t, sp, "docs", "retitle", nil)
	changed := strings.Fields(gitOK(bare, "diff", "--name-only", head0, "main"))
	if strings.Join(changed, " ") != "docs/guide.md docs/toc.md" {
		t.Fatalf("a new title changed %v", changed)
	}
	if toc := gitOK(bare, "show", "main:docs/toc.md"); !strings.Contains(toc, "* [The guide](guide.md)") {
		t.Errorf("toc.md:\n%s", toc)
	}
	if got := gitOK(bare, "show", "main:.gitbook.yaml"); got != yml {
		t.Errorf(".gitbook.yaml changed:\n%s", got)
	}
	// The state keeps the docs' root its synced files are relative to
	// (the reader's edit links join them).
	if st, _, err := gitstate.Get(f.Kit.Ctx, f.Kit.Deps.Store, sp); err != nil || st.Dir != "docs" || !syncedPage(t, f, st, guide, "guide.md") {
		t.Errorf("state dir %q, synced %s (%v)", st.Dir, st.SyncedList, err)
	}
	// Its redirects are the space's, resolved to pages, for readers.
	redirects, err := f.svc.Redirects(f.Ctx("admin"), sp)
	if err != nil || len(redirects) != 1 || redirects["old/page"] != guide {
		t.Errorf("redirects %v (%v), want old/page -> %s", redirects, err, guide)
	}
	// In a site, they are the site's (permanent, to the page); the next
	// import takes a removed one away and leaves the API's alone.
	site, _, err := siteswire.Service(f.Root).Create(f.Ctx("admin"), f.Org.ID, sites.CreateSite{Title: "Docs", SpaceIDs: []string{sp}})
	if err != nil {
		t.Fatal(err)
	}
	siteSpace := site.SiteSpaces[0].ID
	own := "/mine"
	if _, err := siteswire.Service(f.Root).CreateRedirect(f.Ctx("admin"), f.Org.ID, site.ID, sites.RedirectInput{Source: &own,
		Destination: &sites.RedirectDestination{Kind: sites.DestSiteSpace, SiteSpaceID: siteSpace}}); err != nil {
		t.Fatal(err)
	}
	f.importRepo(t, sp, "docs", map[string]any{"force": true})
	live := func() map[string]sites.Redirect {
		p, err := siteswire.Service(f.Root).Redirects(f.Ctx("admin"), f.Org.ID, site.ID, sites.RedirectFilter{}, paging.Request{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]sites.Redirect{}
		for _, r := range p.Items {
			out[r.Source] = r
		}
		return out
	}
	got := live()
	if r, ok := got["/old/page"]; !ok || !r.Permanent || r.Destination.Kind != sites.DestPage || r.Destination.PageID != guide || len(got) != 2 {
		t.Fatalf("site redirects after the import: %+v", got)
	}
	f.git.commit(t, "docs", "no redirects", map[string]string{".gitbook.yaml": "root: ./docs/\n\nstructure:\n  readme: intro.md\n  summary: toc.md\n"})
	f.importRepo(t, sp, "docs", map[string]any{"force": true})
	if got := live(); len(got) != 1 || got["/mine"].Source != "/mine" {
		t.Fatalf("site redirects after the repository dropped its own: %+v", got)
	}
}
