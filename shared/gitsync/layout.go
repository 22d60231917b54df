package gitsync

import (
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
)

// The layout of a space in a repository (the project directory):
//
//   - a page is <path>.md, or <path>/README.md when it has child pages
//     (content.Index.GitPath); groups have no file; link pages exist only
//     in SUMMARY.md;
//   - a page's file is frontmatter (description, emoji, icon, hidden,
//     noIndex, noRobotsIndex, layout), "# <title>", the body;
//   - SUMMARY.md lists the pages in order, nested by indentation, with
//     their titles; "## <title>" lines are groups;
//   - files are under .gitbook/assets/ (or where an import found them);
//     pages show them by relative paths (in Galley: /files/<fileId>);
//   - links between pages are relative paths between their files.
//
// On import, SUMMARY.md (when present) gives the pages, their order,
// nesting and titles; without it the directory tree does: README.md as a
// folder's page, files and folders by name. A page's slug is its file's
// name (a README.md's: its folder's; the top README.md's: its title's).

// summaryFile is the table of contents of a project directory.
const summaryFile = "SUMMARY.md"

// assetsDir is where an export writes files.
const assetsDir = ".gitbook/assets"

// node is a page found in a repository.
type node struct {
	kind  string // content.TypeDocument, TypeGroup, TypeLink
	title string
	// file is the page's markdown file, relative to the project directory
	// ("" for groups and links, and for folders without a README.md).
	file string
	// dir is the folder a page without a file stands for (tree layout).
	dir string
	url string
	// slug is a group's slug as its heading's anchor names it (GitBook
	// writes "## Title <a href="#slug" id="slug"></a>"); "" without one.
	slug     string
	children []*node
}

// groupAnchor is the empty anchor GitBook ends a group heading with when
// the group's slug is not its title's.
var groupAnchor = regexp.MustCompile(`\s*<a\s+(?:[a-z]+="[^"]*"\s*)*>\s*</a>\s*$`)

// anchorID reads the id (else the href's fragment) of a groupAnchor.
var anchorID = regexp.MustCompile(`\b(id|href)="#?([^"]*)"`)

var summaryItem = regexp.MustCompile(`^(\s*)[*+-]\s+\[((?:[^\]\\]|\\.)*)\]\(([^)]*)\)\s*$`)

// summaryBreak is a thematic break ("***", "---", "___", spaced or not)
// at the start of a line: in SUMMARY.md it ends the group above it, so
// that the items after it are top-level pages (GitBook writes "***"
// before the top-level pages that follow a group).
var summaryBreak = regexp.MustCompile(`^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$`)

// groupBreak is the break renderSummary writes.
const groupBreak = "***"

// parseSummary reads SUMMARY.md: nested list items of links, "## " group
// headings, breaks that end a group. Items that are not links are
// ignored.
func parseSummary(src string) []*node {
	var top []*node
	var group *node
	type level struct {
		indent int
		n      *node
	}
	var stack []level
	prev := ""
	for _, line := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		// A "---" right under a paragraph's line underlines a heading
		// instead (setext); "***" and "___" are always breaks.
		if summaryBreak.MatchString(line) && !(strings.HasPrefix(trimmed, "-") && isParagraphLine(prev)) {
			group, stack = nil, nil
			prev = trimmed
			continue
		}
		prev = trimmed
		if t, ok := strings.CutPrefix(trimmed, "## "); ok {
			group = &node{kind: content.TypeGroup, title: strings.TrimSpace(t)}
			if loc := groupAnchor.FindStringIndex(group.title); loc != nil && loc[0] > 0 {
				for _, a := range anchorID.FindAllStringSubmatch(group.title[loc[0]:], -1) {
					if group.slug == "" || a[1] == "id" {
						group.slug = a[2]
					}
				}
				group.title = strings.TrimSpace(group.title[:loc[0]])
			}
			top = append(top, group)
			stack = nil
			continue
		}
		m := summaryItem.FindStringSubmatch(strings.ReplaceAll(line, "\t", "    "))
		if m == nil {
			continue
		}
		indent := len(m[1])
		title := document.Unescape(m[2])
		target := strings.TrimSpace(m[3])
		if inner, ok := strings.CutPrefix(target, "<"); ok && strings.Contains(inner, ">") {
			target, _, _ = strings.Cut(inner, ">")
		} else if i := strings.IndexAny(target, " \t"); i >= 0 {
			target = target[:i] // a link title after the target
		}
		target = document.Unescape(target)
		n := &node{kind: content.TypeDocument, title: title}
		if isExternal(target) {
			n.kind, n.url = content.TypeLink, target
		} else {
			target, _, _ = strings.Cut(target, "#")
			if u, err := url.PathUnescape(target); err == nil {
				target = u
			}
			n.file = cleanRel(target)
			if n.file == "" || !strings.HasSuffix(strings.ToLower(n.file), ".md") {
				continue
			}
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		switch {
		case len(stack) > 0:
			parent := stack[len(stack)-1].n
			parent.children = append(parent.children, n)
		case group != nil:
			group.children = append(group.children, n)
		default:
			top = append(top, n)
		}
		if n.kind != content.TypeLink {
			stack = append(stack, level{indent, n})
		}
	}
	return top
}

