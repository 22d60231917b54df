package document

import (
	"fmt"
	"html"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// GitBook's markdown blocks: the {% tag %} blocks (tabs, code, embed,
// content-ref, file, swagger and openapi, stepper, columns), figures,
// drawings, tables, math and expandables, read as the structured nodes of
// GitBook's document model. docmarkdown.go writes them back.

var (
	reTagLine  = regexp.MustCompile(`^\s*\{%\s*([a-z][a-z0-9-]*)((?:\s+[A-Za-z][\w-]*="[^"]*")*)\s*%\}\s*$`)
	reTagAny   = regexp.MustCompile(`\{%\s*([a-z][a-z0-9-]*)(?:\s+[A-Za-z][\w-]*="[^"]*")*\s*%\}`)
	reAttr     = regexp.MustCompile(`([A-Za-z][\w-]*)="([^"]*)"`)
	reImgTag   = regexp.MustCompile(`<img\s[^>]*>`)
	reCaption  = regexp.MustCompile(`(?s)<figcaption>(.*?)</figcaption>`)
	reSummary  = regexp.MustCompile(`(?s)<summary>(.*?)</summary>`)
	reParas    = regexp.MustCompile(`(?s)<p>(.*?)</p>`)
	reTableSep = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)
	reHTMLRow  = regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`)
	reHTMLCell = regexp.MustCompile(`(?s)<t([hd])[^>]*>(.*?)</t[hd]>`)
	reInlineA  = regexp.MustCompile(`(?s)<a\s[^>]*href="([^"]*)"[^>]*>(.*?)</a>`)
	reAnyTag   = regexp.MustCompile(`</?[A-Za-z][^>]*>`)
)

// htmlInline turns the inline HTML GitBook writes in captions and table
// cells (<strong>, <em>, <code>, <a href>) into markdown; other tags go,
// their text stays.
func htmlInline(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	if parts := splitExpressions(s); len(parts) > 1 {
		// Inline expressions stay as they are (expressions.go).
		for i := 0; i < len(parts); i += 2 {
			parts[i] = htmlInline(parts[i])
		}
		return strings.Join(parts, "")
	}
	s = strings.NewReplacer("<strong>", "**", "</strong>", "**", "<b>", "**", "</b>", "**",
		"<em>", "*", "</em>", "*", "<i>", "*", "</i>", "*", "<code>", "`", "</code>", "`", "<br>", " ", "<br/>", " ").Replace(s)
	s = reInlineA.ReplaceAllString(s, "[$2]($1)")
	return reAnyTag.ReplaceAllString(s, "")
}

// blockTags are the {% %} tags that open (or close, with "end") a block.
func blockTag(name string) bool {
	switch strings.TrimPrefix(name, "end") {
	case "tabs", "tab", "code", "embed", "content-ref", "page-ref", "file", "swagger", "swagger-description",
		"swagger-parameter", "swagger-response", "openapi", "openapi-operation", "stepper", "step", "columns", "column", "hint":
		return true
	}
	return false
}

// tag is one {% name attr="value" … %} line, its attributes in order.
type tag struct {
	name  string
	attrs [][2]string
}

func parseTag(line string) (tag, bool) {
	m := reTagLine.FindStringSubmatch(line)
	if m == nil {
		return tag{}, false
	}
	t := tag{name: m[1]}
	for _, a := range reAttr.FindAllStringSubmatch(m[2], -1) {
		t.attrs = append(t.attrs, [2]string{a[1], a[2]})
	}
	return t, true
}

func (t tag) attr(k string) string {
	for _, a := range t.attrs {
		if a[0] == k {
			return a[1]
		}
	}
	return ""
}

// isTag tells whether line is the tag name (of any attributes).
func isTag(line, name string) bool {
	t, ok := parseTag(line)
	return ok && t.name == name
}

