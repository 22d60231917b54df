package gitsync_test

import (
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
)

// linkNode is docs.yaml's external-link node of key to url, indented.
func linkNode(key, url, indent string) string {
	return indent + "- type: external-link\n" + indent + "  key: " + key + "\n" + indent + "  title: " + strings.ToUpper(key[:1]) + key[1:] + "\n" + indent + "  url: " + url + "\n"
}

// linkedDocsYAML is groupedDocsYAML with an external link at the top level
// (between the home section and the group, with its description, icon,
// translated title and a condition) and one in the group (between its two
// sections, a draft).
var linkedDocsYAML = strings.Replace(strings.Replace(groupedDocsYAML,
	"    - type: section-group\n", `    - type: external-link
      key: status
      title: Status
      localizedTitle:
        fr: État
      description: Is it up?
      icon: signal
      url: https://status.example.com/
      condition: visitor.claims.staff == true
    - type: section-group
`, 1),
	"        - type: section\n          key: wheels\n", `        - type: external-link
          key: forum
          title: Forum
          url: https://forum.example.com/engine
          draft: true
        - type: section
          key: wheels
`, 1)

func linkedFiles() map[string]string {
	return map[string]string{
		"docs.yaml":        linkedDocsYAML,
		"home/README.md":   "# Home\n",
		"engine/README.md": "# Engine\n",
		"wheels/README.md": "# Wheels\n",
	}
}

// itemIDs are the ids of a level's items, in order.
func itemIDs(items []sites.TopItem) string {
	var out []string
	for _, it := range items {
		if id := it.ID(); id != "" {
			out = append(out, id)
		}
	}
	return strings.Join(out, ",")
}

// ids joins the ids of nodes of keys.
func ids(st model.SiteGitSync, keys ...string) string {
	var out []string
	for _, k := range keys {
		out = append(out, st.Nodes[k].ID)
	}
	return strings.Join(out, ",")
}

