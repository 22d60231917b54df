package gitsync_test

import (
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/testkit"
)

var includeTarget = regexp.MustCompile(`\{%\s*include\s+"([^"]+)"\s*%\}`)

// changedFiles are the files that differ between two commits of a bare
// repository.
func changedFiles(bare, from, to string) []string {
	out := strings.TrimRight(gitOK(bare, "diff", "-z", "--name-only", from, to), "\x00")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\x00")
}

// The sodadata fixture (a real GitBook space, 457 pages, 102 of them
// including reusable content): import lists its 8 reusable contents with
// their titles, every include of a page names one; an export without edit
// makes no commit; one reusable content edited, the export changes exactly
// its file; a re-import keeps the reusable contents' ids.
func TestSodadataReusableContents(t *testing.T) {
	f := setup(t)
	bare := f.git.fromBundle(t, "repo", fixtureBundle(t, "sodadata-docs"))
	sp := f.space(t)
	start := time.Now()
	f.importRepo(t, sp, "repo", nil)
	imported := time.Since(start)
	f.succeeded(t, sp, "import")
	_, pages, ix := f.head(t, sp)
	rcs := ix.ReusableContents()
	if len(rcs) != 8 {
		t.Fatalf("%d reusable contents, want 8: %+v", len(rcs), rcs)
	}
	titles := map[string]string{}
	for _, rc := range rcs {
		if rc.Git == nil || !strings.HasPrefix(rc.Git.Path, ".gitbook/includes/") || rc.Document == "" {
			t.Fatalf("reusable content %+v", rc)
		}
		titles[rc.Git.Path] = rc.Title
	}
	if got := titles[".gitbook/includes/what-does-the-scan-command-do.md"]; got != "What does the scan command do?" {
		t.Errorf("title %q", got)
	}
	repo := content.NewRepo(f.Kit.Deps)
	body, err := repo.Document(f.Kit.Ctx, sp, ix.ReusableContent(ix.ReusableContentAtGitPath(".gitbook/includes/test-the-data-source-connec....md")).Document)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(body, "# Test the data source connection") {
		t.Errorf("a reusable content's leading heading is its body's: %q", body[:min(60, len(body))])
	}
	// A title with a markdown escape ("# \_release-notes") reads as
	// the text it stands for; the export without edit below keeps its
	// file's bytes.
	ix.Walk(func(p *content.Page, _ int) bool {
		if p.Git != nil && p.Git.Path == "_release-notes/README.md" && p.Title != "_release-notes" {
			t.Errorf("the page of _release-notes/README.md is titled %q", p.Title)
		}
		return true
	})
	// Every include of every page names a reusable content.
	including, includes := 0, 0
	ix.Walk(func(p *content.Page, _ int) bool {
		b, err := repo.Document(f.Kit.Ctx, sp, p.Document)
		if err != nil {
			t.Fatal(err)
		}
		ms := includeTarget.FindAllStringSubmatch(b, -1)
		if len(ms) > 0 {
			including++
		}
		for _, m := range ms {
			includes++
			if ix.ReusableContentAt(p.ID, m[1]) == "" {
				t.Errorf("page %s: include %q names no reusable content", p.Git.Path, m[1])
			}
		}
		return true
	})
	if including != 102 || includes != 131 {
		t.Errorf("%d pages with %d includes, want 102 and 131", including, includes)
	}

	head0 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	start = time.Now()
	f.exportTo(t, sp, "repo", "no edit", nil)
	exported := time.Since(start)
	f.succeeded(t, sp, "export")
	if got := strings.TrimSpace(gitOK(bare, "rev-parse", "main")); got != head0 {
		t.Fatalf("an export without edit pushed %s over %s: %v", got, head0, changedFiles(bare, head0, got))
	}

	// One reusable content edited: its file changes, and nothing else.
	const file = ".gitbook/includes/need-help-join-the-soda-co....md"
	id := ix.ReusableContentAtGitPath(file)
	f.restructure(t, sp, func(ix *content.Index) {
		rc := *ix.ReusableContent(id)
		b, err := repo.Document(f.Kit.Ctx, sp, rc.Document)
		if err == nil {
			rc.Document, err = repo.PutDocument(f.Kit.Ctx, sp, b+"\nEdited in Galley.\n")
		}
		if err != nil {
			t.Fatal(err)
		}
		ix.PutReusableContent(rc)
	})
	f.exportTo(t, sp, "repo", "one edit", nil)
	head1 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	if changed := changedFiles(bare, head0, head1); len(changed) != 1 || changed[0] != file {
		t.Fatalf("editing %s changed %v", file, changed)
	}
	was, now := gitOK(bare, "show", head0+":"+file), gitOK(bare, "show", head1+":"+file)
	if now != strings.TrimRight(was, "\n")+"\n\nEdited in Galley.\n" {
		t.Errorf("the edited file:\n%s\nwas:\n%s", now, was)
	}

	// Imported again (the export's commit): the same reusable contents,
	// with their ids.
	f.importRepo(t, sp, "repo", nil)
	_, again, ix2 := f.head(t, sp)
	if !reflect.DeepEqual(keysOf(again), keysOf(pages)) {
		t.Fatalf("pages changed on re-import")
	}
	var before, after []string
	for _, rc := range ix.ReusableContents() {
		before = append(before, rc.ID+" "+rc.Title)
	}
	for _, rc := range ix2.ReusableContents() {
		after = append(after, rc.ID+" "+rc.Title)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("reusable contents %v became %v", before, after)
	}
	t.Logf("sodadata: %d pages, %d reusable contents; import %v, export without edit %v",
		len(pages), len(rcs), imported.Round(time.Millisecond), exported.Round(time.Millisecond))
}