// splitTags puts each block tag on a line of its own (GitBook writes
// {% file src="…" %}caption{% endfile %} on one line too), keeping the
// line's indentation; fenced code is left alone.
func splitTags(lines []string) []string {
	var out []string
	fence := ""
	for _, line := range lines {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			out = append(out, line)
			continue
		}
		if m := reFence.FindStringSubmatch(line); m != nil {
			fence = m[1]
			out = append(out, line)
			continue
		}
		if reTagLine.MatchString(line) {
			out = append(out, line)
			continue
		}
		locs := reTagAny.FindAllStringSubmatchIndex(line, -1)
		var known [][]int
		for _, l := range locs {
			if blockTag(line[l[2]:l[3]]) {
				known = append(known, l)
			}
		}
		if known == nil {
			out = append(out, line)
			continue
		}
		indent := line[:leading(line)]
		prev := 0
		for _, l := range known {
			if s := strings.TrimSpace(line[prev:l[0]]); s != "" {
				out = append(out, indent+s)
			}
			out = append(out, indent+line[l[0]:l[1]])
			prev = l[1]
		}
		if s := strings.TrimSpace(line[prev:]); s != "" {
			out = append(out, indent+s)
		}
	}
	return out
}

// findEnd is the index of the {% end<name> %} closing the tag at lines[i]
// (tags of the same name nest), or -1.
func findEnd(lines []string, i int, name string) int {
	depth := 0
	fence := ""
	for j := i; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if m := reFence.FindStringSubmatch(lines[j]); m != nil {
			fence = m[1]
			continue
		}
		tg, ok := parseTag(lines[j])
		if !ok {
			continue
		}
		switch tg.name {
		case name:
			depth++
		case "end" + name:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// optionalEnd is the index of the {% end<name> %} of a tag whose body
// and end are optional (embed, file, page-ref): the end must come before
// any other block tag; -1 if none does.
func optionalEnd(lines []string, i int, name string) int {
	for j := i + 1; j < len(lines); j++ {
		tg, ok := parseTag(lines[j])
		if !ok {
			continue
		}
		if tg.name == "end"+name {
			return j
		}
		if blockTag(tg.name) {
			return -1
		}
	}
	return -1
}

// child is one {% name %}…{% endname %} inside a container block.
type child struct {
	tag  tag
	body []string
}

// children reads the tagged children between lines[from:to]; other
// lines (blank between children) are skipped.
func children(lines []string, from, to int) []child {
	var out []child
	for j := from; j < to; j++ {
		tg, ok := parseTag(lines[j])
		if !ok || strings.HasPrefix(tg.name, "end") {
			continue
		}
		end := findEnd(lines[:to], j, tg.name)
		if end < 0 {
			out = append(out, child{tag: tg})
			continue
		}
		out = append(out, child{tag: tg, body: lines[j+1 : end]})
		j = end
	}
	return out
}

// allowed keeps the nodes of the given types (and the essentials), as
// GitBook's schema lets a container hold.
func allowed(nodes []Node, types ...string) []Node {
	var out []Node
	for _, n := range nodes {
		if isEssential(n) {
			out = append(out, n)
			continue
		}
		for _, t := range types {
			if n["type"] == t {
				out = append(out, n)
				break
			}
		}
	}
	return nonNil(out)
}

// The blocks a container may hold, per GitBook's schema (and Galley's
// conditional block, which GitBook's schema does not know, in any of
// them: dropping it would drop what it holds).
var (
	inTab       = []string{"content-ref", "code", "embed", "file", "images", "drawing", "hint", "blockquote", "math", ConditionalType}
	inStep      = []string{"content-ref", "code", "embed", "file", "images", "drawing", "hint", "blockquote", "math", "expandable", ConditionalType}
	inColumn    = []string{"images", "code", "hint", "content-ref", "drawing", "embed", "file", "math", "blockquote", "table", "expandable", "stepper", ConditionalType}
	inExpBody   = []string{"file", "images", "code", "table", "hint", "blockquote", "reusable-content", ConditionalType}
	inHint      = []string{"embed", "table", ConditionalType}
	inListItem  = []string{"code", "hint", "blockquote", "math", "table", ConditionalType}
	inFragments = []string{"paragraph"}
)

func VoidBlock(typ string, data Node) Node {
	return Node{"object": "block", "type": typ, "isVoid": true, "data": data}
}

func fragment(name string, nodes []Node) Node {
	return Node{"object": "fragment", "fragment": name, "type": name, "nodes": nonNil(nodes)}
}

// captionFragments is the caption of a block, as paragraphs, or nil.
func captionFragments(lines []string, r Resolver) []Node {
	nodes := allowed(parseBlocks(lines, r), inFragments...)
	var paras []Node
	for _, n := range nodes {
		if n["type"] == "paragraph" {
			paras = append(paras, n)
		}
	}
	if len(paras) == 0 {
		return nil
	}
	return []Node{fragment("caption", paras)}
}

// fileRef is a file reference for src: a file the resolver knows, else
// the path as written (GitBook's repositories name files by path).
func fileRef(r Resolver, src string) Node {
	ref := r.Ref(src)
	if ref["kind"] == "file" {
		return ref
	}
	return Node{"kind": "file", "file": src}
}

// specRef is the file or URL of an OpenAPI document.
func specRef(r Resolver, src string) Node {
	return imageRef(r.Ref(src))
}

var boolAttrs = map[string]bool{"lineNumbers": true, "fullWidth": true, "expandable": true, "expanded": true}

// attrData is the attributes as data: booleans for the boolean ones.
func attrData(t tag, skip ...string) Node {
	d := Node{}
outer:
	for _, a := range t.attrs {
		for _, s := range skip {
			if a[0] == s {
				continue outer
			}
		}
		if boolAttrs[a[0]] && (a[1] == "true" || a[1] == "false") {
			d[a[0]] = a[1] == "true"
			continue
		}
		d[a[0]] = a[1]
	}
	return d
}

// parseGitBookBlock reads the GitBook block at lines[i], if one starts
// there: its nodes and the index after it.
func parseGitBookBlock(lines []string, i int, r Resolver) ([]Node, int, bool) {
	line := lines[i]
	t := strings.TrimSpace(line)
	if nodes, next, ok := parseContentBlock(lines, i, r); ok {
		return nodes, next, true // conditional.go, include.go
	}
	if tg, ok := parseTag(line); ok {
		return parseTagBlock(lines, i, tg, r)
	}
	switch {
	case strings.HasPrefix(t, "<figure"):
		return htmlElement(lines, i, "</figure>", "", r, figure)
	case isDrawing(t):
		m := attrsOf(reImgTag.FindString(t))
		return []Node{VoidBlock("drawing", Node{"ref": fileRef(r, m["src"])})}, i + 1, true
	case strings.HasPrefix(t, "<details"):
		return details(lines, i, r)
	case strings.HasPrefix(t, "<table"):
		return htmlElement(lines, i, "</table>", "\n", r, htmlTable)
	case isTableStart(lines, i):
		j := i + 2
		for j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "|") {
			j++
		}
		return []Node{markdownTable(lines[i:j], r)}, j, true
	case t == "$$":
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != "$$" {
			j++
		}
		if j == len(lines) {
			return nil, 0, false
		}
		return []Node{VoidBlock("math", Node{"formula": strings.Join(lines[i+1:j], "\n")})}, j + 1, true
	case isMathLine(t):
		return []Node{VoidBlock("math", Node{"formula": strings.TrimSpace(t[2 : len(t)-2])})}, i + 1, true
	}
	return nil, 0, false
}

// htmlElement parses with parse the HTML element that opens at lines[i]
// and closes on the first line holding end, its lines trimmed and joined
// by sep; not ok when it is not closed or parse refuses it.
func htmlElement(lines []string, i int, end, sep string, r Resolver, parse func(string, Resolver) (Node, bool)) ([]Node, int, bool) {
	j := i
	for j < len(lines) && !strings.Contains(lines[j], end) {
		j++
	}
	if j == len(lines) {
		return nil, 0, false
	}
	n, ok := parse(strings.Join(trimAll(lines[i:j+1]), sep), r)
	if !ok {
		return nil, 0, false
	}
	return []Node{n}, j + 1, true
}

func trimAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSpace(l)
	}
	return out
}

