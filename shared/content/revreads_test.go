package content_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

// twoRevisions seeds the sample pages with a file (rev1), then a second
// revision (rev2, the head) that retitles intro, deletes guide, adds faq
// and moves setup to the top level.
func twoRevisions(t *testing.T, f *fixture) (rev1, rev2 model.Revision) {
	t.Helper()
	repo := content.NewRepo(f.Kit.Deps)
	blob, err := repo.PutFileBytes(context.Background(), f.space, []byte("png"), "image/png")
	if err != nil {
		t.Fatal(err)
	}
	files := []content.File{{ID: "pic", Name: "pic.png", ContentType: "image/png", Size: 3, Blob: blob}}
	pages, bodies := samplePages()
	bodies["guide"] = "## Getting started\n\nRead on.\n"
	rev1 = f.seed(t, pages, bodies, files)
	k := content.Spread(4)
	pages2 := []content.Page{
		{ID: "intro", Pos: k[0], Type: content.TypeDocument, Title: "Welcome", Slug: "intro", Description: "Start here"},
		{ID: "setup", Pos: k[1], Type: content.TypeDocument, Title: "Setup", Slug: "setup"},
		{ID: "ext", Pos: k[2], Type: content.TypeLink, Title: "Website", Target: &content.Ref{Kind: "url", URL: "https://example.com"}},
		{ID: "faq", Pos: k[3], Type: content.TypeDocument, Title: "FAQ", Slug: "faq"},
	}
	rev2 = f.seed(t, pages2, map[string]string{"intro": bodies["intro"], "setup": bodies["setup"], "faq": "Q?\n"}, files)
	return rev1, rev2
}

// Every page of a tree carries what GitBook's schemas require: pages
// (empty for a leaf) and tags; document pages also urls, layout, slug and
// path.
func checkTree(t *testing.T, pages []any) {
	t.Helper()
	for _, x := range pages {
		p := x.(map[string]any)
		kids, ok := p["pages"].([]any)
		if !ok {
			t.Fatalf("page %v without pages", p["id"])
		}
		if _, ok := p["tags"].([]any); !ok {
			t.Fatalf("page %v without tags", p["id"])
		}
		if p["type"] == "document" {
			for _, field := range []string{"kind", "urls", "slug", "path", "layout"} {
				if _, ok := p[field]; !ok {
					t.Fatalf("document page %v without %s", p["id"], field)
				}
			}
		}
		checkTree(t, kids)
	}
}

