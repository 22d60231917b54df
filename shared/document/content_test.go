package document_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/testkit"
)

// reusables is a ReusableLocator over a map of file paths to ids.
type reusables map[string]string

func (r reusables) ReusableAtGitPath(p string) string { return r[p] }

func (r reusables) GitPathOfReusable(id string) string {
	for p, x := range r {
		if x == id {
			return p
		}
	}
	return ""
}

// roundTrip reads body as the page file at file and writes it back.
func roundTrip(t *testing.T, body, file string, rc document.ReusableLocator) (document.JSONDocument, string) {
	t.Helper()
	d := document.ToDocument(body, document.Resolver{File: file, Reusables: rc})
	md, err := document.MarkdownOfDocumentWith(testkit.Sent(t, d), document.MarkdownOptions{File: file, Reusables: rc})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return d, md
}

// Inline expressions read as GitBook's expression nodes and write back as
// they were, HTML escapes included.
func TestExpressionNodes(t *testing.T) {
	body := "Version <code class=\"expression\">space.vars.latest_version</code> is **out**, " +
		"see <code class=\"expression\">page.vars.a &#x3C; 2 &#x26;&#x26; page.vars.b</code>.\n\n" +
		"- item <code class=\"expression\">\"My favorite food is \" + space.vars.food</code>\n\n" +
		"Not one: `<code class=\"expression\">space.vars.x</code>`\n"
	d, md := roundTrip(t, body, "page.md", nil)
	if md != body {
		t.Fatalf("round trip changed the markdown:\n%s\nwant:\n%s", md, body)
	}
	var exprs []string
	var walk func(nodes []document.Node)
	walk = func(nodes []document.Node) {
		for _, n := range nodes {
			if n["type"] == "expression" {
				if n["object"] != "inline" || n["isVoid"] != true {
					t.Errorf("expression node %v", n)
				}
				exprs = append(exprs, n["data"].(document.Node)["expression"].(string))
			}
			if kids, ok := n["nodes"].([]document.Node); ok {
				walk(kids)
			}
		}
	}
	walk(d.Nodes)
	want := []string{"space.vars.latest_version", "page.vars.a < 2 && page.vars.b", `"My favorite food is " + space.vars.food`}
	if !reflect.DeepEqual(exprs, want) {
		t.Errorf("expressions %q, want %q", exprs, want)
	}
	// An expression the evaluator cannot read is refused on the way in.
	bad := map[string]any{"nodes": []any{map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
		map[string]any{"object": "inline", "type": "expression", "isVoid": true, "data": map[string]any{"expression": "alert(1)"}}}}}}
	if _, err := document.MarkdownOfDocument(bad); err == nil || !strings.Contains(err.Error(), "nodes[0].nodes[0].data.expression") {
		t.Errorf("error %v, want one naming the expression", err)
	}
}

