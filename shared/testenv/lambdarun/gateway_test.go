package lambdarun_test

import (
	"regexp"
	"testing"

	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/testenv/lambdarun"
)

func TestGatewayMatches(t *testing.T) {
	for _, c := range []struct {
		route, path string
		want        bool
	}{
		{"/v1", "/v1/", true},
		{"/v1", "/v1", true},
		{"/v1/spaces/{spaceId}", "/v1/spaces/x1", true},
		{"/v1/spaces/{spaceId}", "/v1/spaces/", false},
		{"/v1/spaces/{spaceId}", "/v1/spaces/x1/y", false},
		{"/v1/spaces/{spaceId}/content/path/{pagePath+}", "/v1/spaces/x1/content/path/a/b", true},
		{"/v1/user", "/v1/users", false},
	} {
		if got := lambdarun.GatewayMatches(c.route, c.path); got != c.want {
			t.Errorf("GatewayMatches(%q, %q) = %v", c.route, c.path, got)
		}
	}
}

// Every route a family serves reaches that family's function, where
// routes of several families match the same request (a literal segment
// against a parameter, a greedy parameter).
func TestGatewayRoutesEachRouteToItsFamily(t *testing.T) {
	g := lambdarun.NewGateway(nil)
	n := 0
	for _, f := range families.Functions() {
		for _, r := range f.Routes {
			path := anyParam.ReplaceAllString(families.GatewayPath(r.Path), "x1")
			got, ok := g.FunctionOf(r.Method, path)
			if !ok || got != f.Family {
				t.Errorf("%s %s (%s's %s): routed to %q", r.Method, path, f.Family, r.Path, got)
			}
			n++
		}
	}
	if n < 150 {
		t.Fatalf("%d routes checked", n)
	}
}

var anyParam = regexp.MustCompile(`\{[^}]+\}`)
