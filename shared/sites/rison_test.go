package sites_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/sites"
)

func TestParseRison(t *testing.T) {
	for in, want := range map[string]any{
		"(plan:pro,beta:!t,n:!n,off:!f)":    map[string]any{"plan": "pro", "beta": true, "n": nil, "off": false},
		"(a:1,b:-2.5,c:1e3)":                map[string]any{"a": 1.0, "b": -2.5, "c": 1000.0},
		"(name:'Ada Lovelace',q:'it!'s!!')": map[string]any{"name": "Ada Lovelace", "q": "it's!"},
		"(team:(role:admin),tags:!(a,'b c',!()))": map[string]any{"team": map[string]any{"role": "admin"},
			"tags": []any{"a", "b c", []any{}}},
		"()":                map[string]any{},
		"('a key':x-y.z_w)": map[string]any{"a key": "x-y.z_w"},
		"!(1,2)":            []any{1.0, 2.0},
		"word":              "word",
	} {
		got, err := sites.ParseRison(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, %v; want %#v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "(a:1", "(a)", "(a:1,)", "(:1)", "'open", "!x", "(a:'x!y')", "(a:1)b", "!(1 2)", "1-",
		strings.Repeat("(a:", 40) + "1" + strings.Repeat(")", 40)} {
		if v, err := sites.ParseRison(bad); err == nil {
			t.Errorf("%q parsed as %#v", bad, v)
		}
	}
}
