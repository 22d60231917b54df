package imports

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// What documentation generators (Sphinx, MkDocs and MkDocs Material,
// Docusaurus, VitePress...) put around and inside their content is made
// plain before the conversion to markdown: the permalink marks of the
// headings, the line numbers and copy buttons of code blocks, the
// navigation; admonitions become a hintTag element, which the converter
// writes as a GitBook hint.

// hintTag is the element an admonition becomes; its "style" attribute is
// a GitBook hint style.
const hintTag = "galley-hint"

// cellBreakTag is the line break within a table's cell, written <br>
// (a <br> would be written as a hard break, a newline, which the table
// plugin writes "  <br />").
const cellBreakTag = "galley-br"

// newConverter is the HTML to markdown converter of imports: CommonMark,
// GFM tables and strikethrough, and hints.
func newConverter() *converter.Converter {
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		strikethrough.NewStrikethroughPlugin(),
		table.NewTablePlugin(
			table.WithHeaderPromotion(true),
			table.WithNewlineBehavior(table.NewlineBehaviorPreserve),
			table.WithCellPaddingBehavior(table.CellPaddingBehaviorMinimal),
		),
	))
	conv.Register.RendererFor(hintTag, converter.TagTypeBlock, renderHint, converter.PriorityStandard)
	conv.Register.RendererFor("details", converter.TagTypeBlock, renderDetails, converter.PriorityEarly)
	conv.Register.RendererFor(cellBreakTag, converter.TagTypeInline, func(_ converter.Context, w converter.Writer, _ *html.Node) converter.RenderStatus {
		w.WriteString("<br>")
		return converter.RenderSuccess
	}, converter.PriorityStandard)
	return conv
}

// renderHint writes a hintTag element as a GitBook hint block.
func renderHint(ctx converter.Context, w converter.Writer, n *html.Node) converter.RenderStatus {
	var buf bytes.Buffer
	ctx.RenderChildNodes(ctx, &buf, n)
	style := "info"
	if a := attr(n, "style"); a != nil {
		style = a.Val
	}
	w.WriteString("\n\n{% hint style=\"" + style + "\" %}\n")
	w.Write(bytes.TrimSpace(buf.Bytes()))
	w.WriteString("\n{% endhint %}\n\n")
	return converter.RenderSuccess
}

// renderDetails writes a <details> (one that is not an admonition) as a
// GitBook expandable: <details>, its <summary> line, its body in markdown.
func renderDetails(ctx converter.Context, w converter.Writer, n *html.Node) converter.RenderStatus {
	var title, body bytes.Buffer
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Summary && title.Len() == 0 {
			ctx.RenderChildNodes(ctx, &title, c)
			continue
		}
		ctx.RenderNodes(ctx, &body, c)
	}
	open := "<details>"
	if attr(n, "open") != nil {
		open = "<details open>"
	}
	w.WriteString("\n\n" + open + "\n\n<summary>")
	w.Write(bytes.Join(bytes.Fields(title.Bytes()), []byte(" ")))
	w.WriteString("</summary>\n\n")
	w.Write(bytes.TrimSpace(body.Bytes()))
	w.WriteString("\n\n</details>\n\n")
	return converter.RenderSuccess
}

// classes are an element's classes.
func classes(n *html.Node) []string {
	if a := attr(n, "class"); a != nil {
		return strings.Fields(a.Val)
	}
	return nil
}

func hasClass(n *html.Node, names ...string) bool {
	for _, c := range classes(n) {
		for _, name := range names {
			if c == name {
				return true
			}
		}
	}
	return false
}

// hasClassPrefix tells classes starting with prefix (CSS modules'
// "tableOfContents_bqdL").
func hasClassPrefix(n *html.Node, prefixes ...string) bool {
	for _, c := range classes(n) {
		for _, p := range prefixes {
			if strings.HasPrefix(c, p) {
				return true
			}
		}
	}
	return false
}

func attrVal(n *html.Node, key string) string {
	if a := attr(n, key); a != nil {
		return a.Val
	}
	return ""
}

