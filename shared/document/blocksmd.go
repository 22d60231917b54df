package document

import (
	"fmt"
	"html"
	"sort"
	"strconv"
	"strings"
)

// The markdown GitBook writes for its blocks, from their document nodes
// (the reverse of blocks.go).

func fragmentsOf(n map[string]any) []map[string]any {
	var out []map[string]any
	switch fs := n["fragments"].(type) {
	case []any:
		for _, f := range fs {
			if m, ok := f.(map[string]any); ok {
				out = append(out, m)
			}
		}
	case []Node:
		for _, f := range fs {
			out = append(out, f)
		}
	}
	return out
}

func fragmentNamed(n map[string]any, name string) map[string]any {
	for _, f := range fragmentsOf(n) {
		if f["fragment"] == name {
			return f
		}
	}
	return nil
}

// childBlocks is the markdown of nodes, blocks separated by blank lines.
func childBlocks(nodes []any, at string) (string, error) {
	inner := &mdWriter{}
	if err := inner.blocks(nodes, at, ""); err != nil {
		return "", err
	}
	return strings.TrimRight(inner.b.String(), "\n"), nil
}

// attrValue is a data value as a tag attribute's text.
func attrValue(v any) string {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(x, `"`, "'")
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int:
		return strconv.Itoa(x)
	}
	return fmt.Sprint(v)
}