// isMathLine tells a line that is one $$formula$$ (a math block).
func isMathLine(t string) bool {
	return len(t) > 4 && strings.HasPrefix(t, "$$") && strings.HasSuffix(t, "$$") && !strings.Contains(t[2:len(t)-2], "$$")
}

func isDrawing(t string) bool {
	return strings.HasPrefix(t, "<img") && reImgTag.FindString(t) == t && attrsOf(t)["class"] == "gitbook-drawing"
}

func isTableStart(lines []string, i int) bool {
	return strings.HasPrefix(strings.TrimSpace(lines[i]), "|") && i+1 < len(lines) &&
		strings.Contains(lines[i+1], "-") && reTableSep.MatchString(lines[i+1])
}

// startsGitBookBlock tells whether line begins one of GitBook's blocks
// (so that a paragraph ends before it).
func startsGitBookBlock(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if tg, ok := parseTag(lines[i]); ok && blockTag(tg.name) && !strings.HasPrefix(tg.name, "end") {
		return true
	}
	return strings.HasPrefix(t, "<figure") || strings.HasPrefix(t, "<details") || strings.HasPrefix(t, "<table") ||
		t == "$$" || isMathLine(t) || isDrawing(t) || isTableStart(lines, i) || startsContentBlock(lines[i])
}

