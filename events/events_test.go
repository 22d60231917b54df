package events_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	lambdaevents "github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/galleydocs/galley/events"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

// expectation is what a sample event answers on a fresh installation whose
// instance administrator holds the event's bearer token.
type expectation struct {
	status int
	// object is the answer's "object" field, when it has one.
	object string
	// fields must be present (non-null) in the JSON answer.
	fields []string
	// names, for an error: its message holds it (and its code is the
	// status).
	names string
	check func(t *testing.T, body map[string]any)
	// html, for the reader's answers (HTML, not JSON): what the page says.
	html []string
}

// notFound is a 404 whose error's message names what was not found.
func notFound(names string) expectation {
	return expectation{status: 404, fields: []string{"error"}, names: names}
}

// expected lists every sample event; a file in this folder that is not
// listed fails the test, and so does a function without a sample.
var expected = map[string]expectation{
	"git-get-git-info-of-unknown-space.json":             notFound("space"),
	"imports-import-content-into-unknown-space.json":     notFound("space"),
	"openapi-get-spec-of-unknown-organization.json":      notFound("organization"),
	"comments-list-comments-of-unknown-space.json":       notFound("space"),
	"content-get-current-revision-of-unknown-space.json": notFound("space"),
	// Sites decide on the site itself (a guest's site grant reaches it
	// without a membership): an unknown organization's site is not found.
	"sites-get-published-site-of-unknown-organization.json":     notFound("site"),
	"changerequests-list-change-requests-of-unknown-space.json": notFound("space"),
	"collections-get-unknown-collection.json":                   notFound("collection"),
	"customfields-get-field-of-unknown-organization.json":       notFound("organization"),
	"sso-list-sso-logins-of-unknown-organization.json":          notFound("organization"),
	"search-search-space-content-of-unknown-space.json":         notFound("space"),
	// A site's MCP endpoint (the search function): an unknown site is 404
	// whatever the JSON-RPC message asks.
	"search-site-mcp-initialize-of-unknown-site.json": notFound("published content"),
	"spaces-get-unknown-space.json":                   notFound("space"),
	"users-get-user.json": {status: 200, object: "user", fields: []string{"id", "email", "urls"},
		check: func(t *testing.T, b map[string]any) {
			if b["email"] != users.AdminEmail {
				t.Errorf("email %v, want %s", b["email"], users.AdminEmail)
			}
			// API_URL is unset: urls are derived from the event's host.
			loc, _ := b["urls"].(map[string]any)["location"].(string)
			if !strings.HasPrefix(loc, "https://g4l1eyapi0.execute-api.us-east-1.amazonaws.com/v1/users/") {
				t.Errorf("urls.location %q, want one on the event's https host", loc)
			}
		}},
	"users-get-api-information.json": {status: 200, fields: []string{"version", "build"},
		check: func(t *testing.T, b map[string]any) {
			if b["version"] != app.Version {
				t.Errorf("version %v, want %s", b["version"], app.Version)
			}
		}},
	"orgs-create-organization.json": {status: 201, object: "organization", fields: []string{"id", "title"},
		check: func(t *testing.T, b map[string]any) {
			if b["title"] != "Acme" {
				t.Errorf("title %v, want Acme", b["title"])
			}
		}},
	"reader-read-published-page.json":       {status: 200, html: []string{"<h1>Setup</h1>", "<title>Setup | Acme Docs</title>", "Install it", `<link rel="canonical" href="https://`}},
	"reader-read-page-of-unknown-site.json": {status: 404, html: []string{"<h1>Page not found</h1>", `<meta name="robots" content="noindex">`}},
	// A page's insights events, posted to the site's own route (counted
	// in the request here; queued on InsightsQueue by the function).
	"reader-track-page-events.json": {status: 204},
}

func TestEveryFunctionHasASample(t *testing.T) {
	files, err := filepath.Glob("*.json")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range files {
		if isWorkerSample(f) {
			continue // workers_test.go replays it
		}
		if _, ok := expected[f]; !ok {
			t.Errorf("%s: no expectation in events_test.go", f)
		}
		family, _, _ := strings.Cut(f, "-")
		have[family] = true
	}
	for name := range expected {
		if _, err := os.Stat(name); err != nil {
			t.Errorf("expected sample %s: %v", name, err)
		}
	}
	for _, f := range families.All() {
		if !have[f.Name] {
			t.Errorf("function %s (family %s) has no sample event %s-<operation>.json", f.Function, f.Name, f.Name)
		}
	}
}

