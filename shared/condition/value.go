package condition

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

// node is a node of an expression's tree.
type node interface {
	// value is the node's value for env (undefined{} when it reads a
	// missing claim or variable).
	value(env *Env) any
}

// undefined is the value of a missing claim or variable.
type undefined struct{}

// The roots a path reads.
const (
	rootClaims = iota
	rootSpace
	rootPage
)

type (
	literalNode struct{ v any }
	pathNode    struct {
		root  int
		parts []string
	}
	notNode   struct{ x node }
	logicNode struct {
		and  bool
		l, r node
	}
	compareNode struct {
		op   string
		l, r node
	}
	addNode    struct{ l, r node }
	choiceNode struct{ c, a, b node }
)

func (n literalNode) value(*Env) any { return n.v }

func (n pathNode) value(env *Env) any {
	var cur any
	switch n.root {
	case rootClaims:
		cur = env.Claims
	case rootSpace:
		cur = env.SpaceVars
	default:
		cur = env.PageVars
	}
	for _, p := range n.parts {
		m, ok := cur.(map[string]any)
		if !ok {
			return undefined{}
		}
		v, ok := m[p]
		if !ok {
			return undefined{}
		}
		cur = normalize(v)
	}
	return cur
}

func (n notNode) value(env *Env) any { return !truthy(n.x.value(env)) }

// value is JavaScript's: a || b is a when a is truthy, else b; a && b is
// a when a is falsy, else b.
func (n logicNode) value(env *Env) any {
	l := n.l.value(env)
	if truthy(l) != n.and {
		return l
	}
	return n.r.value(env)
}

func (n choiceNode) value(env *Env) any {
	if truthy(n.c.value(env)) {
		return n.a.value(env)
	}
	return n.b.value(env)
}

func (n compareNode) value(env *Env) any {
	l, r := n.l.value(env), n.r.value(env)
	switch n.op {
	case "===":
		return strictEqual(l, r)
	case "!==":
		return !strictEqual(l, r)
	case "==":
		return looseEqual(l, r)
	case "!=":
		return !looseEqual(l, r)
	}
	return relate(n.op, l, r)
}

// value is JavaScript's +: strings (and objects, as their text) are
// concatenated, anything else added as numbers. A missing operand makes
// the sum missing.
func (n addNode) value(env *Env) any {
	l, r := n.l.value(env), n.r.value(env)
	if isUndefined(l) || isUndefined(r) {
		return undefined{}
	}
	l, r = primitive(l), primitive(r)
	_, ls := l.(string)
	_, rs := r.(string)
	if ls || rs {
		return Text(l) + Text(r)
	}
	a, _ := toNumber(l)
	b, _ := toNumber(r)
	return a + b
}

func isUndefined(v any) bool { _, u := v.(undefined); return u }

// normalize turns the numbers of JSON and YAML decoders into float64.
func normalize(v any) any {
	switch x := v.(type) {
	case int:
		return float64(x)
	case int8:
		return float64(x)
	case int16:
		return float64(x)
	case int32:
		return float64(x)
	case int64:
		return float64(x)
	case uint:
		return float64(x)
	case uint8:
		return float64(x)
	case uint16:
		return float64(x)
	case uint32:
		return float64(x)
	case uint64:
		return float64(x)
	case float32:
		return float64(x)
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	case map[string]string:
		m := make(map[string]any, len(x))
		for k, s := range x {
			m[k] = s
		}
		return m
	case []string:
		l := make([]any, len(x))
		for i, s := range x {
			l[i] = s
		}
		return l
	}
	return v
}

// primitive is JavaScript's ToPrimitive of a value: objects and arrays
// become their text.
func primitive(v any) any {
	switch v.(type) {
	case nil, undefined, bool, float64, string:
		return v
	}
	return Text(v)
}

