package reader

import (
	"html/template"
	"regexp"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
)

// highlighter colours code with chroma: HTML with classes, and the CSS of
// a light and a dark style (made once, in New).
//
// The two style sheets (chroma's "github" and "github-dark") are kept
// written out in highlight_css.go, which a test keeps in step with chroma:
// chroma's styles package parses every style it has when a process starts
// (about 5 ms of a Lambda function's start), for two sheets that never
// change. With classes, chroma's formatter reads no colour from the style
// it is given.
type highlighter struct {
	plain, numbered *chromahtml.Formatter
	style           *chroma.Style
	light, dark     string // CSS
}

func newHighlighter() (*highlighter, error) {
	opts := []chromahtml.Option{chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(false)}
	style, err := chroma.NewStyle("galley", chroma.StyleEntries{chroma.Background: "bg:#ffffff"})
	if err != nil {
		return nil, err
	}
	h := &highlighter{
		plain:    chromahtml.New(opts...),
		numbered: chromahtml.New(append(opts, chromahtml.WithLineNumbers(true))...),
		style:    style,
		light:    lightTokensCSS,
	}
	// The dark rules come after the light ones (the system theme has both),
	// and a dark style leaves out what equals its text or background: a
	// light rule it does not override would stay (dark grey text on the
	// dark background). The light style's token colours are unset first.
	h.dark = unsetTokens(h.light) + darkTokensCSS
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
		err = f.Format(&b, h.style, it)
	}
	if err != nil {
		return template.HTML("<pre class=\"chroma\"><code>" + template.HTMLEscapeString(code) + "</code></pre>")
	}
	return template.HTML(b.String())
}