// findMain is a page's main content, the most specific first:
// Docusaurus's .theme-doc-markdown, Sphinx's div.body, Read the Docs'
// articleBody, MkDocs's .md-content; then <main>, role="main", <article>,
// Sphinx's div.document, <body>.
func findMain(doc *html.Node) *html.Node {
	const (
		docusaurus = iota
		sphinxBody
		articleBody
		mkdocs
		mainTag
		roleMain
		articleTag
		sphinxDocument
		bodyTag
		kinds
	)
	var found [kinds]*html.Node
	set := func(k int, n *html.Node) {
		if found[k] == nil {
			found[k] = n
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch {
			case hasClass(n, "theme-doc-markdown"):
				set(docusaurus, n)
			case n.DataAtom == atom.Div && hasClass(n, "body") && (attrVal(n, "role") == "main" || (n.Parent != nil && hasClass(n.Parent, "bodywrapper"))):
				set(sphinxBody, n)
			case attrVal(n, "itemprop") == "articleBody":
				set(articleBody, n)
			case n.DataAtom == atom.Div && hasClass(n, "md-content"):
				set(mkdocs, n)
			}
			switch {
			case n.DataAtom == atom.Main:
				set(mainTag, n)
			case n.DataAtom == atom.Article:
				set(articleTag, n)
			case n.DataAtom == atom.Body:
				set(bodyTag, n)
			case n.DataAtom == atom.Div && hasClass(n, "document"):
				set(sphinxDocument, n)
			}
			if attrVal(n, "role") == "main" {
				set(roleMain, n)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, n := range found {
		if n != nil {
			return n
		}
	}
	return doc
}

// isChromeClass tells the classes of what is not content: sidebars,
// breadcrumbs, previous/next links, "edit this page", tables of contents,
// copy buttons, permalink marks; CSS modules' names (Docusaurus's
// "tableOfContents_bqdL") by their prefix.
func isChromeClass(c string) bool {
	switch c {
	// Sphinx and Read the Docs
	case "sphinxsidebar", "sphinxsidebarwrapper", "breadcrumbs", "wy-breadcrumbs", "rst-footer-buttons",
		"prev-next-area", "prev-next-footer", "footer", "copybtn", "headerlink", "toc-drawer", "bd-sidebar",
		// MkDocs Material
		"md-sidebar", "md-header", "md-footer", "md-tabs", "md-source-file", "md-content__button", "md-clipboard", "md-feedback",
		// Docusaurus
		"theme-doc-breadcrumbs", "pagination-nav", "theme-doc-footer", "theme-edit-this-page", "theme-last-updated",
		"theme-doc-toc-mobile", "theme-doc-toc-desktop", "table-of-contents", "theme-doc-version-badge",
		"theme-doc-version-banner", "clean-btn", "hash-link",
		// others
		"edit-this-page", "header-anchor", "anchorjs-link", "anchor-link", "skip-link", "sr-only", "visually-hidden":
		return true
	}
	for _, p := range [...]string{"tableOfContents_", "buttonGroup_", "tocCollapsible_", "docItemFooter", "theme-doc-sidebar"} {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	return false
}

// isChrome tells an element that is not content.
func isChrome(n *html.Node) bool {
	for _, c := range classes(n) {
		if isChromeClass(c) {
			return !isAdmonition(n)
		}
	}
	switch attrVal(n, "role") {
	case "navigation", "banner", "contentinfo", "search", "complementary":
		return true
	}
	if strings.Contains(strings.ToLower(attrVal(n, "aria-label")), "breadcrumb") {
		return true
	}
	if n.DataAtom == atom.A {
		if hasClass(n, "anchor", "permalink") {
			return true
		}
		if t := strings.ToLower(attrVal(n, "title")); strings.Contains(t, "edit this page") || strings.Contains(t, "permanent link") {
			return true
		}
	}
	return false
}

// permalinkMarks are the texts of headings' permalinks.
const permalinkMarks = "¶#§🔗\u200b\u00a0 \t\n"

// isPermalink tells a heading's link to itself: a link to a fragment
// whose text is only a mark (¶, #, §) or nothing.
func isPermalink(a *html.Node) bool {
	if a.DataAtom != atom.A || !strings.HasPrefix(attrVal(a, "href"), "#") {
		return false
	}
	return strings.Trim(textOf(a), permalinkMarks) == ""
}

func isHeading(n *html.Node) bool {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// hasDescendant tells whether an element holds an element of the atom.
func hasDescendant(n *html.Node, a atom.Atom) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if (c.Type == html.ElementNode && c.DataAtom == a) || hasDescendant(c, a) {
			return true
		}
	}
	return false
}

// prune removes what is not content: comments, navigation, headers (but,
// when titleHeader, a header holding the title: Docusaurus's), footers,
// asides (but admonitions and docutils' footnotes and citations), scripts, styles, forms, buttons, the chrome
// of generators (isChrome) and headings' permalinks.
func prune(n *html.Node, titleHeader bool) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.CommentNode {
			n.RemoveChild(c)
		} else if c.Type == html.ElementNode {
			drop := isChrome(c)
			switch c.DataAtom {
			case atom.Nav, atom.Footer, atom.Script, atom.Style, atom.Noscript, atom.Form,
				atom.Iframe, atom.Template, atom.Button, atom.Svg, atom.Link, atom.Meta, atom.Input, atom.Select, atom.Textarea:
				drop = true
			case atom.Header:
				drop = drop || !titleHeader || !hasDescendant(c, atom.H1)
			case atom.Aside:
				// docutils (0.18 and later) writes footnotes and
				// citations as asides: content.
				drop = drop || !(isAdmonition(c) || hasClass(c, "footnote-list", "footnote", "citation-list", "citation"))
			case atom.A:
				drop = drop || (insideHeading(c) && isPermalink(c))
			}
			if drop {
				n.RemoveChild(c)
			} else {
				prune(c, titleHeader)
			}
		}
		c = next
	}
}

func insideHeading(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && isHeading(p) {
			return true
		}
	}
	return false
}

