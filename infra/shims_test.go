package infra_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/blevesearch/vellum/levenshtein"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Galley's copy of vellum builds a Levenshtein automaton builder's tables
// on first use instead of in its constructor (infra/shims/README.md); the
// automata it builds must be the same: matches within the distance, with
// the right edit distance (a transposition counts one), none beyond it,
// also when first used by several goroutines at once.
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

// Galley's copy of santhosh-tekuri/jsonschema compiles the drafts'
// meta-schemas on first use instead of in a package init: schemas are
// still checked against their draft's meta-schema (a bad one is refused)
// and instances validated, also when several goroutines use it first.
func TestLazyJSONSchemaDraftsStillValidate(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := jsonschema.NewCompiler()
			draft := []string{"https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"}[i%2]
			good := map[string]any{"$schema": draft, "type": "object", "required": []any{"title"},
				"properties": map[string]any{"title": map[string]any{"type": "string", "maxLength": float64(5)}}}
			if err := c.AddResource("mem://good.json", good); err != nil {
				t.Error(err)
				return
			}
			s, err := c.Compile("mem://good.json")
			if err != nil {
				t.Errorf("compile a valid schema: %v", err)
				return
			}
			if err := s.Validate(map[string]any{"title": "ok"}); err != nil {
				t.Errorf("a valid instance: %v", err)
			}
			if err := s.Validate(map[string]any{"title": "too long"}); err == nil || !strings.Contains(err.Error(), "maxLength") {
				t.Errorf("an instance over maxLength: %v", err)
			}
			bad := map[string]any{"$schema": draft, "type": "object", "required": "title"}
			if err := c.AddResource("mem://bad.json", bad); err != nil {
				t.Error(err)
				return
			}
			if _, err := c.Compile("mem://bad.json"); err == nil {
				t.Errorf("a schema whose required is not an array compiled under %s", draft)
			}
		}()
	}
	wg.Wait()
}

// Galley's copy of chroma reads its XML lexers on the first lookup instead
// of in a package init: every lexer is still found (XML-defined and
// Go-coded, by name, alias, file name, MIME type), analysers set by the
// package's inits still work, and tokens come out as before — also when
// the first lookups come from several goroutines at once.
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
