package document

import (
	"path"
	"regexp"
	"strconv"
	"strings"
)

// The document format renders a markdown body as the reference's document
// model (JSONDocument): blocks (paragraphs, headings, lists, code, quotes,
// hints, dividers, images) of texts with marks, links and inline images.
// Links follow the repository's conventions: a relative path to another
// page's markdown file (as GitPath writes it) is a page reference,
// /files/<fileId> a file reference, #anchor an anchor; anything else a URL.
// GitBook's blocks ({% tabs %}, {% code %}, {% embed %}, figures, tables,
// math, <details>…) read as GitBook's nodes (blocks.go). Other markdown
// (unknown {% %} tags, other HTML) reads as paragraphs.

// JSONDocument is a page body as a document tree (the reference's
// JSONDocument): blocks of inlines and texts with marks.
type JSONDocument struct {
	Object string           `json:"object" enum:"document"`
	Data   map[string]any   `json:"data"`
	Nodes  []map[string]any `json:"nodes"`
}

// Node is one node of a document tree, as the API writes it.
type Node = map[string]any

// Resolver turns link targets into content references for one page.
// The zero Resolver resolves only links that need no pages (files,
// anchors, URLs, other spaces).
type Resolver struct {
	// PageID is the page whose links are resolved: relative links are
	// read from its markdown file's folder.
	PageID string
	// Locator finds pages (a revision's whole tree, or a read of one page
	// that resolves its links without the whole tree); nil for none.
	Locator PageLocator
	// File is the repository path of the file the body is read from when
	// it is not PageID's (a reusable content's .gitbook/includes/<name>.md):
	// relative links and includes are read from its folder.
	File string
	// Reusables finds the reusable contents includes name (include.go);
	// nil for none.
	Reusables ReusableLocator
}

// PageLocator finds pages by the markdown file paths that links between
// pages name. A revision's page tree (content.Index) is one.
type PageLocator interface {
	// GitPath is the markdown file a page is written to (Index.GitPath).
	GitPath(id string) string
	// PageAtGitPath is the id of the page written to a markdown file path
	// (Index.ByGitPath), or "".
	PageAtGitPath(path string) string
	// HasPage tells whether a page of that id exists.
	HasPage(id string) bool
}

// PagesLink resolves a link of GitBook's /pages/ form against loc:
// /pages/<id>, /pages/<slug path>, /pages/<path>.md or
// /pages/<path>/README.md, with an optional #anchor. ok is false when the
// link is not of that form; id is "" when it names no page.
func PagesLink(loc PageLocator, href string) (id, anchor string, ok bool) {
	rest, ok := strings.CutPrefix(href, "/pages/")
	if !ok {
		return "", "", false
	}
	target, anchor, _ := strings.Cut(rest, "#")
	target = strings.Trim(target, "/")
	if target == "" || loc == nil {
		return "", anchor, true
	}
	if !strings.Contains(target, "/") && !strings.HasSuffix(target, ".md") && loc.HasPage(target) {
		return target, anchor, true
	}
	return loc.PageAtGitPath(target), anchor, true
}

// SpaceLink reads a link to another space (spacePrefix writes them):
// /s/<spaceId>/pages/<pageId>[#anchor] names a page of it, /s/<spaceId>
// or /s/<spaceId>/ the space. ok is false for any other link.
func SpaceLink(href string) (space, page, anchor string, ok bool) {
	rest, found := strings.CutPrefix(href, "/s/")
	if !found {
		return "", "", "", false
	}
	rest, anchor, _ = strings.Cut(rest, "#")
	space, rest, _ = strings.Cut(rest, "/")
	if space == "" || strings.ContainsAny(space, "?%") {
		return "", "", "", false
	}
	switch {
	case rest == "" && anchor == "":
		return space, "", "", true
	case strings.HasPrefix(rest, "pages/") && !strings.Contains(rest[len("pages/"):], "/") && len(rest) > len("pages/"):
		return space, rest[len("pages/"):], anchor, true
	}
	return "", "", "", false
}

