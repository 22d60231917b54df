package infra_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	_ "github.com/blevesearch/bleve/v2/index/scorch" // for TestForkedPackagesInitCheaply
	"github.com/blevesearch/vellum/levenshtein"
	jsoniter "github.com/json-iterator/go"
)

// forkedDir is where go.mod's replace lines may point: forks rebuilt by
// rebuild.sh from a released module and a patch (docs/dependencies.md).
const forkedDir = "third_party/forked"

// replacedWhole are forks whose patch replaces the package's code rather
// than changing it, so that upstream's tests, written for the code
// removed, do not apply; each has a test of what Galley needs of it.
var replacedWhole = map[string]string{
	"github.com/json-iterator/go": "an encoding/json stand-in for the two calls bleve makes (every upstream file excluded by a build line); TestJSONIterStandInBehavesAsEncodingJSON",
}

// fork is a module that go.mod replaces with its fork under forkedDir.
type fork struct {
	Path, Version string
	Dir           string // from the repository's root
}

func (f fork) String() string { return f.Path + "@" + f.Version }

// forks reads go.mod's replace lines. Every local replacement must be a
// fork under forkedDir, named after the module and the version it
// replaces, that version being the one go.mod requires (so that go.mod's
// version lines say what is built, and govulncheck reads the right
// version); and every patch under forkedDir must be in use.
func forks(t *testing.T) []fork {
	t.Helper()
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "mod", "edit", "-json", "../go.mod").Output()
	if err != nil {
		t.Fatalf("go mod edit -json: %v", err)
	}
	type module struct{ Path, Version string }
	var mf struct {
		Require []module
		Replace []struct{ Old, New module }
	}
	if err := json.Unmarshal(out, &mf); err != nil {
		t.Fatal(err)
	}
	var found []fork
	for _, r := range mf.Replace {
		if !strings.HasPrefix(r.New.Path, "./") && !strings.HasPrefix(r.New.Path, "../") {
			t.Errorf("go.mod replaces %s by another module (%s): write down why in docs/dependencies.md and here", r.Old.Path, r.New.Path)
			continue
		}
		want := "./" + forkedDir + "/" + r.Old.Path + "@" + r.Old.Version
		if r.Old.Version == "" || r.New.Path != want {
			t.Errorf("go.mod replaces %s %s by %s: a local replacement must be a fork, %q, made by %s/rebuild.sh", r.Old.Path, r.Old.Version, r.New.Path, "./"+forkedDir+"/"+r.Old.Path+"@<version>", forkedDir)
			continue
		}
		if !slices.Contains(mf.Require, module{r.Old.Path, r.Old.Version}) {
			t.Errorf("go.mod requires no %s %s, the version its fork is made from: the replace line no longer applies", r.Old.Path, r.Old.Version)
		}
		found = append(found, fork{r.Old.Path, r.Old.Version, strings.TrimPrefix(r.New.Path, "./")})
	}
	patches, err := filepath.Glob("../" + forkedDir + "/*/*/*.patch")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../" + forkedDir + "/*/*/*/*.patch")
	for _, p := range append(patches, more...) {
		rel := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(p), "../"), ".patch")
		if !slices.ContainsFunc(found, func(f fork) bool { return f.Dir == rel }) {
			t.Errorf("%s.patch: no replace line in go.mod uses %s", rel, rel)
		}
	}
	return found
}

// rebuild runs rebuild.sh for f into dir (with upstream's tests when
// tests is set).
func rebuild(t *testing.T, f fork, dir string, tests bool) {
	t.Helper()
	args := []string{filepath.Join("..", forkedDir, "rebuild.sh")}
	if tests {
		args = append(args, "-t")
	}
	cmd := exec.Command("bash", append(args, f.String(), dir)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("rebuild.sh %s: %v\n%s", f, err, out)
	}
}

// tree reads every file under root: its path, contents and whether it is
// executable.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = strconv.FormatBool(info.Mode()&0o111 != 0) + "\x00" + string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Each fork checked in is exactly its upstream release with its patch
// applied, as rebuild.sh makes it: a hand edit, a forgotten file or a
// patch that no longer matches the copy fails here.
func TestForksAreUpstreamPlusPatch(t *testing.T) {
	for _, f := range forks(t) {
		t.Run(f.String(), func(t *testing.T) {
			want := filepath.Join(t.TempDir(), "fork")
			rebuild(t, f, want, false)
			got, exp := tree(t, filepath.Join("..", f.Dir)), tree(t, want)
			var diffs []string
			for p, c := range exp {
				if g, ok := got[p]; !ok {
					diffs = append(diffs, p+": missing")
				} else if g != c {
					diffs = append(diffs, p+": differs")
				}
			}
			for p := range got {
				if _, ok := exp[p]; !ok {
					diffs = append(diffs, p+": not in upstream + patch")
				}
			}
			slices.Sort(diffs)
			if len(diffs) > 0 {
				t.Errorf("%s is not %s with its patch (re-run %s/rebuild.sh %s):\n%s", f.Dir, f, forkedDir, f, strings.Join(diffs, "\n"))
			}
		})
	}
}

// The tests upstream ships for the packages a patch changes pass on the
// patched code (the fork keeps no tests: they run on a copy rebuilt with
// them).
func TestForksPassUpstreamTests(t *testing.T) {
	for _, f := range forks(t) {
		if why, ok := replacedWhole[f.Path]; ok {
			t.Logf("%s: upstream's tests do not apply: %s", f, why)
			continue
		}
		t.Run(f.String(), func(t *testing.T) {
			patch, err := os.ReadFile(filepath.Join("..", f.Dir+".patch"))
			if err != nil {
				t.Fatal(err)
			}
			var pkgs []string
			for _, m := range regexp.MustCompile(`(?m)^\+\+\+ b/(\S+)`).FindAllSubmatch(patch, -1) {
				if p := "./" + filepath.ToSlash(filepath.Dir(string(m[1]))); !slices.Contains(pkgs, p) {
					pkgs = append(pkgs, p)
				}
			}
			if len(pkgs) == 0 {
				t.Fatalf("%s.patch changes no file", f.Dir)
			}
			dir := filepath.Join(t.TempDir(), "fork")
			rebuild(t, f, dir, true)
			cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append([]string{"test", "-count=1"}, pkgs...)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go test %v in %s rebuilt with its tests: %v\n%s", pkgs, f, err, out)
			}
			t.Logf("upstream tests of %s %v:\n%s", f, pkgs, out)
		})
	}
}

// initTrace is one line of GODEBUG=inittrace=1: a package's init.
var initTrace = regexp.MustCompile(`(?m)^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// The forks' point is that their packages do not do their set-up in a
// package init; this test fails when a fork's patch is lost (a go.mod
// upgrade that no longer matches the replace line, a rebuilt copy without
// the patch). It counts allocations, which do not depend on the machine's
// load: this test binary is run again, running no test, with
// GODEBUG=inittrace=1. Upstream's figures (chroma v2.27.0, vellum v1.1.0)
// are 31,438 allocations in chroma's lexers (every XML lexer parsed) and
// 22,598 in bleve's scorch (the two Levenshtein tables vellum builds in
// scorch's init); patched, 1,078 and 16.
func TestForkedPackagesInitCheaply(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s -test.run=^$: %v\n%s", os.Args[0], err, stderr.String())
	}
	allocs := map[string]int{}
	for _, m := range initTrace.FindAllStringSubmatch(stderr.String(), -1) {
		allocs[m[1]], _ = strconv.Atoi(m[3])
	}
	for pkg, most := range map[string]int{
		"github.com/alecthomas/chroma/v2/lexers":       5000, // chroma fork
		"github.com/blevesearch/bleve/v2/index/scorch": 1000, // vellum fork
	} {
		got, ok := allocs[pkg]
		if !ok {
			t.Errorf("no init of %s in GODEBUG=inittrace=1's output", pkg)
			continue
		}
		if got > most {
			t.Errorf("init of %s: %d allocations, want at most %d: is its fork's patch applied (docs/dependencies.md)?", pkg, got, most)
		}
	}
}

// vellum's fork builds a Levenshtein automaton builder's tables on first
// use instead of in its constructor; the automata it builds must be the
// same: matches within the distance, with the right edit distance (a
// transposition counts one), none beyond it, also when first used by
// several goroutines at once.
func TestLazyLevenshteinBuilderMatchesAsUpstream(t *testing.T) {
	for _, d := range []uint8{1, 2} {
		b, err := levenshtein.NewLevenshteinAutomatonBuilder(d, true)
		if err != nil || b.MaxDistance() != d {
			t.Fatalf("builder %d: %v, max %d", d, err, b.MaxDistance())
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				dfa, err := b.BuildDfa("galley", d)
				if err != nil {
					t.Error(err)
					return
				}
				for in, want := range map[string]int{"galley": 0, "gallry": 1, "aglley": 1, "galey": 1, "gally": 1, "gxllxy": 2, "xxllxx": 4, "": 6} {
					ok, dist := dfa.MatchAndDistance(in)
					if ok != (want <= int(d)) || (ok && int(dist) != want) {
						t.Errorf("distance %d: %q matched %v at %d, want distance %d", d, in, ok, dist, want)
					}
				}
			}()
		}
		wg.Wait()
	}
}

// chroma's fork reads its XML lexers on the first lookup instead of in a
// package init: every lexer is still found (XML-defined and Go-coded, by
// name, alias, file name, MIME type), analysers set by the package's inits
// still work, and tokens come out as before — also when the first lookups
// come from several goroutines at once.
func TestLazyChromaLexersAreAllThere(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name, want := range map[string]string{"go": "Go", "python": "Python", "py": "Python", "yaml": "YAML",
				"html": "HTML", "phtml": "PHTML", "dns": "dns", "mysql": "MySQL", "markdown": "markdown", "bash": "Bash"} {
				if l := lexers.Get(name); l == nil || l.Config().Name != want {
					t.Errorf("Get(%q) = %v, want %s", name, l, want)
				}
			}
			if l := lexers.Match("main.rs"); l == nil || l.Config().Name != "Rust" {
				t.Errorf("Match(main.rs) = %v", l)
			}
			if l := lexers.MatchMimeType("application/json"); l == nil || l.Config().Name != "JSON" {
				t.Errorf("MatchMimeType(application/json) = %v", l)
			}
			if l := lexers.Analyse("$ORIGIN example.com.\n@ IN SOA ns.example.com. admin.example.com. (1 2 3 4 5)\n"); l == nil || l.Config().Name != "dns" {
				t.Errorf("Analyse(zone file) = %v, want dns (its analyser is set by an init)", l)
			}
		}()
	}
	wg.Wait()
	if n := len(lexers.Names(false)); n < 250 {
		t.Fatalf("%d lexers registered", n)
	}
	it, err := lexers.Get("go").Tokenise(nil, "package main\nfunc main() {}\n")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []chroma.TokenType
	for tok := it(); tok != chroma.EOF; tok = it() {
		if tok.Value == "func" || tok.Value == "package" {
			kinds = append(kinds, tok.Type)
		}
	}
	if len(kinds) != 2 || kinds[0].Category() != chroma.Keyword || kinds[1].Category() != chroma.Keyword {
		t.Fatalf("keywords of Go code: %v", kinds)
	}
}

// The json-iterator fork answers as encoding/json for what bleve asks of it,
// and keeps modern-go/reflect2 (whose run-time MethodByName turns off the
// linker's dead-code elimination of methods) out of every function: a
// forgotten patch brings it back.
func TestJSONIterStandInBehavesAsEncodingJSON(t *testing.T) {
	v := map[string]any{"type": "Point", "coordinates": []any{1.5, -2.0}, "name": "<b>&</b>"}
	got, err := jsoniter.ConfigCompatibleWithStandardLibrary.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(v)
	if string(got) != string(want) {
		t.Errorf("Marshal: %s, encoding/json %s", got, want)
	}
	var back, wantBack map[string]any
	if err := jsoniter.ConfigCompatibleWithStandardLibrary.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(want, &wantBack)
	if !reflect.DeepEqual(back, wantBack) {
		t.Errorf("Unmarshal: %v, encoding/json %v", back, wantBack)
	}
	if err := jsoniter.ConfigCompatibleWithStandardLibrary.Unmarshal([]byte(`{"a":`), &back); err == nil {
		t.Error("Unmarshal of truncated JSON: no error")
	}
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", "../functions/...").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	if !strings.Contains(string(out), "github.com/json-iterator/go\n") {
		t.Fatal("no function links json-iterator: the check below proves nothing")
	}
	if strings.Contains(string(out), "github.com/modern-go/reflect2") {
		t.Error("a function links modern-go/reflect2: the json-iterator fork's patch is not in effect")
	}
}
