package condition

import "testing"

// ReadsClaims tells the expressions whose value may differ from one
// visitor to another, wherever the claim is read.
func TestReadsClaims(t *testing.T) {
	for src, want := range map[string]bool{
		"visitor.claims.isBeta":                         true,
		"!visitor.claims.isBeta":                        true,
		"space.vars.a === 'x' && visitor.claims.plan":   true,
		"space.vars.a || page.vars.b":                   false,
		"space.vars.a ? 'x' : visitor.claims.name":      true,
		"'a' + visitor.claims.unsigned.lang":            true,
		"(page.vars.n > 2) === (space.vars.m < 3)":      false,
		"visitor.claims.x === visitor.claims.y":         true,
		"'visitor.claims.x'":                            false,
		"space.vars.version + '-' + space.vars.edition": false,
	} {
		e, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := e.ReadsClaims(); got != want {
			t.Errorf("%s: ReadsClaims %v, want %v", src, got, want)
		}
	}
	var none *Expr
	if none.ReadsClaims() {
		t.Error("a nil expression reads claims")
	}
}
