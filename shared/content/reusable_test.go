package content_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

// reusableSpace seeds the sample pages (intro with page variables), two
// reusable contents (banner imported from Git, note made in Galley, empty)
// and the space's variables.
func reusableSpace(t *testing.T, f *fixture) (model.Revision, string) {
	t.Helper()
	pages, bodies := samplePages()
	pages[0].Variables = content.Variables{"product": "Acme", "seats": float64(3)}
	bodies["guide"] = "Intro.\n\n{% include \".gitbook/includes/banner.md\" %}\n"
	doc, err := content.NewRepo(f.Kit.Deps).PutDocument(context.Background(), f.space, "## Try it\n\nSee [setup](/pages/setup).\n")
	if err != nil {
		t.Fatal(err)
	}
	tree := &content.Tree{Pages: pages, Variables: content.Variables{"version": "2.1", "beta": true, "limit": float64(10)},
		ReusableContents: []content.ReusableContent{
			{ID: "banner", Title: "Banner", Document: doc,
				Git: &content.GitBlob{OID: "0123456789abcdef0123456789abcdef01234567", Path: ".gitbook/includes/banner.md"}},
			{ID: "note", Title: "Note"},
		}}
	return f.Kit.Land(t, f.space, tree, bodies), doc
}

// A revision with reusable contents and variables: the revision lists
// them, pages carry their variables, the reusable-content reads (space,
// revision, its document, a document by id) answer them, an unknown id is
// 404 with the error shape; a revision written before them lists none.
func TestReusableContentReads(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		old := f.seed(t, func() []content.Page { p, _ := samplePages(); return p }(), map[string]string{}, nil)
		rev, doc := reusableSpace(t, f)
		c := f.As(t, "read")
		sp := "/v1/spaces/" + f.space

		r := c.Expect(http.StatusOK, "GET", sp+"/content", nil).Map(t)
		rcs := r["reusableContents"].([]any)
		if len(rcs) != 2 || rcs[0].(map[string]any)["id"] != "banner" || rcs[0].(map[string]any)["document"] != doc ||
			rcs[1].(map[string]any)["title"] != "Note" {
			t.Fatalf("reusable contents %v", rcs)
		}
		if v := r["variables"]; !reflect.DeepEqual(v, map[string]any{"version": "2.1", "beta": true, "limit": float64(10)}) {
			t.Fatalf("variables %v", v)
		}
		intro := r["pages"].([]any)[0].(map[string]any)
		if !reflect.DeepEqual(intro["variables"], map[string]any{"product": "Acme", "seats": float64(3)}) {
			t.Fatalf("page variables %v", intro["variables"])
		}
		if p := c.Expect(http.StatusOK, "GET", sp+"/content/page/intro?format=markdown", nil).Map(t); !reflect.DeepEqual(p["variables"], intro["variables"]) {
			t.Fatalf("a page read's variables %v", p["variables"])
		}

		got := c.Expect(http.StatusOK, "GET", sp+"/content/reusable-contents/banner", nil).Map(t)
		if got["title"] != "Banner" || got["document"] != doc || got["git"].(map[string]any)["path"] != ".gitbook/includes/banner.md" {
			t.Fatalf("reusable content %v", got)
		}
		if got := c.Expect(http.StatusOK, "GET", sp+"/content/reusable-contents/banner?metadata=false", nil).Map(t); got["git"] != nil {
			t.Fatalf("metadata=false: %v", got)
		}
		if got := c.Expect(http.StatusOK, "GET", sp+"/revisions/"+rev.ID+"/reusable-contents/note", nil).Map(t); got["title"] != "Note" || got["document"] != nil {
			t.Fatalf("empty reusable content %v", got)
		}
		d := c.Expect(http.StatusOK, "GET", sp+"/revisions/"+rev.ID+"/reusable-contents/banner/document?evaluated=true&dereferenced=reusable-contents", nil).Map(t)
		nodes := d["nodes"].([]any)
		if d["object"] != "document" || len(nodes) != 2 || nodes[0].(map[string]any)["type"] != "heading-2" {
			t.Fatalf("document %v", d)
		}
		if !strings.Contains(string(c.Expect(http.StatusOK, "GET", sp+"/revisions/"+rev.ID+"/reusable-contents/banner/document", nil).Body), `"kind":"page","page":"setup"`) {
			t.Fatal("the document's link to a page is no page reference")
		}
		if e := c.Expect(http.StatusOK, "GET", sp+"/revisions/"+rev.ID+"/reusable-contents/note/document", nil).Map(t); len(e["nodes"].([]any)) != 0 {
			t.Fatalf("empty document %v", e)
		}
		if byID := c.Expect(http.StatusOK, "GET", sp+"/documents/"+doc, nil).Map(t); len(byID["nodes"].([]any)) != 2 {
			t.Fatalf("document by id %v", byID)
		}
		for _, p := range []string{sp + "/content/reusable-contents/nope", sp + "/revisions/" + rev.ID + "/reusable-contents/nope",
			sp + "/revisions/" + rev.ID + "/reusable-contents/nope/document", sp + "/revisions/" + old.ID + "/reusable-contents/banner"} {
			e := c.Expect(http.StatusNotFound, "GET", p, nil).Map(t)["error"].(map[string]any)
			if e["code"].(float64) != 404 || !strings.Contains(e["message"].(string), "not found") {
				t.Fatalf("%s: %v", p, e)
			}
		}
		// A revision without them lists none.
		if o := c.Expect(http.StatusOK, "GET", sp+"/revisions/"+old.ID, nil).Map(t); len(o["reusableContents"].([]any)) != 0 || len(o["variables"].(map[string]any)) != 0 {
			t.Fatalf("old revision %v %v", o["reusableContents"], o["variables"])
		}
	})
}