// normalize rewrites a page's main content for the conversion: code
// blocks as <pre><code class="language-x">text</code></pre>, admonitions
// as hints.
func normalize(main *html.Node) {
	normalizeCode(main)
	normalizeTables(main)
	normalizeAdmonitions(main)
}

// normalizeTables flattens the cells of tables so that they fit a
// markdown table's row: paragraphs (Sphinx puts each cell's text in one)
// and list items ("• " or "(1) " first) become lines, joined by <br> as
// GitBook's tables hold them; block quotes their content. A table holding a table, a heading
// or a rule is left as it is (and converted as the rows' text).
func normalizeTables(main *html.Node) {
	for _, t := range elements(main, func(n *html.Node) bool { return n.DataAtom == atom.Table }) {
		if len(elements(t, func(n *html.Node) bool { return n.DataAtom == atom.Table || n.DataAtom == atom.Hr || isHeading(n) })) > 0 {
			continue
		}
		for _, cell := range elements(t, func(n *html.Node) bool { return n.DataAtom == atom.Td || n.DataAtom == atom.Th }) {
			flattenCell(cell)
		}
	}
}

// flattenCell turns a cell's blocks into lines.
func flattenCell(cell *html.Node) {
	br := func() *html.Node { return &html.Node{Type: html.ElementNode, Data: cellBreakTag} }
	var flatten func(n *html.Node)
	flatten = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type != html.ElementNode {
				c = next
				continue
			}
			flatten(c)
			switch c.DataAtom {
			case atom.P, atom.Div, atom.Blockquote, atom.Dl, atom.Dd, atom.Dt:
				unwrapLine(c, br)
			case atom.Ul, atom.Ol:
				i := 0
				for li := c.FirstChild; li != nil; li = li.NextSibling {
					if li.DataAtom != atom.Li {
						continue
					}
					i++
					mark := "• "
					if c.DataAtom == atom.Ol {
						mark = "(" + strconv.Itoa(i) + ") "
					}
					li.InsertBefore(&html.Node{Type: html.TextNode, Data: mark}, li.FirstChild)
				}
				for li := c.FirstChild; li != nil; li = c.FirstChild {
					c.RemoveChild(li)
					if li.DataAtom == atom.Li {
						li.Data, li.DataAtom, li.Attr = "span", atom.Span, nil
						c.Parent.InsertBefore(li, c)
						unwrapLine(li, br)
					}
				}
				c.Parent.RemoveChild(c)
			}
			c = next
		}
	}
	flatten(cell)
	// No spaces around the line breaks (those between the blocks).
	for c := cell.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.TextNode && strings.TrimSpace(c.Data) == "" &&
			((c.PrevSibling != nil && c.PrevSibling.Data == cellBreakTag) || (next != nil && next.Data == cellBreakTag)) {
			cell.RemoveChild(c)
		}
		c = next
	}
	// No line break at the cell's ends.
	for _, end := range []func() *html.Node{func() *html.Node { return cell.FirstChild }, func() *html.Node { return cell.LastChild }} {
		for n := end(); n != nil && (n.DataAtom == atom.Br || n.Data == cellBreakTag || (n.Type == html.TextNode && strings.TrimSpace(n.Data) == "")); n = end() {
			cell.RemoveChild(n)
		}
	}
}

