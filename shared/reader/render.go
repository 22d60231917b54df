package reader

import (
	"fmt"
	"html/template"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
)

// Rendering GitBook's document model (document.ToDocument) as HTML. Every
// block type of shared/content/blocks.go has its element; an unknown one
// shows its children. Text is escaped; URLs go through safeURL.

// heading is an entry of a page's outline.
type heading struct {
	ID, Text string
	Level    int
}

// fileInfo is what a file reference shows.
type fileInfo struct {
	URL, Name     string
	Width, Height int
}

// links resolves the references of a document for one page.
type links interface {
	// page is the published URL of a page of a space (the page's own
	// space when space is ""), "" when the visitor is shown no such page.
	page(space, id string) (href, title string)
	// space is the published URL of a space's root ("" likewise).
	space(id string) (href, title string)
	// file is a file of the space (ok false for one not found).
	file(id string) (fileInfo, bool)
	// operation describes an operation of one of the organization's specs
	// (nil when unknown).
	operation(spec, method, path string) *content.OperationDetail
	// newTab: links to other sites open in a new tab.
	newTab() bool
}

type renderer struct {
	b        strings.Builder
	hl       *highlighter
	links    links
	outline  []heading
	ids      map[string]int
	tabs     int
	depthTop bool
	// widths are the columns' widths the document uses, by class name:
	// the page's style sheet sizes them (the Content-Security-Policy
	// allows no style attribute).
	widths map[string]string
	// diagrams: the document has a mermaid code block.
	diagrams bool
	// playgrounds counts the operations' playgrounds; connect are the
	// origins of their servers (playground.go).
	playgrounds int
	connect     []string
	// txt are the labels in the page's language.
	txt words
}

// rendered is a document as HTML, with what the page around it needs.
type rendered struct {
	HTML template.HTML
	// Outline is the headings of the first three levels, in order.
	Outline []heading
	// CSS is the rules its elements need beyond the site's (the columns'
	// widths, the playgrounds').
	CSS string
	// Diagrams: it has a mermaid code block.
	Diagrams bool
	// Playground: it has an API playground, which calls Connect (origins).
	Playground bool
	Connect    []string
}

// renderDocument renders a document's nodes.
// Its own labels (hints', operations', the playground's) are in the
// words of the page's language (txt).
func renderDocument(nodes []map[string]any, hl *highlighter, l links, txt words) rendered {
	r := &renderer{hl: hl, links: l, ids: map[string]int{}, txt: txt}
	r.blocks(nodes, true)
	return rendered{HTML: template.HTML(r.b.String()), Outline: r.outline, CSS: r.css(), Diagrams: r.diagrams,
		Playground: r.playgrounds > 0, Connect: r.connect}
}

// width names the class of a column v% wide (0 < v <= 100).
func (r *renderer) width(v float64) string {
	n := strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	name := "w-" + strings.ReplaceAll(n, ".", "_")
	if r.widths == nil {
		r.widths = map[string]string{}
	}
	r.widths[name] = n
	return name
}

// css is the rules of the classes the document's elements use beyond the
// site's style sheet, in a stable order.
func (r *renderer) css() string {
	names := make([]string, 0, len(r.widths))
	for n := range r.widths {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(".column." + n + "{flex-basis:" + r.widths[n] + "%}")
	}
	if r.playgrounds > 0 {
		b.WriteString(playgroundCSS)
	}
	return b.String()
}

