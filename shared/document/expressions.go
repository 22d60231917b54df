package document

import (
	"fmt"
	"html"
	"strings"

	"github.com/galleydocs/galley/shared/condition"
)

// Inline expressions: GitBook writes a DocumentInlineExpression as
// <code class="expression">EXPR</code>, the expression HTML-escaped as it
// escapes the text of its HTML (& as &#x26;, < as &#x3C;). Package
// condition evaluates them.

const (
	exprOpen  = `<code class="expression">`
	exprClose = `</code>`
)

// expressionAt reads the expression span starting at s[i], if one does:
// the expression's text and the index after the span.
func expressionAt(s string, i int) (expr string, end int, ok bool) {
	if !strings.HasPrefix(s[i:], exprOpen) {
		return "", 0, false
	}
	from := i + len(exprOpen)
	j := strings.Index(s[from:], exprClose)
	if j < 0 {
		return "", 0, false
	}
	return html.UnescapeString(s[from : from+j]), from + j + len(exprClose), true
}

// expressionNode is the document node of an inline expression.
func expressionNode(expr string) Node {
	return Node{"object": "inline", "type": "expression", "isVoid": true, "data": Node{"expression": expr}}
}

// exprEscaper escapes an expression as GitBook does in its HTML.
var exprEscaper = strings.NewReplacer("&", "&#x26;", "<", "&#x3C;")

// expressionMarkdown is the markdown of an inline expression.
func expressionMarkdown(expr string) string {
	return exprOpen + exprEscaper.Replace(expr) + exprClose
}

// splitExpressions cuts s into the text around expression spans (even
// indexes) and the spans themselves (odd indexes), so that a conversion
// of the text leaves the spans alone.
func splitExpressions(s string) []string {
	if !strings.Contains(s, exprOpen) {
		return []string{s}
	}
	var out []string
	prev := 0
	for i := 0; i < len(s); {
		k := strings.Index(s[i:], exprOpen)
		if k < 0 {
			break
		}
		i += k
		if _, end, ok := expressionAt(s, i); ok {
			out = append(out, s[prev:i], s[i:end])
			prev, i = end, end
			continue
		}
		i += len(exprOpen)
	}
	return append(out, s[prev:])
}

// expressionSource writes an expression node's expression, refusing one
// the evaluator cannot read (package condition's grammar and limits).
func expressionSource(raw any, at string) (string, error) {
	expr, ok := raw.(string)
	if !ok {
		return "", fmt.Errorf("%s: expected a string", at)
	}
	if _, err := condition.Parse(expr); err != nil {
		return "", fmt.Errorf("%s: %v", at, err)
	}
	return expressionMarkdown(expr), nil
}
