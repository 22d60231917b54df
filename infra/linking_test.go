package infra_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/testenv/lambdarun"
	"github.com/galleydocs/galley/shared/testkit"
)

// familyPackages are the packages under shared/ that hold a family's
// operations (each exports Routes), gitsync/gitstate, the Git Sync
// state's typed store without Git (the reader's edit links),
// gitsync/gitjob, Git Sync's jobs queued without Git (exports on merge), and
// content/contentpdf, the content family's PDF export (the PDF writer,
// which content reads do not need), and content/embeds, its link cards;
// the rest of shared/ is
// infrastructure every function may link.
var familyPackages = []string{"users", "apidoc", "orgs", "spaces", "collections", "customfields", "changerequests",
	"sites", "content", "content/contentpdf", "content/embeds", "search", "sso", "translations", "comments", "openapispecs", "gitsync", "gitsync/gitstate", "gitsync/gitjob", "imports", "reader", "grants", "webhooks", "insights", "audit"}

// linked lists, for each function, the families' packages its binary may
// link: its own, and those its family asks (docs/functions.md says why).
// Every function links users, which authenticates callers.
var linked = map[string][]string{
	"users":          {"users", "apidoc"},
	"orgs":           {"users", "orgs", "audit", "spaces", "grants", "collections", "customfields", "sites", "webhooks"}, // the permissions of spaces, collections and sites (grants) find the collection or site they manage
	"spaces":         {"users", "spaces"},
	"collections":    {"users", "orgs", "spaces", "customfields", "collections"},
	"customfields":   {"users", "orgs", "spaces", "customfields"},
	"sites":          {"users", "orgs", "audit", "spaces", "sites", "webhooks"},                                                                                                                      // publishing is told to webhooks
	"content":        {"users", "orgs", "audit", "spaces", "content", "content/contentpdf", "content/embeds", "openapispecs", "collections", "customfields", "sites"},                                // computed pages and OpenAPI blocks read the organization's specs; getContentByUrl answers a collection's URL; duplicateSiteSpace copies a site space's content
	"changerequests": {"users", "orgs", "audit", "spaces", "content", "content/contentpdf", "changerequests", "comments", "openapispecs", "gitsync/gitjob", "gitsync/gitstate", "sites", "webhooks"}, // a review's comment is posted by comments; computed pages read specs; a merge queues Git Sync's export (not go-git); the organization list's site filter asks sites for the site's spaces
	"comments":       {"users", "orgs", "audit", "spaces", "content", "content/contentpdf", "changerequests", "comments"},
	"search":         {"users", "orgs", "audit", "spaces", "content", "sites", "openapispecs", "search", "insights"}, // searchSiteContent asks sites.SearchScope; the sites' MCP getPage reads computed pages as the reader does; the search page's searches are tracked (insights)
	"sso":            {"users", "orgs", "audit", "spaces", "sso", "translations"},
	"openapi":        {"users", "orgs", "spaces", "content", "openapispecs"},
	"openapiworker":  {"users", "orgs", "spaces", "content", "openapispecs"},
	"git":            {"users", "orgs", "audit", "spaces", "content", "content/contentpdf", "changerequests", "gitsync", "gitsync/gitstate", "gitsync/gitjob", "sites"},
	"gitworker":      {"users", "orgs", "audit", "spaces", "content", "content/contentpdf", "changerequests", "gitsync", "gitsync/gitstate", "gitsync/gitjob", "sites", "webhooks"},
	"webhookworker":  {"users", "orgs", "spaces", "webhooks"},                                                                                                                                  // the webhooks service records endpoints with orgs' checks (orgs links spaces)
	"imports":        {"users", "orgs", "audit", "spaces", "content", "content/contentpdf", "changerequests", "gitsync", "gitsync/gitstate", "gitsync/gitjob", "imports", "sites", "webhooks"}, // imports into a space are told to webhooks
	"reader":         {"users", "orgs", "audit", "spaces", "content", "sites", "openapispecs", "gitsync/gitstate", "reader", "insights"},                                                       // asks sites what a URL names, content for the pages (computed from the specs), the Git Sync state for edit links (not go-git); serves the site insights operations (docs/insights.md)
	"insightsworker": {"users", "orgs", "audit", "spaces", "sites", "insights", "webhooks"},                                                                                                    // the job checks nothing of the site: insights links sites for Track's and Aggregate's checks; page feedback is told to webhooks
}