func TestSampleEvents(t *testing.T) {
	names := make([]string, 0, len(expected))
	for name := range expected {
		names = append(names, name)
	}
	sort.Strings(names)
	routes := map[string]map[string]bool{} // family -> API Gateway route keys
	for _, f := range families.Functions() {
		routes[f.Family] = map[string]bool{}
		for _, r := range f.Routes {
			routes[f.Family][r.Method+" "+families.GatewayPath(r.Path)] = true
		}
	}
	for _, name := range names {
		want := expected[name]
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			var ev lambdaevents.APIGatewayV2HTTPRequest
			if err := json.Unmarshal(raw, &ev); err != nil {
				t.Fatalf("%s is not an API Gateway v2 event: %v", name, err)
			}
			ctx := context.Background()
			handler, d := familyHandler(t, ctx, name, bearer(t, ev))
			if seed := events.Seeds[name]; seed != nil {
				for from, to := range seed(t, d, bearer(t, ev)) {
					raw = bytes.ReplaceAll(raw, []byte(from), []byte(to))
				}
				ev = lambdaevents.APIGatewayV2HTTPRequest{}
				if err := json.Unmarshal(raw, &ev); err != nil {
					t.Fatal(err)
				}
			}
			familyName, _, _ := strings.Cut(name, "-")
			family, err := families.ByName(familyName)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkShape(t, ev)
			if !routes[family.Name][ev.RouteKey] {
				t.Fatalf("routeKey %q is not a route of %s (family %s); its routes: %v",
					ev.RouteKey, family.Function, family.Name, keys(routes[family.Name]))
			}

			resp, err := httpadapter.NewV2(handler).ProxyWithContext(ctx, ev)
			if err != nil {
				t.Fatalf("proxy: %v", err)
			}
			if resp.StatusCode != want.status {
				t.Fatalf("status %d, want %d; body %s", resp.StatusCode, want.status, resp.Body)
			}
			if want.status == http.StatusNoContent {
				if resp.Body != "" {
					t.Errorf("a 204 with the body %q", resp.Body)
				}
				return
			}
			if want.html != nil {
				if ct := header(resp.Headers, "Content-Type"); ct != "text/html; charset=utf-8" {
					t.Errorf("Content-Type %q, want HTML", ct)
				}
				for _, s := range want.html {
					if !strings.Contains(resp.Body, s) {
						t.Errorf("the page lacks %q: %s", s, resp.Body)
					}
				}
				return
			}
			if ct := header(resp.Headers, "Content-Type"); !strings.Contains(ct, "json") {
				t.Errorf("Content-Type %q, want JSON", ct)
			}
			var body map[string]any
			if err := json.Unmarshal([]byte(resp.Body), &body); err != nil {
				t.Fatalf("body is not a JSON object: %v: %s", err, resp.Body)
			}
			if want.object != "" && body["object"] != want.object {
				t.Errorf("object %v, want %q; body %s", body["object"], want.object, resp.Body)
			}
			for _, f := range want.fields {
				if body[f] == nil {
					t.Errorf("no %q in the body %s", f, resp.Body)
				}
			}
			if want.names != "" {
				e, _ := body["error"].(map[string]any)
				if code, _ := e["code"].(float64); int(code) != want.status {
					t.Errorf("error.code %v, want %d", e["code"], want.status)
				}
				if msg, _ := e["message"].(string); !strings.Contains(msg, want.names) {
					t.Errorf("error.message %q does not name the %s", msg, want.names)
				}
			}
			if want.check != nil {
				want.check(t, body)
			}
		})
	}
}

// familyHandler builds family's handler as app.StartLambda does, on a
// temporary bbolt store and blob folder instead of DynamoDB and S3, with the
// instance administrator holding token.
func familyHandler(t *testing.T, ctx context.Context, name, token string) (http.Handler, *deps.Deps) {
	t.Helper()
	c := app.Config{Build: "2026-11-22"}
	d := localDeps(t, c)
	created, _, err := users.New(d).Bootstrap(ctx, token)
	if err != nil || !created {
		t.Fatalf("bootstrap the administrator: created %v, err %v", created, err)
	}
	familyName, _, _ := strings.Cut(name, "-")
	family, err := families.ByName(familyName)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return app.NewAPI(c, app.NewRoot(d), family).Handler(), d
}

// localDeps are a process's dependencies as app.NewDeps makes them from
// c, on a temporary bbolt store and blob folder (testkit) instead of
// DynamoDB and S3.
func localDeps(t *testing.T, c app.Config) *deps.Deps {
	t.Helper()
	d, err := app.NewDeps(context.Background(), c, deps.Deps{Store: testkit.BoltStore(t), Blobs: testkit.BlobStore(t),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// checkShape checks the fields API Gateway always sets in a 2.0 payload.
func checkShape(t *testing.T, ev lambdaevents.APIGatewayV2HTTPRequest) {
	t.Helper()
	method, _, _ := strings.Cut(ev.RouteKey, " ")
	switch {
	case ev.Version != "2.0":
		t.Errorf("version %q, want 2.0", ev.Version)
	case ev.RequestContext.RouteKey != ev.RouteKey:
		t.Errorf("requestContext.routeKey %q, routeKey %q", ev.RequestContext.RouteKey, ev.RouteKey)
	case ev.RequestContext.HTTP.Method != method:
		t.Errorf("requestContext.http.method %q, routeKey %q", ev.RequestContext.HTTP.Method, ev.RouteKey)
	case ev.RequestContext.HTTP.Path != ev.RawPath || ev.RawPath == "":
		t.Errorf("requestContext.http.path %q, rawPath %q", ev.RequestContext.HTTP.Path, ev.RawPath)
	case ev.RequestContext.Stage == "" || ev.RequestContext.RequestID == "" || ev.RequestContext.DomainName == "":
		t.Errorf("requestContext lacks stage, requestId or domainName")
	}
}

func bearer(t *testing.T, ev lambdaevents.APIGatewayV2HTTPRequest) string {
	t.Helper()
	scheme, token, _ := strings.Cut(header(ev.Headers, "Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		t.Fatal("the event has no Authorization: Bearer header")
	}
	return token
}

func header(h map[string]string, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
