package gitsync_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
)

// workAll runs the queued jobs, the sites' included.
func (f *fixture) workAll(t testing.TB) {
	t.Helper()
	if err := f.queue.Drain(context.Background(), f.svc.Handlers()); err != nil {
		t.Fatal(err)
	}
}

const siteDocsYAML = `$schema: https://api.gitbook.com/openapi.yaml#/components/schemas/GitSyncSiteConfig
site:
  title: Acme documentation
  structure:
    - type: section
      key: guides
      title: Guides
      path: guides
      default: true
      children:
        - type: space
          key: guide-en
          title: Guide
          path: guide
          default: true
          content:
            directory: ./guides/en
            language: en
        - type: space
          key: guide-fr
          title: Guide (français)
          path: fr
          hidden: true
          content:
            directory: ./guides/fr
            language: fr
    - type: section
      key: reference
      title: Reference
      path: reference
      children:
        - type: space
          key: api
          title: API reference
          path: api
          default: true
          content:
            directory: /api
            language: en
`

// siteOf reads a site as its admin: sections in order, and each level's
// site spaces in order.
func (f *fixture) siteOf(t testing.TB, siteID string) (model.Site, []model.SiteSection, map[string][]model.SiteSpace) {
	t.Helper()
	l, err := siteswire.Service(f.Root).Get(access.WithCaller(f.Kit.Ctx, f.Caller("admin")), f.Org.ID, siteID)
	if err != nil {
		t.Fatal(err)
	}
	tree := sites.TreeOf(&l.Site)
	var secs []model.SiteSection
	levels := map[string][]model.SiteSpace{}
	for _, ss := range tree.All() {
		levels[ss.Section] = append(levels[ss.Section], *ss)
	}
	for _, sec := range l.Site.Sections {
		secs = append(secs, sec)
	}
	// sections in display order
	for i := range secs {
		for j := i + 1; j < len(secs); j++ {
			if secs[j].Order < secs[i].Order {
				secs[i], secs[j] = secs[j], secs[i]
			}
		}
	}
	return l.Site, secs, levels
}

func (f *fixture) newSite(t testing.TB) string {
	t.Helper()
	site, _, err := siteswire.Service(f.Root).Create(access.WithCaller(f.Kit.Ctx, f.Caller("admin")), f.Org.ID, sites.CreateSite{Title: "Site"})
	if err != nil {
		t.Fatal(err)
	}
	return site.ID
}

func (f *fixture) siteGit(t testing.TB, siteID, op string, extra map[string]any) {
	t.Helper()
	body := map[string]any{"url": f.git.url("site"), "ref": "refs/heads/main"}
	for k, v := range extra {
		body[k] = v
	}
	f.As(t, "admin").Expect(http.StatusNoContent, "POST", "/v1/orgs/"+f.Org.ID+"/sites/"+siteID+"/git/"+op, body)
	f.workAll(t)
}