func attrsOf(s string) map[string]string {
	m := map[string]string{}
	for _, a := range reAttr.FindAllStringSubmatch(s, -1) {
		m[a[1]] = html.UnescapeString(a[2])
	}
	return m
}

func parseTagBlock(lines []string, i int, tg tag, r Resolver) ([]Node, int, bool) {
	switch tg.name {
	case "tabs", "stepper", "columns":
		end := findEnd(lines, i, tg.name)
		if end < 0 {
			return nil, 0, false
		}
		itemTag := map[string]string{"tabs": "tab", "stepper": "step", "columns": "column"}[tg.name]
		var items []Node
		for _, c := range children(lines, i+1, end) {
			if c.tag.name != itemTag {
				continue
			}
			body := parseBlocks(c.body, r)
			switch tg.name {
			case "tabs":
				data := Node{}
				if title := c.tag.attr("title"); title != "" || len(c.tag.attrs) > 0 {
					data["title"] = title
				}
				items = append(items, block("tabs-item", data, allowed(body, inTab...)))
			case "stepper":
				items = append(items, block("stepper-step", nil, allowed(body, inStep...)))
			default:
				data := Node{}
				if w := c.tag.attr("width"); w != "" {
					if v, err := strconv.ParseFloat(strings.TrimSuffix(w, "%"), 64); err == nil {
						data["width"] = Node{"unit": "%", "value": v}
					}
				}
				n := block("column", data, allowed(body, inColumn...))
				n["isVoid"] = false
				items = append(items, n)
			}
		}
		typ := map[string]string{"tabs": "tabs", "stepper": "stepper", "columns": "columns"}[tg.name]
		n := block(typ, nil, items)
		n["isVoid"] = false
		return []Node{n}, end + 1, true
	case "code":
		end := findEnd(lines, i, "code")
		if end < 0 {
			return nil, 0, false
		}
		var code Node
		for _, n := range parseBlocks(lines[i+1:end], r) {
			if n["type"] == "code" {
				code = n
				break
			}
		}
		if code == nil {
			code = block("code", nil, nil)
		}
		data := code["data"].(Node)
		for k, v := range attrData(tg) {
			data[k] = v
		}
		return []Node{code}, end + 1, true
	case "embed", "file", "page-ref", "content-ref":
		end := optionalEnd(lines, i, tg.name)
		next := i + 1
		var body []string
		if end >= 0 {
			body, next = lines[i+1:end], end+1
		}
		var n Node
		switch tg.name {
		case "embed":
			n = VoidBlock("embed", Node{"url": tg.attr("url")})
			if f := captionFragments(body, r); f != nil {
				n["fragments"] = f
			}
		case "file":
			n = VoidBlock("file", Node{"ref": fileRef(r, tg.attr("src"))})
			if f := captionFragments(body, r); f != nil {
				n["fragments"] = f
			}
		case "page-ref":
			n = VoidBlock("content-ref", Node{"ref": r.Ref(tg.attr("page"))})
		default:
			n = VoidBlock("content-ref", Node{"ref": r.Ref(tg.attr("url"))})
		}
		return []Node{n}, next, true
	case "openapi", "openapi-operation", "swagger":
		var end int
		if tg.name == "swagger" {
			end = findEnd(lines, i, tg.name)
		} else {
			end = optionalEnd(lines, i, tg.name)
		}
		next := i + 1
		var frags []Node
		if end >= 0 {
			next = end + 1
			if tg.name == "swagger" {
				for _, c := range children(lines, i+1, end) {
					f := fragment(c.tag.name, parseBlocks(c.body, r))
					f["data"] = attrData(c.tag)
					frags = append(frags, f)
				}
			} else if nodes := parseBlocks(lines[i+1:end], r); len(nodes) > 0 {
				frags = append(frags, fragment("body", nodes))
			}
		}
		var n Node
		switch tg.name {
		case "openapi-operation":
			data := attrData(tg, "spec")
			data["ref"] = Node{"kind": "openapi", "spec": tg.attr("spec")}
			n = VoidBlock("openapi-operation", data)
		default:
			data := attrData(tg, "src")
			src := tg.attr("src")
			if tg.name == "swagger" && src == "" {
				// The inline form describes the operation itself: its ref
				// is the API's base URL.
				data["ref"] = Node{"kind": "url", "url": tg.attr("baseUrl")}
			} else {
				data["ref"] = specRef(r, src)
			}
			n = VoidBlock("swagger", data)
		}
		for _, k := range []string{"path", "method"} {
			if _, ok := n["data"].(Node)[k]; !ok {
				n["data"].(Node)[k] = ""
			}
		}
		if frags != nil {
			n["fragments"] = frags
		}
		return []Node{n}, next, true
	}
	return nil, 0, false
}