// operation writes an OpenAPI operation's details: summary, description,
// parameters, request body and responses.
func (r *renderer) operation(od *content.OperationDetail) {
	if od.Summary != "" {
		r.w(`<div class="card-title">`, esc(od.Summary))
		if od.Deprecated {
			r.w(` <span class="deprecated">`, esc(r.txt.Content.Deprecated), `</span>`)
		}
		r.w(`</div>`)
	}
	for _, para := range strings.Split(strings.TrimSpace(od.Description), "\n\n") {
		if para != "" {
			r.w(`<p>`, esc(para), `</p>`)
		}
	}
	c := r.txt.Content
	if len(od.Parameters) > 0 {
		r.w(`<div class="table"><table class="api-params"><caption>`, esc(c.Parameters), `</caption><thead><tr><th scope="col">`, esc(c.Name), `</th><th scope="col">`, esc(c.In), `</th>`,
			`<th scope="col">`, esc(c.Type), `</th><th scope="col">`, esc(c.Description), `</th></tr></thead><tbody>`)
		for _, p := range od.Parameters {
			r.w(`<tr><td><code>`, esc(p.Name), `</code>`)
			if p.Required {
				r.w(` <span class="required">`, esc(r.txt.Content.Required), `</span>`)
			}
			r.w(`</td><td>`, esc(p.In), `</td><td><code>`, esc(p.Type), `</code></td><td>`, esc(p.Description))
			if p.Example != "" {
				r.w(` <span class="api-param-example">`, esc(c.Example), `: <code>`, esc(p.Example), `</code></span>`)
			}
			r.w(`</td></tr>`)
		}
		r.w(`</tbody></table></div>`)
	}
	if b := od.RequestBody; b != nil {
		r.w(`<p class="api-section"><strong>`, esc(c.RequestBody), `</strong>`)
		if b.Required {
			r.w(` <span class="required">`, esc(r.txt.Content.Required), `</span>`)
		}
		for _, t := range b.ContentTypes {
			r.w(` <code>`, esc(t), `</code>`)
		}
		if b.Schema != "" {
			r.w(`: <code>`, esc(b.Schema), `</code>`)
		}
		r.w(`</p>`)
		if b.Description != "" {
			r.w(`<p>`, esc(b.Description), `</p>`)
		}
		r.schema(c.RequestBodyFields, b.SchemaDetail)
	}
	if len(od.Responses) > 0 {
		r.w(`<p class="api-section"><strong>`, esc(c.Responses), `</strong></p><ul class="api-responses">`)
		for _, resp := range od.Responses {
			r.w(`<li><code>`, esc(resp.Status), `</code> `, esc(resp.Description))
			if resp.Schema != "" {
				r.w(`: <code>`, esc(resp.Schema), `</code>`)
			}
			r.schema(fmt.Sprintf(c.ResponseFields, resp.Status), resp.SchemaDetail)
			r.w(`</li>`)
		}
		r.w(`</ul>`)
	}
	r.playground(od)
}

// schema writes a body's fields (a table, nested ones indented under their
// parent) and its example.
func (r *renderer) schema(caption string, sd content.SchemaDetail) {
	c := r.txt.Content
	if len(sd.Fields) > 0 {
		r.w(`<div class="table"><table class="api-params api-fields"><caption>`, esc(caption), `</caption><thead><tr><th scope="col">`, esc(c.Field), `</th>`,
			`<th scope="col">`, esc(c.Type), `</th><th scope="col">`, esc(c.Description), `</th></tr></thead><tbody>`)
		for _, f := range sd.Fields {
			r.w(`<tr><td class="depth-`, strconv.Itoa(min(f.Depth, 3)), `"><code>`, esc(f.Path), `</code>`)
			if f.Required {
				r.w(` <span class="required">`, esc(r.txt.Content.Required), `</span>`)
			}
			r.w(`</td><td><code>`, esc(f.Type), `</code></td><td>`, esc(f.Description), `</td></tr>`)
		}
		r.w(`</tbody></table></div>`)
		if sd.FieldsCut {
			r.w(`<p class="api-more">`, esc(c.MoreFields), `</p>`)
		}
	}
	if sd.Example != "" {
		label := c.Example
		if sd.Generated {
			label = c.ExampleMade
		}
		r.w(`<figure class="code api-example"><figcaption class="code-title">`, esc(label), `</figcaption><pre tabindex="0"><code>`, esc(sd.Example), `</code></pre></figure>`)
	}
}