// Conditional blocks read as Galley's conditional nodes, nest, and write
// back as GitBook writes them.
func TestConditionalBlocks(t *testing.T) {
	body := strings.Join([]string{
		"Intro.",
		"",
		"{% if visitor.claims.unsigned.example_attribute_A %}",
		"This block is only visible to users **with** attribute A.",
		"",
		"{% if space.vars.beta === true %}",
		"Nested.",
		"{% endif %}",
		"{% endif %}",
		"",
		"{% if !visitor.claims.unsigned.example_attribute_A %}",
		"{% endif %}",
		"",
		"```markdown",
		"{% if not.parsed %}",
		"```",
	}, "\n") + "\n"
	d, md := roundTrip(t, body, "a/b.md", nil)
	if md != body {
		t.Fatalf("round trip changed the markdown:\n%s\nwant:\n%s", md, body)
	}
	if len(d.Nodes) != 4 || d.Nodes[1]["type"] != "if" || d.Nodes[2]["type"] != "if" || d.Nodes[3]["type"] != "code" {
		t.Fatalf("nodes %s", string(testkit.JSON(t, d.Nodes)))
	}
	outer := d.Nodes[1]
	if c := outer["data"].(document.Node)["expression"]; c != "visitor.claims.unsigned.example_attribute_A" {
		t.Errorf("condition %v", c)
	}
	inner := outer["nodes"].([]document.Node)
	if len(inner) != 2 || inner[1]["type"] != "if" || inner[1]["data"].(document.Node)["expression"] != "space.vars.beta === true" {
		t.Errorf("inner nodes %s", string(testkit.JSON(t, inner)))
	}
	// Document -> markdown -> document is stable.
	again := document.ToDocument(md, document.Resolver{})
	if string(testkit.JSON(t, again)) != string(testkit.JSON(t, d)) {
		t.Error("the document changed on a second reading")
	}
	// An unclosed block runs to the end of its container.
	d = document.ToDocument("{% if visitor.claims.a %}\nsecret\n\nmore\n", document.Resolver{})
	if len(d.Nodes) != 1 || d.Nodes[0]["type"] != "if" || len(d.Nodes[0]["nodes"].([]document.Node)) != 2 {
		t.Errorf("unclosed block: %s", string(testkit.JSON(t, d.Nodes)))
	}
	// Inside an expandable, as GitBook lets reusable content be.
	d = document.ToDocument("<details>\n\n<summary>More</summary>\n\n{% if visitor.claims.a %}\nx\n{% endif %}\n\n</details>\n", document.Resolver{})
	if !strings.Contains(string(testkit.JSON(t, d)), `"type":"if"`) {
		t.Errorf("no conditional in the expandable: %s", string(testkit.JSON(t, d)))
	}
	// Conditions the evaluator cannot read are refused on the way in.
	for cond, want := range map[string]string{"": "required", "a.b": "unknown name", "x %} y": "%}", "a\nb": "line break"} {
		doc := map[string]any{"nodes": []any{map[string]any{"object": "block", "type": "if", "data": map[string]any{"expression": cond}, "nodes": []any{}}}}
		if _, err := document.MarkdownOfDocument(doc); err == nil || !strings.Contains(err.Error(), "nodes[0].data.expression") || !strings.Contains(err.Error(), want) {
			t.Errorf("condition %q: error %v, want one naming data.expression (%s)", cond, err, want)
		}
	}
}

// Includes read as reusable-content blocks when their path names a
// reusable content (relative to the page's file), write back as the same
// path, and stay as written when they name nothing.
func TestIncludes(t *testing.T) {
	rc := reusables{".gitbook/includes/need-help.md": "rc1", ".gitbook/includes/a_b.md": "rc2"}
	body := strings.Join([]string{
		"## Go further",
		"",
		`{% include "../.gitbook/includes/need-help.md" %}`,
		"",
		`{% include "../.gitbook/includes/missing_file.md" %}`,
		"",
		`{% include "../../outside_space.md" %}`,
		"",
		`{% include "/.gitbook/includes/a_b.md" %}`,
	}, "\n") + "\n"
	d, md := roundTrip(t, body, "guides/page.md", rc)
	want := strings.Replace(body, `"/.gitbook/includes/a_b.md"`, `"../.gitbook/includes/a_b.md"`, 1) // written relative, as GitBook does
	if md != want {
		t.Fatalf("round trip:\n%s\nwant:\n%s", md, want)
	}
	ids := []string{}
	for _, n := range d.Nodes {
		if n["type"] == "reusable-content" {
			if n["isVoid"] != true {
				t.Error("a reusable-content block that is not void")
			}
			ref := n["data"].(document.Node)["ref"].(document.Node)
			if ref["kind"] != "reusable-content" {
				t.Errorf("ref %v", ref)
			}
			ids = append(ids, ref["reusableContent"].(string))
		}
	}
	if !reflect.DeepEqual(ids, []string{"rc1", "rc2"}) {
		t.Errorf("reusable contents %v, want rc1 rc2", ids)
	}
	if d.Nodes[2]["type"] != "paragraph" || d.Nodes[3]["type"] != "paragraph" {
		t.Errorf("unresolved includes: %s", string(testkit.JSON(t, d.Nodes[2:4])))
	}
	// From the root, a page's include has no "../".
	_, md = roundTrip(t, "{% include \".gitbook/includes/need-help.md\" %}\n", "README.md", rc)
	if md != "{% include \".gitbook/includes/need-help.md\" %}\n" {
		t.Errorf("root page: %q", md)
	}
	// Without a locator, blocks are written by id, and read back the same.
	doc := map[string]any{"nodes": []any{
		map[string]any{"object": "block", "type": "reusable-content", "isVoid": true, "data": map[string]any{"ref": map[string]any{"kind": "reusable-content", "reusableContent": "rc9"}}},
		map[string]any{"object": "block", "type": "reusable-content", "isVoid": true, "data": map[string]any{"ref": map[string]any{"kind": "reusable-content", "reusableContent": "rc8", "space": "sp1"}}},
	}}
	md, err := document.MarkdownOfDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	if md != "{% include \"/reusable-content/rc9\" %}\n\n{% include \"/s/sp1/reusable-content/rc8\" %}\n" {
		t.Errorf("by id: %q", md)
	}
	back := document.ToDocument(md, document.Resolver{})
	if got := string(testkit.JSON(t, back.Nodes)); got != string(testkit.JSON(t, doc["nodes"])) {
		t.Errorf("by id read back as %s", got)
	}
	// A locator that knows the id writes its path.
	md, _ = document.MarkdownOfDocumentWith(doc, document.MarkdownOptions{File: "a/b/c.md", Reusables: reusables{".gitbook/includes/x.md": "rc9"}})
	if !strings.HasPrefix(md, "{% include \"../../.gitbook/includes/x.md\" %}\n\n{% include \"/s/sp1/reusable-content/rc8\" %}") {
		t.Errorf("by path: %q", md)
	}
	bad := map[string]any{"nodes": []any{map[string]any{"object": "block", "type": "reusable-content", "data": map[string]any{"ref": map[string]any{"kind": "reusable-content"}}}}}
	if _, err := document.MarkdownOfDocument(bad); err == nil || !strings.Contains(err.Error(), "nodes[0].data.ref.reusableContent") {
		t.Errorf("error %v, want one naming the ref's reusableContent", err)
	}
}

