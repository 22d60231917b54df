package document_test

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/condition"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// bundleFiles clones a repository GitBook's Git Sync wrote
// (../shared/fixtures/gitsync/<name>.bundle) and returns its markdown
// files by path.
func bundleFiles(t *testing.T, name string) map[string]string {
	t.Helper()
	bundle, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "fixtures", "gitsync", name+".bundle"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bundle); err != nil {
		testenv.Missing(t, "the fixture "+bundle+" (../shared/fixtures beside the repository)")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		testenv.Missing(t, "git")
	}
	dir := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command(git, "clone", "-q", bundle, dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone %s: %v\n%s", bundle, err, out)
	}
	out := map[string]string{}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Written independently of the package's own reading, to check it.
var (
	constructLine = regexp.MustCompile(`^\s*\{%\s*(if\s.*|endif|include\s.*)%\}\s*$`)
	exprSpan      = regexp.MustCompile(`<code class="expression">.*?</code>`)
	fenceLine     = regexp.MustCompile("^\\s*(`{3,}|~{3,})")
	codeSpan      = regexp.MustCompile("`+[^`]*`+")
)

// constructs are a body's conditional tags, includes and expression spans
// as written (outside fenced code), in order.
func constructs(body string) []string {
	var out []string
	fence := ""
	for _, line := range strings.Split(body, "\n") {
		if m := fenceLine.FindStringSubmatch(line); m != nil {
			if fence == "" {
				fence = m[1]
			} else if m[1][0] == fence[0] && len(m[1]) >= len(fence) {
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		if constructLine.MatchString(line) {
			out = append(out, strings.TrimSpace(line))
		}
		out = append(out, exprSpan.FindAllString(codeSpan.ReplaceAllString(line, ""), -1)...)
	}
	return out
}

// includesOf is a ReusableLocator over a repository's .gitbook/includes
// files (ids made from their names).
func includesOf(files map[string]string) reusables {
	rc := reusables{}
	for p := range files {
		if strings.HasPrefix(p, ".gitbook/includes/") {
			rc[p] = "rc-" + strings.TrimSuffix(path.Base(p), ".md")
		}
	}
	return rc
}

func countType(nodes []document.Node, typ string) int {
	n := 0
	for _, x := range contentNodes(nodes) {
		if x["type"] == typ {
			n++
		}
	}
	return n
}

// contentNodes are the conditional, reusable-content and expression
// nodes of a tree, in order.
func contentNodes(nodes []document.Node) []document.Node {
	var out []document.Node
	for _, x := range nodes {
		switch x["type"] {
		case "if", "reusable-content", "expression":
			out = append(out, document.Node{"type": x["type"], "data": x["data"]})
		}
		if kids, ok := x["nodes"].([]document.Node); ok {
			out = append(out, contentNodes(kids)...)
		}
	}
	return out
}

// Every page of GitBook's repositories that holds includes, conditional
// blocks or expressions: markdown -> document -> markdown writes each of
// them back byte for byte, includes of the repository become
// reusable-content blocks, and the document reads back the same.
func TestBundlesRoundTripContentConstructs(t *testing.T) {
	for _, c := range []struct {
		bundle                  string
		minPages, minIncludes   int
		minConditions, minExprs int
	}{
		// sodadata: 102 pages include one of 8 reusable contents (131
		// includes); GitBook's docs: a page of conditional blocks, and
		// examples of every construct in code blocks (not constructs).
		{"sodadata-docs", 102, 131, 0, 0},
		{"gitbook-docs", 1, 0, 2, 0},
	} {
		t.Run(c.bundle, func(t *testing.T) {
			files := bundleFiles(t, c.bundle)
			rc := includesOf(files)
			pages, includes, conditions, exprs, exact := 0, 0, 0, 0, 0
			for _, p := range sortedPaths(files) {
				src := files[p]
				body := src[document.Split(src).Body:]
				want := constructs(body)
				if len(want) == 0 {
					continue
				}
				pages++
				d, md := roundTrip(t, body, p, rc)
				if md == body {
					exact++
				}
				if got := constructs(md); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s: constructs written back\n%q\nwant\n%q", p, got, want)
				}
				nInc := 0
				for _, w := range want {
					if strings.Contains(w, "{% include") {
						nInc++
					}
				}
				if got := countType(d.Nodes, "reusable-content"); got != nInc {
					t.Errorf("%s: %d reusable-content blocks, want %d", p, got, nInc)
				}
				includes += nInc
				conditions += countType(d.Nodes, "if")
				exprs += countType(d.Nodes, "expression")
				// (Whole trees are not compared: the converter's reading of
				// other blocks is not always stable, as before.)
				again := document.ToDocument(md, document.Resolver{File: p, Reusables: rc})
				if a, b := string(testkit.JSON(t, contentNodes(d.Nodes))), string(testkit.JSON(t, contentNodes(again.Nodes))); a != b {
					t.Errorf("%s: the document's includes, conditional blocks or expressions changed on a second reading:\n%s\n%s", p, a, b)
				}
			}
			t.Logf("%s: %d pages with constructs (%d whole bodies byte for byte; the others differ in blocks the converter normalizes), %d includes, %d conditional blocks, %d expressions",
				c.bundle, pages, exact, includes, conditions, exprs)
			if pages < c.minPages || includes < c.minIncludes || conditions < c.minConditions || exprs < c.minExprs {
				t.Errorf("%d pages, %d includes, %d conditional blocks, %d expressions; want at least %d, %d, %d, %d",
					pages, includes, conditions, exprs, c.minPages, c.minIncludes, c.minConditions, c.minExprs)
			}
		})
	}
}

func sortedPaths(files map[string]string) []string {
	out := make([]string, 0, len(files))
	for p := range files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

var mdLink = regexp.MustCompile(`\]\(([^)\s#]+)(#[^)\s]*)?\)`)

// The sodadata pages as a reader sees them: no include is left, every one
// shows its reusable content, and the relative links the included bodies
// hold reach files of the repository from the page.
func TestBundleResolveSodadata(t *testing.T) {
	files := bundleFiles(t, "sodadata-docs")
	include := func(target document.IncludeTarget) (document.Included, bool) {
		src, ok := files[target.Path]
		if !ok {
			return document.Included{}, false
		}
		// Only the frontmatter goes (title:): a heading that follows is
		// content (Split's Body would skip it as a page's title).
		if rest, ok := strings.CutPrefix(src, "---\n"); ok {
			if end := strings.Index(rest, "\n---\n"); end >= 0 {
				src = strings.TrimLeft(rest[end+5:], "\n")
			}
		}
		return document.Included{Body: src}, true
	}
	exists := func(p string) bool {
		if _, ok := files[p]; ok {
			return true
		}
		_, ok := files[path.Join(p, "README.md")]
		return ok
	}
	pages := 0
	for _, p := range sortedPaths(files) {
		src := files[p]
		body := src[document.Split(src).Body:]
		if !strings.Contains(body, "{% include") {
			continue
		}
		pages++
		out, problems := document.Resolve(body, document.ResolveOptions{Env: condition.Env{}, File: p, Include: include})
		if len(problems) != 0 {
			t.Errorf("%s: problems %+v", p, problems)
		}
		if strings.Contains(out, "{% include") {
			t.Errorf("%s: an include is left", p)
		}
		if strings.Contains(body, "includes/need-help-join-the-soda-co") && !strings.Contains(out, "Need help? Join the [Soda community on Slack](https://community.soda.io/slack).") {
			t.Errorf("%s: the included text is missing", p)
		}
		if strings.Contains(body, "includes/test-the-data-source-connec") && !strings.Contains(out, "\n# Test the data source connection <a href=") {
			t.Errorf("%s: the included heading is missing", p)
		}
		own := map[string]bool{}
		for _, m := range mdLink.FindAllStringSubmatch(body, -1) {
			own[m[1]] = true
		}
		for _, m := range mdLink.FindAllStringSubmatch(out, -1) {
			target := m[1]
			if own[target] || strings.Contains(target, ":") || strings.HasPrefix(target, "/") {
				continue
			}
			if to := path.Clean(path.Join(path.Dir(p), target)); !exists(to) {
				t.Errorf("%s: an included link %q reaches %s, which is not a file of the repository", p, target, to)
			}
		}
	}
	if pages != 102 {
		t.Errorf("%d pages with includes, want 102", pages)
	}
}

// GitBook's agent guide (.gitbook/assets/skill.md in GitBook's docs)
// shows expressions as GitBook writes them, with the variables of its
// example vars.yaml and frontmatter: each, as a body, writes back byte for
// byte and shows the value JavaScript would.
func TestBundleGitBookExpressionExamples(t *testing.T) {
	files := bundleFiles(t, "gitbook-docs")
	guide := files[".gitbook/assets/skill.md"]
	env := condition.Env{
		SpaceVars: map[string]any{"food": "apple", "latest_version": "v3.0.4", "company_name": "Acme Corp"},
		PageVars:  map[string]any{"page_food": "orange", "page_version": "v2.1.0"},
	}
	want := map[string]string{
		"1 + 1":                     "2",
		"space.vars.latest_version": "v3.0.4",
		`"My favorite food is " + space.vars.food`:                       "My favorite food is apple",
		"page.vars.page_food":                                            "orange",
		`space.vars.latest_version === "v3.0.4" ? "Latest" : "Outdated"`: "Latest",
		"JavaScript expression here":                                     "", // a placeholder: refused
	}
	seen := 0
	for _, line := range strings.Split(guide, "\n") {
		spans := exprSpan.FindAllString(line, -1)
		if len(spans) != 1 || spans[0] != line {
			continue // the examples are lines of their own
		}
		seen++
		body := line + "\n"
		d := document.ToDocument(body, document.Resolver{})
		expr := contentNodes(d.Nodes)
		if len(expr) != 1 {
			t.Fatalf("%s: nodes %s", line, string(testkit.JSON(t, d.Nodes)))
		}
		src := expr[0]["data"].(document.Node)["expression"].(string)
		text, known := want[src]
		if !known {
			t.Errorf("an example not checked: %s", src)
			continue
		}
		out, problems := document.Resolve(body, document.ResolveOptions{Env: env})
		if text == "" {
			if len(problems) != 1 || out != "\n" {
				t.Errorf("%s: %q %+v, want nothing shown and a problem", src, out, problems)
			}
			continue
		}
		md, err := document.MarkdownOfDocument(testkit.Sent(t, d))
		if err != nil || md != body {
			t.Errorf("%s: written back as %q (%v)", src, md, err)
		}
		if out != text+"\n" || len(problems) != 0 {
			t.Errorf("%s: shows %q %+v, want %q", src, out, problems, text)
		}
	}
	if seen != len(want) {
		t.Errorf("%d examples, want %d", seen, len(want))
	}
}

// GitBook's conditional blocks as its docs use them: each visitor sees the
// block meant for them and never the other.
func TestBundleGitBookConditionals(t *testing.T) {
	files := bundleFiles(t, "gitbook-docs")
	src := files["create-content/blocks/conditional-content.md"]
	body := src[document.Split(src).Body:]
	with := condition.Env{Claims: map[string]any{"unsigned": map[string]any{"example_attribute_A": true}}}
	for _, c := range []struct {
		env        condition.Env
		shown, not string
	}{
		{condition.Env{}, "users **without** attribute A", "users **with** attribute A"},
		{with, "users **with** attribute A", "users **without** attribute A"},
	} {
		out, problems := document.Resolve(body, document.ResolveOptions{Env: c.env, File: "create-content/blocks/conditional-content.md"})
		page, _, _ := strings.Cut(out, "## Representation in Markdown") // before the code block's example
		if len(problems) != 0 || !strings.Contains(page, c.shown) || strings.Contains(page, c.not) || strings.Contains(page, "{%") {
			t.Errorf("claims %v: problems %+v, shows %q: %v, hides %q: %v", c.env.Claims, problems, c.shown, strings.Contains(out, c.shown), c.not, !strings.Contains(out, c.not))
		}
		// The example in the code block stays as written.
		if !strings.Contains(out, "```markdown\n## Example\n\n{% if visitor.claims.unsigned.example_attribute_A %}") {
			t.Error("the code block's example changed")
		}
	}
	src = files["publish/adaptive-content/adapting-your-content.md"]
	body = src[document.Split(src).Body:]
	bucket := condition.Env{Claims: map[string]any{"unsigned": map[string]any{"bucket": map[string]any{"IF_BLOCK": true}}}}
	if out, _ := document.Resolve(body, document.ResolveOptions{}); strings.Contains(out, "**Conditional blocks**") || strings.Contains(out, "{% if") {
		t.Error("the bucket's block is shown to a visitor outside it")
	}
	if out, _ := document.Resolve(body, document.ResolveOptions{Env: bucket}); !strings.Contains(out, "**Conditional blocks**") || strings.Contains(out, "{% endif") {
		t.Error("the bucket's block is not shown to a visitor in it")
	}
}