func TestReusableContentReadsAuthAndValidation(t *testing.T) {
	f := setup(t)
	rev, _ := reusableSpace(t, f)
	sp := "/v1/spaces/" + f.space
	for _, p := range []string{sp + "/content/reusable-contents/banner", sp + "/revisions/" + rev.ID + "/reusable-contents/banner",
		sp + "/revisions/" + rev.ID + "/reusable-contents/banner/document"} {
		f.As(t, "read").Expect(http.StatusOK, "GET", p, nil)
		f.As(t, "").Expect(http.StatusUnauthorized, "GET", p, nil)
		f.As(t, testkit.Outsider).Expect(http.StatusNotFound, "GET", p, nil)
		f.As(t, "guest").Expect(http.StatusNotFound, "GET", p, nil)
	}
	long := strings.Repeat("x", 65)
	for path, field := range map[string]string{
		sp + "/content/reusable-contents/" + long:                                            "reusableContentId",
		sp + "/revisions/" + rev.ID + "/reusable-contents/" + long:                           "reusableContentId",
		sp + "/revisions/" + rev.ID + "/reusable-contents/banner/document?evaluated=maybe":   "evaluated",
		sp + "/revisions/" + rev.ID + "/reusable-contents/banner/document?dereferenced=some": "dereferenced",
	} {
		res := f.As(t, "read").Expect(http.StatusBadRequest, "GET", path, nil)
		if !strings.Contains(string(res.Body), field) {
			t.Errorf("GET %s: 400 %s does not name %s", path, res.Body, field)
		}
	}
}

// The reusable-content reads and a revision holding them answer what
// GitBook's schemas describe.
func TestReusableContentReadsMatchGitBookSchemas(t *testing.T) {
	reg := gitbook(t)
	f := setup(t)
	rev, _ := reusableSpace(t, f)
	c := f.As(t, "read")
	sp := "/v1/spaces/" + f.space
	for path, schema := range map[string]*huma.Schema{
		sp + "/content":                                                    schemaRef("Revision"),
		sp + "/revisions/" + rev.ID:                                        schemaRef("Revision"),
		sp + "/content/reusable-contents/banner":                           schemaRef("RevisionReusableContent"),
		sp + "/content/reusable-contents/note":                             schemaRef("RevisionReusableContent"),
		sp + "/revisions/" + rev.ID + "/reusable-contents/banner":          schemaRef("RevisionReusableContent"),
		sp + "/revisions/" + rev.ID + "/reusable-contents/banner/document": schemaRef("JSONDocument"),
		sp + "/content/page/intro":                                         schemaRef("RevisionPageDocument"),
	} {
		var v any
		c.Expect(http.StatusOK, "GET", path, nil).JSON(t, &v)
		conforms(t, reg, schema, path, v)
	}
}