// truthy is JavaScript's truthiness.
func truthy(v any) bool {
	switch x := normalize(v).(type) {
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
		return isUndefined(b)
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
	isNullish := func(v any) bool { return v == nil || isUndefined(v) }
	if isNullish(a) || isNullish(b) {
		return isNullish(a) && isNullish(b)
	}
	if strictEqual(a, b) {
		return true
	}
	_, sa := a.(string)
	_, sb := b.(string)
	if sa && sb {
		return false
	}
	na, oka := toNumber(a)
	nb, okb := toNumber(b)
	return oka && okb && na == nb
}

// relate is JavaScript's <, >, <= and >=: two strings compare by UTF-16
// code units, anything else as numbers (false when one is NaN).
func relate(op string, a, b any) bool {
	a, b = primitive(a), primitive(b)
	sa, oka := a.(string)
	sb, okb := b.(string)
	var c int
	if oka && okb {
		c = compareUTF16(sa, sb)
	} else {
		x, okx := toNumber(a)
		y, oky := toNumber(b)
		if !okx || !oky || math.IsNaN(x) || math.IsNaN(y) {
			return false
		}
		switch {
		case x < y:
			c = -1
		case x > y:
			c = 1
		}
	}
	switch op {
	case "<":
		return c < 0
	case ">":
		return c > 0
	case "<=":
		return c <= 0
	}
	return c >= 0
}

func compareUTF16(a, b string) int {
	if a == b {
		return 0
	}
	x, y := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(x) < len(y):
		return -1
	case len(x) > len(y):
		return 1
	}
	return 0
}

// toNumber is JavaScript's ToNumber of a primitive; ok is false when the
// result is NaN.
func toNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case nil:
		return 0, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case float64:
		return x, !math.IsNaN(x)
	case string:
		return stringNumber(x)
	}
	return math.NaN(), false
}

// stringNumber is JavaScript's Number(s): blank is 0, then a decimal
// number, Infinity, or a 0x, 0o or 0b integer.
func stringNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	sign, rest := 1.0, s
	if rest[0] == '+' || rest[0] == '-' {
		if rest[0] == '-' {
			sign = -1
		}
		rest = rest[1:]
	}
	if rest == "Infinity" {
		return sign * math.Inf(1), true
	}
	if len(rest) > 2 && rest[0] == '0' && s[0] != '+' && s[0] != '-' {
		base := 0
		switch rest[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			u, err := strconv.ParseUint(rest[2:], base, 64)
			return float64(u), err == nil
		}
	}
	// Only digits, one point and an exponent: ParseFloat alone would
	// accept "inf", "nan", hex floats and underscores.
	seenDigit := false
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
		case c == '.' || c == 'e' || c == 'E' || (c == '+' || c == '-') && i > 0 && (rest[i-1] == 'e' || rest[i-1] == 'E'):
		default:
			return math.NaN(), false
		}
	}
	if !seenDigit {
		return math.NaN(), false
	}
	f, err := strconv.ParseFloat(rest, 64)
	if err != nil && !math.IsInf(f, 0) {
		return math.NaN(), false
	}
	return sign * f, true
}

// Text is a value's text as JavaScript's String(value) writes it: numbers
// in their shortest form without a trailing ".0" (1e21 and 1e-7 with an
// exponent), null as "null", arrays as their elements joined by commas,
// objects as "[object Object]".
func Text(v any) string {
	switch x := normalize(v).(type) {
	case nil:
		return "null"
	case undefined:
		return "undefined"
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return numberText(x)
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			if e != nil && !isUndefined(e) {
				parts[i] = Text(e)
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// numberText is JavaScript's Number.prototype.toString() (ECMA-262
// Number::toString with radix 10).
func numberText(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		return "0" // -0 too
	}
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	// The shortest digits that read back as x, and the exponent n such
	// that x = 0.digits × 10^n.
	e := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	p, _ := strconv.Atoi(exp)
	n, k := p+1, len(digits)
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	d := digits[:1]
	if k > 1 {
		d += "." + digits[1:]
	}
	return sign + d + "e" + es + strconv.Itoa(abs(n-1))
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