// Ref resolves a link target.
func (r Resolver) Ref(href string) Node {
	loc := r.Locator
	if space, page, anchor, ok := SpaceLink(href); ok {
		switch {
		case page == "":
			return Node{"kind": "space", "space": space}
		case anchor != "":
			return Node{"kind": "anchor", "anchor": anchor, "page": page, "space": space}
		}
		return Node{"kind": "page", "page": page, "space": space}
	}
	if id, anchor, ok := PagesLink(loc, href); ok && id != "" {
		if anchor != "" {
			return Node{"kind": "anchor", "anchor": anchor, "page": id}
		}
		return Node{"kind": "page", "page": id}
	}
	switch {
	case strings.HasPrefix(href, "/files/"):
		return Node{"kind": "file", "file": strings.TrimPrefix(href, "/files/")}
	case strings.HasPrefix(href, "/reusable-contents/") && len(href) > len("/reusable-contents/"):
		// Galley's stored form of a reference to a reusable content
		// (content.ReusableContentLink).
		return Node{"kind": "reusable-content", "reusableContent": strings.TrimPrefix(href, "/reusable-contents/")}
	case strings.HasPrefix(href, "#"):
		return Node{"kind": "anchor", "anchor": strings.TrimPrefix(href, "#")}
	case strings.Contains(href, "://") || strings.HasPrefix(href, "mailto:") || strings.HasPrefix(href, "/"):
		return Node{"kind": "url", "url": href}
	}
	if loc != nil && (r.PageID != "" || r.File != "") {
		target, anchor, _ := strings.Cut(href, "#")
		dir := path.Dir(r.file())
		if id := loc.PageAtGitPath(path.Join(dir, target)); id != "" {
			if anchor != "" {
				return Node{"kind": "anchor", "anchor": anchor, "page": id}
			}
			return Node{"kind": "page", "page": id}
		}
	}
	return Node{"kind": "url", "url": href}
}

// ToDocument converts a markdown body to a document tree.
func ToDocument(body string, r Resolver) JSONDocument {
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	if body == "" {
		lines = nil
	}
	nodes := parseBlocks(splitTags(lines), r)
	if nodes == nil {
		nodes = []Node{}
	}
	return JSONDocument{Object: "document", Data: map[string]any{}, Nodes: nodes}
}

var (
	reHeading  = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	reFence    = regexp.MustCompile("^\\s*(```+|~~~+)\\s*([^`\\s]*)")
	reDivider  = regexp.MustCompile(`^\s*([-*_])(\s*([-*_])){2,}\s*$`)
	reListItem = regexp.MustCompile(`^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$`)
	reTask     = regexp.MustCompile(`^\[([ xX])\]\s+(.*)$`)
	reImage    = regexp.MustCompile(`^\s*!\[([^\]]*)\]\(([^)\s]+)(?:\s+"([^"]*)")?\)\s*$`)
	reHint     = regexp.MustCompile(`^\s*\{%\s*hint\s+style="(info|warning|danger|success)"\s*%\}\s*$`)
	reEndHint  = regexp.MustCompile(`^\s*\{%\s*endhint\s*%\}\s*$`)
	reHeadID   = regexp.MustCompile(`^[-a-z0-9.+_]+$`)
)

func isDivider(line string) bool {
	m := reDivider.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	c := strings.TrimSpace(line)[0]
	return strings.Count(line, string(c)) >= 3 && strings.Trim(line, string(c)+" \t") == ""
}

// startsBlock reports whether line begins a block other than a paragraph.
func startsBlock(line string) bool {
	t := strings.TrimSpace(line)
	return reHeading.MatchString(t) || reFence.MatchString(line) || isDivider(line) || reListItem.MatchString(line) ||
		strings.HasPrefix(t, ">") || reHint.MatchString(line) || reImage.MatchString(line)
}

func block(typ string, data Node, nodes []Node) Node {
	if data == nil {
		data = Node{}
	}
	if nodes == nil {
		nodes = []Node{}
	}
	return Node{"object": "block", "type": typ, "data": data, "nodes": nodes}
}