func (f *fixture) siteState(t testing.TB, siteID string) model.SiteGitSync {
	t.Helper()
	st, _, err := gitstate.GetSite(f.Kit.Ctx, f.Kit.Deps.Store, siteID)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A site repository with docs.yaml (two sections, three spaces, two
// languages): the import builds the structure and each space's content
// from its directory; moving a space in docs.yaml moves it on re-import
// (same space, found by its key); an export of the unchanged site makes
// no commit.
func TestSiteImportBuildsStructureFromDocsYAML(t *testing.T) {
	f := setup(t)
	bare := f.git.repo(t, "site", map[string]string{
		"docs.yaml":            siteDocsYAML,
		"guides/en/README.md":  "# Welcome\n\nEnglish guide.\n",
		"guides/en/install.md": "# Install\n\nSteps.\n",
		"guides/en/SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n",
		"guides/fr/README.md":  "# Bienvenue\n\nGuide en français.\n",
		"api/README.md":        "# API\n\nEndpoints.\n",
		"api/.gitbook.yaml":    "root: ./\n",
		"unrelated/notes.md":   "# Not docs\n",
	})
	siteID := f.newSite(t)
	f.siteGit(t, siteID, "import", nil)

	st := f.siteState(t, siteID)
	if st.Operation == nil || st.Operation.State != model.GitSuccess {
		t.Fatalf("operation: %+v", st.Operation)
	}
	if len(st.Nodes) != 5 || strings.Join(st.Order, ",") != "guides,guide-en,guide-fr,reference,api" {
		t.Fatalf("keys: %v", st.Order)
	}
	site, secs, levels := f.siteOf(t, siteID)
	if site.Title != "Acme documentation" {
		t.Errorf("site title %q", site.Title)
	}
	if len(secs) != 2 || secs[0].Title != "Guides" || secs[0].Path != "guides" || !secs[0].Default ||
		secs[1].Title != "Reference" || secs[1].Path != "reference" || secs[1].Default {
		t.Fatalf("sections: %+v", secs)
	}
	guides, ref := levels[secs[0].ID], levels[secs[1].ID]
	if len(guides) != 2 || guides[0].Path != "guide" || !guides[0].Default || guides[1].Path != "fr" || guides[1].Default {
		t.Fatalf("guides: %+v", guides)
	}
	if len(ref) != 1 || ref[0].Path != "api" || !ref[0].Default {
		t.Fatalf("reference: %+v", ref)
	}
	spaceTitles := map[string]string{}
	for _, key := range []string{"guide-en", "guide-fr", "api"} {
		sp, _, err := spaceswire.Service(f.Root).Get(access.WithCaller(f.Kit.Ctx, f.Caller("admin")), st.Nodes[key].SpaceID)
		if err != nil {
			t.Fatal(err)
		}
		if sp.OrgID != f.Org.ID {
			t.Errorf("%s: space of org %s", key, sp.OrgID)
		}
		spaceTitles[key] = sp.Title
	}
	if spaceTitles["guide-fr"] != "Guide (français)" || spaceTitles["api"] != "API reference" {
		t.Errorf("space titles: %v", spaceTitles)
	}
	if guides[0].SpaceID != st.Nodes["guide-en"].SpaceID || guides[1].SpaceID != st.Nodes["guide-fr"].SpaceID || ref[0].SpaceID != st.Nodes["api"].SpaceID {
		t.Errorf("site spaces do not show the keys' spaces")
	}
	titles := func(spaceID string) []string {
		_, _, ix := f.head(t, spaceID)
		var out []string
		ix.Walk(func(p *content.Page, _ int) bool { out = append(out, p.Title); return true })
		return out
	}
	if got := strings.Join(titles(st.Nodes["guide-en"].SpaceID), ","); got != "Welcome,Install" {
		t.Errorf("English guide pages: %s", got)
	}
	if got := strings.Join(titles(st.Nodes["guide-fr"].SpaceID), ","); got != "Bienvenue" {
		t.Errorf("French guide pages: %s", got)
	}
	if got := strings.Join(titles(st.Nodes["api"].SpaceID), ","); got != "API" {
		t.Errorf("API pages: %s", got)
	}

	// Move the French guide into the reference section, after the API.
	moved := strings.Replace(siteDocsYAML, `        - type: space
          key: guide-fr
          title: Guide (français)
          path: fr
          hidden: true
          content:
            directory: ./guides/fr
            language: fr
`, "", 1) + `        - type: space
          key: guide-fr
          title: Guide (français)
          path: fr
          hidden: true
          content:
            directory: ./guides/fr
            language: fr
`
	f.git.commit(t, "site", "Move the French guide", map[string]string{"docs.yaml": moved})
	f.siteGit(t, siteID, "import", nil)
	st2 := f.siteState(t, siteID)
	if st2.Operation.State != model.GitSuccess {
		t.Fatalf("re-import: %+v", st2.Operation)
	}
	if st2.Nodes["guide-fr"].SpaceID != st.Nodes["guide-fr"].SpaceID || st2.Nodes["api"].SpaceID != st.Nodes["api"].SpaceID {
		t.Fatalf("re-import made new spaces instead of keeping them by key")
	}
	_, secs, levels = f.siteOf(t, siteID)
	guides, ref = levels[secs[0].ID], levels[secs[1].ID]
	if len(guides) != 1 || guides[0].SpaceID != st.Nodes["guide-en"].SpaceID {
		t.Fatalf("guides after the move: %+v", guides)
	}
	if len(ref) != 2 || ref[0].SpaceID != st.Nodes["api"].SpaceID || !ref[0].Default ||
		ref[1].SpaceID != st.Nodes["guide-fr"].SpaceID || ref[1].Path != "fr" || ref[1].Default {
		t.Fatalf("reference after the move: %+v", ref)
	}

	// An export of the unchanged site makes no commit.
	head := git(t, bare, "rev-parse", "refs/heads/main")
	f.siteGit(t, siteID, "export", map[string]any{"commitMessage": "Export"})
	st3 := f.siteState(t, siteID)
	if st3.Operation.State != model.GitSuccess || len(st3.Operation.Spaces) != 3 {
		t.Fatalf("export: %+v", st3.Operation)
	}
	if now := git(t, bare, "rev-parse", "refs/heads/main"); now != head {
		t.Fatalf("an export of an unchanged site committed: %s -> %s\n%s", head, now, git(t, bare, "show", "--stat", now))
	}

	// A structure changed in Galley: the export writes docs.yaml (and only
	// it, the spaces being unchanged), which reads back the same.
	t.Run("changed structure writes docs.yaml", func(t *testing.T) {
		ctx := access.WithCaller(f.Kit.Ctx, f.Caller("admin"))
		path := "reference-docs"
		if _, _, err := siteswire.Service(f.Root).UpdateSection(ctx, f.Org.ID, siteID, secs[1].ID, sites.SectionChange{Path: &path}); err != nil {
			t.Fatal(err)
		}
		f.siteGit(t, siteID, "export", map[string]any{"commitMessage": "Rename the reference's path"})
		if st := f.siteState(t, siteID); st.Operation.State != model.GitSuccess {
			t.Fatalf("export: %+v", st.Operation)
		}
		now := git(t, bare, "rev-parse", "refs/heads/main")
		if now == head {
			t.Fatal("no commit")
		}
		if changed := git(t, bare, "diff", "--name-only", head, now); changed != "docs.yaml" {
			t.Fatalf("changed files: %q", changed)
		}
		text := git(t, bare, "show", now+":docs.yaml")
		for _, want := range []string{"path: reference-docs", "key: guide-fr", "hidden: true", "language: fr", "directory: /api"} {
			if !strings.Contains(text, want) {
				t.Errorf("docs.yaml lacks %q:\n%s", want, text)
			}
		}
	})
}

// A monorepo without docs.yaml: two spaces synced to two directories of
// one repository; exporting one changes only its directory.
func TestMonorepoSpacesExportOnlyTheirDirectory(t *testing.T) {
	f := setup(t)
	bare := f.git.repo(t, "mono", map[string]string{
		"a/README.md":  "# Alpha\n\nFirst.\n",
		"a/SUMMARY.md": "# Table of contents\n\n* [Alpha](README.md)\n",
		"b/README.md":  "# Beta\n\nSecond.\n",
		"b/SUMMARY.md": "# Table of contents\n\n* [Beta](README.md)\n",
		"src/main.go":  "package main\n",
	})
	a, b := f.space(t), f.NewSpace(t, "admin", f.Org.ID, "Beta")
	f.importRepo(t, a, "mono", map[string]any{"repoProjectDirectory": "a"})
	f.importRepo(t, b, "mono", map[string]any{"repoProjectDirectory": "b"})
	_, pages, ix := f.head(t, a)
	if len(pages) != 1 {
		t.Fatalf("space a: %v", pages)
	}
	var pageID string
	ix.Walk(func(p *content.Page, _ int) bool { pageID = p.ID; return false })
	before := git(t, bare, "rev-parse", "refs/heads/main")
	f.edit(t, a, pageID, func(s string) string { return s + "\nMore.\n" })
	f.exportTo(t, a, "mono", "Edit alpha", map[string]any{"repoProjectDirectory": "a"})
	after := git(t, bare, "rev-parse", "refs/heads/main")
	if after == before {
		t.Fatal("no commit")
	}
	if changed := git(t, bare, "diff", "--name-only", before, after); changed != "a/README.md" {
		t.Fatalf("changed files: %q", changed)
	}
	// b, exported unchanged, commits nothing and touches nothing.
	f.exportTo(t, b, "mono", "Export beta", map[string]any{"repoProjectDirectory": "b"})
	if op := f.info(t, b)["operation"].(map[string]any); op["state"] != "success" {
		t.Fatalf("export of b: %v", op)
	}
	if now := git(t, bare, "rev-parse", "refs/heads/main"); now != after {
		t.Fatalf("exporting the unchanged space b committed: %s", git(t, bare, "show", "--stat", now))
	}
}