// figure reads <figure><img …><figcaption><p>…</p></figcaption></figure>.
func figure(s string, r Resolver) (Node, bool) {
	img := reImgTag.FindString(s)
	if img == "" {
		return nil, false
	}
	a := attrsOf(img)
	if a["src"] == "" {
		return nil, false
	}
	var caption []string
	if m := reCaption.FindStringSubmatch(s); m != nil {
		caption = htmlParas(m[1])
	}
	return images(imageBlock(r, a["src"], a["alt"], caption)), true
}

// htmlParas is the markdown of each <p> of s (s itself if it has none).
func htmlParas(s string) []string {
	ps := reParas.FindAllStringSubmatch(s, -1)
	if ps == nil {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		return []string{htmlInline(strings.TrimSpace(s))}
	}
	var out []string
	for _, p := range ps {
		out = append(out, htmlInline(strings.TrimSpace(p[1])))
	}
	return out
}

func imageBlock(r Resolver, src, alt string, caption []string) Node {
	img := Node{"object": "block", "type": "image", "isVoid": true, "fragments": []Node{},
		"data": Node{"ref": imageRef(r.Ref(src)), "alt": alt}}
	var paras []Node
	for _, c := range caption {
		if c != "" {
			paras = append(paras, Node{"object": "block", "type": "paragraph", "nodes": inlines(c, r)})
		}
	}
	if paras != nil {
		img["fragments"] = []Node{fragment("caption", paras)}
	}
	return img
}

func images(imgs ...Node) Node {
	return Node{"object": "block", "type": "images", "isVoid": false, "data": Node{}, "nodes": imgs}
}

// details reads <details><summary>title</summary>body</details>.
func details(lines []string, i int, r Resolver) ([]Node, int, bool) {
	depth := 0
	end := -1
	for j := i; j < len(lines) && end < 0; j++ {
		t := strings.TrimSpace(lines[j])
		depth += strings.Count(t, "<details")
		depth -= strings.Count(t, "</details>")
		if depth <= 0 {
			end = j
		}
	}
	if end < 0 {
		return nil, 0, false
	}
	first := strings.TrimSpace(lines[i])
	open := strings.HasPrefix(first, "<details open")
	inner := strings.Join(lines[i:end+1], "\n")
	inner = inner[strings.Index(inner, ">")+1 : strings.LastIndex(inner, "</details>")]
	title := ""
	if m := reSummary.FindStringSubmatchIndex(inner); m != nil {
		title = strings.TrimSpace(inner[m[2]:m[3]])
		inner = inner[m[1]:]
	}
	body := allowed(parseBlocks(strings.Split(strings.Trim(inner, "\n"), "\n"), r), inExpBody...)
	if len(body) == 0 {
		body = []Node{{"object": "block", "type": "paragraph", "nodes": inlines("", r)}}
	}
	data := Node{}
	if open {
		data["defaultExpanded"] = true
	}
	n := VoidBlock("expandable", data)
	n["fragments"] = []Node{
		fragment("expandable-title", []Node{{"object": "block", "type": "paragraph", "nodes": inlines(title, r)}}),
		fragment("expandable-body", body),
	}
	return []Node{n}, end + 1, true
}

