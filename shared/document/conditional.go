package document

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/galleydocs/galley/shared/condition"
)

// Conditional blocks: GitBook writes a conditional content block as
//
//	{% if EXPR %}
//	…blocks…
//	{% endif %}
//
// (blocks may nest). The document holds GitBook's node for it
// (DocumentBlockIf): {object: "block", type: "if", data: {expression:
// EXPR}, nodes: [the inner blocks]} (docs/content.md). GitBook allows it
// at the top level only; Galley also reads it inside containers.
// Readers see the inner blocks only when the condition holds (Resolve).

var (
	reIf    = regexp.MustCompile(`^\s*\{%\s*if\s+(\S.*?)\s*%\}\s*$`)
	reEndIf = regexp.MustCompile(`^\s*\{%\s*endif\s*%\}\s*$`)
)

// ConditionalType is the type of GitBook's conditional block node.
const ConditionalType = "if"

// ifCondition is the condition of an {% if %} line, if line is one.
func ifCondition(line string) (string, bool) {
	m := reIf.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// endOfIf is the index of the {% endif %} closing the {% if %} at
// lines[i] (ifs nest; fenced code holds none), or len(lines) when none
// does: an unclosed block runs to the end of its container, so that what
// it hides is never shown by mistake.
func endOfIf(lines []string, i int) int {
	depth := 0
	for j, line := range proseLines(lines, i) {
		switch {
		case reIf.MatchString(line):
			depth++
		case reEndIf.MatchString(line):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(lines)
}

// startsContentBlock tells whether line begins a conditional block or is
// an include (so that a paragraph ends before it).
func startsContentBlock(line string) bool {
	return reIf.MatchString(line) || reInclude.MatchString(line)
}

// parseContentBlock reads the conditional block or the include at
// lines[i], if one is there: its nodes and the index after it.
func parseContentBlock(lines []string, i int, r Resolver) ([]Node, int, bool) {
	if cond, ok := ifCondition(lines[i]); ok {
		end := endOfIf(lines, i)
		inner := parseBlocks(lines[i+1:end], r)
		return []Node{block(ConditionalType, Node{"expression": cond}, inner)}, min(end+1, len(lines)), true
	}
	if n, ok := includeNode(lines[i], r); ok {
		return []Node{n}, i + 1, true
	}
	return nil, 0, false
}

// contentBlock writes a conditional block or a reusable-content block;
// ok is false for other types.
func (w *mdWriter) contentBlock(n map[string]any, typ, at string) (string, bool, error) {
	switch typ {
	case ConditionalType:
		cond, _ := dataOf(n)["expression"].(string)
		cond = strings.TrimSpace(cond)
		switch {
		case cond == "":
			return "", true, fmt.Errorf("%s.data.expression: required", at)
		case strings.Contains(cond, "%}") || strings.ContainsAny(cond, "\r\n"):
			return "", true, fmt.Errorf("%s.data.expression: a condition holds no %q and no line break", at, "%}")
		}
		if _, err := condition.Parse(cond); err != nil {
			return "", true, fmt.Errorf("%s.data.expression: %v", at, err)
		}
		inner, err := childBlocks(nodeList(n), at+".nodes")
		if err != nil {
			return "", true, err
		}
		if inner == "" {
			return "{% if " + cond + " %}\n{% endif %}", true, nil
		}
		return "{% if " + cond + " %}\n" + inner + "\n{% endif %}", true, nil
	case "reusable-content":
		s, err := includeMarkdown(dataOf(n)["ref"], at+".data.ref")
		return s, true, err
	}
	return "", false, nil
}
