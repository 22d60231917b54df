package content

import (
	"fmt"
	"strings"

	"github.com/galleydocs/galley/shared/document"
)

// Broken expressions: the inline expressions and conditional blocks of a
// page body that show nothing to readers whoever they are, reported with
// the page's links (issue 25: "an expression that does not evaluate shows
// nothing to readers and is reported by the API, like a broken link").
// GitBook's ContentLocation has no kind for an expression, so they are a
// field of Galley's own beside the links (docs/content.md, "Broken
// includes and expressions").

// BrokenExpression is an expression or a condition of a page that shows
// nothing to any reader.
type BrokenExpression struct {
	PageID     string `json:"pageId" doc:"The page whose body holds it"`
	Kind       string `json:"kind" enum:"expression,condition" doc:"expression: an inline expression; condition: a conditional block's condition"`
	Expression string `json:"expression" doc:"The expression as written"`
	Line       int    `json:"line" doc:"Its line in the page's markdown body (from 1, the title and frontmatter not counted)"`
	Reason     string `json:"reason" doc:"Why it shows nothing"`
}

// BrokenExpressions lists the expressions and conditions of page p's body
// that cannot show anything whatever the visitor, in the body's order: one
// that does not parse, one that names a variable the revision (space.vars)
// or the page (page.vars) does not have, and a block no {% endif %}
// closes. What reads visitor.claims is not judged by the claims' values:
// whether a visitor has a claim is theirs.
func BrokenExpressions(ix *Index, p *Page, body string) []BrokenExpression {
	var out []BrokenExpression
	var spaceVars Variables
	for _, ref := range document.References(body, "") {
		if ref.Kind != document.KindExpression && ref.Kind != document.KindCondition {
			continue
		}
		reason := ref.Err
		if reason == "" {
			if spaceVars == nil {
				spaceVars = ix.Variables()
			}
			reason = unsetVariables(ref.Source, spaceVars, p.Variables)
		}
		if reason != "" {
			out = append(out, BrokenExpression{PageID: p.ID, Kind: ref.Kind, Expression: ref.Source, Line: ref.Line, Reason: reason})
		}
	}
	return out
}

// unsetVariables says which variables an expression that parses names and
// the space or the page does not have ("" when none).
func unsetVariables(src string, space, page Variables) string {
	var unset []string
	for _, path := range variablePaths(src) {
		vars := space
		if strings.HasPrefix(path, "page.") {
			vars = page
		}
		if _, ok := vars[path[strings.LastIndexByte(path, '.')+1:]]; !ok {
			unset = append(unset, path)
		}
	}
	switch len(unset) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("%s is not set", unset[0])
	}
	return fmt.Sprintf("%s are not set", strings.Join(unset, ", "))
}

// variablePaths are the variable paths (space.vars.<name>,
// page.vars.<name>) an expression that parses reads, each once, in
// order. In condition's grammar a name is a dotted run of letters,
// digits, "_" and "$" outside string literals, and a variable path has
// exactly three parts, so scanning names outside quotes finds them all.
func variablePaths(src string) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '"' || c == '\'':
			i++
			for i < len(src) && src[i] != c {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case isNameStart(c):
			j := i
			for j < len(src) && (isNameStart(src[j]) || src[j] == '.' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			name := src[i:j]
			if (strings.HasPrefix(name, "space.vars.") || strings.HasPrefix(name, "page.vars.")) && !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
			i = j
		case c >= '0' && c <= '9':
			// A number (its exponent's letter is not a name).
			for i < len(src) && (src[i] >= '0' && src[i] <= '9' || src[i] == '.' || src[i] == 'e' || src[i] == 'E' || src[i] == '+' || src[i] == '-') {
				i++
			}
		default:
			i++
		}
	}
	return out
}

func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}