// Reusable contents and variables survive the tree's storage and its read
// index, and an index of a tree without them reads none; include targets
// resolve from the page's file (the one it came from first) and by id.
func TestReusableContentsInTheTreeAndItsIndex(t *testing.T) {
	f := setup(t)
	rev, _ := reusableSpace(t, f)
	ctx := context.Background()
	repo := content.NewRepo(f.Kit.Deps)
	_, ix, err := repo.Load(ctx, f.space, rev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.ReusableContents()) != 2 || ix.Variables()["version"] != "2.1" || ix.Page("intro").Variables["seats"] != float64(3) {
		t.Fatalf("loaded: %+v %v", ix.ReusableContents(), ix.Variables())
	}
	tr, err := repo.Reader(ctx, rev)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := tr.ReusableContent(ctx, "banner")
	if err != nil || rc == nil || rc.Title != "Banner" {
		t.Fatalf("reader: %+v %v", rc, err)
	}
	if id, err := tr.ReusableContentAtGitPath(ctx, ".gitbook/includes/banner.md"); err != nil || id != "banner" {
		t.Fatalf("by file: %q %v", id, err)
	}
	if v, err := tr.Variables(ctx); err != nil || !reflect.DeepEqual(v, ix.Variables()) {
		t.Fatalf("variables %v %v", v, err)
	}
	if rc, err := tr.ReusableContent(ctx, "nope"); err != nil || rc != nil {
		t.Fatalf("unknown: %+v %v", rc, err)
	}
	// A second reader reads the index written by the first.
	tr2, err := repo.Reader(ctx, rev)
	if err != nil {
		t.Fatal(err)
	}
	if rc, err := tr2.ReusableContent(ctx, "note"); err != nil || rc == nil {
		t.Fatalf("from the stored index: %+v %v", rc, err)
	}

	// Includes: a path from the page's file, the id form, unknown ones.
	for target, want := range map[string]string{
		".gitbook/includes/banner.md":     "banner",
		"./.gitbook/includes/banner.md":   "banner",
		"/.gitbook/includes/banner.md":    "banner",
		"../.gitbook/includes/banner.md":  "",
		"/reusable-contents/note":         "note",
		"/reusable-contents/nope":         "",
		".gitbook/includes/missing.md":    "",
		"https://example.com/banner.md":   "",
		"%2Egitbook/includes/banner%2Emd": "banner",
	} {
		if got := ix.ReusableContentAt("guide", target); got != want {
			t.Errorf("include %q from guide: %q, want %q", target, got, want)
		}
	}
	// setup is written to intro/setup.md; imported from a/b/setup.md, its
	// includes are read from there first.
	if got := ix.ReusableContentAt("setup", "../.gitbook/includes/banner.md"); got != "banner" {
		t.Errorf("from intro/setup.md: %q", got)
	}
	p := *ix.Page("setup")
	p.Git = &content.GitBlob{OID: "x", Path: "a/b/setup.md"}
	ix.Put(p)
	if got := ix.ReusableContentAt("setup", "../../.gitbook/includes/banner.md"); got != "banner" {
		t.Errorf("from the imported file: %q", got)
	}

	// A tree without them: none, and an empty tree stays "".
	if key, err := repo.PutTree(ctx, f.space, &content.Tree{}); err != nil || key != "" {
		t.Fatalf("empty tree %q %v", key, err)
	}
	if key, err := repo.PutTree(ctx, f.space, &content.Tree{Variables: content.Variables{"a": "b"}}); err != nil || key == "" {
		t.Fatalf("a tree of variables alone is stored: %q %v", key, err)
	}
}

