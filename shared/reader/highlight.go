package reader

import (
	"html/template"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// highlighter colours code with chroma: HTML with classes, and the CSS of
// a light and a dark style (made once, in New).
type highlighter struct {
	plain, numbered *chromahtml.Formatter
	light, dark     string // CSS
}

func newHighlighter() (*highlighter, error) {
	opts := []chromahtml.Option{chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(false)}
	h := &highlighter{
		plain:    chromahtml.New(opts...),
		numbered: chromahtml.New(append(opts, chromahtml.WithLineNumbers(true))...),
	}
	var b strings.Builder
	if err := h.plain.WriteCSS(&b, styles.Get("github")); err != nil {
		return nil, err
	}
	h.light = minifyCSS(b.String())
	b.Reset()
	if err := h.plain.WriteCSS(&b, styles.Get("github-dark")); err != nil {
		return nil, err
	}
	h.dark = minifyCSS(b.String())
	return h, nil
}

// minifyCSS drops chroma's comments and line breaks.
func minifyCSS(css string) string {
	var b strings.Builder
	for _, line := range strings.Split(css, "\n") {
		if i := strings.Index(line, "/*"); i >= 0 {
			if j := strings.Index(line[i:], "*/"); j >= 0 {
				line = line[:i] + line[i+j+2:]
			}
		}
		b.WriteString(strings.TrimSpace(line))
	}
	return b.String()
}

// code returns code highlighted as syntax (plain text when chroma knows no
// such language), in a <pre class="chroma">.
func (h *highlighter) code(syntax, code string, lineNumbers bool) template.HTML {
	lexer := lexers.Get(syntax)
	if lexer == nil || syntax == "" {
		lexer = lexers.Fallback
	}
	lexer = chroma.Coalesce(lexer)
	f := h.plain
	if lineNumbers {
		f = h.numbered
	}
	it, err := lexer.Tokenise(nil, code)
	var b strings.Builder
	if err == nil {
		err = f.Format(&b, styles.Get("github"), it)
	}
	if err != nil {
		return template.HTML("<pre class=\"chroma\"><code>" + template.HTMLEscapeString(code) + "</code></pre>")
	}
	return template.HTML(b.String())
}