// nodesOf returns a node list, whether built in Go or decoded from JSON.
func nodesOf(v any) []map[string]any {
	switch l := v.(type) {
	case []map[string]any:
		return l
	case []any:
		out := make([]map[string]any, 0, len(l))
		for _, x := range l {
			if m, ok := x.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}

func dataOf(n map[string]any) map[string]any {
	d, _ := n["data"].(map[string]any)
	if d == nil {
		return map[string]any{}
	}
	return d
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func fragment(n map[string]any, name string) []map[string]any {
	for _, f := range nodesOf(n["fragments"]) {
		if f["fragment"] == name {
			return nodesOf(f["nodes"])
		}
	}
	return nil
}

func (r *renderer) w(s ...string) {
	for _, x := range s {
		r.b.WriteString(x)
	}
}

func esc(s string) string { return template.HTMLEscapeString(s) }

// playerURL is the embeddable player of a video URL from a known provider
// (YouTube, Vimeo, Loom), with a title for the frame; "" for others (they
// are shown as link cards).
func playerURL(u string) (src, title string) {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") {
		return "", ""
	}
	host := strings.TrimPrefix(strings.ToLower(p.Host), "www.")
	seg := strings.Split(strings.Trim(p.Path, "/"), "/")
	id := func(s string) string {
		for _, c := range s {
			if !(c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return ""
			}
		}
		return s
	}
	switch {
	case (host == "youtube.com" || host == "m.youtube.com") && p.Path == "/watch" && id(p.Query().Get("v")) != "":
		return "https://www.youtube-nocookie.com/embed/" + p.Query().Get("v"), "YouTube video"
	case host == "youtu.be" && len(seg) == 1 && id(seg[0]) != "":
		return "https://www.youtube-nocookie.com/embed/" + seg[0], "YouTube video"
	case host == "vimeo.com" && len(seg) == 1 && id(seg[0]) != "":
		return "https://player.vimeo.com/video/" + seg[0] + "?dnt=1", "Vimeo video"
	case host == "loom.com" && len(seg) == 2 && seg[0] == "share" && id(seg[1]) != "":
		return "https://www.loom.com/embed/" + seg[1], "Loom video"
	}
	return "", ""
}

// safeURL keeps http(s), mailto, relative and fragment URLs; anything else
// (javascript:, data:) becomes "#".
func safeURL(u string) string {
	if p, err := url.Parse(strings.TrimSpace(u)); err == nil {
		switch strings.ToLower(p.Scheme) {
		case "", "http", "https", "mailto":
			return u
		}
	}
	return "#"
}

func (r *renderer) blocks(nodes []map[string]any, top bool) {
	for _, n := range nodes {
		r.block(n, top)
	}
}

// text is the plain text of nodes.
func text(nodes []map[string]any) string {
	var b strings.Builder
	var walk func([]map[string]any)
	walk = func(ns []map[string]any) {
		for _, n := range ns {
			for _, l := range nodesOf(n["leaves"]) {
				b.WriteString(str(l, "text"))
			}
			if n["type"] == "inline-math" {
				b.WriteString(str(dataOf(n), "formula"))
			}
			walk(nodesOf(n["nodes"]))
		}
	}
	walk(nodes)
	return b.String()
}

// anchor returns a unique id for a heading.
func (r *renderer) anchor(id string) string {
	if id == "" {
		id = "section"
	}
	r.ids[id]++
	if n := r.ids[id]; n > 1 {
		return id + "-" + strconv.Itoa(n)
	}
	return id
}

func (r *renderer) block(n map[string]any, top bool) {
	typ, _ := n["type"].(string)
	d := dataOf(n)
	kids := nodesOf(n["nodes"])
	switch typ {
	case "paragraph":
		r.w("<p>")
		r.inlines(kids)
		r.w("</p>")
	case "heading-1", "heading-2", "heading-3", "heading-4", "heading-5", "heading-6":
		level := int(typ[len(typ)-1] - '0')
		// The page's title is the <h1>: the document's headings start at <h2>.
		tag := "h" + strconv.Itoa(min(level+1, 6))
		t := text(kids)
		id := str(d, "id")
		if id == "" {
			id = document.HeadingAnchor(t)
		}
		id = r.anchor(id)
		r.w("<", tag, ` id="`, esc(id), `">`)
		r.inlines(kids)
		r.w(` <a class="anchor" href="#`, esc(id), `" aria-label="`, esc(r.txt.Content.Anchor), `">#</a></`, tag, ">")
		if top && level <= 3 {
			r.outline = append(r.outline, heading{ID: id, Text: t, Level: level})
		}
	case "list-unordered", "list-ordered", "list-tasks":
		tag, class := "ul", ""
		if typ == "list-ordered" {
			tag = "ol"
		}
		if typ == "list-tasks" {
			class = ` class="tasks"`
		}
		r.w("<", tag, class, ">")
		for _, it := range kids {
			r.w("<li>")
			if c, ok := dataOf(it)["checked"].(bool); ok {
				if c {
					r.w(`<input type="checkbox" disabled checked aria-label="done"> `)
				} else {
					r.w(`<input type="checkbox" disabled aria-label="to do"> `)
				}
			}
			r.blocks(nodesOf(it["nodes"]), false)
			r.w("</li>")
		}
		r.w("</", tag, ">")
	case "list-item":
		r.w("<li>")
		r.blocks(kids, false)
		r.w("</li>")
	case "blockquote":
		r.w("<blockquote>")
		r.blocks(kids, false)
		r.w("</blockquote>")
	case "divider":
		r.w("<hr>")
	case "code":
		r.code(d, kids)
	case "hint":
		style := str(d, "style")
		switch style {
		case "info", "warning", "danger", "success":
		default:
			style = "info"
		}
		r.w(`<div class="hint hint-`, style, `" role="note"><span class="hint-label">`, esc(r.hintLabel(style)), `</span>`)
		r.blocks(kids, false)
		r.w("</div>")
	case "tabs":
		r.tabsBlock(kids)
	case "expandable":
		r.w(`<details class="expandable"><summary>`)
		r.inlineBlocks(fragment(n, "expandable-title"))
		r.w("</summary>")
		r.blocks(fragment(n, "expandable-body"), false)
		r.w("</details>")
	case "table":
		r.table(n, d)
	case "images":
		r.w(`<div class="images">`)
		for _, img := range kids {
			r.image(img)
		}
		r.w("</div>")
	case "image":
		r.image(n)
	case "drawing":
		src, _ := r.ref(d["ref"])
		r.w(`<figure class="drawing"><img src="`, esc(safeURL(src.href)), `" alt="Drawing" loading="lazy"></figure>`)
	case "embed":
		u := str(d, "url")
		host := u
		if p, err := url.Parse(u); err == nil && p.Host != "" {
			host = strings.TrimPrefix(p.Host, "www.")
		}
		if src, title := playerURL(u); src != "" {
			// A known video provider: its player, without cookies where it
			// has such a mode, lazily loaded; the link stays below it.
			r.w(`<div class="card embed embed-player"><iframe src="`, esc(src), `" title="`, esc(title),
				`" loading="lazy" allow="fullscreen; picture-in-picture" referrerpolicy="strict-origin-when-cross-origin"></iframe>`,
				`<a href="`, esc(safeURL(u)), `" rel="noopener"><span class="card-url">`, esc(u), `</span></a>`)
		} else {
			r.w(`<div class="card embed"><a href="`, esc(safeURL(u)), `" rel="noopener"><span class="card-title">`, esc(host),
				`</span><span class="card-url">`, esc(u), `</span></a>`)
		}
		if c := fragment(n, "caption"); len(c) > 0 {
			r.w(`<div class="caption">`)
			r.inlineBlocks(c)
			r.w("</div>")
		}
		r.w("</div>")
	case "content-ref":
		t, _ := r.ref(d["ref"])
		title := t.title
		if title == "" {
			title = t.href
		}
		if t.internal && t.href == "" {
			r.w(`<div class="card content-ref unavailable"><span class="card-title">`, esc(r.txt.Content.Unavailable), `</span></div>`)
			break
		}
		r.w(`<a class="card content-ref" href="`, esc(safeURL(t.href)), `"><span class="card-title">`, esc(title), `</span></a>`)
	case "file":
		t, _ := r.ref(d["ref"])
		name := t.title
		if name == "" {
			name = t.href[strings.LastIndex(t.href, "/")+1:]
		}
		r.w(`<div class="card file"><a href="`, esc(safeURL(t.href)), `" download><span class="card-title">`, esc(name), `</span></a>`)
		if c := fragment(n, "caption"); len(c) > 0 {
			r.w(`<div class="caption">`)
			r.inlineBlocks(c)
			r.w("</div>")
		}
		r.w("</div>")
	case "math":
		r.w(`<div class="math"><code class="math">`, esc(str(d, "formula")), `</code></div>`)
	case "stepper":
		r.w(`<ol class="stepper">`)
		for _, s := range kids {
			r.w(`<li class="step">`)
			r.blocks(nodesOf(s["nodes"]), false)
			r.w("</li>")
		}
		r.w("</ol>")
	case "columns":
		r.w(`<div class="columns">`)
		for _, c := range kids {
			class := ""
			if w, ok := dataOf(c)["width"].(map[string]any); ok {
				if v, ok := w["value"].(float64); ok && v > 0 && v <= 100 && (w["unit"] == "%" || w["unit"] == nil) {
					class = " " + r.width(v)
				}
				if v, ok := w["value"].(int); ok && v > 0 && v <= 100 {
					class = " " + r.width(float64(v))
				}
			}
			r.w(`<div class="column`, class, `">`)
			r.blocks(nodesOf(c["nodes"]), false)
			r.w("</div>")
		}
		r.w("</div>")
	case "swagger", "openapi-operation":
		method := strings.ToUpper(str(d, "method"))
		r.w(`<div class="card api"><div class="api-head"><span class="method method-`, esc(strings.ToLower(method)), `">`, esc(method),
			`</span> <code class="api-path">`, esc(str(d, "path")), `</code></div>`)
		if s := str(d, "summary"); s != "" {
			r.w(`<div class="card-title">`, esc(s), `</div>`)
		}
		if ref, ok := d["ref"].(map[string]any); ok {
			if spec := str(ref, "spec"); spec != "" {
				if od := r.links.operation(spec, str(d, "method"), str(d, "path")); od != nil {
					r.operation(od)
				} else {
					r.w(`<div class="api-spec">`, esc(fmt.Sprintf(r.txt.Content.Spec, spec)), `</div>`)
				}
			} else if u := str(d, "baseUrl"); u != "" {
				r.w(`<div class="api-spec">`, esc(u), `</div>`)
			} else if u := str(ref, "url"); u != "" {
				r.w(`<div class="api-spec"><a href="`, esc(safeURL(u)), `">`, esc(u), `</a></div>`)
			}
		}
		if desc := fragment(n, "swagger-description"); len(desc) > 0 {
			r.blocks(desc, false)
		}
		r.w("</div>")
	case document.ConditionalType, "reusable-content":
		// Never drawn: the reader reads bodies resolved for the visitor
		// (content.ShownPage), so none is left; one that were would show
		// its inside to visitors it may be hidden from.
	default:
		if len(kids) > 0 {
			if n["object"] == "inline" || n["object"] == "text" {
				r.inlines([]map[string]any{n})
			} else {
				r.blocks(kids, false)
			}
		}
	}
}

// hintLabel is a hint's label for its style, in the page's words.
func (r *renderer) hintLabel(style string) string {
	switch style {
	case "warning":
		return r.txt.Content.Warning
	case "danger":
		return r.txt.Content.Danger
	case "success":
		return r.txt.Content.Success
	}
	return r.txt.Content.Info
}

// code renders a code block: its title, the highlighted lines (numbered
// when asked) and a copy button that a small script shows (without
// JavaScript the code is plain, selectable text).
func (r *renderer) code(d map[string]any, lines []map[string]any) {
	var src []string
	for _, l := range lines {
		src = append(src, text(nodesOf(l["nodes"])))
	}
	code := strings.Join(src, "\n")
	ln, _ := d["lineNumbers"].(bool)
	syntax := str(d, "syntax")
	// A diagram's source stays a code block: what readers without
	// JavaScript see, and what the page's script draws (mermaid.go).
	r.diagrams = r.diagrams || strings.EqualFold(syntax, "mermaid")
	class := "code"
	if str(d, "overflow") == "wrap" {
		class += " wrap"
	}
	r.w(`<figure class="`, class, `"`)
	if strings.EqualFold(syntax, "mermaid") {
		r.w(` data-lang="mermaid"`)
	} else if syntax != "" {
		r.w(` data-lang="`, esc(syntax), `"`)
	}
	r.w(">")
	if t := str(d, "title"); t != "" {
		r.w(`<figcaption class="code-title">`, esc(t), `</figcaption>`)
	}
	r.w(`<button type="button" class="copy" hidden>`, esc(r.txt.Copy), `</button>`)
	r.w(string(r.hl.code(syntax, code, ln)))
	r.w("</figure>")
}

// tabsBlock renders tabs as radio buttons and labels: CSS shows the
// checked one's panel, without JavaScript.
func (r *renderer) tabsBlock(items []map[string]any) {
	r.tabs++
	name := "tabs-" + strconv.Itoa(r.tabs)
	r.w(`<div class="tabs">`)
	for i, it := range items {
		id := name + "-" + strconv.Itoa(i)
		checked := ""
		if i == 0 {
			checked = " checked"
		}
		title := str(dataOf(it), "title")
		if title == "" {
			title = fmt.Sprintf(r.txt.Content.Tab, i+1)
		}
		r.w(`<input type="radio" name="`, name, `" id="`, id, `"`, checked, `><label for="`, id, `">`, esc(title),
			`</label><div class="tab-panel">`)
		r.blocks(nodesOf(it["nodes"]), false)
		r.w("</div>")
	}
	r.w("</div>")
}

func (r *renderer) table(n, d map[string]any) {
	view, _ := d["view"].(map[string]any)
	def, _ := d["definition"].(map[string]any)
	records, _ := d["records"].(map[string]any)
	var cols []string
	switch c := view["columns"].(type) {
	case []string:
		cols = c
	case []any:
		for _, x := range c {
			if s, ok := x.(string); ok {
				cols = append(cols, s)
			}
		}
	}
	align := func(col string) string {
		if c, ok := def[col].(map[string]any); ok {
			switch a := str(c, "textAlignment"); a {
			case "center", "right":
				return ` class="align-` + a + `"`
			}
		}
		return ""
	}
	r.w(`<div class="table"><table>`)
	if h, _ := view["hideHeader"].(bool); !h {
		r.w("<thead><tr>")
		for _, c := range cols {
			title := ""
			if cd, ok := def[c].(map[string]any); ok {
				title = str(cd, "title")
			}
			r.w(`<th scope="col"`, align(c), ">", esc(title), "</th>")
		}
		r.w("</tr></thead>")
	}
	type row struct {
		order  string
		values map[string]any
	}
	var rows []row
	for _, rec := range records {
		m, _ := rec.(map[string]any)
		v, _ := m["values"].(map[string]any)
		rows = append(rows, row{order: str(m, "orderIndex"), values: v})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].order < rows[j].order })
	r.w("<tbody>")
	for _, rw := range rows {
		r.w("<tr>")
		for _, c := range cols {
			r.w("<td", align(c), ">")
			if frag, ok := rw.values[c].(string); ok {
				r.blocks(fragment(n, frag), false)
			}
			r.w("</td>")
		}
		r.w("</tr>")
	}
	r.w("</tbody></table></div>")
}

