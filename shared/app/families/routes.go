package families

// This file holds what template.yaml's Events sections are made from and
// checked against: the routes each Lambda function serves, as the Go code
// registers them and as template.yaml must declare them. The route
// generator (functions/routes, `make routes`) writes them;
// infra/template_test.go compares them with template.yaml.

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"unicode"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
)

// Function is one family's Lambda function and the routes it serves.
type Function struct {
	Family   string // functions/<Family>
	Function string // logical id in template.yaml
	Routes   []httpapi.Route
}

// Functions builds every family alone, as its Lambda function does, and
// lists the routes it registers, sorted by path then method. Registration
// does no I/O, so empty dependencies do.
func Functions() []Function {
	var out []Function
	for _, f := range All() {
		routes := app.NewAPI(app.Config{}, app.NewRoot(&deps.Deps{}), f).Routes()
		sort.Slice(routes, func(i, j int) bool {
			if routes[i].Path != routes[j].Path {
				return routes[i].Path < routes[j].Path
			}
			return methodOrder(routes[i].Method) < methodOrder(routes[j].Method)
		})
		out = append(out, Function{Family: f.Name, Function: f.Function, Routes: routes})
	}
	return out
}

func methodOrder(m string) int {
	for i, x := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m == x {
			return i
		}
	}
	return 99
}

// GatewayPath is the API Gateway route path of a Go route path. API Gateway
// HTTP APIs reject a route path ending in "/" (SAM drops the route
// silently) and route /x and /x/ alike to the route /x, so a Go path such
// as "/v1/" is declared as "/v1". Path parameters ({name}) are written the
// same way in both; a trailing wildcard ({name...}, the rest of the path,
// slashes included) is API Gateway's greedy parameter ({name+}).
func GatewayPath(path string) string {
	if strings.HasSuffix(path, "...}") {
		return strings.TrimSuffix(path, "...}") + "+}"
	}
	if len(path) > 1 {
		return strings.TrimSuffix(path, "/")
	}
	return path
}

// EventName is the logical name of a route's HttpApi event in template.yaml:
// the method and the path's segments in CamelCase, a parameter prefixed by
// "By", e.g. GET /v1/orgs/{organizationId} -> GetV1OrgsByOrganizationId.
func EventName(r httpapi.Route) string {
	var b strings.Builder
	b.WriteString(title(strings.ToLower(r.Method)))
	for _, seg := range strings.Split(GatewayPath(r.Path), "/") {
		if strings.HasPrefix(seg, "{") {
			b.WriteString("By")
		}
		for _, word := range strings.FieldsFunc(seg, func(c rune) bool {
			return !unicode.IsLetter(c) && !unicode.IsDigit(c)
		}) {
			b.WriteString(title(word))
		}
	}
	return b.String()
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// EventsBlock is the Events section of f's function in template.yaml, one
// HttpApi event per route, each line prefixed with indent. It is empty for a
// function that serves no route yet.
func EventsBlock(f Function, indent string) string {
	if len(f.Routes) == 0 {
		return ""
	}
	var b strings.Builder
	line := func(depth int, s string) {
		b.WriteString(indent + strings.Repeat("  ", depth) + s + "\n")
	}
	line(0, "Events:")
	for _, r := range f.Routes {
		line(1, EventName(r)+":")
		line(2, "Type: HttpApi")
		line(2, "Properties:")
		line(3, "ApiId: !Ref GalleyApi")
		line(3, "Method: "+r.Method)
		line(3, "Path: "+GatewayPath(r.Path))
	}
	return b.String()
}

// Marker comments delimit the generated Events section of each function in
// template.yaml:
//
//	# BEGIN routes UsersFunction (generated: ...)
//	Events: ...
//	# END routes UsersFunction
const (
	beginMarker = "# BEGIN routes "
	endMarker   = "# END routes "
)

// WriteRoutes returns template with the text between each function's
// markers replaced by its EventsBlock, indented as the BEGIN marker. Every
// family's function must have its markers, and every marker must name one.
func WriteRoutes(template []byte, functions []Function) ([]byte, error) {
	byName := map[string]Function{}
	for _, f := range functions {
		byName[f.Function] = f
	}
	seen := map[string]bool{}
	lines := strings.SplitAfter(string(template), "\n")
	var out strings.Builder
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		out.WriteString(line)
		trimmed := strings.TrimSpace(line)
		if !strings.HasPrefix(trimmed, beginMarker) {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(trimmed, beginMarker), " ")
		f, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("template line %d: %q names no family's function", i+1, trimmed)
		}
		if seen[name] {
			return nil, fmt.Errorf("template line %d: a second %s%s", i+1, beginMarker, name)
		}
		seen[name] = true
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != endMarker+name {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("template line %d: no %q after %q", i+1, endMarker+name, trimmed)
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		out.WriteString(EventsBlock(f, indent))
		out.WriteString(lines[end])
		i = end
	}
	for _, f := range functions {
		if !seen[f.Function] {
			return nil, fmt.Errorf("template has no %q marker for the %s family's function", beginMarker+f.Function, f.Family)
		}
	}
	return []byte(out.String()), nil
}