func TestReadIncludeTarget(t *testing.T) {
	for _, c := range []struct {
		src, from string
		want      document.IncludeTarget
		ok        bool
	}{
		{"../.gitbook/includes/x.md", "guides/page.md", document.IncludeTarget{Path: ".gitbook/includes/x.md"}, true},
		{"../../.gitbook/includes/x.md", "a/b/page.md", document.IncludeTarget{Path: ".gitbook/includes/x.md"}, true},
		{".gitbook/includes/x.md", "README.md", document.IncludeTarget{Path: ".gitbook/includes/x.md"}, true},
		{".gitbook/includes/x.md", "", document.IncludeTarget{Path: ".gitbook/includes/x.md"}, true},
		{"/.gitbook/includes/x.md", "a/b.md", document.IncludeTarget{Path: ".gitbook/includes/x.md"}, true},
		{"other.md", ".gitbook/includes/x.md", document.IncludeTarget{Path: ".gitbook/includes/other.md"}, true},
		{"/reusable-content/rc12345", "a/b.md", document.IncludeTarget{ID: "rc12345"}, true},
		{"/s/sp1/reusable-content/rc1", "a/b.md", document.IncludeTarget{ID: "rc1", Space: "sp1"}, true},
		{"/reusable-contents/rc12345", "a/b.md", document.IncludeTarget{ID: "rc12345"}, true},
		{"../x.md", "page.md", document.IncludeTarget{}, false},
		{"git+https://github.com/x/y.git/README.md", "page.md", document.IncludeTarget{}, false},
		{"", "page.md", document.IncludeTarget{}, false},
		{"/reusable-content/", "page.md", document.IncludeTarget{Path: "reusable-content"}, true},
	} {
		got, ok := document.ReadIncludeTarget(c.src, c.from)
		if ok != c.ok || got != c.want {
			t.Errorf("ReadIncludeTarget(%q, %q) = %+v %v, want %+v %v", c.src, c.from, got, ok, c.want, c.ok)
		}
	}
}

// A conditional block inside a list item or a hint is kept with what it
// holds, and written back in place.
func TestConditionalBlocksInContainers(t *testing.T) {
	body := "- item\n\n  {% if visitor.claims.a %}\n  inside\n  {% endif %}\n\n{% hint style=\"info\" %}\n{% if visitor.claims.b %}\nhinted\n{% endif %}\n{% endhint %}\n"
	d, md := roundTrip(t, body, "p.md", nil)
	if n := strings.Count(string(testkit.JSON(t, d)), `"type":"if"`); n != 2 {
		t.Fatalf("%d conditional blocks, want 2: %s", n, string(testkit.JSON(t, d)))
	}
	if md != body {
		t.Errorf("round trip:\n%s\nwant:\n%s", md, body)
	}
}
