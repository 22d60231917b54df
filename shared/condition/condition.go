// Package condition reads and evaluates adaptive-content conditions: the
// expressions GitBook writes on sections, site spaces, pages and header
// links, shown or not by a visitor's claims. The sites family evaluates
// them on sections and site spaces; the content family validates them on
// pages, which the reader and the site search evaluate. One parser for all
// (shared, so that every function may link it).
package condition

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
)

// Conditions (sites' doc.go, "Adaptive conditions"): read by a small parser and
// evaluated against a visitor's claims. Nothing is ever executed: the
// grammar is
//
//	expr    = and { "||" and }
//	and     = unary { "&&" unary }
//	unary   = "!" unary | primary
//	primary = "(" expr ")" | operand [ ("===" | "!==" | "==" | "!=") operand ]
//	operand = path | "true" | "false" | "null" | string | number
//	path    = "visitor.claims" { "." name }
//
// with strings in single or double quotes (backslash escapes the next
// character) and JSON-like numbers. A bare operand is tested for
// truthiness as JavaScript does (false, 0, "", null and a missing claim
// are false). A missing claim compares as undefined: === null is false,
// == null is true. Anything else is unknown syntax: the condition is then
// false for every visitor, and saving it through the API is refused.

// maxConditionDepth bounds the nesting of a condition.
const maxConditionDepth = 32

// Condition is a parsed condition.
type Condition struct{ root condNode }

// condNode is a node of a condition's tree.
type condNode interface {
	// value is the node's value for claims (undefined{} when a claim
	// is missing).
	value(claims map[string]any) any
}

// undefined is the value of a missing claim.
type undefined struct{}

type (
	literalNode struct{ v any }
	pathNode    struct{ parts []string }
	notNode     struct{ x condNode }
	logicNode   struct {
		and  bool
		l, r condNode
	}
	compareNode struct {
		op   string
		l, r condNode
	}
)

func (n literalNode) value(map[string]any) any { return n.v }

func (n pathNode) value(claims map[string]any) any {
	var cur any = claims
	for _, p := range n.parts {
		m, ok := cur.(map[string]any)
		if !ok {
			return undefined{}
		}
		if cur, ok = m[p]; !ok {
			return undefined{}
		}
	}
	return cur
}

func (n notNode) value(claims map[string]any) any { return !truthy(n.x.value(claims)) }

func (n logicNode) value(claims map[string]any) any {
	l := truthy(n.l.value(claims))
	if n.and {
		return l && truthy(n.r.value(claims))
	}
	return l || truthy(n.r.value(claims))
}

func (n compareNode) value(claims map[string]any) any {
	l, r := n.l.value(claims), n.r.value(claims)
	switch n.op {
	case "===":
		return strictEqual(l, r)
	case "!==":
		return !strictEqual(l, r)
	case "==":
		return looseEqual(l, r)
	default: // "!="
		return !looseEqual(l, r)
	}
}

// Eval tells whether the condition holds for claims (the visitor's claims,
// the unsigned ones under "unsigned"; nil for an anonymous visitor).
func (c Condition) Eval(claims map[string]any) bool {
	if c.root == nil {
		return false
	}
	return truthy(c.root.value(claims))
}

// Holds parses and evaluates a condition: "" always holds, and a
// condition of unknown syntax never does.
func Holds(src string, claims map[string]any) bool {
	if strings.TrimSpace(src) == "" {
		return true
	}
	c, err := Parse(src)
	return err == nil && c.Eval(claims)
}

// Validate refuses a condition of unknown syntax, naming field.
func Validate(field, src string) error {
	if _, err := Parse(src); err != nil {
		return apperr.Field(field, "%s", err.Error())
	}
	return nil
}

// Parse parses a condition.
func Parse(src string) (Condition, error) {
	p := &condParser{src: src}
	p.next()
	n, err := p.expr(0)
	if err != nil {
		return Condition{}, err
	}
	if p.err != nil {
		return Condition{}, p.err
	}
	if p.tok.kind != tokEOF {
		return Condition{}, fmt.Errorf("unexpected %q at %d in the condition", p.tok.text, p.tok.pos)
	}
	return Condition{root: n}, nil
}

// Tokens.
const (
	tokEOF = iota
	tokOp
	tokName
	tokString
	tokNumber
)

type condToken struct {
	kind int
	text string // the operator, the dotted name, the string's value or the number
	pos  int
}

type condParser struct {
	src string
	pos int
	tok condToken
	err error
}

