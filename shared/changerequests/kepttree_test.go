package changerequests_test

import (
	"context"
	"net/http"
	"reflect"
	"testing"

	"github.com/galleydocs/galley/shared/content"
)

// The content service keeps the trees it writes decoded (content.Repo.Tree),
// as it made them, not as their JSON decodes: after authoring (a page with
// frontmatter: a description, a layout, variables with a number, a string
// and a boolean; a child page; a link page) and a three-way merge, the
// kept tree of the head is the one a fresh reader decodes from the blob
// store, field for field.
func TestKeptTreeIsTheDecodedTree(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	one := f.create(t, f.editor, "one")["number"]
	f.author(t, f.editor, one,
		insert("a", "", "---\ndescription: A page\nlayout:\n  width: wide\n  tableOfContents: false\nvars:\n  count: 3\n  name: Ada\n  on: true\n---\n\n# A\n\nText with {{ page.vars.count }}.\n"),
		insert("b", "a", "# B\n\nUnder A.\n"),
		map[string]any{"operation": "insert_page", "type": "link", "title": "Site", "href": "https://example.com"})
	two := f.create(t, f.editor, "two")["number"]
	f.author(t, f.editor, two, insert("c", "", "# C\n\nAnother page.\n"))
	f.merge(t, one, "merge")
	f.merge(t, two, "merge") // three-way: its base is not the head
	head := f.kit.Head(t, f.space)
	fresh := content.NewRepo(f.kit.Deps)
	rev, err := fresh.Revision(ctx, f.space, head)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := f.content.Repo.Tree(ctx, rev)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := fresh.Tree(ctx, rev)
	if err != nil {
		t.Fatal(err)
	}
	if len(decoded.Pages) < 4 {
		t.Fatalf("%d pages in the head", len(decoded.Pages))
	}
	if !reflect.DeepEqual(kept, decoded) {
		for i := range decoded.Pages {
			if i < len(kept.Pages) && !reflect.DeepEqual(kept.Pages[i], decoded.Pages[i]) {
				t.Errorf("page %d kept %#v\ndecoded %#v", i, kept.Pages[i], decoded.Pages[i])
			}
		}
		t.Fatalf("the kept tree differs from the decoded one")
	}
	f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/pages", nil)
}