// unwrapLine replaces a block by its children, a <br> after it when
// something follows.
func unwrapLine(n *html.Node, br func() *html.Node) {
	parent := n.Parent
	for c := n.FirstChild; c != nil; c = n.FirstChild {
		n.RemoveChild(c)
		parent.InsertBefore(c, n)
	}
	if n.NextSibling != nil {
		parent.InsertBefore(br(), n)
	}
	parent.RemoveChild(n)
}

// elements are the elements under n (n excluded) for which keep is true,
// in document order; the walk does not enter those it returns.
func elements(n *html.Node, keep func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if keep(c) {
			out = append(out, c)
			continue
		}
		out = append(out, elements(c, keep)...)
	}
	return out
}

// normalizeCode makes code blocks plain: Pygments' line number tables
// (Sphinx and MkDocs "highlighttable") give way to their code cell, line
// number spans go, and the language is found on the <pre>, its <code> or
// the wrappers around (Sphinx's "highlight-python", MkDocs's
// "language-python highlight", Docusaurus's "prism-code language-js").
func normalizeCode(main *html.Node) {
	for _, t := range elements(main, func(n *html.Node) bool { return n.DataAtom == atom.Table && hasClass(n, "highlighttable") }) {
		cells := elements(t, func(n *html.Node) bool { return n.DataAtom == atom.Td && hasClass(n, "code") })
		var pre *html.Node
		if len(cells) > 0 {
			if pres := elements(cells[0], func(n *html.Node) bool { return n.DataAtom == atom.Pre }); len(pres) > 0 {
				pre = pres[0]
			}
		}
		if pre == nil {
			continue
		}
		pre.Parent.RemoveChild(pre)
		t.Parent.InsertBefore(pre, t)
		t.Parent.RemoveChild(t)
	}
	for _, pre := range elements(main, func(n *html.Node) bool { return n.DataAtom == atom.Pre }) {
		setCode(pre, codeLanguage(pre))
	}
}

// setCode replaces a <pre>'s content by its text in a <code> of the
// language (again for a <pre> done already, the same).
func setCode(pre *html.Node, lang string) {
	text := strings.TrimRight(codeText(pre), "\n")
	for c := pre.FirstChild; c != nil; c = pre.FirstChild {
		pre.RemoveChild(c)
	}
	pre.Attr = nil
	code := &html.Node{Type: html.ElementNode, Data: "code", DataAtom: atom.Code}
	if lang != "" {
		code.Attr = []html.Attribute{{Key: "class", Val: "language-" + lang}}
	}
	code.AppendChild(&html.Node{Type: html.TextNode, Data: text})
	pre.AppendChild(code)
}

// codeText is a code block's text without line numbers: <br> and the
// lines of Prism (Docusaurus's "token-line") end lines.
func codeText(pre *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			if hasClass(n, "linenos", "lineno", "linenodiv", "line-number", "line-numbers-rows") || hasClassPrefix(n, "codeLineNumber") {
				return
			}
			if n.DataAtom == atom.Br {
				b.WriteString("\n")
				return
			}
			if n.DataAtom == atom.Button || n.DataAtom == atom.Script || n.DataAtom == atom.Style {
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && hasClass(n, "token-line") && !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
	}
	walk(pre)
	return b.String()
}

