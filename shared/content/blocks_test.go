package content_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/testkit"
)

// normalization clones GitBook's git-sync normalization repository (one
// page per block type, as GitBook writes them) into a temporary directory
// and returns its markdown pages by path.
func normalization(t *testing.T) map[string]string {
	t.Helper()
	const bundle = "../../../shared/fixtures/gitsync/git-sync-normalization.bundle"
	missing := func(what string) {
		if os.Getenv("GALLEY_REQUIRE_EMULATORS") == "1" {
			t.Fatalf("%s is missing (GALLEY_REQUIRE_EMULATORS=1)", what)
		}
		t.Skipf("%s is missing", what)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		missing("git")
	}
	if _, err := os.Stat(bundle); err != nil {
		missing("the fixture " + bundle)
	}
	dir := filepath.Join(t.TempDir(), "norm")
	if out, err := exec.Command(git, "clone", "-q", bundle, dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone %s: %v\n%s", bundle, err, out)
	}
	pages := map[string]string{}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") && d.Name() != "SUMMARY.md" {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			pages[rel] = stripFrontMatter(string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 10 {
		t.Fatalf("the fixture holds %d pages", len(pages))
	}
	return pages
}

func stripFrontMatter(s string) string {
	if rest, ok := strings.CutPrefix(s, "---\n"); ok {
		if _, body, ok := strings.Cut(rest, "\n---\n"); ok {
			return body
		}
	}
	return s
}

// roundTrip checks markdown → document → markdown → document is stable
// and returns the first document and the markdown written.
func roundTrip(t *testing.T, name, md string) (map[string]any, string) {
	t.Helper()
	first := testkit.Sent(t, document.ToDocument(md, document.Resolver{}))
	out, err := document.MarkdownOfDocument(first)
	if err != nil {
		t.Fatalf("%s: MarkdownOfDocument: %v", name, err)
	}
	second := testkit.Sent(t, document.ToDocument(out, document.Resolver{}))
	if !reflect.DeepEqual(first, second) {
		a, _ := json.Marshal(first)
		b, _ := json.Marshal(second)
		t.Errorf("%s: the round trip changed the document\nmarkdown written:\n%s\nfirst:  %s\nsecond: %s", name, out, a, b)
	}
	return first, out
}

// walk calls f on every node of v: nodes, fragments and their nodes.
func walk(v any, f func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["object"]; ok {
			f(x)
		}
		for _, k := range []string{"nodes", "fragments"} {
			walk(x[k], f)
		}
	case []any:
		for _, y := range x {
			walk(y, f)
		}
	}
}

func textIn(n map[string]any) string {
	var b strings.Builder
	walk(n, func(m map[string]any) {
		if leaves, ok := m["leaves"].([]any); ok {
			for _, l := range leaves {
				s, _ := l.(map[string]any)["text"].(string)
				b.WriteString(s)
			}
		}
	})
	return b.String()
}

// Every page of GitBook's normalization repository reads as structured
// blocks (no paragraph holds a block's markup) and survives the round trip.
func TestNormalizationPagesAreStructured(t *testing.T) {
	pages := normalization(t)
	names := make([]string, 0, len(pages))
	for n := range pages {
		names = append(names, n)
	}
	sort.Strings(names)
	types := map[string]bool{}
	for _, name := range names {
		doc, _ := roundTrip(t, name, pages[name])
		walk(doc["nodes"], func(n map[string]any) {
			if typ, ok := n["type"].(string); ok {
				types[typ] = true
			}
			if n["type"] != "paragraph" {
				return
			}
			s := textIn(n)
			for _, markup := range []string{"{%", "<figure", "<details", "$$"} {
				if strings.Contains(s, markup) {
					t.Errorf("%s: a paragraph holds %q: %q", name, markup, s)
				}
			}
		})
	}
	for _, want := range []string{"tabs", "tabs-item", "code", "embed", "content-ref", "swagger", "images", "image",
		"table", "math", "drawing", "hint", "blockquote", "list-ordered"} {
		if !types[want] {
			t.Errorf("no %s block in the fixture's documents (types: %v)", want, types)
		}
	}
}