// A docs.yaml with an external link at the top level and one inside a
// group: the import makes both links, with their fields, at their place
// among the sections and the group; a re-import keeps every id; an export
// of the unchanged site makes no commit; moving a link in docs.yaml moves
// it (same id); removing one removes it; a link changed in Galley is
// written back in place.
func TestSiteImportMapsExternalLinks(t *testing.T) {
	f := setup(t)
	bare, siteID, st := f.siteRepo(t, linkedFiles())
	if got := strings.Join(st.Order, ","); got != "home,home-space,status,products,engine,engine-space,forum,wheels,wheels-space" {
		t.Fatalf("keys: %s", got)
	}
	layout := func(st model.SiteGitSync, top, group string) model.Site {
		t.Helper()
		site, _, _ := f.siteOf(t, siteID)
		tree := sites.TreeOf(&site)
		if got := itemIDs(tree.Top()); got != top {
			t.Errorf("top level %s, want %s", got, top)
		}
		if got := itemIDs(tree.GroupItems(st.Nodes["products"].ID)); got != group {
			t.Errorf("group %s, want %s", got, group)
		}
		return site
	}
	site := layout(st, ids(st, "home", "status", "products"), ids(st, "engine", "forum", "wheels"))
	if len(site.ExternalLinks) != 2 {
		t.Fatalf("links: %+v", site.ExternalLinks)
	}
	tree := sites.TreeOf(&site)
	status, err := tree.ExternalLink(st.Nodes["status"].ID)
	if err != nil {
		t.Fatal(err)
	}
	if status.Title != "Status" || status.URL != "https://status.example.com/" || status.Description != "Is it up?" || status.Icon != "signal" ||
		status.LocalizedTitle["fr"] != "État" || status.Condition != "visitor.claims.staff == true" || status.Draft || status.Group != "" {
		t.Errorf("status link: %+v", status)
	}
	forum, err := tree.ExternalLink(st.Nodes["forum"].ID)
	if err != nil {
		t.Fatal(err)
	}
	if forum.Title != "Forum" || forum.URL != "https://forum.example.com/engine" || !forum.Draft || forum.Group != st.Nodes["products"].ID {
		t.Errorf("forum link: %+v", forum)
	}

	// Re-import of the unchanged file: every id kept; export: no commit.
	st2 := f.siteGitOK(t, siteID, "import", nil)
	for k, n := range st.Nodes {
		if m := st2.Nodes[k]; m.ID != n.ID || m.SpaceID != n.SpaceID {
			t.Errorf("%s: ids %s/%s became %s/%s", k, n.ID, n.SpaceID, m.ID, m.SpaceID)
		}
	}
	head := git(t, bare, "rev-parse", "refs/heads/main")
	f.siteGitOK(t, siteID, "export", map[string]any{"commitMessage": "Export"})
	if now := git(t, bare, "rev-parse", "refs/heads/main"); now != head {
		t.Fatalf("an export of an unchanged site committed: %s -> %s\n%s", head, now, git(t, bare, "show", now+":docs.yaml"))
	}
	if got := git(t, bare, "show", head+":docs.yaml"); got != strings.TrimSpace(linkedDocsYAML) {
		t.Errorf("docs.yaml changed:\n%s", got)
	}

	// Moved in docs.yaml: status into the group first, forum to the end
	// of the top level.
	statusBlock := linkedDocsYAML[strings.Index(linkedDocsYAML, "    - type: external-link\n      key: status"):strings.Index(linkedDocsYAML, "    - type: section-group")]
	forumBlock := linkedDocsYAML[strings.Index(linkedDocsYAML, "        - type: external-link\n          key: forum"):strings.Index(linkedDocsYAML, "        - type: section\n          key: wheels")]
	moved := strings.Replace(strings.Replace(linkedDocsYAML, statusBlock, "", 1), forumBlock, "", 1)
	moved = strings.Replace(moved, "      children:\n        - type: section\n          key: engine",
		"      children:\n"+indentBy(statusBlock, "    ")+"        - type: section\n          key: engine", 1)
	moved += strings.ReplaceAll("\n"+forumBlock, "\n    ", "\n")[1:]
	f.git.commit(t, "site", "Move the links", map[string]string{"docs.yaml": moved})
	st3 := f.siteGitOK(t, siteID, "import", nil)
	if st3.Nodes["status"].ID != st.Nodes["status"].ID || st3.Nodes["forum"].ID != st.Nodes["forum"].ID {
		t.Fatalf("moved links got new ids: %+v %+v", st3.Nodes["status"], st3.Nodes["forum"])
	}
	site = layout(st3, ids(st3, "home", "products", "forum"), ids(st3, "status", "engine", "wheels"))
	if len(site.ExternalLinks) != 2 {
		t.Errorf("links after the move: %+v", site.ExternalLinks)
	}

	// A link changed in Galley: the export writes it back in place.
	ctx := access.WithCaller(f.Kit.Ctx, f.Caller("admin"))
	title := "Community"
	if _, _, err := siteswire.Service(f.Root).UpdateExternalLink(ctx, f.Org.ID, siteID, st.Nodes["forum"].ID, sites.ExternalLinkInput{Title: &title}); err != nil {
		t.Fatal(err)
	}
	f.siteGitOK(t, siteID, "export", map[string]any{"commitMessage": "Rename the forum"})
	text := git(t, bare, "show", "refs/heads/main:docs.yaml")
	forumAt := strings.Index(text, "key: forum")
	if forumAt < 0 || !strings.Contains(text[forumAt:], "title: Community") || !strings.Contains(text[forumAt:], "url: https://forum.example.com/engine") ||
		strings.Index(text, "key: forum") < strings.Index(text, "key: wheels") ||
		strings.Index(text, "key: status") > strings.Index(text, "key: engine") || strings.Index(text, "key: status") < strings.Index(text, "key: products") {
		t.Fatalf("exported docs.yaml:\n%s", text)
	}
	st4 := f.siteGitOK(t, siteID, "import", nil)
	if st4.Nodes["forum"].ID != st.Nodes["forum"].ID || st4.Nodes["forum"].Title != "Community" {
		t.Errorf("import of the export: %+v", st4.Nodes["forum"])
	}

	// Removed from docs.yaml: the link goes.
	f.git.commit(t, "site", "Drop the forum", map[string]string{"docs.yaml": moved[:strings.Index(moved, "    - type: external-link\n      key: forum")]})
	st5 := f.siteGitOK(t, siteID, "import", nil)
	site, _, _ = f.siteOf(t, siteID)
	if _, ok := st5.Nodes["forum"]; ok || len(site.ExternalLinks) != 1 || site.ExternalLinks[0].ID != st.Nodes["status"].ID {
		t.Errorf("after removing forum: state %v, links %+v", st5.Order, site.ExternalLinks)
	}
}

// indentBy indents every line of b by pad.
func indentBy(b, pad string) string {
	lines := strings.SplitAfter(b, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "")
}