func parseBlocks(lines []string, r Resolver) []Node {
	var out []Node
	for i := 0; i < len(lines); {
		line := lines[i]
		t := strings.TrimSpace(line)
		if nodes, next, ok := parseGitBookBlock(lines, i, r); ok {
			out = append(out, nodes...)
			i = next
			continue
		}
		switch {
		case t == "":
			i++
		case reFence.MatchString(line):
			m := reFence.FindStringSubmatch(line)
			fence := m[1]
			var code []Node
			i++
			for i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), fence) {
				code = append(code, block("code-line", nil, []Node{text(lines[i], nil)}))
				i++
			}
			i++ // the closing fence
			data := Node{}
			if m[2] != "" {
				data["syntax"] = m[2]
			}
			out = append(out, block("code", data, code))
		case reHeading.MatchString(t):
			m := reHeading.FindStringSubmatch(t)
			level := min(len(m[1]), 3)
			data := Node{}
			h := block("heading-"+strconv.Itoa(level), data, inlines(m[2], r))
			if id := Slug(m[2], "page"); reHeadID.MatchString(id) {
				data["id"] = id
				// GitBook's document model carries a heading's anchor (the
				// fragment linking to it) in meta.id.
				h["meta"] = Node{"id": id}
			}
			out = append(out, h)
			i++
		case isDivider(line):
			out = append(out, Node{"object": "block", "type": "divider", "isVoid": true, "data": Node{}})
			i++
		case reHint.MatchString(line):
			style := reHint.FindStringSubmatch(line)[1]
			j := i + 1
			for j < len(lines) && !reEndHint.MatchString(lines[j]) {
				j++
			}
			inner := allowed(parseBlocks(lines[i+1:min(j, len(lines))], r), inHint...)
			out = append(out, block("hint", Node{"style": style}, inner))
			i = j + 1
		case strings.HasPrefix(t, ">"):
			var inner []string
			for i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), ">") {
				s := strings.TrimPrefix(strings.TrimSpace(lines[i]), ">")
				inner = append(inner, strings.TrimPrefix(s, " "))
				i++
			}
			var kept []Node
			for _, n := range parseBlocks(inner, r) {
				if isEssential(n) || n["type"] == "blockquote" {
					kept = append(kept, n)
				}
			}
			out = append(out, Node{"object": "block", "type": "blockquote", "nodes": nonNil(kept)})
		case reListItem.MatchString(line):
			var list Node
			list, i = parseList(lines, i, r)
			out = append(out, list)
		case reImage.MatchString(line):
			// GitBook reads an image's title as its caption.
			m := reImage.FindStringSubmatch(line)
			out = append(out, images(imageBlock(r, m[2], m[1], []string{m[3]})))
			i++
		default:
			var para []string
			for i < len(lines) && strings.TrimSpace(lines[i]) != "" && (len(para) == 0 || !startsBlock(lines[i]) && !startsGitBookBlock(lines, i)) {
				para = append(para, strings.TrimSpace(lines[i]))
				i++
			}
			out = append(out, Node{"object": "block", "type": "paragraph", "nodes": inlines(strings.Join(para, "\n"), r)})
		}
	}
	return out
}