// one is the single top-level block of md's document.
func one(t *testing.T, md string) map[string]any {
	t.Helper()
	doc, _ := roundTrip(t, "markdown", md)
	nodes, _ := doc["nodes"].([]any)
	if len(nodes) != 1 {
		raw, _ := json.Marshal(doc)
		t.Fatalf("want one block, got %d: %s", len(nodes), raw)
	}
	return nodes[0].(map[string]any)
}

func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func expect(t *testing.T, n map[string]any, want any, path ...any) {
	t.Helper()
	if got := get(n, path...); !reflect.DeepEqual(got, want) {
		raw, _ := json.Marshal(n)
		t.Errorf("%v = %#v, want %#v in %s", path, got, want, raw)
	}
}

// blockCases are one markdown block of each kind, with what its node holds.
var blockCases = []struct {
	name, md string
	checks   [][]any // path…, want
}{
	{"tabs", "{% tabs %}\n{% tab title=\"Ruby\" %}\n```ruby\nputs 1\n```\n{% endtab %}\n\n{% tab title=\"Links\" %}\n{% embed url=\"https://x.test\" %}\n\n* a\n* b\n{% endtab %}\n{% endtabs %}\n",
		[][]any{{"type", "tabs"}, {"nodes", 0, "type", "tabs-item"}, {"nodes", 0, "data", "title", "Ruby"},
			{"nodes", 0, "nodes", 0, "type", "code"}, {"nodes", 0, "nodes", 0, "data", "syntax", "ruby"},
			{"nodes", 1, "data", "title", "Links"}, {"nodes", 1, "nodes", 0, "type", "embed"},
			{"nodes", 1, "nodes", 0, "data", "url", "https://x.test"}, {"nodes", 1, "nodes", 1, "type", "list-unordered"}}},
	{"code", "{% code title=\"index.js\" overflow=\"wrap\" lineNumbers=\"true\" %}\n```javascript\nlet a = 1;\n```\n{% endcode %}\n",
		[][]any{{"type", "code"}, {"data", "title", "index.js"}, {"data", "overflow", "wrap"}, {"data", "lineNumbers", true},
			{"data", "syntax", "javascript"}, {"nodes", 0, "type", "code-line"}}},
	{"fenced code", "```go\nx := 1\n```\n", [][]any{{"type", "code"}, {"data", "syntax", "go"}, {"data", "title", nil}}},
	{"embed", "{% embed url=\"https://www.youtube.com/watch?v=1\" %}\nStudy music\n{% endembed %}\n",
		[][]any{{"type", "embed"}, {"isVoid", true}, {"data", "url", "https://www.youtube.com/watch?v=1"},
			{"fragments", 0, "fragment", "caption"}, {"fragments", 0, "nodes", 0, "nodes", 0, "leaves", 0, "text", "Study music"}}},
	{"embed without caption", "{% embed url=\"https://docs.gitbook.com\" %}\n", [][]any{{"type", "embed"}, {"fragments", nil}}},
	{"content-ref", "{% content-ref url=\"https://example.com/a\" %}\n[a](https://example.com/a)\n{% endcontent-ref %}\n",
		[][]any{{"type", "content-ref"}, {"data", "ref", "kind", "url"}, {"data", "ref", "url", "https://example.com/a"}}},
	{"content-ref to a page", "{% content-ref url=\"/pages/p1\" %}\n[x](/pages/p1)\n{% endcontent-ref %}\n",
		[][]any{{"data", "ref", "kind", "url"}, {"data", "ref", "url", "/pages/p1"}}},
	{"file", "{% file src=\"/files/f1\" %}\nThe manual\n{% endfile %}\n",
		[][]any{{"type", "file"}, {"data", "ref", "kind", "file"}, {"data", "ref", "file", "f1"},
			{"fragments", 0, "nodes", 0, "nodes", 0, "leaves", 0, "text", "The manual"}}},
	{"file on one line", "{% file src=\".gitbook/assets/a.pdf\" %}caption{% endfile %}\n",
		[][]any{{"type", "file"}, {"data", "ref", "file", ".gitbook/assets/a.pdf"}, {"fragments", 0, "nodes", 0, "nodes", 0, "leaves", 0, "text", "caption"}}},
	{"swagger", "{% swagger baseUrl=\"https://api.test\" path=\"/v1/x\" method=\"get\" summary=\"Get x\" %}\n{% swagger-description %}\nReturns x\n{% endswagger-description %}\n\n{% swagger-parameter in=\"query\" name=\"ids\" type=\"array\" %}\nthe ids\n{% endswagger-parameter %}\n\n{% swagger-response status=\"200\" description=\"found\" %}\n```\n{}\n```\n{% endswagger-response %}\n{% endswagger %}\n",
		[][]any{{"type", "swagger"}, {"data", "path", "/v1/x"}, {"data", "method", "get"}, {"data", "summary", "Get x"},
			{"data", "baseUrl", "https://api.test"}, {"data", "ref", "url", "https://api.test"},
			{"fragments", 0, "fragment", "swagger-description"}, {"fragments", 1, "data", "name", "ids"}, {"fragments", 1, "data", "in", "query"},
			{"fragments", 2, "data", "status", "200"}, {"fragments", 2, "nodes", 0, "type", "code"}}},
	{"openapi", "{% openapi src=\"https://petstore.test/openapi.json\" path=\"/pet\" method=\"post\" %}\n[https://petstore.test/openapi.json](https://petstore.test/openapi.json)\n{% endopenapi %}\n",
		[][]any{{"type", "swagger"}, {"data", "ref", "kind", "url"}, {"data", "ref", "url", "https://petstore.test/openapi.json"},
			{"data", "path", "/pet"}, {"data", "method", "post"}}},
	{"openapi-operation", "{% openapi-operation spec=\"petstore\" path=\"/pet\" method=\"put\" %}\n",
		[][]any{{"type", "openapi-operation"}, {"data", "ref", "kind", "openapi"}, {"data", "ref", "spec", "petstore"}, {"data", "method", "put"}}},
	{"stepper", "{% stepper %}\n{% step %}\n### Install\n\nRun it.\n{% endstep %}\n\n{% step %}\nDone.\n{% endstep %}\n{% endstepper %}\n",
		[][]any{{"type", "stepper"}, {"nodes", 0, "type", "stepper-step"}, {"nodes", 0, "nodes", 0, "type", "heading-3"}, {"nodes", 1, "nodes", 0, "type", "paragraph"}}},
	{"columns", "{% columns %}\n{% column width=\"50%\" %}\nLeft\n{% endcolumn %}\n\n{% column %}\n{% hint style=\"info\" %}\nRight\n{% endhint %}\n{% endcolumn %}\n{% endcolumns %}\n",
		[][]any{{"type", "columns"}, {"nodes", 0, "type", "column"}, {"nodes", 0, "data", "width", "value", 50.0}, {"nodes", 1, "nodes", 0, "type", "hint"}}},
	{"figure", "<figure><img src=\"https://x.test/a.png\" alt=\"An A\"><figcaption><p>The <strong>caption</strong></p></figcaption></figure>\n",
		[][]any{{"type", "images"}, {"nodes", 0, "type", "image"}, {"nodes", 0, "data", "alt", "An A"}, {"nodes", 0, "data", "ref", "url", "https://x.test/a.png"},
			{"nodes", 0, "fragments", 0, "fragment", "caption"}, {"nodes", 0, "fragments", 0, "nodes", 0, "type", "paragraph"},
			{"nodes", 0, "fragments", 0, "nodes", 0, "nodes", 0, "leaves", 0, "text", "The "},
			{"nodes", 0, "fragments", 0, "nodes", 0, "nodes", 0, "leaves", 1, "marks", 0, "type", "bold"}}},
	{"image with title", "![alt](https://x.test/b.png \"A caption\")\n",
		[][]any{{"type", "images"}, {"nodes", 0, "data", "alt", "alt"}, {"nodes", 0, "fragments", 0, "nodes", 0, "nodes", 0, "leaves", 0, "text", "A caption"}}},
	{"image", "![alt](https://x.test/b.png)\n", [][]any{{"type", "images"}, {"nodes", 0, "fragments", []any{}}}},
	{"table", "| Title 1 | Title 2 |\n| --- | :-: |\n| **a** | <p>b</p><p>c</p> |\n| d \\| e | f |\n",
		[][]any{{"type", "table"}, {"data", "view", "columns", []any{"c0", "c1"}}, {"data", "definition", "c0", "title", "Title 1"},
			{"data", "definition", "c1", "textAlignment", "center"}, {"data", "records", "r0", "values", "c0", "r0c0"},
			{"fragments", 0, "fragment", "r0c0"}, {"fragments", 0, "nodes", 0, "nodes", 0, "leaves", 0, "marks", 0, "type", "bold"},
			{"fragments", 1, "nodes", 1, "nodes", 0, "leaves", 0, "text", "c"}, {"fragments", 2, "nodes", 0, "nodes", 0, "leaves", 0, "text", "d | e"}}},
	{"html table", "<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>\n",
		[][]any{{"type", "table"}, {"data", "definition", "c1", "title", "B"}, {"fragments", 1, "nodes", 0, "nodes", 0, "leaves", 0, "text", "2"}}},
	{"math", "$$(a = b) / 2$$ \n", [][]any{{"type", "math"}, {"isVoid", true}, {"data", "formula", "(a = b) / 2"}}},
	{"math lines", "$$\nf(x) = x^2\n$$\n", [][]any{{"type", "math"}, {"data", "formula", "f(x) = x^2"}}},
	{"inline math", "Area $$\\pi r^2$$ of a circle\n", [][]any{{"type", "paragraph"}, {"nodes", 1, "type", "inline-math"}, {"nodes", 1, "data", "formula", "\\pi r^2"}}},
	{"expandable", "<details>\n\n<summary>More <strong>x</strong></summary>\n\nHidden text\n\n```sh\nls\n```\n\n</details>\n",
		[][]any{{"type", "expandable"}, {"fragments", 0, "fragment", "expandable-title"}, {"fragments", 1, "fragment", "expandable-body"},
			{"fragments", 1, "nodes", 0, "type", "paragraph"}, {"fragments", 1, "nodes", 1, "type", "code"}}},
	{"drawing", "<img src=\".gitbook/assets/file.drawing.svg\" alt=\"A drawing\" class=\"gitbook-drawing\">\n",
		[][]any{{"type", "drawing"}, {"data", "ref", "kind", "file"}, {"data", "ref", "file", ".gitbook/assets/file.drawing.svg"}}},
	{"hint", "{% hint style=\"warning\" %}\nCareful\n\n{% embed url=\"https://x.test\" %}\n{% endhint %}\n",
		[][]any{{"type", "hint"}, {"data", "style", "warning"}, {"nodes", 1, "type", "embed"}}},
	{"unknown tag", "{% include \"x.md\" %}\n", [][]any{{"type", "paragraph"}, {"nodes", 0, "leaves", 0, "text", "{% include \"x.md\" %}"}}},
	{"unclosed tabs", "{% tabs %}\n{% tab title=\"a\" %}\ntext\n", [][]any{{"type", "paragraph"}}},
}

