// Package condition reads and evaluates GitBook's expressions: the
// adaptive-content conditions written on sections, site spaces, pages,
// header links and conditional blocks ({% if %}), and the inline
// expressions of a page (<code class="expression">). One safe evaluator
// for both: a bounded grammar read by a small parser, evaluated over a
// tree; nothing is ever executed. The sites family evaluates conditions on
// sections and site spaces; the content family validates them on pages,
// which the reader and the site search evaluate; the document package
// evaluates a page's expressions and conditional blocks. Shared, so that
// every function may link it.
//
// The grammar (docs/content.md, "Expressions and conditions"):
//
//	expr       = or [ "?" expr ":" expr ]
//	or         = and { "||" and }
//	and        = equality { "&&" equality }
//	equality   = relational [ ("===" | "!==" | "==" | "!=") relational ]
//	relational = additive [ ("<" | ">" | "<=" | ">=") additive ]
//	additive   = unary { "+" unary }
//	unary      = "!" unary | primary
//	primary    = "(" expr ")" | path | "true" | "false" | "null" | string | number
//	path       = "visitor.claims" "." name { "." name }
//	           | ("space.vars" | "page.vars") "." variable
//
// Strings are in single or double quotes (JavaScript's escapes), numbers
// are decimal (an optional leading "-", fraction and exponent). Values and
// operators behave as JavaScript's, except that a comparison or a
// relation does not chain (a === b === c is refused) and that "+" with a
// missing value is itself missing (JavaScript would write "undefined").
// A source is at most MaxLength bytes and nests at most MaxDepth levels.
package condition

import (
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
)

// MaxLength is the longest source accepted, in bytes: GitBook's
// Expression schema allows 1,024 characters.
const MaxLength = 1024

// MaxDepth bounds the nesting of an expression: parentheses, "!" and the
// branches of "?:" each add a level.
const MaxDepth = 32

// Env is what an expression reads: the visitor's claims (the unsigned ones
// under "unsigned"; nil for an anonymous visitor) as visitor.claims, the
// space's variables as space.vars and the page's as page.vars. Values are
// JSON's or YAML's: strings, numbers (any Go integer or float type),
// booleans, nil, maps of strings to values and slices of values.
type Env struct {
	Claims    map[string]any
	SpaceVars map[string]any
	PageVars  map[string]any
}

// Expr is a parsed expression (or condition).
type Expr struct {
	src  string
	root node
}

// Condition is the former name of a parsed condition.
type Condition = Expr

// Parse reads an expression; an error says what and where (a byte offset).
func Parse(src string) (*Expr, error) {
	if len(src) > MaxLength {
		return nil, parseErrorf("the expression is longer than %d bytes", MaxLength)
	}
	p := &parser{src: src}
	p.next()
	n, err := p.expr()
	if err == nil && p.err != nil {
		err = p.err
	}
	if err == nil && p.tok.kind != tokEOF {
		err = parseErrorf("unexpected %q at %d in the expression", p.tok.text, p.tok.pos)
	}
	if err != nil {
		return nil, err
	}
	return &Expr{src: src, root: n}, nil
}

// Source is the expression as it was written.
func (e *Expr) Source() string { return e.src }

// Value evaluates the expression for env. ok is false when it has no
// value: it reads a variable or claim that is missing (or adds to one).
// A value is nil (null), a bool, a float64, a string, or a map or slice
// read from a claim.
func (e *Expr) Value(env Env) (v any, ok bool) {
	if e == nil || e.root == nil {
		return nil, false
	}
	v = e.root.value(&env)
	if _, missing := v.(undefined); missing {
		return nil, false
	}
	return v, true
}

// Holds tells whether the expression is true for env, by JavaScript's
// truthiness (false, 0, NaN, "", null and a missing value are false).
func (e *Expr) Holds(env Env) bool {
	if e == nil || e.root == nil {
		return false
	}
	return truthy(e.root.value(&env))
}

// Eval tells whether the condition holds for claims (the visitor's claims,
// the unsigned ones under "unsigned"; nil for an anonymous visitor), with
// no variables.
func (e *Expr) Eval(claims map[string]any) bool { return e.Holds(Env{Claims: claims}) }

// Holds parses and evaluates a condition for claims: "" always holds, and
// a condition of unknown syntax never does.
func Holds(src string, claims map[string]any) bool {
	return HoldsIn(src, Env{Claims: claims})
}

// HoldsIn parses and evaluates a condition for env: "" always holds, and
// a condition of unknown syntax never does.
func HoldsIn(src string, env Env) bool {
	if strings.TrimSpace(src) == "" {
		return true
	}
	e, err := Parse(src)
	return err == nil && e.Holds(env)
}

// Validate refuses an expression of unknown syntax, naming field.
func Validate(field, src string) error {
	if _, err := Parse(src); err != nil {
		return apperr.Field(field, "%s", err.Error())
	}
	return nil
}

// ReadsClaims tells whether the expression reads the visitor's claims
// (visitor.claims…): its value may differ from one visitor to another,
// while one that reads only variables and literals is the same for every
// visitor of a revision (GitBook's "deterministic" inputs).
func (e *Expr) ReadsClaims() bool {
	return e != nil && e.root != nil && readsClaims(e.root)
}

func readsClaims(n node) bool {
	switch n := n.(type) {
	case pathNode:
		return n.root == rootClaims
	case notNode:
		return readsClaims(n.x)
	case logicNode:
		return readsClaims(n.l) || readsClaims(n.r)
	case compareNode:
		return readsClaims(n.l) || readsClaims(n.r)
	case addNode:
		return readsClaims(n.l) || readsClaims(n.r)
	case choiceNode:
		return readsClaims(n.c) || readsClaims(n.a) || readsClaims(n.b)
	}
	return false
}