func TestReadsOfARevisionByID(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		rev1, rev2 := twoRevisions(t, f)
		c := f.As(t, "read")
		base := "/v1/spaces/" + f.space + "/revisions/" + rev1.ID

		rev := c.Expect(http.StatusOK, "GET", base, nil).Map(t)
		if rev["id"] != rev1.ID || len(rev["pages"].([]any)) != 3 || len(rev["files"].([]any)) != 1 ||
			rev["urls"].(map[string]any)["app"] != "https://app.test/s/"+f.space+"/~/revisions/"+rev1.ID {
			t.Fatalf("revision %v", rev)
		}
		checkTree(t, rev["pages"].([]any))

		pages := c.Expect(http.StatusOK, "GET", base+"/pages", nil).Map(t)["pages"].([]any)
		checkTree(t, pages)
		intro := pages[0].(map[string]any)
		if intro["id"] != "intro" || intro["title"] != "Introduction" || len(intro["pages"].([]any)) != 1 {
			t.Fatalf("rev1's intro: %v", intro)
		}

		// The page of the old revision, not the head's.
		p := c.Expect(http.StatusOK, "GET", base+"/page/intro?format=markdown", nil).Map(t)
		if p["title"] != "Introduction" || !strings.Contains(p["markdown"].(string), "Welcome.") {
			t.Fatalf("page %v", p)
		}
		if head := c.Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/page/intro", nil).Map(t); head["title"] != "Welcome" {
			t.Fatalf("head's page %v", head)
		}
		c.Expect(http.StatusNotFound, "GET", base+"/page/faq", nil) // faq is rev2's

		// A page's document, headings carrying their anchor in meta.id.
		doc := c.Expect(http.StatusOK, "GET", base+"/page/guide/document", nil).Map(t)
		h := doc["nodes"].([]any)[0].(map[string]any)
		if doc["object"] != "document" || h["type"] != "heading-2" || h["meta"].(map[string]any)["id"] != "getting-started" {
			t.Fatalf("document %v", doc)
		}
		c.Expect(http.StatusNotFound, "GET", base+"/page/ext/document", nil) // a link has no document

		files := c.Expect(http.StatusOK, "GET", base+"/files?limit=1", nil).Map(t)
		if files["count"].(float64) != 1 || files["items"].([]any)[0].(map[string]any)["id"] != "pic" {
			t.Fatalf("files %v", files)
		}
		if file := c.Expect(http.StatusOK, "GET", base+"/files/pic", nil).Map(t); file["name"] != "pic.png" {
			t.Fatalf("file %v", file)
		}
		c.Expect(http.StatusNotFound, "GET", base+"/files/nope", nil)

		if ml := c.Expect(http.StatusOK, "GET", base+"/page/intro/meta-links", nil).Map(t); len(ml["alternates"].([]any)) != 0 {
			t.Fatalf("meta links %v", ml)
		}
		c.Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/page/intro/meta-links", nil)
		c.Expect(http.StatusNotFound, "GET", base+"/page/nope/meta-links", nil)

		// No reusable contents in Galley: every id is not found.
		c.Expect(http.StatusNotFound, "GET", base+"/reusable-contents/rc1", nil)
		c.Expect(http.StatusNotFound, "GET", base+"/reusable-contents/rc1/document", nil)

		// Semantic changes of rev2 against rev1.
		var ch struct {
			Changes []struct {
				Type       string
				Page       struct{ ID, Title, Path string }
				Attributes map[string]struct{ Before, After string }
				Parent     *struct{ Before, After *struct{ ID string } }
			}
			More int
		}
		c.Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/revisions/"+rev2.ID+"/changes", nil).JSON(t, &ch)
		got := map[string]string{}
		for _, x := range ch.Changes {
			got[x.Page.ID] += x.Type + ";"
			switch {
			case x.Type == "page_edited" && x.Page.ID == "intro":
				if a := x.Attributes["title"]; a.Before != "Introduction" || a.After != "Welcome" {
					t.Errorf("intro's edit %v", x.Attributes)
				}
			case x.Type == "page_moved":
				if x.Parent == nil || x.Parent.Before == nil || x.Parent.Before.ID != "intro" || x.Parent.After != nil {
					t.Errorf("setup's move %+v", x.Parent)
				}
			}
		}
		want := map[string]string{"intro": "page_edited;", "setup": "page_moved;", "faq": "page_created;", "guide": "page_deleted;"}
		if len(got) != len(want) {
			t.Fatalf("changes %+v", ch)
		}
		for id, w := range want {
			if got[id] != w {
				t.Fatalf("changes of %s: %q, want %q (%+v)", id, got[id], w, ch)
			}
		}
		c.Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/revisions/"+rev2.ID+"/changes?limit=1", nil).JSON(t, &ch)
		if len(ch.Changes) != 1 || ch.More != 3 {
			t.Fatalf("limited changes %+v", ch)
		}
		// The first revision's changes are against empty content.
		c.Expect(http.StatusOK, "GET", base+"/changes", nil).JSON(t, &ch)
		if len(ch.Changes) != 4 || ch.Changes[0].Type != "page_created" {
			t.Fatalf("first revision's changes %+v", ch)
		}

		// A document by id: a page's documentId.
		docID := c.Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/page/faq", nil).Map(t)["documentId"].(string)
		if d := c.Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/documents/"+docID, nil).Map(t); d["object"] != "document" {
			t.Fatalf("document %v", d)
		}
		c.Expect(http.StatusNotFound, "GET", "/v1/spaces/"+f.space+"/documents/nope", nil)
	})
}

