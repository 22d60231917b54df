package document_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/document"
)

// A reference to another space's page, anchor or root (GitBook's refs
// with space) is written as /s/<space>/pages/<page> (or /s/<space>/) and
// reads back as the same reference; a page of the page's own space stays
// /pages/<id>.
func TestSpaceRefsRoundTrip(t *testing.T) {
	link := func(ref map[string]any) map[string]any {
		return map[string]any{"object": "inline", "type": "link", "data": map[string]any{"ref": ref},
			"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "x", "marks": []any{}}}}}}
	}
	refs := []map[string]any{
		{"kind": "page", "page": "p1", "space": "s2"},
		{"kind": "anchor", "anchor": "setup", "page": "p1", "space": "s2"},
		{"kind": "space", "space": "s2"},
	}
	var inl []any
	for _, r := range refs {
		inl = append(inl, link(r))
	}
	doc := map[string]any{"object": "document", "nodes": []any{
		map[string]any{"object": "block", "type": "paragraph", "nodes": inl},
		map[string]any{"object": "block", "type": "content-ref", "data": map[string]any{"ref": map[string]any{"kind": "page", "page": "p1", "space": "s2"}}},
	}}
	md, err := document.MarkdownOfDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(/s/s2/pages/p1)", "(/s/s2/pages/p1#setup)", "(/s/s2/)", `{% content-ref url="/s/s2/pages/p1" %}`} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %s:\n%s", want, md)
		}
	}
	back := document.ToDocument(md, document.Resolver{})
	var got []any
	for _, n := range back.Nodes[0]["nodes"].([]document.Node) {
		if n["type"] == "link" {
			got = append(got, map[string]any(n["data"].(document.Node)["ref"].(document.Node)))
		}
	}
	cr := back.Nodes[1]["data"].(document.Node)["ref"]
	want := []any{refs[0], refs[1], refs[2]}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(map[string]any(cr.(document.Node)), refs[0]) {
		t.Errorf("read back %v and content-ref %v, want %v", got, cr, want)
	}
	for _, href := range []string{"/s/", "/s/x/other", "/s/x/pages/a/b", "/sx/pages/p"} {
		if _, _, _, ok := document.SpaceLink(href); ok {
			t.Errorf("%s read as a space link", href)
		}
	}
}