// heavy are the large libraries, and the only functions that may link them.
var heavy = map[string][]string{
	"github.com/blevesearch/bleve/v2":                           {"search"},
	"github.com/go-git/go-git/v5/plumbing":                      {"git", "gitworker", "imports"},
	"github.com/crewjam/saml":                                   {"sso"},
	"github.com/getkin/kin-openapi/openapi3":                    {"openapiworker"},
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter": {"imports"},
	"go.etcd.io/bbolt":                                          {"search"}, // bleve's; local mode is not a function
	"github.com/go-pdf/fpdf":                                    {"content", "changerequests", "comments", "git", "gitworker", "imports"},
	"github.com/alecthomas/chroma/v2":                           {"reader"},
	// The functions whose changes alter published pages invalidate the
	// CDN's copies (docs/reader.md, "CDN"; template_test: their
	// CDN_DISTRIBUTION_ID and invalidation policy).
	cloudFrontClient: cdnFunctions,
}

// cloudFrontClient is the CloudFront client's package.
const cloudFrontClient = "github.com/aws/aws-sdk-go-v2/service/cloudfront"

// cdnFunctions are the functions that invalidate the CDN's copies of
// published pages: sites (settings, structure, customization,
// publishing), content (a duplicated site space), change requests (merges),
// imports and the Git worker (new heads of spaces, sites' structure).
var cdnFunctions = []string{"sites", "content", "changerequests", "imports", "gitworker"}

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

// The folders of shared/ (shared/X with its subpackages, e.g. shared/content
// and shared/content/contenthttp) import each other without a cycle: a
// family uses another's service or views, never the reverse as well
// (comments reach change requests through comments.ChangeRequests, content
// its specs through content.Specs, both given by the process's root).
func TestSharedFoldersHaveNoImportCycle(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goBin, "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "../shared/...").Output()
	if err != nil {
		t.Fatalf("go list shared/...: %v", err)
	}
	const prefix = "github.com/galleydocs/galley/shared/"
	folder := func(p string) (string, bool) {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			return "", false
		}
		f, _, _ := strings.Cut(rest, "/")
		return f, true
	}
	edges := map[string]map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		from, ok := folder(fields[0])
		if !ok {
			continue
		}
		for _, imp := range fields[1:] {
			if to, ok := folder(imp); ok && to != from {
				if edges[from] == nil {
					edges[from] = map[string]bool{}
				}
				edges[from][to] = true
			}
		}
	}
	if len(edges["app"]) < 10 || !edges["changerequests"]["comments"] {
		t.Fatalf("the folder graph misses known edges (app -> families, changerequests -> comments): %v", edges)
	}
	// Depth-first search; a folder met again on the current path closes a
	// cycle.
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(f string)
	visit = func(f string) {
		state[f] = onPath
		path = append(path, f)
		for _, to := range slices.Sorted(maps.Keys(edges[f])) {
			switch state[to] {
			case onPath:
				i := slices.Index(path, to)
				t.Errorf("folders of shared/ import each other in a cycle: %s -> %s", strings.Join(path[i:], " -> "), to)
			case unseen:
				visit(to)
			}
		}
		path = path[:len(path)-1]
		state[f] = done
	}
	for _, f := range slices.Sorted(maps.Keys(edges)) {
		if state[f] == unseen {
			visit(f)
		}
	}
}

