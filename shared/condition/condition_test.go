package condition

import (
	"encoding/json"
	"testing"
)

func TestConditionEval(t *testing.T) {
	var claims map[string]any
	if err := json.Unmarshal([]byte(`{"isAdmin":true,"isBeta":false,"plan":"pro","seats":3,"zero":0,"empty":"","none":null,
		"org":{"tier":"gold"},"list":[1],"unsigned":{"prefersDark":true,"lang":"fr"}}`), &claims); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"visitor.claims.isAdmin === true", true},
		{"visitor.claims.isAdmin", true},
		{"visitor.claims.isBeta", false},
		{"visitor.claims.isBeta === false", true},
		{"visitor.claims.isBeta !== true", true},
		{"!visitor.claims.isBeta", true},
		{"!!visitor.claims.isAdmin", true},
		{"visitor.claims.missing", false},
		{"visitor.claims.missing === true", false},
		{"visitor.claims.missing !== true", true},
		{"visitor.claims.missing === null", false},
		{"visitor.claims.missing == null", true},
		{"visitor.claims.none === null", true},
		{"visitor.claims.none == null", true},
		{"visitor.claims.none != null", false},
		{`visitor.claims.plan === "pro"`, true},
		{`visitor.claims.plan === 'pro'`, true},
		{`visitor.claims.plan == "free"`, false},
		{`visitor.claims.plan != "free"`, true},
		{"visitor.claims.seats === 3", true},
		{"visitor.claims.seats === 3.0", true},
		{`visitor.claims.seats === "3"`, false},
		{`visitor.claims.seats == "3"`, true},
		{"visitor.claims.seats == true", false},
		{"visitor.claims.zero", false},
		{"visitor.claims.zero == false", true},
		{"visitor.claims.empty", false},
		{"visitor.claims.list", true},
		{"visitor.claims.org", true},
		{`visitor.claims.org.tier === "gold"`, true},
		{`visitor.claims.org.tier.deeper === "gold"`, false},
		{"visitor.claims.unsigned.prefersDark === true", true},
		{`visitor.claims.unsigned.lang === "fr" && visitor.claims.isAdmin`, true},
		{"visitor.claims.isBeta || visitor.claims.isAdmin", true},
		{"visitor.claims.isBeta && visitor.claims.isAdmin", false},
		{"(visitor.claims.isBeta || visitor.claims.isAdmin) && !visitor.claims.missing", true},
		{"visitor.claims.isBeta || visitor.claims.isAdmin && visitor.claims.missing", false}, // && binds tighter
		{"  visitor.claims.isAdmin===true  ", true},
		{"true", true},
		{"-1 === -1", true},
		// Unknown syntax: false.
		{"visitor.claims.isAdmin = true", false},
		{"visitor.claims.isAdmin === true;", false},
		{"alert(1)", false},
		{"visitor.isAdmin", false},
		{"visitor.claims", false},
		{"visitor.claims..x", false},
		{"visitor.claims.isAdmin === ", false},
		{"(visitor.claims.isAdmin", false},
		{"visitor.claims.isAdmin)", false},
		{`visitor.claims.plan === "pro`, false},
		{"visitor.claims.isAdmin === true === true", false},
		{"visitor.claims['isAdmin']", false},
		{"visitor.claims.isAdmin ? 1 : 0", true}, // the conditional operator
		{"visitor.claims.isBeta ? 1 : 0", false},
		{"1e999 == 1", false},
		{"", false},
	} {
		got := false
		if cond, err := Parse(c.src); err == nil {
			got = cond.Eval(claims)
		}
		if got != c.want {
			t.Errorf("%q: %v, want %v", c.src, got, c.want)
		}
		if c.src != "" && Holds(c.src, claims) != c.want {
			t.Errorf("Holds(%q) != %v", c.src, c.want)
		}
	}
	// Anonymous visitors have no claims.
	if Holds("visitor.claims.isAdmin", nil) || !Holds("!visitor.claims.isAdmin", nil) || !Holds("", nil) {
		t.Error("anonymous visitor")
	}
}

func TestConditionDepth(t *testing.T) {
	deep := ""
	for range 40 {
		deep += "("
	}
	deep += "true"
	for range 40 {
		deep += ")"
	}
	if _, err := Parse(deep); err == nil {
		t.Error("40 levels accepted")
	}
	nots := ""
	for range 40 {
		nots += "!"
	}
	if _, err := Parse(nots + "true"); err == nil {
		t.Error("40 nots accepted")
	}
	if err := Validate("condition", "visitor.claims.x ==="); err == nil {
		t.Error("invalid condition validated")
	}
}
