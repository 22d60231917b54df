package document

import (
	"fmt"
	"html"
	"net/url"
	"strconv"
	"strings"
)

// MarkdownOfDocument writes a document tree (GitBook's JSON document
// model: {object: document, nodes: [...]}, as clients send it when they
// author a page) as the markdown Galley stores. It knows the blocks and
// inlines ToDocument makes — paragraphs, headings, lists (ordered,
// unordered, tasks), code, quotes, hints, dividers, images; GitBook's
// blocks (tabs, code attributes, embeds, content refs, files, swagger and
// OpenAPI blocks, steppers, columns, figures, drawings, tables, math,
// expandables), written as GitBook writes them; texts with bold, italic,
// code and strikethrough marks, links, inline images and inline math —
// and refuses any other node with an error naming where it is
// (nodes[2].nodes[0]).
func MarkdownOfDocument(doc map[string]any) (string, error) {
	nodes, _ := doc["nodes"].([]any)
	if doc["object"] != nil && doc["object"] != "document" {
		return "", fmt.Errorf("object: expected document")
	}
	w := &mdWriter{}
	if err := w.blocks(nodes, "nodes", ""); err != nil {
		return "", err
	}
	return strings.TrimRight(w.b.String(), "\n") + "\n", nil
}

type mdWriter struct {
	b strings.Builder
}

func nodeList(n map[string]any) []any {
	l, _ := n["nodes"].([]any)
	return l
}

func dataOf(n map[string]any) map[string]any {
	d, _ := n["data"].(map[string]any)
	return d
}

// blocks writes block nodes, each followed by a blank line, every line
// prefixed by indent.
func (w *mdWriter) blocks(nodes []any, at, indent string) error {
	for i, raw := range nodes {
		n, where, err := nodeAt(raw, at, i, "", "a node object")
		if err != nil {
			return err
		}
		text, err := w.block(n, where, indent)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(text, "\n") {
			if line == "" {
				w.b.WriteString("\n")
				continue
			}
			w.b.WriteString(indent + line + "\n")
		}
		w.b.WriteString("\n")
	}
	return nil
}

