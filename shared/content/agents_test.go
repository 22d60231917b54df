package content

import "testing"

func TestFirstDocument(t *testing.T) {
	md := "# Body\n"
	pages := []RevisionPage{
		{ID: "hidden", Type: TypeDocument, Path: "hidden", Hidden: true,
			Pages: []RevisionPage{{ID: "under-hidden", Type: TypeDocument, Path: "hidden/child"}}},
		{ID: "link", Type: TypeLink},
		{ID: "group", Type: TypeGroup, Path: "group", Pages: []RevisionPage{
			{ID: "in-group", Type: TypeDocument, Path: "in-group", Markdown: &md},
		}},
		{ID: "later", Type: TypeDocument, Path: "later"},
	}
	if f := FirstDocument(pages); f == nil || f.ID != "in-group" {
		t.Fatalf("first %+v, want in-group (hidden pages and what is under them, links and groups are skipped)", f)
	}
	if f := FirstDocument(pages[:2]); f != nil {
		t.Errorf("first of hidden pages and a link: %+v", f)
	}
	if got := AgentMarkdown(*FirstDocument(pages)); got != md {
		t.Errorf("AgentMarkdown %q", got)
	}
	if got := AgentMarkdown(RevisionPage{Title: "Empty"}); got != "# Empty\n" {
		t.Errorf("AgentMarkdown without a body %q", got)
	}
}