// splitRow splits a markdown table row on its unescaped pipes; \| in a
// cell reads as |.
func splitRow(line string) []string {
	s := strings.TrimSpace(line)
	s = strings.TrimPrefix(s, "|")
	if strings.HasSuffix(s, "|") && !strings.HasSuffix(s, `\|`) {
		s = s[:len(s)-1]
	}
	var cells []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '|':
			b.WriteByte('|')
			i++
		case s[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(s[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

func markdownTable(lines []string, r Resolver) Node {
	head := splitRow(lines[0])
	var aligns []string
	for _, c := range splitRow(lines[1]) {
		switch {
		case strings.HasPrefix(c, ":") && strings.HasSuffix(c, ":"):
			aligns = append(aligns, "center")
		case strings.HasSuffix(c, ":"):
			aligns = append(aligns, "right")
		default:
			aligns = append(aligns, "left")
		}
	}
	var rows [][]string
	for _, l := range lines[2:] {
		rows = append(rows, splitRow(l))
	}
	return table(head, aligns, rows, r)
}

// htmlTable reads a simple <table> (rows of cells, the first row of <th>
// the header); ok is false for anything else.
func htmlTable(s string, r Resolver) (Node, bool) {
	var head []string
	var rows [][]string
	for _, tr := range reHTMLRow.FindAllStringSubmatch(s, -1) {
		var cells []string
		th := false
		for _, c := range reHTMLCell.FindAllStringSubmatch(tr[1], -1) {
			th = c[1] == "h"
			cells = append(cells, strings.TrimSpace(c[2]))
		}
		if th && head == nil && rows == nil {
			head = cells
			continue
		}
		rows = append(rows, cells)
	}
	if head == nil {
		return nil, false
	}
	return table(head, nil, rows, r), true
}

// table builds GitBook's table block: text columns, one record per row,
// each cell's content a fragment the record's value names.
func table(head, aligns []string, rows [][]string, r Resolver) Node {
	definition := Node{}
	var columns []string
	for c, title := range head {
		id := fmt.Sprintf("c%d", c)
		columns = append(columns, id)
		align := "left"
		if c < len(aligns) {
			align = aligns[c]
		}
		definition[id] = Node{"id": id, "title": textOf(inlines(title, r)), "type": "text", "textAlignment": align}
	}
	records := Node{}
	var frags []Node
	for i, row := range rows {
		values := Node{}
		for c := range head {
			cell := ""
			if c < len(row) {
				cell = row[c]
			}
			key := fmt.Sprintf("r%dc%d", i, c)
			var paras []Node
			for _, p := range htmlParas(cell) {
				paras = append(paras, Node{"object": "block", "type": "paragraph", "nodes": inlines(p, r)})
			}
			if paras == nil {
				paras = []Node{{"object": "block", "type": "paragraph", "nodes": inlines("", r)}}
			}
			frags = append(frags, fragment(key, paras))
			values[columns[c]] = key
		}
		records[fmt.Sprintf("r%d", i)] = Node{"orderIndex": fmt.Sprintf("a%04d", i), "values": values}
	}
	n := VoidBlock("table", Node{"view": Node{"type": "grid", "columns": columns, "hideHeader": false},
		"records": records, "definition": definition})
	n["fragments"] = nonNil(frags)
	return n
}

// textOf is the text of parsed nodes, without marks.
func textOf(nodes []Node) string {
	var b strings.Builder
	for _, n := range nodes {
		if leaves, ok := n["leaves"].([]Node); ok {
			for _, l := range leaves {
				s, _ := l["text"].(string)
				b.WriteString(s)
			}
		}
		if inner, ok := n["nodes"].([]Node); ok {
			b.WriteString(textOf(inner))
		}
	}
	return b.String()
}

// sortedKeys is m's keys, the first ones in that order, then the others
// sorted.
func sortedKeys(m map[string]any, first ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range first {
		if _, ok := m[k]; ok {
			out = append(out, k)
			seen[k] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