// isParagraphLine tells whether a trimmed line of SUMMARY.md is text a
// "---" under it would make a heading of: not blank, not a heading, a
// list item or a break.
func isParagraphLine(trimmed string) bool {
	if trimmed == "" || strings.HasPrefix(trimmed, "#") || summaryBreak.MatchString(trimmed) {
		return false
	}
	if len(trimmed) > 1 && strings.ContainsRune("*+-", rune(trimmed[0])) && (trimmed[1] == ' ' || trimmed[1] == '\t') {
		return false
	}
	return true
}

// treeNodes builds the pages of a directory tree of markdown files: the
// top README.md first, then each folder's files and subfolders by name; a
// folder is a page (its README.md, or an empty page named after it) with
// its content as children.
func treeNodes(mdFiles []string) []*node {
	type folder struct {
		files   []string
		folders map[string]*folder
		readme  string
	}
	root := &folder{folders: map[string]*folder{}}
	for _, f := range mdFiles {
		segs := strings.Split(f, "/")
		d := root
		for _, s := range segs[:len(segs)-1] {
			if d.folders[s] == nil {
				d.folders[s] = &folder{folders: map[string]*folder{}}
			}
			d = d.folders[s]
		}
		if strings.EqualFold(segs[len(segs)-1], "README.md") {
			d.readme = f
		} else {
			d.files = append(d.files, f)
		}
	}
	var build func(d *folder, prefix string) []*node
	build = func(d *folder, prefix string) []*node {
		type item struct {
			name string
			n    *node
		}
		var items []item
		for _, f := range d.files {
			items = append(items, item{path.Base(f), &node{kind: content.TypeDocument, file: f}})
		}
		for name, sub := range d.folders {
			n := &node{kind: content.TypeDocument, file: sub.readme, dir: prefix + name, children: build(sub, prefix+name+"/")}
			items = append(items, item{name, n})
		}
		sort.Slice(items, func(i, j int) bool {
			return strings.TrimSuffix(items[i].name, ".md") < strings.TrimSuffix(items[j].name, ".md")
		})
		out := make([]*node, 0, len(items))
		for _, it := range items {
			out = append(out, it.n)
		}
		return out
	}
	nodes := build(root, "")
	if root.readme != "" {
		nodes = append([]*node{{kind: content.TypeDocument, file: root.readme}}, nodes...)
	}
	return nodes
}

// slugOf is the slug a page's file (or folder) gives it; "" when it must
// come from the title (the top README.md, groups).
func slugOf(n *node) string {
	name := ""
	switch {
	case n.file != "" && strings.EqualFold(path.Base(n.file), "README.md"):
		if d := path.Dir(n.file); d != "." {
			name = path.Base(d)
		}
	case n.file != "":
		name = strings.TrimSuffix(path.Base(n.file), path.Ext(n.file))
	case n.dir != "":
		name = path.Base(n.dir)
	}
	if name == "" {
		return ""
	}
	return document.Slug(name, "page")
}

// titleFromName makes a title of a file or folder name.
func titleFromName(name string) string {
	name = strings.TrimSuffix(path.Base(name), path.Ext(name))
	name = strings.NewReplacer("-", " ", "_", " ").Replace(name)
	r := []rune(strings.TrimSpace(name))
	if len(r) == 0 {
		return "Untitled"
	}
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// isExternal reports whether a link target is a URL (or an absolute path,
// a mail address, an anchor): anything that is not a relative file path.
func isExternal(target string) bool {
	if target == "" || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "/") {
		return true
	}
	if i := strings.Index(target, ":"); i > 0 && !strings.ContainsAny(target[:i], "/.") {
		return true // a scheme: https:, mailto:, data:
	}
	return false
}

// cleanRel cleans a relative path; "" when it leaves the project
// directory.
func cleanRel(p string) string {
	p = path.Clean(strings.TrimPrefix(p, "./"))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return ""
	}
	return p
}

// renderSummary writes SUMMARY.md for a tree whose pages are at paths (by
// id).
func renderSummary(ix *content.Index, paths map[string]string) string {
	var b strings.Builder
	b.WriteString("# Table of contents\n\n")
	escape := strings.NewReplacer(`\`, `\\`, "]", `\]`, "[", `\[`)
	// inGroup: the top-level pages written last are a group's, so a
	// top-level page must break out of it first.
	inGroup := false
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		for _, id := range ix.Children(parent) {
			p := ix.Page(id)
			if parent == "" && p.Type != content.TypeGroup && inGroup {
				b.WriteString("\n" + groupBreak + "\n\n")
				inGroup = false
			}
			switch p.Type {
			case content.TypeGroup:
				inGroup = true
				b.WriteString("\n## " + p.Title)
				if p.Slug != "" && p.Slug != document.Slug(p.Title, "page") {
					// GitBook's form: the anchor keeps the group's slug.
					b.WriteString(` <a href="#` + p.Slug + `" id="` + p.Slug + `"></a>`)
				}
				b.WriteString("\n\n")
				walk(id, 0)
				continue
			case content.TypeLink:
				target := ""
				if p.Target != nil {
					target = p.Target.URL
				}
				b.WriteString(strings.Repeat("  ", depth) + "* [" + escape.Replace(p.Title) + "](" + target + ")\n")
				continue
			}
			rel, ok := paths[id]
			if !ok {
				rel = ix.GitPath(id)
			}
			b.WriteString(strings.Repeat("  ", depth) + "* [" + escape.Replace(p.Title) + "](" + pathEscape(rel) + ")\n")
			walk(id, depth+1)
		}
	}
	walk("", 0)
	return b.String()
}

// pathEscape escapes what would end a markdown link target.
func pathEscape(p string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29").Replace(p)
}
