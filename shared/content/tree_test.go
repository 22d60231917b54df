package content

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/document"
)

func TestBetweenStaysStrictlyBetweenUnderRandomInserts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := []string{}
	for n := 0; n < 3000; n++ {
		at := rng.IntN(len(keys) + 1)
		lo, hi := "", ""
		if at > 0 {
			lo = keys[at-1]
		}
		if at < len(keys) {
			hi = keys[at]
		}
		k := Between(lo, hi)
		if (lo != "" && k <= lo) || (hi != "" && k >= hi) {
			t.Fatalf("Between(%q, %q) = %q, not strictly between", lo, hi, k)
		}
		if strings.HasSuffix(k, "0") {
			t.Fatalf("Between(%q, %q) = %q ends in the lowest digit", lo, hi, k)
		}
		keys = append(keys[:at], append([]string{k}, keys[at:]...)...)
	}
	if !sort.StringsAreSorted(keys) {
		t.Fatal("keys out of order")
	}
}

func TestBetweenKeepsKeysShortWhenAppendingOrPrepending(t *testing.T) {
	last, first := "", ""
	for i := 0; i < 1000; i++ {
		last = Between(last, "")
		first = Between("", first)
	}
	if len(last) > 40 || len(first) > 40 {
		t.Fatalf("after 1000 appends/prepends keys are %d and %d long", len(last), len(first))
	}
}

func TestSpreadIsIncreasingAndLeavesRoomBetween(t *testing.T) {
	for _, n := range []int{1, 2, 61, 62, 5000} {
		keys := Spread(n)
		for i := 1; i < len(keys); i++ {
			if keys[i-1] >= keys[i] {
				t.Fatalf("Spread(%d): %q >= %q", n, keys[i-1], keys[i])
			}
			if mid := Between(keys[i-1], keys[i]); mid <= keys[i-1] || mid >= keys[i] {
				t.Fatalf("no room between %q and %q", keys[i-1], keys[i])
			}
		}
	}
}

func sampleIndex() *Index {
	keys := Spread(3)
	return NewIndex(&Tree{Pages: []Page{
		{ID: "intro", Pos: keys[0], Type: TypeDocument, Title: "Intro", Slug: "intro"},
		{ID: "setup", Parent: "intro", Pos: keys[0], Type: TypeDocument, Title: "Setup", Slug: "setup"},
		{ID: "guide", Pos: keys[1], Type: TypeDocument, Title: "Guide", Slug: "guide"},
		{ID: "grp", Pos: keys[2], Type: TypeGroup, Title: "Reference", Slug: "reference"},
		{ID: "api", Parent: "grp", Pos: keys[0], Type: TypeDocument, Title: "API", Slug: "api"},
	}})
}

