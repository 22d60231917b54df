package reader

import (
	"html/template"
	"regexp"
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
	// The dark rules come after the light ones (the system theme has both),
	// and a dark style leaves out what equals its text or background: a
	// light rule it does not override would stay (dark grey text on the
	// dark background). The light style's token colours are unset first.
	h.dark = unsetTokens(h.light) + minifyCSS(b.String())
	return h, nil
}

// reChromaClass finds the token classes a chroma style sheet styles.
var reChromaClass = regexp.MustCompile(`\.chroma \.([A-Za-z0-9_-]+) *\{`)

// unsetTokens returns a rule unsetting the colours and font styles that
// the chroma style sheet css sets on its token classes.
func unsetTokens(css string) string {
	var sels []string
	seen := map[string]bool{}
	for _, m := range reChromaClass.FindAllStringSubmatch(css, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			sels = append(sels, ".chroma ."+m[1])
		}
	}
	if len(sels) == 0 {
		return ""
	}
	return strings.Join(sels, ",") + "{color:unset;background-color:unset;font-weight:unset;font-style:unset;text-decoration:unset}"
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
