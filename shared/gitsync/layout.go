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
	dir      string
	url      string
	children []*node
}

var summaryItem = regexp.MustCompile(`^(\s*)[*+-]\s+\[((?:[^\]\\]|\\.)*)\]\(([^)]*)\)\s*$`)

// parseSummary reads SUMMARY.md: nested list items of links, "## " group
// headings. Items that are not links are ignored.
func parseSummary(src string) []*node {
	var top []*node
	var group *node
	type level struct {
		indent int
		n      *node
	}
	var stack []level
	for _, line := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		if t, ok := strings.CutPrefix(trimmed, "## "); ok {
			group = &node{kind: content.TypeGroup, title: strings.TrimSpace(t)}
			top = append(top, group)
			stack = nil
			continue
		}
		m := summaryItem.FindStringSubmatch(strings.ReplaceAll(line, "\t", "    "))
		if m == nil {
			continue
		}
		indent := len(m[1])
		title := unescapeMarkdown(m[2])
		target := strings.TrimSpace(m[3])
		if inner, ok := strings.CutPrefix(target, "<"); ok && strings.Contains(inner, ">") {
			target, _, _ = strings.Cut(inner, ">")
		} else if i := strings.IndexAny(target, " \t"); i >= 0 {
			target = target[:i] // a link title after the target
		}
		target = unescapeMarkdown(target)
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

// unescapeMarkdown removes markdown's backslash escapes (of ASCII
// punctuation): GitBook writes error\_001.md and \[draft\] in SUMMARY.md.
func unescapeMarkdown(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
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

// relPath is the relative path from the folder of file from to file to.
func relPath(from, to string) string {
	fromDir := path.Dir(from)
	if fromDir == "." {
		fromDir = ""
	}
	var fs []string
	if fromDir != "" {
		fs = strings.Split(fromDir, "/")
	}
	ts := strings.Split(to, "/")
	i := 0
	for i < len(fs) && i < len(ts)-1 && fs[i] == ts[i] {
		i++
	}
	var b strings.Builder
	for range fs[i:] {
		b.WriteString("../")
	}
	b.WriteString(strings.Join(ts[i:], "/"))
	out := b.String()
	if !strings.HasPrefix(out, "../") {
		out = "./" + out
	}
	return out
}

// linkTarget finds the targets of markdown links and images, and of HTML
// src and href attributes.
var linkTarget = regexp.MustCompile(`(\]\()(<[^>\n]*>|[^)\s]+)|((?:src|href)=")([^"]+)`)

// rewriteLinks rewrites the link targets of a markdown body, outside code
// blocks and code spans, with fn (which returns the target unchanged when
// it does not apply).
func rewriteLinks(body string, fn func(target string) string) string {
	lines := strings.Split(body, "\n")
	fence := ""
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		if !strings.Contains(line, "](") && !strings.Contains(line, "src=") && !strings.Contains(line, "href=") {
			continue
		}
		// Code spans keep their text.
		parts := strings.Split(line, "`")
		for j := 0; j < len(parts); j += 2 {
			parts[j] = linkTarget.ReplaceAllStringFunc(parts[j], func(m string) string {
				sub := linkTarget.FindStringSubmatch(m)
				prefix, target := sub[1], sub[2]
				if prefix == "" {
					prefix, target = sub[3], sub[4]
				}
				if inner, ok := strings.CutPrefix(target, "<"); ok && strings.HasSuffix(inner, ">") {
					// An angle-bracket destination (it may hold spaces).
					inner = strings.TrimSuffix(inner, ">")
					if out := fn(inner); out != inner {
						if strings.ContainsAny(out, " \t") {
							return prefix + "<" + out + ">"
						}
						return prefix + out
					}
					return prefix + target
				}
				return prefix + fn(target)
			})
		}
		lines[i] = strings.Join(parts, "`")
	}
	return strings.Join(lines, "\n")
}

// renderSummary writes SUMMARY.md for a tree whose pages are at paths (by
// id).
func renderSummary(ix *content.Index, paths map[string]string) string {
	var b strings.Builder
	b.WriteString("# Table of contents\n\n")
	escape := strings.NewReplacer(`\`, `\\`, "]", `\]`, "[", `\[`)
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		for _, id := range ix.Children(parent) {
			p := ix.Page(id)
			switch p.Type {
			case content.TypeGroup:
				b.WriteString("\n## " + p.Title + "\n\n")
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
