package infra_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/testenv/lambdarun"
	"github.com/galleydocs/galley/shared/testkit"
)

var anyParam = regexp.MustCompile(`\{[^}]+\}`)

// Every operation of GitBook's current document that Galley serves reaches
// its function in AWS: the template declares a route that API Gateway
// matches for the path as GitBook's document and clients write it, with
// its trailing slash where it has one (GET /v1/, getApiInformation).
func TestTemplateRoutesReachEveryServedPath(t *testing.T) {
	var ref struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	testkit.ReferenceDocument(t, &ref)
	// What Galley serves: its document's operations, parameters as {}.
	doc, err := families.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var ours struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &ours); err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for p, ops := range ours.Paths {
		for m := range ops {
			served[strings.ToUpper(m)+" "+anyParam.ReplaceAllString(p, "{x}")] = true
		}
	}
	type route struct{ method, path string }
	var routes []route
	tpl := readTemplate(t)
	for name, res := range tpl.Resources {
		if res.Type != "AWS::Serverless::Function" {
			continue
		}
		fn := decode[function](t, name, res.Properties)
		for _, ev := range fn.Events {
			if ev.Type == "HttpApi" {
				routes = append(routes, route{ev.Properties.Method, ev.Properties.Path})
			}
		}
	}
	checked, slashed := 0, 0
	for p, ops := range ref.Paths {
		path := "/v1" + anyParam.ReplaceAllString(p, "{x}")
		for m := range ops {
			method := strings.ToUpper(m)
			if !served[method+" "+path] && !served[method+" "+strings.TrimSuffix(path, "/")] {
				continue
			}
			checked++
			if strings.HasSuffix(path, "/") {
				slashed++
			}
			request := strings.ReplaceAll(path, "{x}", "x1")
			found := false
			for _, r := range routes {
				if r.method == method && lambdarun.GatewayMatches(r.path, request) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s %s (GitBook's %s): no route of template.yaml reaches it", method, request, p)
			}
		}
	}
	if checked < 150 || slashed == 0 {
		t.Fatalf("checked %d served operations (%d with a trailing slash)", checked, slashed)
	}
}
