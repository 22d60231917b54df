package content

import (
	"fmt"
	"testing"

	"github.com/galleydocs/galley/shared/document"
)

func TestResolveLinksRelativeToThePagesFile(t *testing.T) {
	ix := NewIndex(&Tree{Pages: []Page{
		{ID: "g", Type: TypeDocument, Title: "Guides", Slug: "guides", Pos: "a"},
		{ID: "s", Parent: "g", Type: TypeDocument, Title: "Setup", Slug: "setup", Pos: "a"},
		{ID: "u", Parent: "g", Type: TypeDocument, Title: "Use", Slug: "use", Pos: "b"},
		{ID: "i", Type: TypeDocument, Title: "Intro", Slug: "intro", Pos: "b"},
	}, Files: []File{{ID: "f", Name: "f.png"}}})
	got := ResolveLinks(ix, ix.Page("s"), []document.RawLink{
		{Href: "use.md"}, {Href: "../intro.md#why"}, {Href: "README.md"}, {Href: "../guides/README.md"},
		{Href: "intro.md"}, {Href: "/files/f", Image: true}, {Href: "/files/g"}, {Href: "#here"},
		{Href: "https://app.test/s/x"}, {Href: "https://app.testing/x"}, {Href: "mailto:a@b.test"},
	}, "https://app.test")
	var out []string
	for _, l := range got {
		out = append(out, l.Status+" "+l.Relation+" "+l.Kind+" "+l.Target+" "+l.TargetAnchor)
	}
	want := []string{
		"ok reference page u ", "ok reference page i why", "ok reference page g ", "ok reference page g ",
		"broken reference url intro.md ", "ok dependsOn file f ", "broken reference url /files/g ", "ok reference page s here",
		"in-app reference url https://app.test/s/x ", "ok reference url https://app.testing/x ", "ok reference url mailto:a@b.test ",
	}
	if fmt.Sprintf("%q", out) != fmt.Sprintf("%q", want) {
		t.Errorf("got  %q\nwant %q", out, want)
	}
}

// A page imported from Git resolves its relative links against the file
// it came from, when the slug paths do not reach the target.
func TestResolveLinksOfAnImportedPage(t *testing.T) {
	ix := NewIndex(&Tree{Pages: []Page{
		{ID: "a", Type: TypeDocument, Title: "Intro", Slug: "introduction-2", Pos: "a",
			Git: &GitBlob{Path: "introduction/getting-started/README.md"}},
		{ID: "b", Type: TypeDocument, Title: "Desktop", Slug: "desktop", Pos: "b",
			Git: &GitBlob{Path: "introduction/getting-started/integrations/desktop.md"}},
		{ID: "c", Type: TypeDocument, Title: "Guide", Slug: "guide", Pos: "c", Git: &GitBlob{Path: "guide/README.md"}},
	}})
	got := ResolveLinks(ix, ix.Page("a"), []document.RawLink{{Href: "integrations/desktop.md"}, {Href: "../../guide/"}, {Href: "missing.md"}}, "")
	var out []string
	for _, l := range got {
		out = append(out, l.Status+" "+l.Target)
	}
	if want := []string{"ok b", "ok c", "broken missing.md"}; fmt.Sprint(out) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", out, want)
	}
}
