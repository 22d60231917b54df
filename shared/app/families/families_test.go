package families_test

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/galleydocs/galley/shared/apidoc"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/testkit"
)

// Every job kind has one worker, the data-only table of app.Workers (which
// every function routes jobs by) names the kinds the handlers run, and
// local mode runs them all.
func TestEveryJobKindHasOneWorker(t *testing.T) {
	seen := map[string]string{}
	handlers := families.WorkerHandlers()
	for _, w := range app.Workers() {
		for _, k := range w.Kinds {
			if other, dup := seen[k]; dup {
				t.Errorf("job kind %s is run by %s and %s", k, other, w.Name)
			}
			seen[k] = w.Name
		}
		h := handlers[w.Name]
		if h == nil {
			t.Errorf("worker %s has no handlers", w.Name)
			continue
		}
		var got []string
		for k := range h(app.NewRoot(&deps.Deps{})) {
			got = append(got, k)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(w.Kinds))
		if !slices.Equal(got, want) {
			t.Errorf("%s: handlers run %v, app.Workers says %v", w.Name, got, want)
		}
	}
	if len(handlers) != len(app.Workers()) {
		t.Errorf("%d workers with handlers, %d in app.Workers", len(handlers), len(app.Workers()))
	}
	all := families.JobHandlers(app.NewRoot(&deps.Deps{}))
	for k := range seen {
		if all[k] == nil {
			t.Errorf("local mode has no handler for %s", k)
		}
	}
	for _, want := range append([]string{openapispecs.JobKind}, gitsync.Kinds()...) {
		if seen[want] == "" {
			t.Errorf("no worker runs %s", want)
		}
	}
}

// The embedded OpenAPI document is the one every family's code registers.
func TestEmbeddedOpenAPIDocumentIsCurrent(t *testing.T) {
	doc, err := families.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc, apidoc.Document()) {
		t.Fatalf("shared/apidoc/openapi.json is out of date (%d bytes, the code's is %d): run `make routes`",
			len(apidoc.Document()), len(doc))
	}
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	paths, _ := m["paths"].(map[string]any)
	for _, p := range []string{"/v1/openapi.json", "/v1/spaces/{spaceId}", "/v1/orgs/{organizationId}/openapi"} {
		if paths[p] == nil {
			t.Errorf("the document lacks %s", p)
		}
	}
}

// funcName is the qualified name of a function value
// ("github.com/galleydocs/galley/shared/spaces/spaceshttp.Routes").
func funcName(f any) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}

// Each function's main.go builds its family (or worker) exactly as package
// families lists it: the same name, logical id and routes, or the same
// handlers. Each main.go names its own so that its binary links nothing
// else; this keeps the two in step.
func TestMainsMatchFamilies(t *testing.T) {
	root := filepath.Join("..", "..", "..", "functions")
	type entry struct {
		args []string // name, function id (families) or name (workers)
		fns  []string // qualified function names passed
	}
	want := map[string]entry{}
	for _, f := range families.All() {
		e := entry{args: []string{f.Name, f.Function}}
		for _, r := range f.Routes {
			e.fns = append(e.fns, funcName(r))
		}
		want[f.Name] = e
	}
	for name, h := range families.WorkerHandlers() {
		want[name] = entry{args: []string{name}, fns: []string{funcName(h)}}
	}
	for dir, w := range want {
		path := filepath.Join(root, dir, "main.go")
		got, err := parseMain(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if !slices.Equal(got.args, w.args) || !slices.Equal(got.fns, w.fns) {
			t.Errorf("%s builds %v %v; package families has %v %v", path, got.args, got.fns, w.args, w.fns)
		}
	}
	// And no function directory is left out. The programs that are not
	// Lambda functions: local (every family), admin (the deployer's
	// command), routes (the template's generator) and assets (the
	// reader's browser assets' fetcher); docs/functions.md.
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if _, ok := want[d.Name()]; !ok && !slices.Contains([]string{"local", "admin", "routes", "assets"}, d.Name()) {
			t.Errorf("functions/%s is neither a family nor a worker of package families", d.Name())
		}
	}
}

// parseMain reads the call of app.StartLambda(app.NewFamily(...)) or
// sqsworker.StartWorker(...) in a main.go: its string arguments and the
// functions it passes, qualified by their import paths.
func parseMain(path string) (struct{ args, fns []string }, error) {
	var out struct{ args, fns []string }
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return out, err
	}
	imports := testkit.ImportNames(f)
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || (sel.Sel.Name != "NewFamily" && sel.Sel.Name != "StartWorker" && sel.Sel.Name != "StartWorkerWithCDN" && sel.Sel.Name != "StartBatchingWorker") {
			return true
		}
		args := call.Args
		if (sel.Sel.Name == "StartWorkerWithCDN" || sel.Sel.Name == "StartBatchingWorker") && len(args) > 2 {
			args = args[:2] // the third connects the worker's CDN or its batches
		}
		for _, a := range args {
			switch a := a.(type) {
			case *ast.BasicLit:
				s, _ := strconv.Unquote(a.Value)
				out.args = append(out.args, s)
			case *ast.SelectorExpr:
				if x, ok := a.X.(*ast.Ident); ok {
					out.fns = append(out.fns, imports[x.Name]+"."+a.Sel.Name)
				}
			}
		}
		return false
	})
	if out.args == nil {
		return out, os.ErrNotExist
	}
	return out, nil
}
