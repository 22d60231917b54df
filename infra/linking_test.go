package infra_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app/families"
)

// familyPackages are the packages under shared/ that hold a family's
// operations (each exports Routes), and gitsync/gitstate, the Git Sync
// state's typed store without Git (the reader's edit links); the rest of
// shared/ is infrastructure every function may link.
var familyPackages = []string{"users", "apidoc", "orgs", "spaces", "collections", "customfields", "changerequests",
	"sites", "content", "search", "sso", "translations", "comments", "openapispecs", "gitsync", "gitsync/gitstate", "imports", "reader"}

// linked lists, for each function, the families' packages its binary may
// link: its own, and those its family asks (docs/functions.md says why).
// Every function links users, which authenticates callers.
var linked = map[string][]string{
	"users":          {"users", "apidoc"},
	"orgs":           {"users", "orgs", "spaces"},
	"spaces":         {"users", "spaces"},
	"collections":    {"users", "orgs", "spaces", "customfields", "collections"},
	"customfields":   {"users", "orgs", "spaces", "customfields"},
	"sites":          {"users", "orgs", "spaces", "sites"},
	"content":        {"users", "orgs", "spaces", "content", "openapispecs"},                               // computed pages and OpenAPI blocks read the organization's specs
	"changerequests": {"users", "orgs", "spaces", "content", "changerequests", "comments", "openapispecs"}, // a review's comment is posted by comments; computed pages read specs
	"comments":       {"users", "orgs", "spaces", "content", "changerequests", "comments"},
	"search":         {"users", "orgs", "spaces", "content", "sites", "openapispecs", "search"}, // searchSiteContent asks sites.SearchScope; the sites' MCP getPage reads computed pages as the reader does
	"sso":            {"users", "orgs", "spaces", "sso", "translations"},
	"openapi":        {"users", "orgs", "spaces", "content", "openapispecs"},
	"openapiworker":  {"users", "orgs", "spaces", "content", "openapispecs"},
	"git":            {"users", "orgs", "spaces", "content", "changerequests", "gitsync", "gitsync/gitstate", "sites"},
	"gitworker":      {"users", "orgs", "spaces", "content", "changerequests", "gitsync", "gitsync/gitstate", "sites"},
	"imports":        {"users", "orgs", "spaces", "content", "changerequests", "gitsync", "gitsync/gitstate", "imports", "sites"},
	"reader":         {"users", "orgs", "spaces", "content", "sites", "openapispecs", "gitsync/gitstate", "reader"}, // asks sites what a URL names, content for the pages (computed from the specs), the Git Sync state for edit links (not go-git)
}

// heavy are the large libraries, and the only functions that may link them.
var heavy = map[string][]string{
	"github.com/blevesearch/bleve/v2":                           {"search"},
	"github.com/go-git/go-git/v5/plumbing":                      {"git", "gitworker", "imports"},
	"github.com/crewjam/saml":                                   {"sso"},
	"github.com/getkin/kin-openapi/openapi3":                    {"openapiworker"},
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter": {"imports"},
	"go.etcd.io/bbolt":                                          {"search"}, // bleve's; local mode is not a function
	"github.com/go-pdf/fpdf":                                    {"changerequests", "comments", "git", "gitworker", "imports"},
	"github.com/alecthomas/chroma/v2":                           {"reader"},
}

// Each Lambda function links only its family's packages and the shared
// ones (go list -deps), so that its binary and its cold start carry only
// what it serves.
func TestFunctionsLinkOnlyTheirFamily(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	for fn, allowed := range linked {
		out, err := exec.Command(goBin, "list", "-deps", "../functions/"+fn).Output()
		if err != nil {
			t.Fatalf("go list -deps functions/%s: %v", fn, err)
		}
		deps := strings.Fields(string(out))
		var families []string
		for _, p := range deps {
			name, ok := strings.CutPrefix(p, "github.com/galleydocs/galley/shared/")
			if ok && slices.Contains(familyPackages, name) {
				families = append(families, name)
			}
		}
		sort.Strings(families)
		want := slices.Sorted(slices.Values(allowed))
		if !slices.Equal(families, want) {
			t.Errorf("functions/%s links the families %v; docs/functions.md allows %v", fn, families, want)
		}
		for lib, users := range heavy {
			if slices.Contains(deps, lib) != slices.Contains(users, fn) {
				t.Errorf("functions/%s: links %s = %v; only %v may", fn, lib, slices.Contains(deps, lib), users)
			}
		}
		if slices.Contains(deps, "github.com/galleydocs/galley/shared/app/families") {
			t.Errorf("functions/%s links package families (every family)", fn)
		}
	}
	for _, f := range families.All() {
		if linked[f.Name] == nil {
			t.Errorf("functions/%s is not checked: add it to linked", f.Name)
		}
	}
	for w := range families.WorkerHandlers() {
		if linked[w] == nil {
			t.Errorf("functions/%s is not checked: add it to linked", w)
		}
	}
}

// notYetSplit are the families whose service package still holds their
// HTTP handlers (issue 12, item 2: each family moves them to
// shared/<family>/<family>http, as customfields did). The list only
// shrinks.
var notYetSplit = []string{}

// Services know no HTTP: a family's service package does not import
// httpapi; its operations live in shared/<family>/<family>http.
func TestServicePackagesDoNotImportHTTPAPI(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, fam := range familyPackages {
		if fam == "apidoc" || slices.Contains(notYetSplit, fam) {
			continue
		}
		// Directly or through another package (a family's HTTP layer, whose
		// views read base URLs from the request).
		out, err := exec.Command(goBin, "list", "-deps", "../shared/"+fam).Output()
		if err != nil {
			t.Fatalf("go list shared/%s: %v", fam, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == "github.com/galleydocs/galley/shared/httpapi" || strings.HasSuffix(dep, "http") && strings.HasPrefix(dep, "github.com/galleydocs/galley/shared/") {
				t.Errorf("shared/%s (a service package) depends on %s; handlers belong in shared/%s/%shttp, API views in the family's service package", fam, dep, fam, fam)
			}
		}
	}
}
