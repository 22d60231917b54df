package content_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/testkit"
)

// GitBook's evaluated and dereferenced on the document reads: as stored by
// default (expression and reusable-content nodes); evaluated=true gives
// the values of expressions (the visitor's claims missing: no visitor) and
// drops the blocks whose condition fails; deterministic-only keeps what
// reads a claim; dereferenced replaces a reusable-content block by its
// document, its own includes in turn. The markdown format keeps the source.
func TestDocumentEvaluatedAndDereferenced(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		pages, bodies := samplePages()
		pages[2].Variables = content.Variables{"product": "Acmeflux"}
		bodies["guide"] = "Use <code class=\"expression\">page.vars.product</code> <code class=\"expression\">space.vars.version</code>.\n\n" +
			"{% include \".gitbook/includes/banner.md\" %}\n\n" +
			"{% if space.vars.edition === \"free\" %}\nFree quokka.\n{% endif %}\n\n" +
			"{% if space.vars.edition === \"pro\" %}\nPro wombat.\n{% endif %}\n\n" +
			"{% include \".gitbook/includes/missing.md\" %}\n"
		repo := content.NewRepo(f.Kit.Deps)
		put := func(body string) string {
			d, err := repo.PutDocument(context.Background(), f.space, body)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		tree := &content.Tree{Pages: pages, Variables: content.Variables{"version": "4.2", "edition": "pro"},
			ReusableContents: []content.ReusableContent{
				{ID: "banner", Title: "Banner", Document: put("Banner kumquat for <code class=\"expression\">visitor.claims.name</code> <code class=\"expression\">space.vars.version</code>.\n\n{% include \"note.md\" %}\n"),
					Git: &content.GitBlob{OID: "0123456789abcdef0123456789abcdef01234567", Path: ".gitbook/includes/banner.md"}},
				{ID: "note", Title: "Note", Document: put("Nested note.\n"),
					Git: &content.GitBlob{OID: "1123456789abcdef0123456789abcdef01234567", Path: ".gitbook/includes/note.md"}},
			}}
		rev := f.Kit.Land(t, f.space, tree, bodies)
		c := f.As(t, "read")
		sp := "/v1/spaces/" + f.space
		get := func(path string) string { return string(c.Expect(http.StatusOK, "GET", path, nil).Body) }

		// The page: as stored, evaluated, dereferenced, both.
		pg := sp + "/content/page/guide"
		stored := get(pg)
		testkit.Contains(t, "stored page", stored, `"type":"expression"`, `"type":"reusable-content"`, `"reusableContent":"banner"`)
		testkit.Lacks(t, "stored page", stored, `"text":"Acmeflux"`, "kumquat")
		ev := get(pg + "?evaluated=true")
		testkit.Contains(t, "evaluated page", ev, `"text":"Acmeflux"`, `"text":"4.2"`, "Pro wombat.", `"type":"reusable-content"`)
		testkit.Lacks(t, "evaluated page", ev, `"type":"expression"`, `"type":"if"`, "quokka", "kumquat")
		both := get(pg + "?evaluated=true&dereferenced=true")
		testkit.Contains(t, "evaluated and dereferenced page", both, "Banner kumquat for ", "Nested note.", `"text":"4.2"`)
		testkit.Lacks(t, "evaluated and dereferenced page", both, `"type":"reusable-content"`, `"type":"expression"`, "visitor.claims")
		rev2 := get(sp + "/revisions/" + rev.ID + "/page/guide/document?dereferenced=reusable-contents")
		testkit.Contains(t, "dereferenced page document", rev2, "Banner kumquat for ", "Nested note.", `"expression":"visitor.claims.name"`)
		md := get(pg + "?format=markdown&evaluated=true&dereferenced=true")
		testkit.Contains(t, "markdown", md, `{% include \".gitbook/includes/banner.md\" %}`, `<code class=\"expression\">page.vars.product</code>`)

		// The page's links list its includes: the page depends on the
		// reusable content; an include that names nothing is broken.
		links := c.Expect(http.StatusOK, "GET", sp+"/content/page/guide/links", nil).Map(t)
		var rcOK, broken bool
		for _, it := range links["items"].([]any) {
			item := it.(map[string]any)
			target := item["targetReference"].(map[string]any)
			if target["kind"] == "reusable-content" && item["status"] == "ok" && item["relation"] == "dependsOn" &&
				target["reusableContent"].(map[string]any)["id"] == "banner" {
				rcOK = true
			}
			if target["kind"] == "url" && item["status"] == "broken" && target["url"] == ".gitbook/includes/missing.md" {
				broken = true
			}
		}
		if !rcOK || !broken || links["stats"].(map[string]any)["broken"].(map[string]any)["total"].(float64) != 1 {
			t.Errorf("links %v", links)
		}

		// The reusable content's document.
		rc := sp + "/revisions/" + rev.ID + "/reusable-contents/banner/document"
		plain := get(rc)
		testkit.Contains(t, "stored reusable content", plain, `"expression":"visitor.claims.name"`, `"reusableContent":"note"`)
		det := get(rc + "?evaluated=deterministic-only")
		testkit.Contains(t, "deterministic-only", det, `"expression":"visitor.claims.name"`, `"text":"4.2"`)
		testkit.Lacks(t, "deterministic-only", det, `"expression":"space.vars.version"`)
		all := get(rc + "?evaluated=true&dereferenced=true")
		testkit.Contains(t, "evaluated and dereferenced reusable content", all, "Banner kumquat for ", `"text":"4.2"`, "Nested note.")
		testkit.Lacks(t, "evaluated and dereferenced reusable content", all, "visitor.claims", `"type":"reusable-content"`)
	})
}