// Each block reads as its node, with its data, and round-trips.
func TestGitBookBlocks(t *testing.T) {
	for _, c := range blockCases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "unclosed tabs" {
				doc := testkit.Sent(t, document.ToDocument(c.md, document.Resolver{}))
				if s := textIn(doc); !strings.Contains(s, "{% tabs %}") || !strings.Contains(s, "text") {
					t.Fatalf("unclosed tags lost: %q", s)
				}
				return
			}
			n := one(t, c.md)
			for _, check := range c.checks {
				expect(t, n, check[len(check)-1], check[:len(check)-1]...)
			}
		})
	}
}

// content-ref and page-ref urls resolve like links: to pages through the
// resolver.
func TestContentRefResolvesPages(t *testing.T) {
	idx := &stubLocator{paths: map[string]string{"lists.md": "p-lists", "emoji.md": "p-emoji", "here.md": "p-here"}}
	r := document.Resolver{Locator: idx, PageID: "p-here"}
	doc := testkit.Sent(t, document.ToDocument("{% content-ref url=\"lists.md\" %}\n[lists.md](lists.md)\n{% endcontent-ref %}\n\n{% page-ref page=\"emoji.md\" %}\n", r))
	expect(t, doc, map[string]any{"kind": "page", "page": "p-lists"}, "nodes", 0, "data", "ref")
	expect(t, doc, map[string]any{"kind": "page", "page": "p-emoji"}, "nodes", 1, "data", "ref")
	md, err := document.MarkdownOfDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, `{% content-ref url="/pages/p-lists" %}`) {
		t.Fatalf("markdown %q", md)
	}
	again := testkit.Sent(t, document.ToDocument(md, r))
	if !reflect.DeepEqual(doc, again) {
		t.Fatalf("round trip changed the document: %s", md)
	}
}