// block renders one block (without the indent of its container).
func (w *mdWriter) block(n map[string]any, at, indent string) (string, error) {
	typ, _ := n["type"].(string)
	switch typ {
	case "paragraph":
		if s, ok := rawIncludeParagraph(n); ok {
			return s, nil // an include that named nothing known, as written
		}
		return inlineMarkdown(nodeList(n), at+".nodes")
	case "heading-1", "heading-2", "heading-3":
		s, err := inlineMarkdown(nodeList(n), at+".nodes")
		level, _ := strconv.Atoi(strings.TrimPrefix(typ, "heading-"))
		return strings.Repeat("#", level) + " " + s, err
	case "divider":
		return "---", nil
	case "code":
		lang, _ := dataOf(n)["syntax"].(string)
		var lines []string
		for i, raw := range nodeList(n) {
			line, _ := raw.(map[string]any)
			if line == nil {
				return "", fmt.Errorf("%s.nodes[%d]: expected a code-line", at, i)
			}
			if line["type"] == "code-line" {
				s, err := plainText(nodeList(line))
				if err != nil {
					return "", fmt.Errorf("%s.nodes[%d]: %w", at, i, err)
				}
				lines = append(lines, s)
				continue
			}
			s, err := plainText([]any{line})
			if err != nil {
				return "", fmt.Errorf("%s.nodes[%d]: %w", at, i, err)
			}
			lines = append(lines, strings.Split(s, "\n")...)
		}
		fence := "```"
		for strings.Contains(strings.Join(lines, "\n"), fence) {
			fence += "`"
		}
		code := fence + lang + "\n" + strings.Join(lines, "\n") + "\n" + fence
		if len(lines) == 0 {
			code = fence + lang + "\n" + fence
		}
		if attrs := sortedKeys(dataOf(n)); len(attrs) > 1 || len(attrs) == 1 && attrs[0] != "syntax" {
			// GitBook's code attributes: {% code title="…" … %}.
			code = tagLine("code", dataOf(n), []string{"title", "overflow", "lineNumbers"}, "syntax") + "\n" + code + "\n{% endcode %}"
		}
		return code, nil
	case "blockquote":
		inner := &mdWriter{}
		if err := inner.blocks(nodeList(n), at+".nodes", ""); err != nil {
			return "", err
		}
		var out []string
		for _, line := range strings.Split(strings.TrimRight(inner.b.String(), "\n"), "\n") {
			out = append(out, strings.TrimRight("> "+line, " "))
		}
		return strings.Join(out, "\n"), nil
	case "hint":
		style, _ := dataOf(n)["style"].(string)
		switch style {
		case "", "info", "warning", "danger", "success":
		default:
			return "", fmt.Errorf("%s.data.style: expected info, warning, danger or success", at)
		}
		if style == "" {
			style = "info"
		}
		inner := &mdWriter{}
		if err := inner.blocks(nodeList(n), at+".nodes", ""); err != nil {
			return "", err
		}
		return "{% hint style=\"" + style + "\" %}\n" + strings.TrimRight(inner.b.String(), "\n") + "\n{% endhint %}", nil
	case "list-unordered", "list-ordered", "list-tasks":
		start := 1
		if s, ok := dataOf(n)["start"].(float64); ok && s >= 0 {
			start = int(s)
		}
		var out []string
		for i, raw := range nodeList(n) {
			item, where, err := nodeAt(raw, at+".nodes", i, "list-item", "a list-item")
			if err != nil {
				return "", err
			}
			marker := "- "
			switch typ {
			case "list-ordered":
				marker = strconv.Itoa(start+i) + ". "
			case "list-tasks":
				marker = "- [ ] "
				if c, _ := dataOf(item)["checked"].(bool); c {
					marker = "- [x] "
				}
			}
			inner := &mdWriter{}
			if err := inner.blocks(nodeList(item), where+".nodes", ""); err != nil {
				return "", err
			}
			lines := strings.Split(strings.TrimRight(inner.b.String(), "\n"), "\n")
			pad := strings.Repeat(" ", len(marker))
			for j, line := range lines {
				switch {
				case j == 0:
					lines[j] = marker + line
				case line != "":
					lines[j] = pad + line
				}
			}
			out = append(out, strings.Join(lines, "\n"))
		}
		return strings.Join(out, "\n"), nil
	case "images":
		var out []string
		for i, raw := range nodeList(n) {
			img, where, err := nodeAt(raw, at+".nodes", i, "image", "an image")
			if err != nil {
				return "", err
			}
			href, err := refHref(dataOf(img)["ref"], where+".data.ref")
			if err != nil {
				return "", err
			}
			alt, _ := dataOf(img)["alt"].(string)
			caption, err := captionOf(img, where)
			if err != nil {
				return "", err
			}
			if caption != "" {
				// A captioned image: GitBook's figure.
				var ps []string
				for _, p := range strings.Split(caption, "\n\n") {
					ps = append(ps, "<p>"+strings.ReplaceAll(p, "\n", " ")+"</p>")
				}
				out = append(out, `<figure><img src="`+html.EscapeString(href)+`" alt="`+html.EscapeString(alt)+`"><figcaption>`+
					strings.Join(ps, "")+"</figcaption></figure>")
				continue
			}
			out = append(out, "!["+escapeLabel(alt)+"]("+href+")")
		}
		return strings.Join(out, "\n\n"), nil
	case "image":
		return w.block(map[string]any{"type": "images", "nodes": []any{n}}, at, indent)
	}
	if s, ok, err := w.gitbookBlock(n, typ, at); ok {
		return s, err
	}
	if s, ok, err := w.contentBlock(n, typ, at); ok {
		return s, err // conditional.go
	}
	return "", fmt.Errorf("%s.type: block %q is not supported in authored documents (write it as markdown)", at, typ)
}

// refHref is the markdown destination of a ref ({kind:
// url|page|file|anchor|space|reusable-content}).
func refHref(raw any, at string) (string, error) {
	ref, _ := raw.(map[string]any)
	if ref == nil {
		return "", fmt.Errorf("%s: expected a ref object", at)
	}
	str := func(k string) string { s, _ := ref[k].(string); return s }
	switch str("kind") {
	case "url":
		if str("url") == "" {
			return "", fmt.Errorf("%s.url: required", at)
		}
		return str("url"), nil
	case "page":
		if str("page") == "" {
			return "", fmt.Errorf("%s.page: required", at)
		}
		return spacePrefix(str("space")) + "/pages/" + str("page"), nil
	case "space":
		if str("space") == "" {
			return "", fmt.Errorf("%s.space: required", at)
		}
		return spacePrefix(str("space")) + "/", nil
	case "file":
		if str("file") == "" {
			return "", fmt.Errorf("%s.file: required", at)
		}
		return "/files/" + str("file"), nil
	case "reusable-content":
		if str("reusableContent") == "" {
			return "", fmt.Errorf("%s.reusableContent: required", at)
		}
		return "/reusable-contents/" + str("reusableContent"), nil
	case "anchor":
		if p := str("page"); p != "" {
			return spacePrefix(str("space")) + "/pages/" + p + "#" + str("anchor"), nil
		}
		return "#" + str("anchor"), nil
	}
	return "", fmt.Errorf("%s.kind: expected url, page, file, anchor, space or reusable-content", at)
}