// codeLanguage is the language of a code block (languageName of the one
// its source declares): a language class on the <pre> or its <code>, else
// on the wrappers above (at most four, holding this one code block and no
// paragraph).
func codeLanguage(pre *html.Node) string {
	return languageName(declaredLanguage(pre), pre)
}

// declaredLanguage is the language a code block's source declares, as
// written (lower case), "" for none.
func declaredLanguage(pre *html.Node) string {
	if l := classLanguage(pre); l != "" {
		return l
	}
	for c := pre.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == atom.Code {
			if l := classLanguage(c); l != "" {
				return l
			}
		}
	}
	p := pre.Parent
	for i := 0; p != nil && p.Type == html.ElementNode && i < 4; i, p = i+1, p.Parent {
		if len(elements(p, func(n *html.Node) bool { return n.DataAtom == atom.Pre || n.DataAtom == atom.P })) > 1 {
			break
		}
		if l := classLanguage(p); l != "" {
			return l
		}
	}
	return ""
}

// classLanguage reads "language-x", "lang-x" and Sphinx's "highlight-x"
// (x in lower case).
func classLanguage(n *html.Node) string {
	for _, c := range classes(n) {
		for _, prefix := range []string{"language-", "lang-", "highlight-"} {
			if l, ok := strings.CutPrefix(c, prefix); ok && l != "" {
				return strings.ToLower(l)
			}
		}
	}
	return ""
}

// languageName is the name a code block of a declared language gets: one
// that GitBook's code blocks (Prism) and Galley's reader (chroma) both
// highlight, where the source's name (Pygments' lexer aliases in Sphinx's
// "highlight-x", highlight.js's and Prism's in "language-x") is one that
// either does not know; else the name as declared.
//
// Sphinx writes "highlight-default" for a block in the project's default
// language when the project sets none (its highlight_language "default":
// Python 3, with a fallback to plain text when the block does not lex as
// Python): a block Pygments coloured (its <pre> holds token spans, which
// have classes) is python, one it left plain is text. A project that sets
// highlight_language (or a page's ".. highlight::") has its blocks written
// "highlight-<that language>". Python console sessions and tracebacks,
// which neither highlighter has a lexer for, are python; shell sessions
// ("console") are shell-session; Jinja templates (Pygments' "html+jinja")
// are django (Prism's Django/Jinja2, chroma's Django/Jinja); "none",
// "plaintext", "nohighlight" are text (the source says "plain text", which
// is kept as the block's language).
func languageName(declared string, pre *html.Node) string {
	switch declared {
	case "default":
		if len(elements(pre, func(n *html.Node) bool { return n.DataAtom == atom.Span && attrVal(n, "class") != "" })) == 0 {
			return "text"
		}
		return "python"
	case "guess":
		return "" // Sphinx's "let Pygments guess": nothing declared
	case "python3", "py3", "pycon", "pycon3", "python-console", "ipython", "ipython3", "ipythonconsole",
		"pytb", "py3tb", "pytb3", "python-traceback":
		return "python"
	case "console", "shellsession", "bash-session":
		return "shell-session"
	case "html+jinja", "html+django", "htmldjango", "jinja", "jinja2":
		return "django"
	case "none", "plaintext", "plain", "nohighlight", "txt":
		return "text"
	}
	return declared
}

// hintStyle maps the kinds of admonitions (Sphinx's and docutils',
// MkDocs Material's, Docusaurus's) to GitBook's hint styles; "" for a
// kind unknown.
func hintStyle(kind string) string {
	switch kind {
	case "note", "info", "seealso", "abstract", "summary", "tldr", "todo", "question", "help", "faq", "example", "quote",
		"cite", "secondary", "versionadded", "versionchanged":
		return "info"
	case "tip", "hint", "important", "success", "check", "done":
		return "success"
	case "warning", "caution", "attention", "deprecated", "versionremoved":
		return "warning"
	case "danger", "error", "failure", "fail", "missing", "bug":
		return "danger"
	}
	return ""
}

