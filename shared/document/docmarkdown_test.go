package document_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/testkit"
)

// A document tree written as markdown reads back as the same tree: every
// block and inline ToDocument makes survives MarkdownOfDocument.
func TestMarkdownOfDocumentRoundTrips(t *testing.T) {
	src := strings.Join([]string{
		"# Title with **bold**",
		"",
		"A paragraph with _italic_, `code`, ~~gone~~, a [link](https://example.com) and an ![icon](/files/f1).",
		"",
		"## Steps",
		"",
		"1. first",
		"2. second with [a page](/pages/p2)",
		"",
		"- [x] done",
		"- [ ] todo",
		"",
		"- outer",
		"  - inner",
		"",
		"```go",
		"fmt.Println(\"*not a mark*\")",
		"```",
		"",
		"> quoted text",
		"",
		"{% hint style=\"warning\" %}",
		"Careful: 2 * 3 [brackets]",
		"{% endhint %}",
		"",
		"---",
		"",
		"![A diagram](https://example.com/d.png)",
	}, "\n") + "\n"
	first := document.ToDocument(src, document.Resolver{})
	md, err := document.MarkdownOfDocument(testkit.Sent(t, first))
	if err != nil {
		t.Fatal(err)
	}
	second := document.ToDocument(md, document.Resolver{})
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(second)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("round trip changed the document:\nmarkdown:\n%s\nfirst:  %s\nsecond: %s", md, a, b)
	}
}

// Nodes it cannot write are refused with where they are.
func TestMarkdownOfDocumentRefusesUnknownNodes(t *testing.T) {
	doc := map[string]any{"object": "document", "nodes": []any{
		map[string]any{"object": "block", "type": "paragraph", "nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"text": "ok"}}}}},
		map[string]any{"object": "block", "type": "integration", "nodes": []any{}},
	}}
	_, err := document.MarkdownOfDocument(doc)
	if err == nil || !strings.Contains(err.Error(), "nodes[1].type") {
		t.Fatalf("error %v, want one naming nodes[1].type", err)
	}
	bad := map[string]any{"nodes": []any{map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
		map[string]any{"object": "inline", "type": "link", "data": map[string]any{"ref": map[string]any{"kind": "nowhere"}}, "nodes": []any{}}}}}}
	if _, err := document.MarkdownOfDocument(bad); err == nil || !strings.Contains(err.Error(), "nodes[0].nodes[0].data.ref.kind") {
		t.Fatalf("error %v, want one naming the ref's kind", err)
	}
}