// next reads the next token into p.tok (tokEOF on an error, kept in p.err).
func (p *condParser) next() {
	for p.pos < len(p.src) && strings.ContainsRune(" \t\r\n", rune(p.src[p.pos])) {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(p.src) {
		p.tok = condToken{kind: tokEOF, pos: start}
		return
	}
	for _, op := range []string{"===", "!==", "==", "!=", "&&", "||", "!", "(", ")"} {
		if strings.HasPrefix(p.src[p.pos:], op) {
			p.pos += len(op)
			p.tok = condToken{kind: tokOp, text: op, pos: start}
			return
		}
	}
	c := p.src[p.pos]
	switch {
	case c == '"' || c == '\'':
		var b strings.Builder
		for p.pos++; p.pos < len(p.src) && p.src[p.pos] != c; p.pos++ {
			if p.src[p.pos] == '\\' && p.pos+1 < len(p.src) {
				p.pos++
			}
			b.WriteByte(p.src[p.pos])
		}
		if p.pos >= len(p.src) {
			p.fail(start, "an unterminated string")
			return
		}
		p.pos++
		p.tok = condToken{kind: tokString, text: b.String(), pos: start}
	case c == '-' || (c >= '0' && c <= '9'):
		p.pos++
		for p.pos < len(p.src) && strings.IndexByte("0123456789.eE+-", p.src[p.pos]) >= 0 {
			p.pos++
		}
		p.tok = condToken{kind: tokNumber, text: p.src[start:p.pos], pos: start}
	case isNameByte(c, true):
		for p.pos < len(p.src) && (isNameByte(p.src[p.pos], false) || p.src[p.pos] == '.') {
			p.pos++
		}
		p.tok = condToken{kind: tokName, text: p.src[start:p.pos], pos: start}
	default:
		p.fail(start, fmt.Sprintf("unexpected %q", c))
	}
}

func (p *condParser) fail(pos int, what string) {
	if p.err == nil {
		p.err = fmt.Errorf("%s at %d in the condition", what, pos)
	}
	p.tok = condToken{kind: tokEOF, pos: pos}
}

func isNameByte(c byte, first bool) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9')
}

func (p *condParser) isOp(op string) bool { return p.tok.kind == tokOp && p.tok.text == op }

func (p *condParser) expr(depth int) (condNode, error) {
	if depth > maxConditionDepth {
		return nil, fmt.Errorf("the condition nests more than %d levels", maxConditionDepth)
	}
	l, err := p.and(depth)
	for err == nil && p.isOp("||") {
		p.next()
		var r condNode
		if r, err = p.and(depth); err == nil {
			l = logicNode{and: false, l: l, r: r}
		}
	}
	return l, err
}

func (p *condParser) and(depth int) (condNode, error) {
	l, err := p.unary(depth)
	for err == nil && p.isOp("&&") {
		p.next()
		var r condNode
		if r, err = p.unary(depth); err == nil {
			l = logicNode{and: true, l: l, r: r}
		}
	}
	return l, err
}

func (p *condParser) unary(depth int) (condNode, error) {
	if depth > maxConditionDepth {
		return nil, fmt.Errorf("the condition nests more than %d levels", maxConditionDepth)
	}
	if p.isOp("!") {
		p.next()
		x, err := p.unary(depth + 1)
		return notNode{x}, err
	}
	return p.primary(depth)
}

func (p *condParser) primary(depth int) (condNode, error) {
	if p.isOp("(") {
		p.next()
		x, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		if !p.isOp(")") {
			return nil, p.unexpected("a closing parenthesis")
		}
		p.next()
		return x, nil
	}
	l, err := p.operand()
	if err != nil {
		return nil, err
	}
	if p.tok.kind == tokOp {
		switch op := p.tok.text; op {
		case "===", "!==", "==", "!=":
			p.next()
			r, err := p.operand()
			if err != nil {
				return nil, err
			}
			return compareNode{op: op, l: l, r: r}, nil
		}
	}
	return l, nil
}

func (p *condParser) unexpected(want string) error {
	if p.err != nil {
		return p.err
	}
	if p.tok.kind == tokEOF {
		return fmt.Errorf("%s expected at the end of the condition", want)
	}
	return fmt.Errorf("%s expected at %d in the condition, not %q", want, p.tok.pos, p.tok.text)
}

func (p *condParser) operand() (condNode, error) {
	t := p.tok
	var n condNode
	switch t.kind {
	case tokString:
		n = literalNode{t.text}
	case tokNumber:
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("a malformed number %q at %d in the condition", t.text, t.pos)
		}
		n = literalNode{f}
	case tokName:
		switch t.text {
		case "true", "false":
			n = literalNode{t.text == "true"}
		case "null":
			n = literalNode{nil}
		default:
			rest, ok := strings.CutPrefix(t.text, "visitor.claims.")
			parts := strings.Split(rest, ".")
			for _, x := range parts {
				ok = ok && x != ""
			}
			if !ok {
				return nil, fmt.Errorf("unknown name %q at %d in the condition: only visitor.claims.<name> may be read", t.text, t.pos)
			}
			n = pathNode{parts}
		}
	default:
		return nil, p.unexpected("a claim or a value")
	}
	p.next()
	return n, nil
}

// truthy is JavaScript's truthiness of a claim's value.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil, undefined:
		return false
	case bool:
		return x
	case float64:
		return x != 0 && !math.IsNaN(x)
	case string:
		return x != ""
	}
	return true // objects and arrays
}

// strictEqual is ===: same type and value (objects and arrays are never
// equal to a literal).
func strictEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case undefined:
		_, ok := b.(undefined)
		return ok
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	}
	return false
}

// looseEqual is ==: null and undefined are equal to each other only;
// booleans and strings compare with numbers as numbers.
func looseEqual(a, b any) bool {
	isNullish := func(v any) bool { _, u := v.(undefined); return v == nil || u }
	if isNullish(a) || isNullish(b) {
		return isNullish(a) && isNullish(b)
	}
	if strictEqual(a, b) {
		return true
	}
	na, oka := toNumber(a)
	nb, okb := toNumber(b)
	_, sa := a.(string)
	_, sb := b.(string)
	if sa && sb {
		return false
	}
	return oka && okb && na == nb
}

// toNumber converts a boolean, number or string to a number as JavaScript
// does (false when it cannot).
func toNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case float64:
		return x, true
	case string:
		s := strings.TrimSpace(x)
		if s == "" {
			return 0, true
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	return 0, false
}
