package keys

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

const modulePath = "github.com/galleydocs/galley/"

// recordOwners maps each record type of package model to the packages
// (under shared/) of the family whose typed store owns it: only they assign
// its fields. A revision is left out: it is an immutable value that the
// family making it builds (a merge, an import, a Git import) and content
// writes (content.Put).
var recordOwners = map[string][]string{
	"Space":         {"spaces"},
	"ChangeRequest": {"changerequests"},
	"Comment":       {"comments"},
	"CommentReply":  {"comments"},
	"Site":          {"sites"},
	"Collection":    {"tree", "collections"}, // the collections family: tree is its typed store
	"Organization":  {"orgs"},
	"Member":        {"orgs", "access"},
	"Team":          {"orgs", "access"},
	"OpenAPISpec":   {"openapispecs"},
}

// Why access shares the member and team records (keys.Exceptions says the
// same of their keys): the one authorization module moves the space-grant
// counters of members and teams with the grants it owns, and keeps a
// member's team list with the team counter.

// notOwners are packages that may set fields of records they do not own,
// and why.
var notOwners = map[string]string{
	"model":   "the records' own methods",
	"testkit": "test fixtures seed records directly (no production path)",
}

// TestOnlyOwnersChangeRecords: no package other than a record's owner
// assigns a field of it (=, op=, ++, --), so that every change of a record
// goes through the family that keeps its invariants and index keys; others
// call the operations the owner exports (spaces.Apply with spaces.SetHead,
// CountComments, MoveChangeRequest...). Test files are not checked.
func TestOnlyOwnersChangeRecords(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir: filepath.Join("..", "..")}
	pkgs, err := packages.Load(cfg, "./shared/...", "./functions/...")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.PkgPath, e)
		}
		dir := strings.TrimPrefix(p.PkgPath, modulePath+"shared/")
		if _, ok := notOwners[dir]; ok {
			continue
		}
		for _, f := range p.Syntax {
			if strings.HasSuffix(p.Fset.File(f.Pos()).Name(), "_test.go") {
				continue
			}
			checked++
			ast.Inspect(f, func(n ast.Node) bool {
				var lhs []ast.Expr
				switch s := n.(type) {
				case *ast.AssignStmt:
					if s.Tok == token.DEFINE {
						return true
					}
					lhs = s.Lhs
				case *ast.IncDecStmt:
					lhs = []ast.Expr{s.X}
				default:
					return true
				}
				for _, e := range lhs {
					sel, ok := e.(*ast.SelectorExpr)
					if !ok {
						continue
					}
					rec := recordName(p.TypesInfo.TypeOf(sel.X))
					owners, ok := recordOwners[rec]
					if !ok || slices.ContainsFunc(owners, func(o string) bool { return dir == o || strings.HasPrefix(dir, o+"/") }) {
						continue
					}
					t.Errorf("%s: %s sets %s.%s, a record %s owns", p.Fset.Position(sel.Pos()), dir, rec, sel.Sel.Name, owners[0])
				}
				return true
			})
		}
	}
	if checked < 100 {
		t.Fatalf("only %d files checked", checked)
	}
}

// recordName is the name of t when it is model's record type (or a
// pointer to one), else "".
func recordName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != modulePath+"shared/model" {
		return ""
	}
	return n.Obj().Name()
}
