package keys

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const keysImport = "github.com/galleydocs/galley/shared/keys"

// meta are the exported names of this package that build no key.
var meta = []string{"Design", "Markdown", "Owners", "EntityOwners", "Exceptions"}

// exported returns the exported functions and constants of this package
// (types are shared vocabulary, not keys).
func exported(t *testing.T) map[string]bool {
	fset := token.NewFileSet()
	names := map[string]bool{}
	files, _ := filepath.Glob("*.go")
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() && !slices.Contains(meta, d.Name.Name) {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				if d.Tok != token.CONST {
					continue
				}
				for _, s := range d.Specs {
					for _, n := range s.(*ast.ValueSpec).Names {
						if n.IsExported() {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return names
}

// TestOwnersCoverEveryConstructor keeps the ownership table complete.
func TestOwnersCoverEveryConstructor(t *testing.T) {
	owners := Owners()
	for n := range exported(t) {
		if _, ok := owners[n]; !ok {
			t.Errorf("keys.%s has no owner in Owners()", n)
		}
	}
	for n := range owners {
		if !exported(t)[n] {
			t.Errorf("Owners() names keys.%s, which does not exist", n)
		}
	}
	eo := EntityOwners()
	for _, e := range Design() {
		if eo[e.Name] == "" {
			t.Errorf("entity %q has no owner in EntityOwners()", e.Name)
		}
	}
	if len(eo) != len(Design()) {
		t.Errorf("EntityOwners() has %d entities, Design() %d", len(eo), len(Design()))
	}
}

// use is one reference to a constructor of this package.
type use struct {
	pkg, name, at string
}

// sharedPackages walks the Go source (tests excluded) of shared/ except
// this package, calling fn with each file's package directory.
func sharedPackages(t *testing.T, fn func(pkg string, fset *token.FileSet, f *ast.File)) {
	root := filepath.Join("..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		pkg, _ := filepath.Rel(root, filepath.Dir(path))
		pkg = filepath.ToSlash(pkg)
		if pkg == "keys" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		fn(pkg, fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// uses lists the references to this package's constructors in shared/.
func uses(t *testing.T) []use {
	names := exported(t)
	var out []use
	sharedPackages(t, func(pkg string, fset *token.FileSet, f *ast.File) {
		local := ""
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == keysImport {
				local = "keys"
				if im.Name != nil {
					local = im.Name.Name
				}
			}
		}
		if local == "" {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == local && names[sel.Sel.Name] {
				out = append(out, use{pkg, sel.Sel.Name, fset.Position(sel.Pos()).String()})
			}
			return true
		})
	})
	return out
}

// TestOnlyOwnersBuildKeys fails when a package builds the keys of a record
// another family owns (see Owners and Exceptions).
func TestOnlyOwnersBuildKeys(t *testing.T) {
	owners := Owners()
	allowed := func(pkg, name string) bool {
		if o := owners[name]; o == "" || o == pkg {
			return true
		}
		for _, e := range Exceptions() {
			if e.Package == pkg && (e.Names == nil || slices.Contains(e.Names, name)) {
				return true
			}
		}
		return false
	}
	var bad []string
	for _, u := range uses(t) {
		if !allowed(u.pkg, u.name) {
			bad = append(bad, u.at+": "+u.pkg+" uses keys."+u.name+", owned by "+owners[u.name])
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// TestOnlyOwnersSetIndexKeys fails when a package that owns no indexed
// entity sets an item's index keys (the store's adapters excepted).
func TestOnlyOwnersSetIndexKeys(t *testing.T) {
	indexed := map[string]bool{}
	for _, e := range Design() {
		if e.GSI1 != "" || e.GSI2 != "" {
			indexed[EntityOwners()[e.Name]] = true
		}
	}
	sharedPackages(t, func(pkg string, fset *token.FileSet, f *ast.File) {
		if indexed[pkg] || pkg == "store" || strings.HasPrefix(pkg, "store/") {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for _, lhs := range as.Lhs {
				if sel, ok := lhs.(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "GSI") {
					t.Errorf("%s: %s sets %s; index keys are set by the record's owner", fset.Position(sel.Pos()), pkg, sel.Sel.Name)
				}
			}
			return true
		})
	})
}
