package condition

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

func parseErrorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// Tokens.
const (
	tokEOF = iota
	tokOp
	tokName
	tokString
	tokNumber
)

type token struct {
	kind int
	text string // the operator, the dotted name, the string's value or the number
	pos  int
}

type parser struct {
	src   string
	pos   int
	tok   token
	err   error
	depth int
}

// operators, longest first so that "===" is not read as "==" "=".
var operators = []string{"===", "!==", "==", "!=", "<=", ">=", "&&", "||", "!", "(", ")", "<", ">", "+", "?", ":"}

// next reads the next token into p.tok (tokEOF on an error, kept in p.err).
func (p *parser) next() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(p.src) {
		p.tok = token{kind: tokEOF, pos: start}
		return
	}
	c := p.src[p.pos]
	switch {
	case c == '"' || c == '\'':
		p.str(c)
	case c >= '0' && c <= '9' || c == '-' && p.pos+1 < len(p.src) && p.src[p.pos+1] >= '0' && p.src[p.pos+1] <= '9':
		p.number()
	case isNameByte(c, true):
		for p.pos < len(p.src) && (isNameByte(p.src[p.pos], false) || p.src[p.pos] == '.') {
			p.pos++
		}
		p.tok = token{kind: tokName, text: p.src[start:p.pos], pos: start}
	default:
		for _, op := range operators {
			if strings.HasPrefix(p.src[p.pos:], op) {
				p.pos += len(op)
				p.tok = token{kind: tokOp, text: op, pos: start}
				return
			}
		}
		r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
		p.fail(start, fmt.Sprintf("unexpected %q", r))
	}
}

// str reads a string quoted by q, with JavaScript's escapes.
func (p *parser) str(q byte) {
	start := p.pos
	var b strings.Builder
	for p.pos++; p.pos < len(p.src) && p.src[p.pos] != q; p.pos++ {
		c := p.src[p.pos]
		if c == '\n' || c == '\r' {
			break
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		p.pos++
		if p.pos >= len(p.src) {
			break
		}
		switch e := p.src[p.pos]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case 'x', 'u':
			n := 2
			if e == 'u' {
				n = 4
			}
			if p.pos+n >= len(p.src) {
				p.fail(p.pos-1, "a malformed escape")
				return
			}
			v, err := strconv.ParseUint(p.src[p.pos+1:p.pos+1+n], 16, 32)
			if err != nil {
				p.fail(p.pos-1, "a malformed escape")
				return
			}
			b.WriteRune(rune(v))
			p.pos += n
		case '\n':
			// A line continuation writes nothing.
		default:
			b.WriteByte(e)
		}
	}
	if p.pos >= len(p.src) || p.src[p.pos] != q {
		p.fail(start, "an unterminated string")
		return
	}
	p.pos++
	p.tok = token{kind: tokString, text: b.String(), pos: start}
}

// number reads a decimal number: [-] digits [. digits] [e [+-] digits].
func (p *parser) number() {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.src[p.pos] == '-' {
		p.pos++
	}
	digits()
	ok := true
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		ok = digits() > 0
	}
	if ok && p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		ok = digits() > 0
	}
	if ok && p.pos < len(p.src) && (isNameByte(p.src[p.pos], false) || p.src[p.pos] == '.') {
		ok = false // 1x, 1.2.3
	}
	if !ok {
		p.fail(start, "a malformed number")
		return
	}
	p.tok = token{kind: tokNumber, text: p.src[start:p.pos], pos: start}
}

func (p *parser) fail(pos int, what string) {
	if p.err == nil {
		p.err = parseErrorf("%s at %d in the expression", what, pos)
	}
	p.pos = len(p.src)
	p.tok = token{kind: tokEOF, pos: pos}
}

func isNameByte(c byte, first bool) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9')
}

func (p *parser) isOp(op string) bool { return p.tok.kind == tokOp && p.tok.text == op }

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxDepth {
		return parseErrorf("the expression nests more than %d levels", MaxDepth)
	}
	return nil
}

func (p *parser) unexpected(want string) error {
	if p.err != nil {
		return p.err
	}
	if p.tok.kind == tokEOF {
		return parseErrorf("%s expected at the end of the expression", want)
	}
	return parseErrorf("%s expected at %d in the expression, not %q", want, p.tok.pos, p.tok.text)
}