// Links to reusable contents (Galley's /reusable-contents/<id>, GitBook's
// ContentRef of kind reusable-content) resolve where content refs do: the
// links of a page and a document's references.
func TestReusableContentRefsResolve(t *testing.T) {
	pages, _ := samplePages()
	ix := content.NewIndex(&content.Tree{Pages: pages, ReusableContents: []content.ReusableContent{{ID: "rc1", Title: "One"}}})
	links := content.ResolveLinks(ix, ix.Page("intro"), []document.RawLink{{Href: "/reusable-contents/rc1"}, {Href: "/reusable-contents/gone"}}, "")
	if links[0].Kind != "reusable-content" || links[0].Target != "rc1" || links[0].Status != content.LinkOK || links[1].Status != content.LinkBroken {
		t.Fatalf("links %+v", links)
	}
	link := content.Page{ID: "l", Type: content.TypeLink, Target: &content.Ref{Kind: "reusable-content", ReusableContent: "rc1"}}
	if ex := content.PageExtras(&link); len(ex) != 1 || ex[0].Href != "/reusable-contents/rc1" {
		t.Fatalf("extras %+v", ex)
	}
	ref := document.Resolver{Locator: ix}.Ref("/reusable-contents/rc1")
	if ref["kind"] != "reusable-content" || ref["reusableContent"] != "rc1" {
		t.Fatalf("ref %v", ref)
	}
}

// Three-way merges keep reusable contents and variables: a change on one
// side is taken, the same change on both is taken once, different changes
// conflict (named by reusable content or variable).
func TestMergeOfReusableContentsAndVariables(t *testing.T) {
	base := content.NewIndex(&content.Tree{ReusableContents: []content.ReusableContent{{ID: "a", Title: "A"}, {ID: "b", Title: "B"}},
		Variables: content.Variables{"x": "1", "y": "1"}})
	ours := content.NewIndex(base.Tree())
	theirs := content.NewIndex(base.Tree())
	ours.PutReusableContent(content.ReusableContent{ID: "a", Title: "A2"})
	ours.SetVariables(content.Variables{"x": "2", "y": "1", "z": true})
	theirs.RemoveReusableContent("b")
	theirs.PutReusableContent(content.ReusableContent{ID: "c", Title: "C"})
	theirs.SetVariables(content.Variables{"x": "1"})
	m := &content.Merger{Base: base, Ours: ours, Theirs: theirs, OursName: "ours", TheirsName: "theirs"}
	out, conflicts, err := m.Merge()
	if err != nil || len(conflicts) != 0 {
		t.Fatalf("%v %v", conflicts, err)
	}
	var titles []string
	for _, rc := range out.ReusableContents() {
		titles = append(titles, rc.Title)
	}
	if strings.Join(titles, ",") != "A2,C" || !reflect.DeepEqual(out.Variables(), content.Variables{"x": "2", "z": true}) {
		t.Fatalf("merged %v %v", titles, out.Variables())
	}
	theirs.PutReusableContent(content.ReusableContent{ID: "a", Title: "A3"})
	theirs.SetVariables(content.Variables{"x": "3"})
	_, conflicts, err = m.Merge()
	if err != nil || len(conflicts) != 2 || conflicts[0].ReusableContent != "a" || conflicts[1].Variable != "x" {
		t.Fatalf("conflicts %+v %v", conflicts, err)
	}
}

// Variables are checked as GitBook's rules say.
func TestCheckVariables(t *testing.T) {
	if v, err := content.CheckVariables(map[string]any{"a_1": "x", "n": 3, "f": 1.5, "b": false}); err != nil ||
		!reflect.DeepEqual(v, content.Variables{"a_1": "x", "n": float64(3), "f": 1.5, "b": false}) {
		t.Fatalf("%v %v", v, err)
	}
	for _, bad := range []map[string]any{{"1a": "x"}, {"a-b": "x"}, {"a": strings.Repeat("x", 257)}, {"a": []any{1}}, {"a": nil}} {
		if _, err := content.CheckVariables(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if v := content.LenientVariables(map[string]any{"ok": 1, "not ok": 2, "list": []any{}}); !reflect.DeepEqual(v, content.Variables{"ok": float64(1)}) {
		t.Fatalf("lenient %v", v)
	}
	title, body := content.ReusableContentBody("---\ntitle: Hello\n---\n\n# Heading\n\nText.\n")
	if title != "Hello" || body != "# Heading\n\nText.\n" {
		t.Fatalf("%q %q", title, body)
	}
}