// tagLine writes {% name k="v" … %}: the attributes of data in the
// order first names, then the others sorted; skip ones are left out.
func tagLine(name string, data map[string]any, first []string, skip ...string) string {
	var b strings.Builder
	b.WriteString("{% " + name)
	for _, k := range sortedKeys(data, first...) {
		if contains(skip, k) {
			continue
		}
		if _, ok := data[k].(map[string]any); ok {
			continue
		}
		b.WriteString(" " + k + `="` + attrValue(data[k]) + `"`)
	}
	return b.String() + " %}"
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// fileHref is where a file block's file is: a path as GitBook's
// repositories name it, else /files/<id>.
func fileHref(raw any, at string) (string, error) {
	ref, _ := raw.(map[string]any)
	if f, _ := ref["file"].(string); ref["kind"] == "file" && strings.Contains(f, "/") {
		return f, nil
	}
	return refHref(raw, at)
}

// captionOf is the markdown of a block's caption fragment, or "".
func captionOf(n map[string]any, at string) (string, error) {
	f := fragmentNamed(n, "caption")
	if f == nil {
		return "", nil
	}
	return childBlocks(nodeList(f), at+".fragments.caption.nodes")
}

// container writes {% name %} with {% item %} children.
func container(name, item string, n map[string]any, at string, itemData func(map[string]any) map[string]any) (string, error) {
	var parts []string
	for i, raw := range nodeList(n) {
		c, where, err := nodeAt(raw, at+".nodes", i, "", "a node object")
		if err != nil {
			return "", err
		}
		body, err := childBlocks(nodeList(c), where+".nodes")
		if err != nil {
			return "", err
		}
		s := tagLine(item, itemData(dataOf(c)), []string{"title"}) + "\n"
		if body != "" {
			s += body + "\n"
		}
		parts = append(parts, s+"{% end"+item+" %}")
	}
	return "{% " + name + " %}\n" + strings.Join(parts, "\n\n") + "\n{% end" + name + " %}", nil
}

// gitbookBlock writes GitBook's blocks; ok is false for other types.
func (w *mdWriter) gitbookBlock(n map[string]any, typ, at string) (string, bool, error) {
	data := dataOf(n)
	if data == nil {
		data = map[string]any{}
	}
	str := func(k string) string { s, _ := data[k].(string); return s }
	switch typ {
	case "tabs":
		s, err := container("tabs", "tab", n, at, func(d map[string]any) map[string]any {
			t, _ := d["title"].(string)
			return map[string]any{"title": t}
		})
		return s, true, err
	case "stepper":
		s, err := container("stepper", "step", n, at, func(map[string]any) map[string]any { return nil })
		return s, true, err
	case "columns":
		s, err := container("columns", "column", n, at, func(d map[string]any) map[string]any {
			if w, ok := d["width"].(map[string]any); ok && w["unit"] == "%" {
				return map[string]any{"width": attrValue(w["value"]) + "%"}
			}
			return nil
		})
		return s, true, err
	case "embed":
		s := `{% embed url="` + attrValue(str("url")) + `" %}`
		caption, err := captionOf(n, at)
		if caption != "" {
			s += "\n" + caption + "\n{% endembed %}"
		}
		return s, true, err
	case "file":
		href, err := fileHref(data["ref"], at+".data.ref")
		if err != nil {
			return "", true, err
		}
		caption, err := captionOf(n, at)
		s := `{% file src="` + attrValue(href) + `" %}` + "\n"
		if caption != "" {
			s += caption + "\n"
		}
		return s + "{% endfile %}", true, err
	case "content-ref":
		href, err := refHref(data["ref"], at+".data.ref")
		if err != nil {
			return "", true, err
		}
		return `{% content-ref url="` + attrValue(href) + `" %}` + "\n[" + escapeLabel(href) + "](" + href + ")\n{% endcontent-ref %}", true, nil
	case "drawing":
		href, err := fileHref(data["ref"], at+".data.ref")
		if err != nil {
			return "", true, err
		}
		return `<img src="` + html.EscapeString(href) + `" alt="" class="gitbook-drawing">`, true, nil
	case "math":
		return "$$\n" + str("formula") + "\n$$", true, nil
	case "swagger", "openapi-operation":
		return w.apiBlock(n, typ, at)
	case "table":
		return tableMarkdown(n, at)
	case "expandable":
		title := ""
		if f := fragmentNamed(n, "expandable-title"); f != nil {
			for _, raw := range nodeList(f) {
				p, _ := raw.(map[string]any)
				s, err := inlineMarkdown(nodeList(p), at+".fragments.expandable-title.nodes")
				if err != nil {
					return "", true, err
				}
				title = s
			}
		}
		body := ""
		if f := fragmentNamed(n, "expandable-body"); f != nil {
			s, err := childBlocks(nodeList(f), at+".fragments.expandable-body.nodes")
			if err != nil {
				return "", true, err
			}
			body = s
		}
		open := "<details>"
		if d, _ := data["defaultExpanded"].(bool); d {
			open = "<details open>"
		}
		return open + "\n\n<summary>" + title + "</summary>\n\n" + body + "\n\n</details>", true, nil
	}
	return "", false, nil
}

// apiBlock writes swagger (the inline {% swagger %} operation, or an
// {% openapi %} of a spec file or URL) and openapi-operation blocks.
func (w *mdWriter) apiBlock(n map[string]any, typ, at string) (string, bool, error) {
	data := dataOf(n)
	if typ == "openapi-operation" {
		ref, _ := data["ref"].(map[string]any)
		spec, _ := ref["spec"].(string)
		d := map[string]any{"spec": spec}
		for k, v := range data {
			if k != "ref" {
				d[k] = v
			}
		}
		return w.apiTag("openapi-operation", d, []string{"spec", "path", "method"}, n, at)
	}
	ref, _ := data["ref"].(map[string]any)
	baseURL, _ := data["baseUrl"].(string)
	inline := baseURL != ""
	for _, f := range fragmentsOf(n) {
		if t, _ := f["fragment"].(string); strings.HasPrefix(t, "swagger-") {
			inline = true
		}
	}
	d := map[string]any{}
	for k, v := range data {
		if k != "ref" {
			d[k] = v
		}
	}
	if !inline || ref["kind"] != "url" || ref["url"] != baseURL {
		href, err := refHref(ref, at+".data.ref")
		if err != nil {
			return "", true, err
		}
		d["src"] = href
	}
	if !inline {
		return w.apiTag("openapi", d, []string{"src", "path", "method"}, n, at)
	}
	var parts []string
	for i, f := range fragmentsOf(n) {
		name, _ := f["fragment"].(string)
		if !strings.HasPrefix(name, "swagger-") {
			continue
		}
		body, err := childBlocks(nodeList(f), fmt.Sprintf("%s.fragments[%d].nodes", at, i))
		if err != nil {
			return "", true, err
		}
		fd, _ := f["data"].(map[string]any)
		s := tagLine(name, fd, []string{"in", "name", "type", "required", "status", "description"}) + "\n"
		if body != "" {
			s += body + "\n"
		}
		parts = append(parts, s+"{% end"+name+" %}")
	}
	s := tagLine("swagger", d, []string{"src", "baseUrl", "path", "method", "summary"}) + "\n"
	if len(parts) > 0 {
		s += strings.Join(parts, "\n\n") + "\n"
	}
	return s + "{% endswagger %}", true, nil
}

func (w *mdWriter) apiTag(name string, d map[string]any, first []string, n map[string]any, at string) (string, bool, error) {
	s := tagLine(name, d, first)
	if f := fragmentNamed(n, "body"); f != nil {
		body, err := childBlocks(nodeList(f), at+".fragments.body.nodes")
		if err != nil {
			return "", true, err
		}
		s += "\n" + body + "\n{% end" + name + " %}"
	}
	return s, true, nil
}

// tableMarkdown writes a table block as a markdown table: its columns in
// the view's order, its records in order, each cell the paragraphs of
// the fragment its value names.
func tableMarkdown(n map[string]any, at string) (string, bool, error) {
	data := dataOf(n)
	defs, _ := data["definition"].(map[string]any)
	view, _ := data["view"].(map[string]any)
	var cols []string
	if vc, ok := view["columns"].([]any); ok {
		for _, c := range vc {
			if s, ok := c.(string); ok {
				cols = append(cols, s)
			}
		}
	}
	if cols == nil {
		cols = sortedKeys(defs)
	}
	if len(cols) == 0 {
		return "", true, fmt.Errorf("%s.data.definition: a table needs columns", at)
	}
	frags := map[string]map[string]any{}
	for _, f := range fragmentsOf(n) {
		if k, ok := f["fragment"].(string); ok {
			frags[k] = f
		}
	}
	cellEsc := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
	}
	head, sep := "|", "|"
	for _, c := range cols {
		def, _ := defs[c].(map[string]any)
		title, _ := def["title"].(string)
		head += " " + cellEsc(markEscaper.Replace(title)) + " |"
		switch def["textAlignment"] {
		case "center":
			sep += " :-: |"
		case "right":
			sep += " --: |"
		default:
			sep += " --- |"
		}
	}
	records, _ := data["records"].(map[string]any)
	keys := sortedKeys(records)
	sort.SliceStable(keys, func(i, j int) bool {
		a, _ := records[keys[i]].(map[string]any)
		b, _ := records[keys[j]].(map[string]any)
		oa, _ := a["orderIndex"].(string)
		ob, _ := b["orderIndex"].(string)
		return oa < ob
	})
	lines := []string{head, sep}
	for _, k := range keys {
		rec, _ := records[k].(map[string]any)
		values, _ := rec["values"].(map[string]any)
		row := "|"
		for _, c := range cols {
			cell := ""
			switch v := values[c].(type) {
			case string:
				if f, ok := frags[v]; ok {
					var paras []string
					for i, raw := range nodeList(f) {
						p, _ := raw.(map[string]any)
						s, err := inlineMarkdown(nodeList(p), fmt.Sprintf("%s.fragments.%s.nodes[%d].nodes", at, v, i))
						if err != nil {
							return "", true, err
						}
						paras = append(paras, s)
					}
					if len(paras) == 1 {
						cell = paras[0]
					} else if len(paras) > 1 {
						cell = "<p>" + strings.Join(paras, "</p><p>") + "</p>"
					}
				} else {
					cell = markEscaper.Replace(v)
				}
			case nil:
			default:
				cell = attrValue(v)
			}
			row += " " + cellEsc(cell) + " |"
		}
		lines = append(lines, row)
	}
	return strings.Join(lines, "\n"), true, nil
}
