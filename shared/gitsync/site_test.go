package gitsync_test

import (
	"context"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/spaces"
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

// pageIDs are an index's page ids in order.
func pageIDs(ix *content.Index) string {
	var out []string
	ix.Walk(func(p *content.Page, _ int) bool { out = append(out, p.ID); return true })
	return strings.Join(out, ",")
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
	bare, siteID, st := f.siteRepo(t, nil)
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
	// hidden applies to the site space (the French guide is out of the
	// navigation); content.language is the space's language.
	if guides[0].Hidden || !guides[1].Hidden || ref[0].Hidden {
		t.Errorf("hidden flags: guide %v, fr %v, api %v", guides[0].Hidden, guides[1].Hidden, ref[0].Hidden)
	}
	if st.Nodes["guide-fr"].Language != "fr" || st.Nodes["guide-en"].Language != "en" {
		t.Errorf("languages: %+v %+v", st.Nodes["guide-fr"], st.Nodes["guide-en"])
	}
	if len(ref) != 1 || ref[0].Path != "api" || !ref[0].Default {
		t.Fatalf("reference: %+v", ref)
	}
	spaceTitles, langs := map[string]string{}, map[string]string{}
	for _, key := range []string{"guide-en", "guide-fr", "api"} {
		sp, _, err := spaceswire.Service(f.Root).Get(access.WithCaller(f.Kit.Ctx, f.Caller("admin")), st.Nodes[key].SpaceID)
		if err != nil {
			t.Fatal(err)
		}
		if sp.OrgID != f.Org.ID {
			t.Errorf("%s: space of org %s", key, sp.OrgID)
		}
		spaceTitles[key], langs[key] = sp.Title, sp.Language
	}
	if langs["guide-en"] != "en" || langs["guide-fr"] != "fr" || langs["api"] != "en" {
		t.Errorf("space languages: %v", langs)
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
	frSiteSpace := guides[1].ID
	_, frPages, frIndex := f.head(t, st.Nodes["guide-fr"].SpaceID)
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
	// Moved, not made again: the same site space (id, space, hidden) in
	// its new section, the space's content untouched.
	if ref[1].ID != frSiteSpace || !ref[1].Hidden || st2.Nodes["guide-fr"].ID != frSiteSpace {
		t.Errorf("the French guide's site space %s (hidden %v, state %s), want %s moved", ref[1].ID, ref[1].Hidden, st2.Nodes["guide-fr"].ID, frSiteSpace)
	}
	_, nowPages, nowIndex := f.head(t, st.Nodes["guide-fr"].SpaceID)
	if !reflect.DeepEqual(nowPages, frPages) || pageIDs(nowIndex) != pageIDs(frIndex) {
		t.Errorf("the move changed the French guide's content: %v (%s) -> %v (%s)", frPages, pageIDs(frIndex), nowPages, pageIDs(nowIndex))
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
		hide := true
		if _, _, err := siteswire.Service(f.Root).UpdateSiteSpace(ctx, f.Org.ID, siteID, ref[0].ID, sites.SiteSpaceChange{Hidden: &hide}); err != nil {
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
		for key, want := range map[string]bool{"api": true, "guide-fr": true, "guide-en": false} {
			block := text[strings.Index(text, "key: "+key+"\n"):]
			if i := strings.Index(block[1:], "- type:"); i >= 0 {
				block = block[:i+1]
			}
			if strings.Contains(block, "hidden: true") != want {
				t.Errorf("docs.yaml's %s: hidden should be %v:\n%s", key, want, block)
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

// An export whose request names no repoProjectDirectory writes to the
// directory the space last synced with in that repository (docs/workers.md,
// "Project"), not to the repository's top; to another repository, the top.
func TestExportDefaultsToTheLastSyncedDirectory(t *testing.T) {
	f := setup(t)
	bare := f.git.repo(t, "mono", map[string]string{
		"README.md":    "# The monorepo\n",
		"b/README.md":  "# Beta\n\nSecond.\n",
		"b/SUMMARY.md": "# Table of contents\n\n* [Beta](README.md)\n* [Guide](guide.md)\n",
		"b/guide.md":   "# Guide\n\nSteps.\n",
	})
	sp := f.space(t)
	f.importRepo(t, sp, "mono", map[string]any{"repoProjectDirectory": "b"})
	_, _, ix := f.head(t, sp)
	guide := ix.ByGitPath("guide.md")
	if guide == nil {
		t.Fatal("no page from b/guide.md")
	}
	before := git(t, bare, "rev-parse", "refs/heads/main")
	f.edit(t, sp, guide.ID, func(s string) string { return s + "\nMore steps.\n" })
	f.exportTo(t, sp, "mono", "Edit the guide", nil)
	if op := f.info(t, sp)["operation"].(map[string]any); op["state"] != "success" {
		t.Fatalf("export: %v", op)
	}
	after := git(t, bare, "rev-parse", "refs/heads/main")
	if changed := git(t, bare, "diff", "--name-only", before, after); changed != "b/guide.md" {
		t.Fatalf("changed files: %q, want b/guide.md only", changed)
	}

	// Another repository has no last sync: the top.
	other := f.git.repo(t, "other", map[string]string{"LICENSE": "MIT\n"})
	f.exportTo(t, sp, "other", "First export", nil)
	if files := strings.Fields(git(t, other, "ls-tree", "-r", "--name-only", "main")); strings.Join(files, " ") != "LICENSE README.md SUMMARY.md guide.md" {
		t.Fatalf("files of the other repository: %v", files)
	}
	// "/" names the top.
	f.exportTo(t, sp, "mono", "To the top", map[string]any{"repoProjectDirectory": "/"})
	if toc := git(t, bare, "show", "main:SUMMARY.md"); !strings.Contains(toc, "* [Guide](guide.md)") {
		t.Fatalf("SUMMARY.md at the top: %q", toc)
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
	bare, siteID, st := f.siteRepo(t, map[string]string{
		"docs.yaml":        groupedDocsYAML,
		"home/README.md":   "# Home\n",
		"engine/README.md": "# Engine\n",
		"wheels/README.md": "# Wheels\n",
	})
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

// Nested section groups have nothing to map onto in Galley's sites (its
// groups do not nest): the import fails naming the node, and changes
// nothing.
func TestSiteImportRefusesNestedGroups(t *testing.T) {
	f := setup(t)
	nested := strings.Replace(groupedDocsYAML, "        - type: section\n          key: wheels\n", `        - type: section-group
          key: inner-group
          title: Inner
        - type: section
          key: wheels
`, 1)
	f.git.repo(t, "site", nil)
	for _, c := range []struct{ name, yaml, want string }{
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

// An invalid docs.yaml: the request is accepted (204: the repository is
// read by the worker), and the job fails, naming the line or the node and
// field, in the site's Git info; the site is left as it was.
func TestSiteImportOfInvalidDocsYAMLFailsNamingTheNode(t *testing.T) {
	f := setup(t)
	f.git.repo(t, "site", nil)
	topSpace := `    - type: space
      key: stray
      title: Stray
      path: stray
      content:
        directory: ./stray
`
	for _, c := range []struct{ name, yaml, want string }{
		{"bad YAML", "site:\n  title: [unclosed\n  structure: []\n", "docs.yaml: line "},
		{"duplicate mapping key", strings.Replace(siteDocsYAML, "          title: Guide\n", "          title: Guide\n          title: Again\n", 1),
			`mapping key "title" already defined`},
		{"unknown field", strings.Replace(siteDocsYAML, "          path: guide\n", "          path: guide\n          colour: red\n", 1),
			"field colour not found"},
		{"duplicate node key", strings.Replace(siteDocsYAML, "key: api", "key: guide-en", 1),
			`site.structure[1].children[0] (space "guide-en"): key "guide-en" is used by another node`},
		{"space outside the sections", siteDocsYAML + topSpace,
			`site.structure[2] (space "stray"): a site with sections lists no space at the top level`},
		{"no default space", strings.Replace(siteDocsYAML, "          path: api\n          default: true\n", "          path: api\n", 1),
			`site.structure[1] (section "reference"): 0 of its spaces are marked default`},
		{"directory out of the repository", strings.Replace(siteDocsYAML, "directory: /api", "directory: ../api", 1),
			`site.structure[1].children[0] (space "api"): content.directory "../api" must be a folder inside the repository`},
		{"unknown type", strings.Replace(siteDocsYAML, "    - type: section\n      key: reference", "    - type: chapter\n      key: reference", 1),
			`site.structure[1] (chapter "reference"): type "chapter" is unknown`},
		{"no path", strings.Replace(siteDocsYAML, "          path: fr\n", "", 1),
			`site.structure[0].children[1] (space "guide-fr"): path must be`},
		{"unknown language", strings.Replace(siteDocsYAML, "language: fr", "language: klingon", 1),
			`site.structure[0].children[1] (space "guide-fr"): content.language "klingon" is not a language`},
		{"external link without sections", "site:\n  structure:\n" + strings.ReplaceAll(topSpace, "path: stray\n", "path: stray\n      default: true\n") + linkNode("status", "https://status.example.com", "    "),
			`site.structure[1] (external link "status"): external links need a site structured in sections`},
		{"external link to a relative URL", strings.Replace(siteDocsYAML, "    - type: section\n      key: reference", linkNode("status", "/status", "    ")+"    - type: section\n      key: reference", 1),
			`site.structure[1] (external link "status"): url "/status" must be an absolute http or https URL`},
		{"external link inside a section", strings.Replace(siteDocsYAML, "      children:\n        - type: space\n          key: api", "      children:\n"+linkNode("status", "https://status.example.com", "        ")+"        - type: space\n          key: api", 1),
			`site.structure[1].children[0] (external link "status"): a external-link inside section "reference"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f.git.commit(t, "site", c.name, map[string]string{"docs.yaml": c.yaml})
			siteID := f.newSite(t)
			f.siteGit(t, siteID, "import", nil)
			info := f.As(t, "admin").Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/sites/"+siteID+"/git/info", nil).Map(t)
			op, _ := info["operation"].(map[string]any)
			if op["state"] != "failure" || !strings.Contains(op["error"].(string), c.want) {
				t.Fatalf("operation %v, want a failure saying %q", op, c.want)
			}
			if msg := op["error"].(string); strings.Contains(msg, "gitsync.") || strings.Contains(msg, "\n") {
				t.Errorf("the error speaks Go or spans lines: %q", msg)
			}
			if site, secs, levels := f.siteOf(t, siteID); len(secs) != 0 || len(site.Groups) != 0 || len(levels) != 0 {
				t.Errorf("a refused import changed the site: %+v %+v", secs, levels)
			}
		})
	}
}

// siteRepo makes the "site" repository of files (nil: siteDocsYAML's
// site) and imports it into a new site; it answers the bare repository,
// the site and its state.
func (f *fixture) siteRepo(t *testing.T, files map[string]string) (string, string, model.SiteGitSync) {
	t.Helper()
	if files == nil {
		files = siteFiles()
	}
	bare := f.git.repo(t, "site", files)
	siteID := f.newSite(t)
	return bare, siteID, f.siteGitOK(t, siteID, "import", nil)
}

// siteFiles are a repository of siteDocsYAML's site: two sections, three
// spaces, two languages, one space hidden, a file of no space.
func siteFiles() map[string]string {
	return map[string]string{
		"docs.yaml":            siteDocsYAML,
		"guides/en/README.md":  "# Welcome\n\nEnglish guide.\n",
		"guides/en/install.md": "# Install\n\nSteps.\n",
		"guides/en/SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n",
		"guides/fr/README.md":  "# Bienvenue\n\nGuide en français.\n",
		"api/README.md":        "# API\n\nEndpoints.\n",
		"api/.gitbook.yaml":    "root: ./\n",
		"unrelated/notes.md":   "# Not docs\n",
	}
}

// editFirstPage appends a line to a space's first page.
func (f *fixture) editFirstPage(t *testing.T, spaceID, line string) {
	t.Helper()
	_, _, ix := f.head(t, spaceID)
	var pageID string
	ix.Walk(func(p *content.Page, _ int) bool {
		if pageID == "" {
			pageID = p.ID
		}
		return true
	})
	f.edit(t, spaceID, pageID, func(s string) string { return s + "\n" + line + "\n" })
}

// An export of a site whose structure and two spaces changed makes ONE
// commit holding all three changes.
func TestSiteExportMakesOneCommit(t *testing.T) {
	f := setup(t)
	bare, siteID, st := f.siteRepo(t, nil)
	f.editFirstPage(t, st.Nodes["guide-en"].SpaceID, "More English.")
	f.editFirstPage(t, st.Nodes["api"].SpaceID, "More endpoints.")
	hide := true
	ctx := access.WithCaller(f.Kit.Ctx, f.Caller("admin"))
	if _, _, err := siteswire.Service(f.Root).UpdateSiteSpace(ctx, f.Org.ID, siteID, st.Nodes["api"].ID, sites.SiteSpaceChange{Hidden: &hide}); err != nil {
		t.Fatal(err)
	}
	de := "de"
	if _, _, err := spaceswire.Service(f.Root).Update(ctx, st.Nodes["guide-fr"].SpaceID, spaces.Change{Language: &de}); err != nil {
		t.Fatal(err)
	}
	before := git(t, bare, "rev-parse", "refs/heads/main")
	st2 := f.siteGitOK(t, siteID, "export", map[string]any{"commitMessage": "Export the site"})
	after := git(t, bare, "rev-parse", "refs/heads/main")
	// The space's language is written back as its content.language.
	if text := git(t, bare, "show", after+":docs.yaml"); !strings.Contains(text[strings.Index(text, "key: guide-fr"):], "language: de") ||
		strings.Contains(text, "language: fr") {
		t.Errorf("docs.yaml does not say the French guide's new language:\n%s", text)
	}
	if n := git(t, bare, "rev-list", "--count", before+".."+after); n != "1" {
		t.Fatalf("%s commits on the branch, want 1:\n%s", n, git(t, bare, "log", "--stat", before+".."+after))
	}
	if changed := strings.Fields(git(t, bare, "diff", "--name-only", before, after)); strings.Join(changed, ",") != "api/README.md,docs.yaml,guides/en/README.md" {
		t.Errorf("changed files: %v", changed)
	}
	if msg := git(t, bare, "log", "-1", "--format=%s", after); msg != "Export the site" {
		t.Errorf("commit message %q", msg)
	}
	// Every space's part records the site's one commit.
	for key, n := range st.Nodes {
		if n.Type != "space" {
			continue
		}
		sst, _, err := gitstate.Get(f.Kit.Ctx, f.Kit.Deps.Store, n.SpaceID)
		if err != nil {
			t.Fatal(err)
		}
		if sst.LastCommit != after || st2.Operation.Spaces[n.SpaceID].Commit != after || sst.Lease != nil {
			t.Errorf("%s: last commit %s, operation %+v, lease %+v; want %s and no lease", key, sst.LastCommit, st2.Operation.Spaces[n.SpaceID], sst.Lease, after)
		}
	}
	// Exported again unchanged: no commit.
	f.siteGit(t, siteID, "export", map[string]any{"commitMessage": "Again"})
	if now := git(t, bare, "rev-parse", "refs/heads/main"); now != after {
		t.Errorf("an unchanged export committed: %s", git(t, bare, "log", "--stat", after+".."+now))
	}
}

// A site job and a space job on the same space never run at the same time:
// the one that comes second finds the space's lease held and returns a
// (Conflict) error, so the queue delivers it again later; it then runs.
// Each job is held at its push (the git server's gate) while the other one
// is tried.
func TestSiteAndSpaceJobsOnOneSpaceAreSerialized(t *testing.T) {
	f := setup(t)
	bare, siteID, st := f.siteRepo(t, nil)
	en := st.Nodes["guide-en"].SpaceID
	spaceExport := func() {
		f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+en+"/git/export",
			map[string]any{"url": f.git.url("site"), "ref": "refs/heads/main", "commitMessage": "Space export", "repoProjectDirectory": "guides/en"})
	}
	// (Forced: the space's own export moves the branch past the site's
	// last sync.)
	siteExport := func() {
		f.As(t, "admin").Expect(http.StatusNoContent, "POST", "/v1/orgs/"+f.Org.ID+"/sites/"+siteID+"/git/export",
			map[string]any{"url": f.git.url("site"), "ref": "refs/heads/main", "commitMessage": "Site export", "force": true})
	}
	take := func() queue.Job {
		t.Helper()
		jobs := f.queue.Take()
		if len(jobs) != 1 {
			t.Fatalf("%d jobs queued, want 1", len(jobs))
		}
		return jobs[0]
	}
	handlers := f.svc.Handlers()
	run := func(j queue.Job) error { return handlers[j.Kind](context.Background(), j) }
	// holdPush runs first until it pushes, then runs second (which must
	// find the space busy), lets first push and waits for it.
	holdPush := func(first, second queue.Job) {
		t.Helper()
		at, resume := make(chan struct{}), make(chan struct{})
		gate := func(r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/git-receive-pack") {
				at <- struct{}{}
				<-resume
			}
		}
		f.git.gate.Store(&gate)
		done := make(chan error, 1)
		go func() { done <- run(first) }()
		<-at
		f.git.gate.Store(nil)
		head := git(t, bare, "rev-parse", "refs/heads/main")
		err := run(second)
		if !apperr.Is(err, apperr.Conflict) || !strings.Contains(err.Error(), "being synced by Git job "+first.ID) {
			t.Errorf("%s while %s holds the space: %v, want busy", second.Kind, first.Kind, err)
		}
		if now := git(t, bare, "rev-parse", "refs/heads/main"); now != head {
			t.Errorf("the busy %s pushed", second.Kind)
		}
		close(resume)
		if err := <-done; err != nil {
			t.Fatalf("%s: %v", first.Kind, err)
		}
	}

	// A site export holds the space; the space's export waits.
	f.editFirstPage(t, en, "Edited for the site export.")
	siteExport()
	siteJob := take()
	spaceExport()
	spaceJob := take()
	holdPush(siteJob, spaceJob)
	if op := f.siteState(t, siteID).Operation; op.State != model.GitSuccess {
		t.Fatalf("site export: %+v", op)
	}
	if err := run(spaceJob); err != nil { // delivered again
		t.Fatal(err)
	}
	if sst, _, _ := gitstate.Get(f.Kit.Ctx, f.Kit.Deps.Store, en); !slices.Contains(sst.Done, spaceJob.ID) || sst.Lease != nil {
		t.Fatalf("space export after the site's: done %v, lease %+v", sst.Done, sst.Lease)
	}

	// A space export holds the space; the site's export waits.
	f.editFirstPage(t, en, "Edited for the space export.")
	spaceExport()
	spaceJob = take()
	siteExport()
	siteJob = take()
	holdPush(spaceJob, siteJob)
	if op := f.info(t, en)["operation"].(map[string]any); op["state"] != "success" {
		t.Fatalf("space export: %v", op)
	}
	if err := run(siteJob); err != nil {
		t.Fatal(err)
	}
	if op := f.siteState(t, siteID).Operation; op.State != model.GitSuccess || op.JobID != siteJob.ID {
		t.Fatalf("site export after the space's: %+v", op)
	}
	if sst, _, _ := gitstate.Get(f.Kit.Ctx, f.Kit.Deps.Store, en); sst.Lease != nil {
		t.Errorf("lease left: %+v", sst.Lease)
	}
}