func TestPathsAndGitPaths(t *testing.T) {
	ix := sampleIndex()
	for id, want := range map[string]string{"intro": "intro", "setup": "intro/setup", "api": "reference/api"} {
		if got := ix.Path(id); got != want {
			t.Errorf("Path(%s) = %q, want %q", id, got, want)
		}
		if got := ix.Paths()[id]; got != want {
			t.Errorf("Paths()[%s] = %q, want %q", id, got, want)
		}
	}
	if got := ix.GitPath("intro"); got != "intro/README.md" {
		t.Errorf("a page with children is written to %q", got)
	}
	if got := ix.GitPath("setup"); got != "intro/setup.md" {
		t.Errorf("a leaf page is written to %q", got)
	}
	for path, want := range map[string]string{"intro/setup.md": "setup", "intro/README.md": "intro", "intro": "intro", "guide.md": "guide", "nope.md": ""} {
		got := ""
		if p := ix.ByGitPath(path); p != nil {
			got = p.ID
		}
		if got != want {
			t.Errorf("ByGitPath(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestTreeIsDepthFirstAndSlugsStayUnique(t *testing.T) {
	ix := sampleIndex()
	var order []string
	for _, p := range ix.Tree().Pages {
		order = append(order, p.ID)
	}
	if got := strings.Join(order, ","); got != "intro,setup,guide,grp,api" {
		t.Fatalf("tree order %s", got)
	}
	if got := ix.UniqueSlug("", "guide", ""); got != "guide-2" {
		t.Errorf("UniqueSlug = %q", got)
	}
	if got := ix.UniqueSlug("", "guide", "guide"); got != "guide" {
		t.Errorf("a page keeps its own slug: %q", got)
	}
	if !ix.IsDescendant("setup", "intro") || ix.IsDescendant("intro", "setup") {
		t.Error("IsDescendant is wrong")
	}
}

func TestParseMarkdownSplitsFrontmatterTitleAndBody(t *testing.T) {
	a, err := document.Parse("---\r\ndescription: How to start\r\nhidden: true\r\nlayout:\r\n  width: wide\r\n---\r\n\r\n# Getting started #\r\n\r\nFirst line.\r\n\r\n\r\n")
	if err != nil {
		t.Fatal(err)
	}
	if a.Title != "Getting started" || a.Body != "First line.\n" || *a.Front.Description != "How to start" || !*a.Front.Hidden || *a.Front.Layout.Width != "wide" {
		t.Fatalf("parsed %+v", a)
	}
	p := &Page{Title: a.Title}
	ApplyFrontmatter(a.Front, p)
	if p.Description != "How to start" || !p.Hidden || p.Layout.Width != "wide" || !p.Layout.Outline {
		t.Fatalf("applied %+v", p)
	}
	back, err := document.Parse(RenderMarkdown(p, a.Body, FrontDescription))
	if err != nil || back.Title != a.Title || back.Body != a.Body || *back.Front.Description != p.Description {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	if back.Front.Hidden != nil || back.Front.Layout != nil {
		t.Fatalf("FrontDescription wrote more than the description: %+v", back.Front)
	}
	full, err := document.Parse(RenderMarkdown(p, a.Body, FrontMetadata))
	if err != nil || full.Front.Hidden == nil || !*full.Front.Hidden || full.Front.Layout == nil || *full.Front.Layout.Width != "wide" {
		t.Fatalf("FrontMetadata round trip: %+v, %v", full, err)
	}
	// A page's condition is GitBook's `if:`, written for Git Sync only.
	cond, err := document.Parse("---\nif: visitor.claims.unsigned.isPremium === true\n---\n# Premium\n")
	if err != nil || cond.Front.If == nil {
		t.Fatalf("if: %+v, %v", cond, err)
	}
	cp := &Page{Title: cond.Title}
	ApplyFrontmatter(cond.Front, cp)
	if cp.Condition != "visitor.claims.unsigned.isPremium === true" {
		t.Fatalf("applied condition %q", cp.Condition)
	}
	if md := RenderMarkdown(cp, "", FrontMetadata); !strings.Contains(md, "if: visitor.claims.unsigned.isPremium === true\n") {
		t.Errorf("FrontMetadata lacks the condition: %q", md)
	}
	if md := RenderMarkdown(cp, "", FrontDescription); strings.Contains(md, "if:") {
		t.Errorf("FrontDescription writes the condition: %q", md)
	}
	for _, bad := range []string{"---\ndescription: x\n", "---\nunknown: 1\n---\n# T\n", "---\ndescription: [\n---\n"} {
		if _, err := document.Parse(bad); err == nil {
			t.Errorf("ParseMarkdown(%q) accepted", bad)
		}
	}
	if a, _ := document.Parse("No heading here\n"); a.Title != "" || a.Body != "No heading here\n" {
		t.Errorf("without a heading: %+v", a)
	}
}

func TestDocumentConvertsBlocksAndResolvesLinks(t *testing.T) {
	ix := sampleIndex()
	body := strings.Join([]string{
		"## Install",
		"",
		"Read [setup](./setup.md), the [guide](../guide.md#usage), a [file](/files/f1), [site](https://example.com) and **bold _both_** `code`.",
		"",
		"- one",
		"- two",
		"  - nested",
		"",
		"1. first",
		"2. second",
		"",
		"```go",
		"fmt.Println()",
		"```",
		"",
		"> quoted",
		"",
		"---",
		"",
		"![diagram](/files/f2)",
		"",
		`{% hint style="warning" %}`,
		"Careful.",
		"{% endhint %}",
	}, "\n")
	doc := document.ToDocument(body, document.Resolver{Locator: ix, PageID: "intro"})
	var types []string
	for _, n := range doc.Nodes {
		types = append(types, n["type"].(string))
	}
	if got := strings.Join(types, ","); got != "heading-2,paragraph,list-unordered,list-ordered,code,blockquote,divider,images,hint" {
		t.Fatalf("blocks %s", got)
	}
	var refs []string
	for _, n := range doc.Nodes[1]["nodes"].([]document.Node) {
		if n["type"] == "link" {
			ref := n["data"].(document.Node)["ref"].(document.Node)
			refs = append(refs, ref["kind"].(string)+":"+first(ref, "anchor", "page", "file", "url")+"@"+first(ref, "page"))
		}
	}
	if got := strings.Join(refs, ","); got != "page:setup@setup,anchor:usage@guide,file:f1@,url:https://example.com@" {
		t.Fatalf("link refs %s", got)
	}
	nested := doc.Nodes[2]["nodes"].([]document.Node)[1]["nodes"].([]document.Node)
	if len(nested) != 2 || nested[1]["type"] != "list-unordered" {
		t.Fatalf("nested list not kept: %v", nested)
	}
}

func first(n document.Node, fields ...string) string {
	for _, f := range fields {
		if s, ok := n[f].(string); ok {
			return s
		}
	}
	return ""
}
