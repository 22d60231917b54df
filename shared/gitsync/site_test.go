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

// siteGitOK runs a site Git operation and returns the state it left,
// failing the test unless the operation succeeded.
func (f *fixture) siteGitOK(t testing.TB, siteID, op string, extra map[string]any) model.SiteGitSync {
	t.Helper()
	f.siteGit(t, siteID, op, extra)
	st := f.siteState(t, siteID)
	if st.Operation == nil || st.Operation.State != model.GitSuccess {
		t.Fatalf("%s: %+v", op, st.Operation)
	}
	return st
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
	st := f.siteGitOK(t, siteID, "import", nil)
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
	frenchGuide := siteDocsYAML[strings.Index(siteDocsYAML, "        - type: space\n          key: guide-fr"):strings.Index(siteDocsYAML, "    - type: section\n      key: reference")]
	moved := strings.Replace(siteDocsYAML, frenchGuide, "", 1) + frenchGuide
	f.git.commit(t, "site", "Move the French guide", map[string]string{"docs.yaml": moved})
	st2 := f.siteGitOK(t, siteID, "import", nil)
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
	if st3 := f.siteGitOK(t, siteID, "export", map[string]any{"commitMessage": "Export"}); len(st3.Operation.Spaces) != 3 {
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
		f.siteGitOK(t, siteID, "export", map[string]any{"commitMessage": "Rename the reference's path"})
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
	f.succeeded(t, b, "export of b")
	if now := git(t, bare, "rev-parse", "refs/heads/main"); now != after {
		t.Fatalf("exporting the unchanged space b committed: %s", git(t, bare, "show", "--stat", now))
	}
}

const groupedDocsYAML = `site:
  title: Grouped documentation
  structure:
    - type: section
      key: home
      title: Home
      path: home
      default: true
      children:
        - type: space
          key: home-space
          title: Home
          path: welcome
          default: true
          content:
            directory: ./home
    - type: section-group
      key: products
      title: Products
      icon: box
      children:
        - type: section
          key: engine
          title: Engine
          path: engine
          children:
            - type: space
              key: engine-space
              title: Engine manual
              path: manual
              default: true
              content:
                directory: ./engine
        - type: section
          key: wheels
          title: Wheels
          path: wheels
          children:
            - type: space
              key: wheels-space
              title: Wheels manual
              path: manual
              default: true
              content:
                directory: ./wheels
`

// A docs.yaml with a section group holding two sections: the import makes
// the group (after the ungrouped section) with its sections in order; a
// re-import of the unchanged file keeps every id; an export of the
// unchanged site makes no commit; a group added in Galley is exported.
func TestSiteImportMapsSectionGroups(t *testing.T) {
	f := setup(t)
	bare := f.git.repo(t, "site", map[string]string{
		"docs.yaml":        groupedDocsYAML,
		"home/README.md":   "# Home\n",
		"engine/README.md": "# Engine\n",
		"wheels/README.md": "# Wheels\n",
	})
	siteID := f.newSite(t)
	st := f.siteGitOK(t, siteID, "import", nil)
	if got := strings.Join(st.Order, ","); got != "home,home-space,products,engine,engine-space,wheels,wheels-space" {
		t.Fatalf("keys: %s", got)
	}
	check := func(st model.SiteGitSync) {
		t.Helper()
		site, _, levels := f.siteOf(t, siteID)
		if len(site.Groups) != 1 || site.Groups[0].ID != st.Nodes["products"].ID || site.Groups[0].Title != "Products" || site.Groups[0].Icon != "box" {
			t.Fatalf("groups: %+v (state %+v)", site.Groups, st.Nodes["products"])
		}
		var grouped, ungrouped []string
		for _, sec := range byOrderOf(site.Sections) {
			if sec.Group == site.Groups[0].ID {
				grouped = append(grouped, sec.ID)
			} else if sec.Group == "" {
				ungrouped = append(ungrouped, sec.ID)
			}
		}
		if strings.Join(grouped, ",") != st.Nodes["engine"].ID+","+st.Nodes["wheels"].ID {
			t.Errorf("the group's sections %v, want engine then wheels", grouped)
		}
		if len(ungrouped) != 1 || ungrouped[0] != st.Nodes["home"].ID {
			t.Errorf("ungrouped sections %v", ungrouped)
		}
		var home model.SiteSection
		for _, sec := range site.Sections {
			if sec.ID == st.Nodes["home"].ID {
				home = sec
			}
		}
		if !home.Default || home.Order >= site.Groups[0].Order {
			t.Errorf("home section %+v should be default and come before the group (order %s)", home, site.Groups[0].Order)
		}
		for _, k := range []string{"engine", "wheels"} {
			ss := levels[st.Nodes[k].ID]
			if len(ss) != 1 || ss[0].ID != st.Nodes[k+"-space"].ID || ss[0].Path != "manual" {
				t.Errorf("%s's site spaces: %+v", k, ss)
			}
		}
	}
	check(st)
	info := f.As(t, "admin").Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/sites/"+siteID+"/git/info", nil).Map(t)
	keys, _ := info["keys"].([]any)
	if len(keys) != 7 || keys[2].(map[string]any)["type"] != "section-group" || keys[2].(map[string]any)["id"] != st.Nodes["products"].ID {
		t.Errorf("info keys: %v", keys)
	}

	// Re-import of the unchanged file: every id kept.
	st2 := f.siteGitOK(t, siteID, "import", nil)
	for k, n := range st.Nodes {
		if m := st2.Nodes[k]; m.ID != n.ID || m.SpaceID != n.SpaceID {
			t.Errorf("%s: ids %s/%s became %s/%s", k, n.ID, n.SpaceID, m.ID, m.SpaceID)
		}
	}
	check(st2)

	// Export of the unchanged site: no commit.
	head := git(t, bare, "rev-parse", "refs/heads/main")
	f.siteGitOK(t, siteID, "export", map[string]any{"commitMessage": "Export"})
	if now := git(t, bare, "rev-parse", "refs/heads/main"); now != head {
		t.Fatalf("an export of an unchanged site committed: %s -> %s\n%s", head, now, git(t, bare, "show", now+":docs.yaml"))
	}

	// Reordered in docs.yaml: the group first, wheels before engine, and
	// home moved into the group last; the re-import keeps the ids.
	homeBlock := groupedDocsYAML[strings.Index(groupedDocsYAML, "    - type: section\n      key: home"):strings.Index(groupedDocsYAML, "    - type: section-group")]
	engineBlock := groupedDocsYAML[strings.Index(groupedDocsYAML, "        - type: section\n          key: engine"):strings.Index(groupedDocsYAML, "        - type: section\n          key: wheels")]
	wheelsBlock := groupedDocsYAML[strings.Index(groupedDocsYAML, "        - type: section\n          key: wheels"):]
	indent := func(b string) string {
		lines := strings.SplitAfter(b, "\n")
		for i, l := range lines {
			if l != "" {
				lines[i] = "    " + l
			}
		}
		return strings.Join(lines, "")
	}
	reordered := groupedDocsYAML[:strings.Index(groupedDocsYAML, homeBlock)] +
		"    - type: section-group\n      key: products\n      title: Products\n      icon: box\n      children:\n" +
		wheelsBlock + engineBlock + indent(homeBlock)
	f.git.commit(t, "site", "Reorder", map[string]string{"docs.yaml": reordered})
	st4 := f.siteGitOK(t, siteID, "import", nil)
	site, _, _ := f.siteOf(t, siteID)
	var inGroup []string
	for _, sec := range byOrderOf(site.Sections) {
		if sec.Group != st.Nodes["products"].ID {
			t.Errorf("section %s is outside the group", sec.Title)
		}
		inGroup = append(inGroup, sec.ID)
	}
	if want := []string{st.Nodes["wheels"].ID, st.Nodes["engine"].ID, st.Nodes["home"].ID}; strings.Join(inGroup, ",") != strings.Join(want, ",") {
		t.Errorf("the group's sections %v, want wheels, engine, home %v", inGroup, want)
	}
	for k, n := range st.Nodes {
		if m := st4.Nodes[k]; m.ID != n.ID || m.SpaceID != n.SpaceID {
			t.Errorf("reordered: %s: ids %s/%s became %s/%s", k, n.ID, n.SpaceID, m.ID, m.SpaceID)
		}
	}
	head = git(t, bare, "rev-parse", "refs/heads/main")

	// A group renamed in Galley: the export writes it back, the sections
	// still under it, and the result imports to the same ids.
	ctx := access.WithCaller(f.Kit.Ctx, f.Caller("admin"))
	title := "Our products"
	if _, _, err := siteswire.Service(f.Root).UpdateGroup(ctx, f.Org.ID, siteID, st.Nodes["products"].ID, sites.GroupChange{Title: &title}); err != nil {
		t.Fatal(err)
	}
	f.siteGit(t, siteID, "export", map[string]any{"commitMessage": "Rename the group"})
	now := git(t, bare, "rev-parse", "refs/heads/main")
	if now == head {
		t.Fatal("no commit")
	}
	text := git(t, bare, "show", now+":docs.yaml")
	if !strings.Contains(text, "type: section-group") || !strings.Contains(text, "title: Our products") ||
		!strings.Contains(text, "key: products") || strings.Index(text, "key: products") > strings.Index(text, "key: engine") {
		t.Fatalf("docs.yaml:\n%s", text)
	}
	st3 := f.siteGitOK(t, siteID, "import", nil)
	if st3.Nodes["products"].ID != st.Nodes["products"].ID || st3.Nodes["products"].Title != "Our products" {
		t.Fatalf("import of the export: %+v %+v", st3.Operation, st3.Nodes["products"])
	}
}

// byOrderOf sorts sections by their order key, then id.
func byOrderOf(secs []model.SiteSection) []model.SiteSection {
	out := append([]model.SiteSection(nil), secs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j].Order < out[i].Order || (out[j].Order == out[i].Order && out[j].ID < out[i].ID) {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// External links and nested section groups have nothing to map onto in
// Galley's sites: the import fails naming the node, and changes nothing.
func TestSiteImportRefusesExternalLinksAndNestedGroups(t *testing.T) {
	f := setup(t)
	link := strings.Replace(groupedDocsYAML, "    - type: section-group\n", `    - type: external-link
      key: status-page
      title: Status
      url: https://status.example.com
    - type: section-group
`, 1)
	nested := strings.Replace(groupedDocsYAML, "        - type: section\n          key: wheels\n", `        - type: section-group
          key: inner-group
          title: Inner
        - type: section
          key: wheels
`, 1)
	f.git.repo(t, "site", nil)
	for _, c := range []struct{ name, yaml, want string }{
		{"external link", link, `external link "status-page"`},
		{"nested group", nested, `"inner-group" is a section group`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f.git.commit(t, "site", c.name, map[string]string{"docs.yaml": c.yaml, "home/README.md": "# Home\n"})
			siteID := f.newSite(t)
			f.siteGit(t, siteID, "import", nil)
			st := f.siteState(t, siteID)
			if st.Operation == nil || st.Operation.State != model.GitFailure || !strings.Contains(st.Operation.Error, c.want) {
				t.Fatalf("operation: %+v", st.Operation)
			}
			if site, secs, _ := f.siteOf(t, siteID); len(secs) != 0 || len(site.Groups) != 0 || len(st.Nodes) != 0 {
				t.Errorf("a refused import changed the site: %+v %+v", secs, site.Groups)
			}
		})
	}
}