// expr = or [ "?" expr ":" expr ]
func (p *parser) expr() (node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	c, err := p.or()
	if err != nil || !p.isOp("?") {
		return c, err
	}
	p.next()
	a, err := p.expr()
	if err != nil {
		return nil, err
	}
	if !p.isOp(":") {
		return nil, p.unexpected(`":"`)
	}
	p.next()
	b, err := p.expr()
	if err != nil {
		return nil, err
	}
	return choiceNode{c: c, a: a, b: b}, nil
}

func (p *parser) or() (node, error) {
	l, err := p.and()
	for err == nil && p.isOp("||") {
		p.next()
		var r node
		if r, err = p.and(); err == nil {
			l = logicNode{and: false, l: l, r: r}
		}
	}
	return l, err
}

func (p *parser) and() (node, error) {
	l, err := p.equality()
	for err == nil && p.isOp("&&") {
		p.next()
		var r node
		if r, err = p.equality(); err == nil {
			l = logicNode{and: true, l: l, r: r}
		}
	}
	return l, err
}

// binary reads one operand, then at most one operator of ops and its
// operand: comparisons do not chain.
func (p *parser) binary(ops []string, operand func() (node, error)) (node, error) {
	l, err := operand()
	if err != nil || p.tok.kind != tokOp {
		return l, err
	}
	for _, op := range ops {
		if p.tok.text != op {
			continue
		}
		p.next()
		r, err := operand()
		if err != nil {
			return nil, err
		}
		for _, again := range ops {
			if p.isOp(again) {
				return nil, parseErrorf("%q at %d follows %q: put the first comparison in parentheses", again, p.tok.pos, op)
			}
		}
		return compareNode{op: op, l: l, r: r}, nil
	}
	return l, nil
}

var (
	equalityOps   = []string{"===", "!==", "==", "!="}
	relationalOps = []string{"<=", ">=", "<", ">"}
)

func (p *parser) equality() (node, error) { return p.binary(equalityOps, p.relational) }

func (p *parser) relational() (node, error) { return p.binary(relationalOps, p.additive) }

func (p *parser) additive() (node, error) {
	l, err := p.unary()
	for err == nil && p.isOp("+") {
		p.next()
		var r node
		if r, err = p.unary(); err == nil {
			l = addNode{l: l, r: r}
		}
	}
	return l, err
}

func (p *parser) unary() (node, error) {
	if !p.isOp("!") {
		return p.primary()
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.next()
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	return notNode{x}, nil
}

func (p *parser) primary() (node, error) {
	if p.isOp("(") {
		p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if !p.isOp(")") {
			return nil, p.unexpected("a closing parenthesis")
		}
		p.next()
		return x, nil
	}
	t := p.tok
	var n node
	switch t.kind {
	case tokString:
		n = literalNode{t.text}
	case tokNumber:
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, parseErrorf("a malformed number %q at %d in the expression", t.text, t.pos)
		}
		n = literalNode{f}
	case tokName:
		switch t.text {
		case "true", "false":
			n = literalNode{t.text == "true"}
		case "null":
			n = literalNode{nil}
		default:
			path, err := readPath(t)
			if err != nil {
				return nil, err
			}
			n = path
		}
	default:
		return nil, p.unexpected("a value")
	}
	p.next()
	return n, nil
}

// readPath reads a dotted name: a claim or a variable.
func readPath(t token) (node, error) {
	parts := strings.Split(t.text, ".")
	for _, x := range parts {
		if x == "" || !isNameByte(x[0], true) {
			return nil, parseErrorf("a malformed name %q at %d in the expression", t.text, t.pos)
		}
	}
	switch {
	case len(parts) >= 3 && parts[0] == "visitor" && parts[1] == "claims":
		return pathNode{root: rootClaims, parts: parts[2:]}, nil
	case len(parts) == 3 && (parts[0] == "space" || parts[0] == "page") && parts[1] == "vars":
		if !ValidVariableName(parts[2]) {
			return nil, parseErrorf("%q at %d in the expression is not a variable name (a letter, then letters, digits or underscores)", parts[2], t.pos)
		}
		root := rootSpace
		if parts[0] == "page" {
			root = rootPage
		}
		return pathNode{root: root, parts: parts[2:]}, nil
	}
	return nil, parseErrorf("unknown name %q at %d in the expression: only visitor.claims.<name>, space.vars.<name> and page.vars.<name> may be read", t.text, t.pos)
}