var varsRepo = map[string]string{
	"SUMMARY.md":                  "# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n",
	"README.md":                   "---\nvars:\n  product: Acme   # the name\n  seats: 3\n---\n\n# Home\n\n{% include \".gitbook/includes/banner.md\" %}\n",
	"guide/README.md":             "# Guide\n\nRead [setup](setup.md).\n",
	"guide/setup.md":              "---\ndescription: Set up\n---\n\n# Setup\n\nFirst.\n\n{% include \"../.gitbook/includes/banner.md\" %}\n\n{% include \"../.gitbook/includes/help.md\" %}\n",
	".gitbook/includes/banner.md": "---\ntitle: Banner\n---\n\n> Try the [guide](../../guide/README.md).\n",
	".gitbook/includes/help.md":   "# Help heading\n\nAsk us.\n",
	".gitbook/vars.yaml":          "# Space variables\nversion: \"2.1\"\nbeta: true\nlimit: 10\n",
	".gitbook/includes/notes.txt": "not a reusable content\n",
}

// Variables and reusable contents round-trip on both backends: import
// reads vars.yaml, page vars: and the includes; an export without edit
// makes no commit; changing the space's variables rewrites vars.yaml
// alone; a reusable content made in Galley, included by id from a page,
// is written to .gitbook/includes/<slug>.md and the page's include as a
// path from the page's file; one deleted, its file goes; a re-import
// keeps the ids.
func TestVariablesAndIncludesRoundTrip(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		bare := f.git.repo(t, "docs", varsRepo)
		sp := f.space(t)
		f.importRepo(t, sp, "docs", nil)
		_, _, ix := f.head(t, sp)
		wantVars := content.Variables{"version": "2.1", "beta": true, "limit": float64(10)}
		if got := ix.Variables(); !reflect.DeepEqual(got, wantVars) {
			t.Fatalf("space variables %#v", got)
		}
		home := ix.ByPath("home")
		if got := home.Variables; !reflect.DeepEqual(got, content.Variables{"product": "Acme", "seats": float64(3)}) {
			t.Fatalf("page variables %#v", got)
		}
		rcs := ix.ReusableContents()
		if len(rcs) != 2 {
			t.Fatalf("reusable contents %+v", rcs)
		}
		banner := ix.ReusableContentAtGitPath(".gitbook/includes/banner.md")
		help := ix.ReusableContentAtGitPath(".gitbook/includes/help.md")
		if ix.ReusableContent(banner).Title != "Banner" || ix.ReusableContent(help).Title != "Help" {
			t.Fatalf("titles: %+v", rcs)
		}
		setup := ix.ByPath("guide/setup")
		if ix.ReusableContentAt(setup.ID, "../.gitbook/includes/banner.md") != banner || ix.ReusableContentAt(home.ID, ".gitbook/includes/banner.md") != banner {
			t.Fatal("includes do not resolve")
		}
		repo := content.NewRepo(k.Deps)
		body, err := repo.Document(k.Ctx, sp, ix.ReusableContent(banner).Document)
		if err != nil {
			t.Fatal(err)
		}
		if guide := ix.ByPath("guide"); body != "> Try the [guide](/pages/"+guide.ID+").\n" {
			t.Fatalf("banner body %q", body)
		}

		head0 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
		f.exportTo(t, sp, "docs", "no edit", nil)
		if got := strings.TrimSpace(gitOK(bare, "rev-parse", "main")); got != head0 {
			t.Fatalf("an export without edit changed %v", changedFiles(bare, head0, got))
		}

		// The space's variables changed: vars.yaml alone is rewritten.
		f.restructure(t, sp, func(ix *content.Index) {
			v := ix.Variables()
			v["version"] = "2.2"
			ix.SetVariables(v)
		})
		f.exportTo(t, sp, "docs", "variables", nil)
		head1 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
		if changed := changedFiles(bare, head0, head1); !reflect.DeepEqual(changed, []string{".gitbook/vars.yaml"}) {
			t.Fatalf("changing a variable changed %v", changed)
		}
		if got := gitOK(bare, "show", head1+":.gitbook/vars.yaml"); got != "beta: true\nlimit: 10\nversion: \"2.2\"\n" {
			t.Fatalf("vars.yaml:\n%s", got)
		}

		// A reusable content made in Galley, included by id by setup;
		// help deleted.
		var made string
		f.restructure(t, sp, func(ix *content.Index) {
			hash, err := repo.PutDocument(k.Ctx, sp, "Made in Galley, see [home](/pages/"+home.ID+").\n")
			if err != nil {
				t.Fatal(err)
			}
			made = "rcgalley1"
			ix.PutReusableContent(content.ReusableContent{ID: made, Title: "Made here!", Document: hash})
			ix.RemoveReusableContent(help)
			p := *ix.Page(setup.ID)
			b, err := repo.Document(k.Ctx, sp, p.Document)
			if err == nil {
				p.Document, err = repo.PutDocument(k.Ctx, sp, strings.Replace(b, "{% include \"../.gitbook/includes/help.md\" %}",
					"{% include \""+content.ReusableContentLink(made)+"\" %}", 1))
			}
			if err != nil {
				t.Fatal(err)
			}
			ix.Put(p)
		})
		f.exportTo(t, sp, "docs", "new include", nil)
		head2 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
		changed := changedFiles(bare, head1, head2)
		sort.Strings(changed)
		if want := []string{".gitbook/includes/help.md", ".gitbook/includes/made-here.md", "guide/setup.md"}; !reflect.DeepEqual(changed, want) {
			t.Fatalf("changed %v, want %v", changed, want)
		}
		if got := gitOK(bare, "show", head2+":.gitbook/includes/made-here.md"); got != "---\ntitle: Made here!\n---\n\nMade in Galley, see [home](../../README.md).\n" {
			t.Fatalf("the new reusable content's file:\n%s", got)
		}
		if got := gitOK(bare, "show", head2+":guide/setup.md"); !strings.Contains(got, "{% include \"../.gitbook/includes/made-here.md\" %}") ||
			!strings.Contains(got, "{% include \"../.gitbook/includes/banner.md\" %}") {
			t.Fatalf("setup.md:\n%s", got)
		}
		if got := gitOK(bare, "ls-tree", "--name-only", head2, ".gitbook/includes/"); got != ".gitbook/includes/banner.md\n.gitbook/includes/made-here.md\n.gitbook/includes/notes.txt\n" {
			t.Fatalf("includes after the export:\n%s", got)
		}
		if got := gitOK(bare, "show", head2+":.gitbook/includes/notes.txt"); got != "not a reusable content\n" {
			t.Fatalf("notes.txt: %q", got)
		}

		// Imported again: the same ids, the same variables.
		f.importRepo(t, sp, "docs", nil)
		_, _, ix2 := f.head(t, sp)
		if ix2.ReusableContentAtGitPath(".gitbook/includes/made-here.md") != made || ix2.ReusableContentAtGitPath(".gitbook/includes/banner.md") != banner {
			t.Fatalf("ids after re-import: %+v", ix2.ReusableContents())
		}
		if len(ix2.ReusableContents()) != 2 || ix2.Variables()["version"] != "2.2" {
			t.Fatalf("after re-import: %+v %v", ix2.ReusableContents(), ix2.Variables())
		}
		setupID := ix2.ByPath("guide/setup").ID
		if ix2.ReusableContentAt(setupID, "../.gitbook/includes/made-here.md") != made {
			t.Fatal("the written include does not resolve")
		}

		// setup moved to the top, its body unchanged: its file moves and
		// its includes follow.
		head3 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
		f.editPage(t, sp, setupID, func(p *content.Page, ix *content.Index) { p.Parent, p.Pos = "", ix.PosAt("", -1, p.ID) })
		f.exportTo(t, sp, "docs", "move", nil)
		head4 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
		if got := gitOK(bare, "show", head4+":setup.md"); got != strings.NewReplacer("../.gitbook", ".gitbook").Replace(gitOK(bare, "show", head3+":guide/setup.md")) {
			t.Fatalf("moved setup.md:\n%s", got)
		}
	})
}
