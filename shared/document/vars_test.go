package document

import (
	"reflect"
	"testing"
)

// Frontmatter's vars: (GitBook's page variables) is read by both parsers.
func TestFrontmatterVars(t *testing.T) {
	src := "---\ndescription: d\nvars:\n  product: Acme\n  seats: 3\n---\n\n# T\n\nB\n"
	a, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	want := Vars{"product": "Acme", "seats": 3}
	if a.Front.Vars == nil || !reflect.DeepEqual(*a.Front.Vars, want) || a.Title != "T" {
		t.Fatalf("Parse: %+v", a)
	}
	if l := ParseLenient(src); l.Front.Vars == nil || !reflect.DeepEqual(*l.Front.Vars, want) {
		t.Fatalf("ParseLenient: %+v", l)
	}
	if a, err := Parse("---\ndescription: d\n---\n# T\n"); err != nil || a.Front.Vars != nil {
		t.Fatalf("no vars: %+v %v", a, err)
	}
}