type stubLocator struct{ paths map[string]string }

func (s *stubLocator) GitPath(id string) string {
	for p, i := range s.paths {
		if i == id {
			return p
		}
	}
	return ""
}
func (s *stubLocator) PageAtGitPath(p string) string { return s.paths[p] }
func (s *stubLocator) HasPage(id string) bool        { return s.GitPath(id) != "" }

// The blocks' nodes, and the documents of the normalization pages, are
// what GitBook's schemas describe.
func TestGitBookBlocksMatchSchemas(t *testing.T) {
	reg := gitbook(t)
	validate := func(name string, v any, schema *huma.Schema) { conforms(t, reg, schema, name, v) }
	check := func(name string, doc map[string]any) {
		for _, n := range doc["nodes"].([]any) {
			validate(name, n, schemaRef("DocumentBlock"))
			validate(name, n, schemaRef("DocumentBlocksTopLevels"))
		}
		validate(name, doc, schemaRef("JSONDocument"))
		// Each node against the schema of its type: the unions above
		// accept a node matching any member.
		walk(doc["nodes"], func(n map[string]any) {
			typ, _ := n["type"].(string)
			if s, ok := blockSchemas[typ]; ok && n["object"] != "fragment" {
				validate(name+": "+typ, n, schemaRef(s))
			}
		})
	}
	for _, c := range blockCases {
		check(c.name, testkit.Sent(t, document.ToDocument(c.md, document.Resolver{})))
	}
	for name, md := range normalization(t) {
		check(name, testkit.Sent(t, document.ToDocument(md, document.Resolver{})))
	}
	// The validator does check a block's shape: an embed needs its url.
	if len(violations(reg, schemaRef("DocumentBlockEmbed"),
		map[string]any{"object": "block", "type": "embed", "isVoid": true, "data": map[string]any{}})) == 0 {
		t.Fatal("an embed without a url validates")
	}
}

// blockSchemas names the reference's schema of each block type.
var blockSchemas = map[string]string{
	"tabs": "DocumentBlockTabs", "tabs-item": "DocumentBlockTabsItem", "code": "DocumentBlockCode", "code-line": "DocumentBlockCodeLine",
	"embed": "DocumentBlockEmbed", "content-ref": "DocumentBlockContentRef", "file": "DocumentBlockFile", "swagger": "DocumentBlockOpenAPI",
	"openapi-operation": "DocumentBlockOpenAPIOperation", "stepper": "DocumentBlockStepper", "stepper-step": "DocumentBlockStepperStep",
	"columns": "DocumentBlockColumns", "column": "DocumentBlockColumn", "images": "DocumentBlockImages", "image": "DocumentBlockImage",
	"table": "DocumentBlockTable", "math": "DocumentBlockMath", "inline-math": "DocumentInlineMath", "expandable": "DocumentBlockExpandable",
	"drawing": "DocumentBlockDrawing", "hint": "DocumentBlockHint", "paragraph": "DocumentBlockParagraph",
}