func (r *renderer) image(n map[string]any) {
	d := dataOf(n)
	t, f := r.ref(d["ref"])
	alt := str(d, "alt")
	r.w(`<figure class="image"><img src="`, esc(safeURL(t.href)), `" alt="`, esc(alt), `"`)
	w, h := f.Width, f.Height
	if v, ok := d["width"].(float64); ok && v > 0 {
		w = int(v)
	}
	if v, ok := d["height"].(float64); ok && v > 0 {
		h = int(v)
	}
	if w > 0 {
		r.w(` width="`, strconv.Itoa(w), `"`)
	}
	if h > 0 {
		r.w(` height="`, strconv.Itoa(h), `"`)
	}
	r.w(` loading="lazy">`)
	if c := fragment(n, "caption"); len(c) > 0 {
		r.w("<figcaption>")
		r.inlineBlocks(c)
		r.w("</figcaption>")
	}
	r.w("</figure>")
}

// target is a resolved reference; internal: a page or space of the
// organization, whose href is "" when the visitor is shown no such thing
// (the reference is then written as text, never as a broken link).
type target struct {
	href, title string
	internal    bool
}

// ref resolves a content reference to a URL (and a title, for pages and
// files), with the file's details for files.
func (r *renderer) ref(v any) (target, fileInfo) {
	ref, _ := v.(map[string]any)
	switch str(ref, "kind") {
	case "url":
		u := str(ref, "url")
		// A link to a page GitBook's way (/pages/<id>) whose page is not
		// of this space, or to another space's page or root: to where
		// the visitor is shown it, else no link.
		if rest, ok := strings.CutPrefix(u, "/pages/"); ok && rest != "" {
			id, a, _ := strings.Cut(rest, "#")
			href, title := r.links.page("", strings.Trim(id, "/"))
			if href != "" && a != "" {
				href += "#" + url.PathEscape(a)
			}
			return target{href: href, title: title, internal: true}, fileInfo{}
		}
		if space, page, a, ok := document.SpaceLink(u); ok {
			return r.ref(map[string]any{"kind": map[bool]string{true: "space", false: "anchor"}[page == ""], "space": space, "page": page, "anchor": a})
		}
		return target{href: u}, fileInfo{}
	case "page":
		href, title := r.links.page(str(ref, "space"), str(ref, "page"))
		return target{href: href, title: title, internal: true}, fileInfo{}
	case "space":
		href, title := r.links.space(str(ref, "space"))
		return target{href: href, title: title, internal: true}, fileInfo{}
	case "anchor":
		a := "#" + url.PathEscape(str(ref, "anchor"))
		if p := str(ref, "page"); p != "" {
			href, title := r.links.page(str(ref, "space"), p)
			if href != "" && str(ref, "anchor") != "" {
				href += a
			}
			return target{href: href, title: title, internal: true}, fileInfo{}
		}
		return target{href: a}, fileInfo{}
	case "file":
		id := str(ref, "file")
		if f, ok := r.links.file(id); ok {
			return target{href: f.URL, title: f.Name}, f
		}
		return target{href: id}, fileInfo{}
	}
	return target{href: "#"}, fileInfo{}
}