// parseList reads the list starting at lines[i]: items of one kind at one
// indentation, each with the lines indented under it.
func parseList(lines []string, i int, r Resolver) (Node, int) {
	first := reListItem.FindStringSubmatch(lines[i])
	indent := len(first[1])
	ordered := first[2] != "-" && first[2] != "*" && first[2] != "+"
	_, task := reTaskMatch(first[3])
	var items []Node
	start := 0
	if ordered {
		start, _ = strconv.Atoi(strings.TrimRight(first[2], ".)"))
	}
	for i < len(lines) {
		m := reListItem.FindStringSubmatch(lines[i])
		if m == nil || len(m[1]) != indent || (m[2] != "-" && m[2] != "*" && m[2] != "+") == !ordered {
			break
		}
		content := m[3]
		data := Node{}
		if task {
			if checked, ok := reTaskMatch(content); ok {
				data["checked"] = checked.checked
				content = checked.rest
			}
		}
		body := []string{content}
		i++
		for i < len(lines) {
			l := lines[i]
			if strings.TrimSpace(l) == "" {
				// A blank line continues the item only if indented lines follow.
				if i+1 < len(lines) && leading(lines[i+1]) > indent {
					body = append(body, "")
					i++
					continue
				}
				break
			}
			if leading(l) <= indent {
				break
			}
			body = append(body, dedent(l, indent+2))
			i++
		}
		kept := allowed(parseBlocks(body, r), inListItem...)
		items = append(items, Node{"object": "block", "type": "list-item", "data": data, "nodes": kept})
	}
	switch {
	case task:
		return Node{"object": "block", "type": "list-tasks", "nodes": items}, i
	case ordered:
		data := Node{}
		if start != 1 {
			data["start"] = start
		}
		return Node{"object": "block", "type": "list-ordered", "data": data, "nodes": items}, i
	}
	return Node{"object": "block", "type": "list-unordered", "nodes": items}, i
}

type taskMatch struct {
	checked bool
	rest    string
}

func reTaskMatch(s string) (taskMatch, bool) {
	m := reTask.FindStringSubmatch(s)
	if m == nil {
		return taskMatch{}, false
	}
	return taskMatch{checked: m[1] != " ", rest: m[2]}, true
}

func leading(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

func dedent(s string, n int) string {
	for i := 0; i < n && len(s) > 0 && (s[0] == ' ' || s[0] == '\t'); i++ {
		s = s[1:]
	}
	return s
}

func isEssential(n Node) bool {
	switch n["type"] {
	case "paragraph", "heading-1", "heading-2", "heading-3", "list-ordered", "list-unordered", "list-tasks", "divider":
		return true
	}
	return false
}

func nonNil(nodes []Node) []Node {
	if nodes == nil {
		return []Node{}
	}
	return nodes
}

// imageRef keeps the reference kinds an image may have (URL or file).
func imageRef(ref Node) Node {
	if ref["kind"] == "file" || ref["kind"] == "url" {
		return ref
	}
	return Node{"kind": "url", "url": ref["url"]}
}

// Inline markdown: texts with marks (bold, italic, code, strikethrough),
// links and inline images.

func text(s string, marks []string) Node {
	return Node{"object": "text", "leaves": []Node{leaf(s, marks)}}
}

func leaf(s string, marks []string) Node {
	ms := make([]Node, 0, len(marks))
	for _, m := range marks {
		ms = append(ms, Node{"object": "mark", "type": m})
	}
	return Node{"object": "leaf", "text": s, "marks": ms}
}

type inlineParser struct {
	r     Resolver
	out   []Node
	leafs []Node
	buf   strings.Builder
	marks []string
}

func (p *inlineParser) flushLeaf() {
	if p.buf.Len() == 0 {
		return
	}
	p.leafs = append(p.leafs, leaf(p.buf.String(), append([]string(nil), p.marks...)))
	p.buf.Reset()
}

func (p *inlineParser) flushText() {
	p.flushLeaf()
	if len(p.leafs) > 0 {
		p.out = append(p.out, Node{"object": "text", "leaves": p.leafs})
		p.leafs = nil
	}
}

func (p *inlineParser) toggle(mark string) {
	p.flushLeaf()
	for i, m := range p.marks {
		if m == mark {
			p.marks = append(p.marks[:i], p.marks[i+1:]...)
			return
		}
	}
	p.marks = append(p.marks, mark)
}

func (p *inlineParser) has(mark string) bool {
	for _, m := range p.marks {
		if m == mark {
			return true
		}
	}
	return false
}

// inlines parses inline markdown into text and inline nodes; the result is
// never empty (a block holds at least one text).
func inlines(s string, r Resolver) []Node {
	p := &inlineParser{r: r}
	p.parse(s, true)
	p.flushText()
	if len(p.out) == 0 {
		return []Node{text("", nil)}
	}
	return p.out
}

// closing finds the label and target of a [label](target) at s[i] == '['.
func closing(s string, i int) (label, target string, end int, ok bool) {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				if j+1 < len(s) && s[j+1] == '(' {
					k := strings.IndexByte(s[j+2:], ')')
					if k < 0 {
						return "", "", 0, false
					}
					target = strings.TrimSpace(s[j+2 : j+2+k])
					if sp := strings.IndexAny(target, " \t"); sp >= 0 {
						target = target[:sp] // drop a "title"
					}
					return s[i+1 : j], target, j + 2 + k + 1, true
				}
				return "", "", 0, false
			}
		}
	}
	return "", "", 0, false
}