// spacePrefix is how a link names another space: /s/<spaceId> before its
// /pages/<pageId> (the space's app path; SpaceLink reads it back), or
// nothing for the page's own space (no space given).
func spacePrefix(space string) string {
	if space == "" {
		return ""
	}
	return "/s/" + url.PathEscape(space)
}

func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(s)
}

// markEscaper escapes what markdown would read as marks or links.
var markEscaper = strings.NewReplacer("$$", `\$$`, `\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "~", `\~`)

// nodeAt is the i-th node of the list at at, which must be a node object
// (of type typ unless typ is ""), and the path naming it; what names what
// was expected in the error.
func nodeAt(raw any, at string, i int, typ, what string) (map[string]any, string, error) {
	where := fmt.Sprintf("%s[%d]", at, i)
	n, _ := raw.(map[string]any)
	if n == nil || (typ != "" && n["type"] != typ) {
		return nil, where, fmt.Errorf("%s: expected %s", where, what)
	}
	return n, where, nil
}

// inlineMarkdown writes texts and inlines.
func inlineMarkdown(nodes []any, at string) (string, error) {
	var b strings.Builder
	for i, raw := range nodes {
		n, where, err := nodeAt(raw, at, i, "", "a node object")
		if err != nil {
			return "", err
		}
		switch n["object"] {
		case "text":
			leaves, _ := n["leaves"].([]any)
			if leaves == nil {
				if t, ok := n["text"].(string); ok {
					leaves = []any{map[string]any{"text": t}}
				}
			}
			for j, rawLeaf := range leaves {
				l, _ := rawLeaf.(map[string]any)
				if l == nil {
					return "", fmt.Errorf("%s.leaves[%d]: expected a leaf object", where, j)
				}
				t, _ := l["text"].(string)
				var open, close string
				code := false
				marks, _ := l["marks"].([]any)
				for _, rm := range marks {
					m, _ := rm.(map[string]any)
					switch m["type"] {
					case "bold":
						open, close = open+"**", "**"+close
					case "italic":
						open, close = open+"_", "_"+close
					case "strikethrough":
						open, close = open+"~~", "~~"+close
					case "code":
						code = true
					}
				}
				if code {
					t = "`" + t + "`"
				} else {
					t = markEscaper.Replace(t)
				}
				if strings.TrimSpace(t) == "" {
					b.WriteString(t)
					continue
				}
				b.WriteString(open + t + close)
			}
		case "inline":
			switch n["type"] {
			case "link":
				href, err := refHref(dataOf(n)["ref"], where+".data.ref")
				if err != nil {
					return "", err
				}
				label, err := inlineMarkdown(nodeList(n), where+".nodes")
				if err != nil {
					return "", err
				}
				b.WriteString("[" + label + "](" + href + ")")
			case "inline-math":
				f, _ := dataOf(n)["formula"].(string)
				b.WriteString("$$" + f + "$$")
			case "expression":
				s, err := expressionSource(dataOf(n)["expression"], where+".data.expression")
				if err != nil {
					return "", err
				}
				b.WriteString(s)
			case "inline-image":
				href, err := refHref(dataOf(n)["ref"], where+".data.ref")
				if err != nil {
					return "", err
				}
				caption, _ := dataOf(n)["caption"].(string)
				b.WriteString("![" + escapeLabel(caption) + "](" + href + ")")
			default:
				return "", fmt.Errorf("%s.type: inline %q is not supported in authored documents", where, n["type"])
			}
		default:
			return "", fmt.Errorf("%s.object: expected text or inline", where)
		}
	}
	return b.String(), nil
}

// plainText is the text of texts, without marks.
func plainText(nodes []any) (string, error) {
	var b strings.Builder
	for _, raw := range nodes {
		n, _ := raw.(map[string]any)
		if n == nil {
			return "", fmt.Errorf("expected a text node")
		}
		if n["object"] == "text" {
			leaves, _ := n["leaves"].([]any)
			for _, rl := range leaves {
				l, _ := rl.(map[string]any)
				t, _ := l["text"].(string)
				b.WriteString(t)
			}
			continue
		}
		s, err := plainText(nodeList(n))
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}
