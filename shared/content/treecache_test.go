package content_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/contenthttp"
)

// The page tree is kept per tree once rendered (Service.Pages): a second
// read answers the same bytes, a new head answers its own tree, an older
// revision its own, and the git metadata only when asked.
func TestPageTreeReadsAreKeptPerTree(t *testing.T) {
	f := setup(t)
	rev1, _ := twoRevisions(t, f)
	c := f.As(t, "read")
	head := "/v1/spaces/" + f.space + "/content/pages"
	old := "/v1/spaces/" + f.space + "/revisions/" + rev1.ID + "/pages"
	first := c.Expect(http.StatusOK, "GET", head, nil).Body
	if !bytes.Contains(first, []byte(`"title":"Welcome"`)) || bytes.Contains(first, []byte(`"title":"Introduction"`)) {
		t.Fatalf("head tree: %s", first)
	}
	if again := c.Expect(http.StatusOK, "GET", head, nil).Body; !bytes.Equal(again, first) {
		t.Fatalf("second read differs:\n%s\n%s", first, again)
	}
	older := c.Expect(http.StatusOK, "GET", old, nil).Body
	if !bytes.Contains(older, []byte(`"title":"Introduction"`)) || !strings.Contains(string(older), "/~/revisions/"+rev1.ID+"/") {
		t.Fatalf("revision tree: %s", older)
	}
	if again := c.Expect(http.StatusOK, "GET", head, nil).Body; !bytes.Equal(again, first) {
		t.Fatalf("head read after the revision's differs:\n%s\n%s", first, again)
	}
	// A new head: its tree, not the one kept.
	pages, bodies := samplePages()
	pages[0].Title = "Hello"
	f.seed(t, pages, bodies, nil)
	if now := c.Expect(http.StatusOK, "GET", head, nil).Body; !bytes.Contains(now, []byte(`"title":"Hello"`)) {
		t.Fatalf("new head: %s", now)
	}
}

// The page tree's kept JSON is written byte for byte as the API's JSON
// format writes the list (HTML characters unescaped, a newline after it).
func TestPageTreeJSONIsTheListsEncoding(t *testing.T) {
	f := setup(t)
	pages, bodies := samplePages()
	pages[0].Title = `Tags <b> & "quotes" é`
	pages[0].Emoji = "1f600"
	f.seed(t, pages, bodies, nil)
	svc := contentwire.Service(f.Root)
	for _, metadata := range []bool{false, true} {
		tree, err := svc.PageTree(f.Ctx("admin"), content.At{SpaceID: f.space}, metadata)
		if err != nil {
			t.Fatal(err)
		}
		var want, got bytes.Buffer
		if err := huma.DefaultJSONFormat.Marshal(&want, contenthttp.PagesList{Pages: tree.Pages}); err != nil {
			t.Fatal(err)
		}
		done, err := contenthttp.ListTree(tree).WriteJSON(&got)
		if !done || err != nil {
			t.Fatalf("kept tree not written: %v %v", done, err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) || !strings.Contains(got.String(), `<b> &`) {
			t.Fatalf("metadata %v:\n got %s\nwant %s", metadata, got.Bytes(), want.Bytes())
		}
	}
}