func (p *inlineParser) parse(s string, links bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!~>|$", s[i+1]) >= 0:
			p.buf.WriteByte(s[i+1])
			i++
		case c == '`':
			n := 1
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			fence := strings.Repeat("`", n)
			end := strings.Index(s[i+n:], fence)
			if end < 0 {
				p.buf.WriteString(fence)
				i += n - 1
				continue
			}
			p.flushLeaf()
			code := strings.TrimSpace(s[i+n : i+n+end])
			p.leafs = append(p.leafs, leaf(code, append(append([]string(nil), p.marks...), "code")))
			i += n + end + n - 1
		case (c == '*' || c == '_') && i+1 < len(s) && s[i+1] == c:
			mark := "bold"
			if p.has(mark) || strings.Contains(s[i+2:], string([]byte{c, c})) {
				p.toggle(mark)
			} else {
				p.buf.WriteString(s[i : i+2])
			}
			i++
		case c == '~' && i+1 < len(s) && s[i+1] == '~':
			if p.has("strikethrough") || strings.Contains(s[i+2:], "~~") {
				p.toggle("strikethrough")
			} else {
				p.buf.WriteString("~~")
			}
			i++
		case c == '*' || (c == '_' && (i == 0 || !isWord(s[i-1]) || p.has("italic"))):
			if p.has("italic") || strings.IndexByte(s[i+1:], c) >= 0 {
				p.toggle("italic")
			} else {
				p.buf.WriteByte(c)
			}
		case c == '<' && strings.HasPrefix(s[i:], exprOpen) && strings.Contains(s[i:], exprClose):
			// An inline expression (expressions.go).
			expr, end, _ := expressionAt(s, i)
			p.flushText()
			p.out = append(p.out, expressionNode(expr))
			i = end - 1
		case c == '$' && i+1 < len(s) && s[i+1] == '$' && strings.Contains(s[i+2:], "$$"):
			end := strings.Index(s[i+2:], "$$")
			p.flushText()
			p.out = append(p.out, Node{"object": "inline", "type": "inline-math", "isVoid": true,
				"data": Node{"formula": s[i+2 : i+2+end]}})
			i += 2 + end + 1
		case c == '!' && links && i+1 < len(s) && s[i+1] == '[':
			label, target, end, ok := closing(s, i+1)
			if !ok {
				p.buf.WriteByte(c)
				continue
			}
			p.flushText()
			p.out = append(p.out, Node{"object": "inline", "type": "inline-image", "isVoid": true,
				"data": Node{"ref": imageRef(p.r.Ref(target)), "caption": label}})
			i = end - 1
		case c == '[' && links:
			label, target, end, ok := closing(s, i)
			if !ok {
				p.buf.WriteByte(c)
				continue
			}
			p.flushText()
			inner := &inlineParser{r: p.r, marks: append([]string(nil), p.marks...)}
			inner.parse(label, false)
			inner.flushText()
			nodes := inner.out
			if len(nodes) == 0 {
				nodes = []Node{text("", nil)}
			}
			p.out = append(p.out, Node{"object": "inline", "type": "link", "isVoid": false, "data": Node{"ref": p.r.Ref(target)}, "nodes": nodes})
			i = end - 1
		default:
			p.buf.WriteByte(c)
		}
	}
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