// inlineBlocks renders blocks' inline content without their block
// elements (a summary or caption holds one paragraph).
func (r *renderer) inlineBlocks(nodes []map[string]any) {
	for i, n := range nodes {
		if i > 0 {
			r.w(" ")
		}
		if n["object"] == "block" && n["type"] == "paragraph" {
			r.inlines(nodesOf(n["nodes"]))
		} else if n["object"] == "block" {
			r.block(n, false)
		} else {
			r.inlines([]map[string]any{n})
		}
	}
}

var markTags = map[string][2]string{
	"bold": {"<strong>", "</strong>"}, "italic": {"<em>", "</em>"}, "code": {"<code>", "</code>"},
	"strikethrough": {"<s>", "</s>"}, "underline": {"<u>", "</u>"},
}

func (r *renderer) inlines(nodes []map[string]any) {
	for _, n := range nodes {
		switch n["object"] {
		case "text":
			for _, l := range nodesOf(n["leaves"]) {
				marks := nodesOf(l["marks"])
				for _, m := range marks {
					r.w(markTags[str(m, "type")][0])
				}
				r.w(esc(str(l, "text")))
				for i := len(marks) - 1; i >= 0; i-- {
					r.w(markTags[str(marks[i], "type")][1])
				}
			}
			continue
		}
		d := dataOf(n)
		switch n["type"] {
		case "link":
			t, _ := r.ref(d["ref"])
			if t.internal && t.href == "" {
				r.inlines(nodesOf(n["nodes"])) // a page the visitor is not shown: its text
				continue
			}
			r.w(`<a href="`, esc(safeURL(t.href)), `"`)
			if ref, _ := d["ref"].(map[string]any); r.links.newTab() && str(ref, "kind") == "url" && external(t.href) {
				r.w(` target="_blank" rel="noopener"`)
			}
			r.w(`>`)
			r.inlines(nodesOf(n["nodes"]))
			r.w("</a>")
		case "inline-math":
			r.w(`<code class="math">`, esc(str(d, "formula")), `</code>`)
		case "inline-image":
			t, f := r.ref(d["ref"])
			r.w(`<img class="inline" src="`, esc(safeURL(t.href)), `" alt="`, esc(str(d, "alt")), `"`)
			if f.Width > 0 && f.Height > 0 {
				r.w(` width="`, strconv.Itoa(f.Width), `" height="`, strconv.Itoa(f.Height), `"`)
			}
			r.w(` loading="lazy">`)
		case "emoji":
			r.w(esc(str(d, "code")))
		default:
			r.inlines(nodesOf(n["nodes"]))
		}
	}
}