// admonitionKind is the kind of an admonition ("note", "warning"...), ""
// for an element that is not one. Sphinx and MkDocs: class "admonition"
// and the kind; MkDocs's collapsible <details class="note">; Docusaurus:
// "theme-admonition theme-admonition-warning" (v3), "admonition
// admonition-warning" (v2); Sphinx's version notes (div.versionadded,
// div.deprecated...); docutils' sidebars ("sidebar", an info hint).
func admonitionKind(n *html.Node) (string, bool) {
	if n.Type != html.ElementNode {
		return "", false
	}
	cs := classes(n)
	for _, c := range cs {
		if k, ok := strings.CutPrefix(c, "theme-admonition-"); ok {
			return k, true
		}
	}
	// docutils' sidebar (a side note of the text, in Sphinx's body):
	// <aside class="sidebar"> (<div> before docutils 0.18) and its
	// p.sidebar-title; other sites' "sidebar" is their navigation.
	if hasClass(n, "sidebar") && len(elements(n, func(c *html.Node) bool { return c.DataAtom == atom.P && hasClass(c, "sidebar-title") })) > 0 {
		return "sidebar", true
	}
	// Sphinx's version notes: <div class="versionadded">.
	if n.DataAtom == atom.Div {
		for _, c := range cs {
			switch c {
			case "versionadded", "versionchanged", "deprecated", "versionremoved":
				return c, true
			}
		}
	}
	generic := hasClass(n, "admonition", "theme-admonition")
	if !generic && n.DataAtom != atom.Details {
		return "", false
	}
	for _, c := range cs {
		if hintStyle(c) != "" {
			return c, true
		}
		if k, ok := strings.CutPrefix(c, "admonition-"); ok {
			if hintStyle(k) != "" {
				return k, true
			}
		}
	}
	return "", generic
}

func isAdmonition(n *html.Node) bool {
	_, ok := admonitionKind(n)
	return ok
}

// normalizeAdmonitions turns admonitions into hintTag elements of the
// kind's style (info for kinds unknown), their title left out when it only
// names the kind.
func normalizeAdmonitions(main *html.Node) {
	for _, n := range elements(main, isAdmonition) {
		normalizeAdmonitions(n) // admonitions within
		kind, _ := admonitionKind(n)
		style := hintStyle(kind)
		if style == "" {
			style = "info"
		}
		if t := admonitionTitle(n); t != nil {
			title := strings.TrimSpace(textOf(t))
			key := strings.NewReplacer(" ", "", ":", "", "\u00a0", "").Replace(strings.ToLower(title))
			if key == "" || key == kind || hintStyle(key) != "" {
				t.Parent.RemoveChild(t)
			} else {
				// A title of its own: a bold first line.
				p := &html.Node{Type: html.ElementNode, Data: "p", DataAtom: atom.P}
				strong := &html.Node{Type: html.ElementNode, Data: "strong", DataAtom: atom.Strong}
				strong.AppendChild(&html.Node{Type: html.TextNode, Data: title})
				p.AppendChild(strong)
				t.Parent.InsertBefore(p, t)
				t.Parent.RemoveChild(t)
			}
		}
		hint := &html.Node{Type: html.ElementNode, Data: hintTag, Attr: []html.Attribute{{Key: "style", Val: style}}}
		for c := n.FirstChild; c != nil; c = n.FirstChild {
			n.RemoveChild(c)
			hint.AppendChild(c)
		}
		n.Parent.InsertBefore(hint, n)
		n.Parent.RemoveChild(n)
	}
}

// admonitionTitle is the title element of an admonition: Sphinx's and
// MkDocs's p.admonition-title, docutils' p.sidebar-title, a <details>'s <summary>, Docusaurus's
// heading.
func admonitionTitle(n *html.Node) *html.Node {
	ts := elements(n, func(c *html.Node) bool {
		return hasClass(c, "admonition-title", "admonition-heading", "sidebar-title") || hasClassPrefix(c, "admonitionHeading") ||
			(n.DataAtom == atom.Details && c.DataAtom == atom.Summary)
	})
	if len(ts) == 0 {
		return nil
	}
	return ts[0]
}
