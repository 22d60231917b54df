package condition

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func testEnv(t testing.TB) Env {
	var claims map[string]any
	if err := json.Unmarshal([]byte(`{"plan":"pro","seats":3,"isAdmin":true,"tags":["a","b"],"org":{"tier":"gold"},
		"unsigned":{"lang":"fr","bucket":{"IF_BLOCK":true}}}`), &claims); err != nil {
		t.Fatal(err)
	}
	return Env{
		Claims: claims,
		// As a YAML decoder gives them: ints, floats, strings, booleans.
		SpaceVars: map[string]any{"latest_version": "v3.0.4", "food": "apple", "count": 2, "ratio": 0.5, "beta": false, "big": int64(1) << 53},
		PageVars:  map[string]any{"page_food": "pear", "n": uint8(7)},
	}
}

// Expressions evaluate to JavaScript's values and texts.
func TestExpressionValues(t *testing.T) {
	env := testEnv(t)
	for _, c := range []struct{ src, text string }{
		{`space.vars.latest_version`, "v3.0.4"},
		{`page.vars.page_food`, "pear"},
		{`"My favorite food is " + space.vars.food`, "My favorite food is apple"},
		{`space.vars.latest_version === "v3.0.4" ? "Latest" : "Outdated"`, "Latest"},
		{`space.vars.latest_version === "v3.0.3" ? "Latest" : "Outdated"`, "Outdated"},
		{`1 + 1`, "2"},
		{`space.vars.count + 1`, "3"},
		{`space.vars.count + page.vars.n`, "9"},
		{`space.vars.ratio + space.vars.ratio`, "1"},
		{`space.vars.ratio`, "0.5"},
		{`0.1 + 0.2`, "0.30000000000000004"},
		{`"v" + 1 + 1`, "v11"},       // left to right: concatenation first
		{`1 + 1 + "v"`, "2v"},        // addition first
		{`"v" + (1 + 1)`, "v2"},      // parentheses
		{`true + 1`, "2"},            // booleans add as numbers
		{`null + 1`, "1"},            // null adds as 0
		{`"x" + null`, "xnull"},      // String(null)
		{`"x" + true`, "xtrue"},      //
		{`space.vars.beta`, "false"}, //
		{`space.vars.big`, "9007199254740992"},
		{`1e21`, "1e+21"},
		{`123456789012345680000`, "123456789012345680000"},
		{`1e-7`, "1e-7"},
		{`0.000001`, "0.000001"},
		{`-1.5e3`, "-1500"},
		{`1.0`, "1"},
		{`visitor.claims.seats + 0.5`, "3.5"},
		{`visitor.claims.tags`, "a,b"},
		{`visitor.claims.org`, "[object Object]"},
		{`"tags: " + visitor.claims.tags`, "tags: a,b"},
		{`visitor.claims.unsigned.lang`, "fr"},
		{`visitor.claims.org.tier`, "gold"},
		{`space.vars.missing || "default"`, "default"}, // || gives its operand
		{`space.vars.food || "default"`, "apple"},
		{`space.vars.food && space.vars.count`, "2"},
		{`space.vars.beta && space.vars.count`, "false"},
		{`!space.vars.beta`, "true"},
		{`'it\'s' + "\t" + "\u0041\x42"`, "it's\tAB"},
		{`visitor.claims.isAdmin ? "admin" : visitor.claims.plan === "pro" ? "pro" : "free"`, "admin"}, // right-associative
		{`false ? "a" : true ? "b" : "c"`, "b"},
		{`(true ? "a" : "b") + "!"`, "a!"},
		{`true ? "a" : "b" + "!"`, "a"}, // ?: binds loosest
		{`2 > 1`, "true"},
		{`"10" < "9"`, "true"}, // strings compare as strings
		{`"10" < 9`, "false"},  // a string and a number as numbers
		{`"abc" <= "abd"`, "true"},
		{`space.vars.count >= 2 && space.vars.count <= 3`, "true"},
		{`space.vars.count > 1 === true`, "true"}, // relations bind tighter than equality
		{`1 + 1 === 2`, "true"},                   // + binds tighter than ===
		{`!space.vars.beta === true`, "true"},     // ! binds tighter than === (as in JavaScript)
		{`true || false && false`, "true"},        // && binds tighter than ||
		{`(true || false) && false`, "false"},
		{`"0x10" == 16`, "true"},
		{`"  12  " == 12`, "true"},
		{`"inf" == 0`, "false"},
		{`"" == 0`, "true"},
		{`null == 0`, "false"},
		{`null < 1`, "true"},
		{`space.vars.missing < 1`, "false"},
		{`space.vars.missing == null`, "true"},
		{`space.vars.missing === null`, "false"},
		{`null`, "null"},
	} {
		e, err := Parse(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		v, ok := e.Value(env)
		if !ok {
			t.Errorf("%s: no value", c.src)
			continue
		}
		if got := Text(v); got != c.text {
			t.Errorf("%s: %q, want %q", c.src, got, c.text)
		}
	}
}

// An expression reading a missing variable or claim has no value; so has a
// sum with one.
func TestExpressionMissing(t *testing.T) {
	env := testEnv(t)
	for _, src := range []string{
		`space.vars.nope`, `page.vars.latest_version`, `visitor.claims.nope`, `visitor.claims.plan.deeper`,
		`visitor.claims.tags.length`, `"v" + space.vars.nope`, `space.vars.nope + 1`,
		`space.vars.beta ? "x" : space.vars.nope`,
	} {
		e, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if v, ok := e.Value(env); ok {
			t.Errorf("%s: %v, want no value", src, v)
		}
		if e.Holds(env) {
			t.Errorf("%s holds", src)
		}
	}
	// No variables at all (an anonymous visitor on a space without any).
	e, _ := Parse(`space.vars.food`)
	if _, ok := e.Value(Env{}); ok {
		t.Error("a variable of no environment has a value")
	}
	var nilExpr *Expr
	if _, ok := nilExpr.Value(env); ok || nilExpr.Holds(env) {
		t.Error("a nil expression has a value")
	}
}

// Conditions read variables too, and the conditional operator.
func TestConditionsWithVariables(t *testing.T) {
	env := testEnv(t)
	for src, want := range map[string]bool{
		`visitor.claims.unsigned.bucket.IF_BLOCK === true`:                 true,
		`space.vars.latest_version === "v3.0.4" && visitor.claims.isAdmin`: true,
		`page.vars.n > 5`:     true,
		`space.vars.beta`:     false,
		`!space.vars.missing`: true,
		`visitor.claims.seats > 2 ? space.vars.food : ""`: true,
		`visitor.claims.seats > 3 ? space.vars.food : ""`: false,
	} {
		if got := HoldsIn(src, env); got != want {
			t.Errorf("%s: %v, want %v", src, got, want)
		}
	}
	if !HoldsIn("  ", env) {
		t.Error("a blank condition does not hold")
	}
}

// Anything outside the grammar is refused, with where it is.
func TestExpressionRefusals(t *testing.T) {
	for _, src := range []string{
		``, `   `, `alert(1)`, `space.vars`, `space.vars.`, `space.vars.a.b`, `page.vars.1a`, `space.vars._x`,
		`space.vars.a-b`, `space.vars.$x`, `space.vars["x"]`, `visitor.claims.0`, `visitor.claims.a.0`, `visitor`,
		`window.location`, `constructor.constructor("x")()`, `this`, `undefined`, `x => 1`, `1 - 1`, `2-1`, `1 * 2`,
		`1 / 2`, `1 % 2`, `a = 1`, `space.vars.a = 1`, `1;`, `1, 2`, "`template`", `"unterminated`, "'a\nb'",
		`"\u12"`, `1 ? 2`, `1 ? 2 :`, `? 1 : 2`, `(1`, `1)`, `()`, `!`, `1 +`, `+ 1`, `1 ++ 1`, `typeof 1`,
		`1 === 1 === true`, `1 < 2 < 3`, `1 == 2 != 3`, `.5`, `1.`, `1.2.3`, `1e`, `1e+`, `0x10`, `1x`, `1e999`,
		`space.vars.a ?? 1`, `a || b`, `"a" "b"`, `1 &  1`, `1 | 1`, `~1`, `-space.vars.a`, `--1`, `{}`, `[1]`,
		`"é" + é`,
	} {
		if e, err := Parse(src); err == nil {
			t.Errorf("%q accepted (%v)", src, e.root)
		}
		if src != "" && strings.TrimSpace(src) != "" && Validate("f", src) == nil {
			t.Errorf("Validate(%q) accepted", src)
		}
	}
	_, err := Parse(`space.vars.a === 1 +`)
	if err == nil || !strings.Contains(err.Error(), "end of the expression") {
		t.Errorf("error %v, want one naming the end", err)
	}
	_, err = Parse(`space.vars.a & 1`)
	if err == nil || !strings.Contains(err.Error(), "at 13") {
		t.Errorf("error %v, want one naming offset 13", err)
	}
}

// Sources are bounded in length and nesting.
func TestExpressionLimits(t *testing.T) {
	long := `"` + strings.Repeat("a", MaxLength-2) + `"`
	if _, err := Parse(long); err != nil {
		t.Errorf("%d bytes refused: %v", len(long), err)
	}
	if _, err := Parse(long + " "); err == nil {
		t.Errorf("%d bytes accepted", len(long)+1)
	}
	nest := func(open, inner, close string, n int) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	for _, c := range []struct {
		src string
		ok  bool
	}{
		{nest("(", "true", ")", MaxDepth-1), true},
		{nest("(", "true", ")", MaxDepth), false},
		{nest("!", "true", "", MaxDepth-1), true},
		{nest("!", "true", "", MaxDepth), false},
		{nest("true ? ", "1", " : 0", MaxDepth-1), true},
		{nest("true ? ", "1", " : 0", MaxDepth), false},
		{nest("(!", "true", ")", MaxDepth/2), false},
		// A long flat chain is not nesting.
		{strings.TrimSuffix(strings.Repeat("1 + ", 200), " + "), true},
	} {
		_, err := Parse(c.src)
		if (err == nil) != c.ok {
			t.Errorf("%.40q… (%d bytes): error %v, want ok=%v", c.src, len(c.src), err, c.ok)
		}
	}
	e, _ := Parse(strings.TrimSuffix(strings.Repeat("1 + ", 200), " + "))
	if v, _ := e.Value(Env{}); v != 200.0 {
		t.Errorf("sum of 200 ones: %v", v)
	}
}

// Text writes numbers as JavaScript's String does.
func TestTextNumbers(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{0.0, "0"}, {math.Copysign(0, -1), "0"}, {1.0, "1"}, {-1.0, "-1"}, {1.5, "1.5"}, {100.0, "100"},
		{1e20, "100000000000000000000"}, {1e21, "1e+21"}, {1.5e21, "1.5e+21"}, {123e-20, "1.23e-18"},
		{0.000001, "0.000001"}, {0.0000001, "1e-7"}, {-0.0000012, "-0.0000012"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
		{5e-324, "5e-324"}, {math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
		{3, "3"}, {int64(-42), "-42"}, {uint32(7), "7"}, {float32(0.5), "0.5"}, {json.Number("12.50"), "12.5"},
		{nil, "null"}, {true, "true"}, {"s", "s"}, {[]any{1, nil, "x", []any{2, 3}}, "1,,x,2,3"},
		{map[string]any{}, "[object Object]"}, {[]string{"a", "b"}, "a,b"},
	} {
		if got := Text(c.v); got != c.want {
			t.Errorf("Text(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestVariableNames(t *testing.T) {
	for name, want := range map[string]bool{
		"a": true, "latest_version": true, "V2": true, "a_1_b": true,
		"": false, "1a": false, "_a": false, "a-b": false, "a b": false, "é": false, "$a": false, "a.b": false,
	} {
		if ValidVariableName(name) != want {
			t.Errorf("ValidVariableName(%q) != %v", name, want)
		}
	}
	if err := ValidateVariables("vars", map[string]any{"ok": "v", "n": 1, "b": true, "f": 1.5}); err != nil {
		t.Errorf("valid variables refused: %v", err)
	}
	for _, bad := range []map[string]any{
		{"1a": "v"}, {"a": strings.Repeat("é", MaxVariableText+1)}, {"a": nil}, {"a": []any{1}}, {"a": map[string]any{}},
	} {
		if err := ValidateVariables("vars", bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if err := ValidateVariables("vars", map[string]any{"a": strings.Repeat("é", MaxVariableText)}); err != nil {
		t.Errorf("%d characters refused: %v", MaxVariableText, err)
	}
}

// FuzzParse: no source makes the parser or the evaluator panic or run
// away, and an accepted source evaluates to a value Text can write.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`visitor.claims.isAdmin === true`, `space.vars.a + "x"`, `page.vars.b ? 1 : 2`, `!(a || b)`,
		`"\u0041" + '\x41'`, `1e21 + 1`, `((((true))))`, `1 < 2 >= 3`, `visitor.claims.unsigned.x.y`,
		`space.vars.latest_version === "v3.0.4" ? "Latest" : "Outdated"`, `"a" +`, `'`, `-0`, `null == space.vars.x`,
	} {
		f.Add(s)
	}
	env := testEnv(f)
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src)
		if err != nil {
			if e != nil {
				t.Fatal("an expression with an error")
			}
			return
		}
		if len(src) > MaxLength {
			t.Fatalf("%d bytes accepted", len(src))
		}
		if v, ok := e.Value(env); ok {
			_ = Text(v)
		}
		_ = e.Holds(Env{})
	})
}