// serviceConstructors are the constructors of the families' services (and
// of the state they keep: content's revision storage, with its tree index
// caches).
var serviceConstructors = []string{"New", "NewWithConfig", "NewRecords", "NewRepo"}

// No family's package (shared/X and its subpackages, handlers included)
// builds another family's service: the process's root builds each once
// (shared/app/wire and shared/app/roots) and hands it to the constructors
// that take it, so that a process keeps one copy of each service's caches.
func TestFamiliesDoNotBuildOtherFamiliesServices(t *testing.T) {
	const prefix = "github.com/galleydocs/galley/shared/"
	fset := token.NewFileSet()
	checked := 0
	var tops []string
	for _, fam := range familyPackages {
		top, _, _ := strings.Cut(fam, "/")
		if !slices.Contains(tops, top) {
			tops = append(tops, top)
		}
	}
	for _, top := range tops {
		err := filepath.WalkDir(filepath.Join("..", "shared", top), func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			checked++
			imported := map[string]string{} // local name -> family
			for name, p := range testkit.ImportNames(f) {
				other, ok := strings.CutPrefix(p, prefix)
				if !ok || !slices.Contains(familyPackages, other) || strings.SplitN(other, "/", 2)[0] == top {
					continue
				}
				imported[name] = other
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && imported[x.Name] != "" && slices.Contains(serviceConstructors, sel.Sel.Name) {
					t.Errorf("%s: calls %s.%s: the %s family builds the %s family's service; take it as a constructor argument (the root in shared/app/wire builds it)",
						fset.Position(call.Pos()), x.Name, sel.Sel.Name, top, imported[x.Name])
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d files of the families; expected the whole of shared/<family>/", checked)
	}
}

// Layers of the module's packages, from the bottom: a package imports only
// packages of its own layer or below (within a layer, folders form no
// cycle: TestSharedFoldersHaveNoImportCycle).
//
//  1. vocabulary: records' types, ids, error kinds, keys, the document
//     model, small pure rules (model, ids, apperr, keys, document, order,
//     condition, mergerules, logging, metrics, fetch);
//  2. platform: storage, blobs, queues, records' reading and writing,
//     paging, secrets, site tokens, authorization, PDF rendering, deps;
//  3. services: each family's service and its typed store (shared/<family>
//     and its non-HTTP packages);
//  4. HTTP: httpapi and each family's operations (shared/<family>/<family>http);
//  5. composition: shared/app (the roots, families, local mode) and apidoc;
//  6. programs: functions/*.
//
// Test support (testenv, testkit, storetest, blobtest, queuetest, apitest)
// may import anything; no other package imports it.
var (
	vocabularyFolders = []string{"model", "ids", "apperr", "keys", "document", "order", "condition", "mergerules", "logging", "metrics", "fetch"}
	platformFolders   = []string{"access", "deps", "records", "paging", "sitetoken", "secret", "queue", "store", "blob", "pdf", "awsretry", "cdn"}
	testSupport       = []string{"testenv", "testkit", "storetest", "blobtest", "queuetest", "apitest"}
)

// layerOf is a package's layer (module path cut off), 0 for test support.
func layerOf(p string) int {
	if strings.HasPrefix(p, "functions/") {
		return 6
	}
	if p == "shared/app" || strings.HasPrefix(p, "shared/app/") || p == "shared/apidoc" {
		return 5
	}
	segs := strings.Split(p, "/")
	if len(segs) < 2 || segs[0] != "shared" || slices.Contains(testSupport, segs[1]) || slices.Contains(testSupport, segs[len(segs)-1]) {
		return 0
	}
	switch {
	case p == "shared/httpapi" || strings.HasSuffix(segs[len(segs)-1], "http"):
		return 4
	case slices.Contains(vocabularyFolders, segs[1]):
		return 1
	case slices.Contains(platformFolders, segs[1]):
		return 2
	}
	return 3
}

func TestImportsFormLayers(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goBin, "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "../shared/...", "../functions/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/galleydocs/galley/"
	seen := map[int]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		from := strings.TrimPrefix(fields[0], module)
		lf := layerOf(from)
		seen[lf]++
		for _, imp := range fields[1:] {
			to, ok := strings.CutPrefix(imp, module)
			if !ok || !strings.HasPrefix(to, "shared/") {
				continue
			}
			lt := layerOf(to)
			switch {
			case lt == 0 && lf != 0:
				t.Errorf("%s imports test support %s", from, to)
			case lf != 0 && lt > lf:
				t.Errorf("%s (layer %d) imports %s (layer %d), a layer above", from, lf, to, lt)
			}
		}
	}
	for l := 0; l <= 6; l++ {
		if seen[l] == 0 {
			t.Errorf("no package in layer %d: the layers do not match the tree (%v)", l, seen)
		}
	}
}

// reflectMethodAllowed are the functions whose binaries may call a
// reflect method look-up by a name known only at run time, and why.
var reflectMethodAllowed = map[string]string{
	"reader": "html/template renders its pages", // docs/functions.md, "Method dead-code elimination"
}

// Each function's binary keeps the linker's dead-code elimination of
// methods: no reachable function looks a method up by a name known only at
// run time (reflect's Method, MethodByName with a variable, the method
// iterators; the linker flags them <ReflectMethod> in -dumpdep), which
// would keep every exported method of every type stored in an interface
// (search: 25.56 MB with text/template and protobuf's descfmt, 16.78
// without; docs/functions.md). It builds each function as sam build does,
// with the linker's reachability graph printed, and names the path from
// main to each such function.
func TestFunctionBinariesKeepMethodDeadCodeElimination(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	dir := t.TempDir()
	for _, name := range lambdarun.FunctionNames() {
		cmd := exec.Command(goBin, "build", "-tags", "lambda.norpc", "-trimpath", "-ldflags=-s -w -dumpdep",
			"-o", filepath.Join(dir, name), "../functions/"+name)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=arm64")
		// The linker prints the graph (about 10 MB a function) on the go
		// command's standard error; keep only each symbol's first parent.
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		parent := map[string]string{}
		var flagged []string
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 0, 1<<16), 1<<22)
		for sc.Scan() {
			from, to, ok := strings.Cut(sc.Text(), " -> ")
			if !ok {
				continue
			}
			from, _, _ = strings.Cut(from, " <")
			to, flags, _ := strings.Cut(to, " <")
			if _, seen := parent[to]; !seen {
				parent[to] = from
				if strings.Contains(flags, "ReflectMethod>") {
					flagged = append(flagged, to)
				}
			}
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%s: go build -ldflags=-dumpdep: %v", name, err)
		}
		if len(parent) < 1000 {
			t.Fatalf("%s: the linker printed %d edges: -dumpdep's output is not what this test reads", name, len(parent))
		}
		why, allowed := reflectMethodAllowed[name]
		switch {
		case allowed && len(flagged) == 0:
			t.Errorf("%s is allowed to turn off method dead-code elimination (%s) but no longer does: remove it from reflectMethodAllowed", name, why)
		case !allowed && len(flagged) > 0:
			// The first one printed is a cause; once the linker has seen
			// one, the methods it then keeps (reflect.Value's own) are
			// flagged too.
			path := []string{}
			for s := parent[flagged[0]]; s != "" && s != "_" && len(path) < 40; s = parent[s] {
				path = append(path, s)
			}
			t.Errorf("%s: %s looks methods up by run-time names, which keeps every exported method of the types in interfaces; reached from\n\t%s\n(%d symbols flagged in all: %s)",
				name, flagged[0], strings.Join(path, "\n\t"), len(flagged), strings.Join(flagged[:min(len(flagged), 8)], ", "))
		}
	}
}