func TestPagesByPath(t *testing.T) {
	f := setup(t)
	pages, bodies := samplePages()
	k := content.Spread(2)
	pages = append(pages,
		content.Page{ID: "qa", Parent: "setup", Pos: k[0], Type: content.TypeDocument, Title: "Q&A", Slug: "q&a"},
		content.Page{ID: "cafe", Parent: "setup", Pos: k[1], Type: content.TypeDocument, Title: "Café", Slug: "café"})
	rev := f.seed(t, pages, bodies, nil)
	c := f.As(t, "read")
	sp := "/v1/spaces/" + f.space
	for path, id := range map[string]string{
		"intro":                 "intro",
		"intro/setup":           "setup",
		"intro/setup/q%26a":     "qa",
		"intro/setup/caf%C3%A9": "cafe",
		"intro%2Fsetup":         "setup", // an escaped slash is a slash of the path
		"intro/setup/":          "setup",
	} {
		for _, base := range []string{sp + "/content/path/", sp + "/revisions/" + rev.ID + "/path/"} {
			p := c.Expect(http.StatusOK, "GET", base+path, nil).Map(t)
			if p["id"] != id {
				t.Fatalf("%s%s: page %v, want %s", base, path, p["id"], id)
			}
		}
	}
	if p := c.Expect(http.StatusOK, "GET", sp+"/content/path/intro/setup?format=markdown", nil).Map(t); p["markdown"] != "Install it.\n" && !strings.Contains(p["markdown"].(string), "Install it.") {
		t.Fatalf("markdown %v", p)
	}
	for _, path := range []string{"nope", "intro/nope", "setup", "intro/setup/q&a/x"} {
		c.Expect(http.StatusNotFound, "GET", sp+"/content/path/"+path, nil)
	}
	// An empty path is a missing parameter.
	c.Expect(http.StatusBadRequest, "GET", sp+"/content/path/", nil)
}

// A revision is its space's: read through another space (even one the
// caller may read) it is not found.
func TestARevisionOfAnotherSpaceIsNotFound(t *testing.T) {
	f := setup(t)
	rev1, _ := twoRevisions(t, f)
	other := f.NewSpace(t, "admin", f.Org.ID, "Other")
	c := f.As(t, "admin")
	for _, path := range []string{"", "/pages", "/files", "/files/pic", "/page/intro", "/page/intro/document", "/path/intro", "/changes", "/page/intro/meta-links"} {
		c.Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/revisions/"+rev1.ID+path, nil)
		c.Expect(http.StatusNotFound, "GET", "/v1/spaces/"+other+"/revisions/"+rev1.ID+path, nil)
	}
}

func TestRevisionReadsAuthAndValidation(t *testing.T) {
	f := setup(t)
	rev1, _ := twoRevisions(t, f)
	sp := "/v1/spaces/" + f.space
	base := sp + "/revisions/" + rev1.ID
	docID := f.As(t, "admin").Expect(http.StatusOK, "GET", sp+"/content/page/intro", nil).Map(t)["documentId"].(string)
	for _, p := range []string{base, base + "/pages", base + "/files", base + "/files/pic", base + "/page/intro",
		base + "/page/intro/document", base + "/page/intro/meta-links", base + "/path/intro/setup", base + "/changes",
		base + "/reusable-contents/x", sp + "/content/path/intro/setup", sp + "/content/page/intro/meta-links", sp + "/documents/" + docID} {
		f.As(t, "").Expect(http.StatusUnauthorized, "GET", p, nil)
		f.As(t, testkit.Outsider).Expect(http.StatusNotFound, "GET", p, nil)
		// A guest does not see the space (reads need only the space's
		// visibility, so no caller who sees it is refused: no 403).
		f.As(t, "guest").Expect(http.StatusNotFound, "GET", p, nil)
	}
	long := strings.Repeat("x", 65)
	for path, field := range map[string]string{
		sp + "/revisions/" + long:                         "revisionId",
		base + "/page/" + long:                            "pageId",
		base + "/files/" + long:                           "fileId",
		base + "/changes?limit=0":                         "limit",
		base + "/page/intro?format=pdf":                   "format",
		sp + "/documents/" + strings.Repeat("d", 129):     "documentId",
		sp + "/content/path/" + strings.Repeat("p", 2049): "pagePath",
	} {
		res := f.As(t, "read").Expect(http.StatusBadRequest, "GET", path, nil)
		if !strings.Contains(string(res.Body), field) {
			t.Errorf("GET %s: 400 %s does not name %s", path, res.Body, field)
		}
	}
}
