package content

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
)

func newEditor(ix *Index, docs memDocs) *Editor {
	n := 0
	return &Editor{Index: ix, Now: time.Unix(0, 0), PutDocument: docs.put,
		NewID: func() string { n++; return fmt.Sprintf("id%d", n) }}
}

func strp(s string) *string { return &s }

// A batch inserts a reusable content by ref, includes it from a page in
// both id forms (the ref becomes the id), edits and deletes reusable
// contents and edits the space's and a page's variables.
func TestAuthorReusableContentsAndVariables(t *testing.T) {
	docs := memDocs{}
	ix := sampleIndex()
	ix.PutReusableContent(ReusableContent{ID: "old", Title: "Old"})
	ix.PutReusableContent(ReusableContent{ID: "gone", Title: "Gone"})
	ix.SetVariables(Variables{"keep": "k", "drop": true})
	with(ix, "guide", func(p *Page) { p.Variables = Variables{"a": "1"} })
	ed := newEditor(ix, docs)
	err := ed.Apply([]Change{
		{Type: InsertPage, Ref: "p", Markdown: strp("# P\n\n{% include \"/reusable-content/banner\" %}\n\n{% include \"/reusable-contents/old\" %}\n")},
		{Type: InsertReusableContent, Ref: "banner", Markdown: strp("---\ntitle: Banner\n---\n# Heading kept\n\nSee [P](./p.md).\n")},
		{Type: UpdateReusableContent, ReusableContent: "old", Title: strp("Renamed")},
		{Type: DeleteReusableContent, ReusableContent: "gone"},
		{Type: UpdateVariables, Variables: map[string]any{"drop": nil, "version": "2.0", "n": float64(3)}},
		{Type: UpdateVariables, Page: "guide", Variables: map[string]any{"b": false}},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := ed.Refs["banner"]
	rc := ix.ReusableContent(id)
	if rc == nil || rc.Title != "Banner" || docs[rc.Document] != "# Heading kept\n\nSee [P](/pages/"+ed.Refs["p"]+").\n" {
		t.Fatalf("inserted %+v %q", rc, docs[rc.Document])
	}
	body := docs[ix.Page(ed.Refs["p"]).Document]
	if !strings.Contains(body, `{% include "/reusable-contents/`+id+`" %}`) || !strings.Contains(body, `{% include "/reusable-contents/old" %}`) {
		t.Fatalf("page body %q", body)
	}
	if ix.ReusableContent("old").Title != "Renamed" || ix.ReusableContent("gone") != nil {
		t.Fatalf("reusable contents %+v", ix.ReusableContents())
	}
	if v := ix.Variables(); !reflect.DeepEqual(v, Variables{"keep": "k", "version": "2.0", "n": float64(3)}) {
		t.Fatalf("space variables %v", v)
	}
	if v := ix.Page("guide").Variables; !reflect.DeepEqual(v, Variables{"a": "1", "b": false}) {
		t.Fatalf("page variables %v", v)
	}
	if ix.ReusableContentAt("intro", "/reusable-content/"+id) != id {
		t.Fatal("GitBook's id form does not name the reusable content")
	}
}

// Each invalid change fails naming its field.
func TestAuthorReusableContentsRefused(t *testing.T) {
	long := strings.Repeat("x", MaxTitle+1)
	many := map[string]any{}
	for i := 0; i <= MaxVariablesPerChange; i++ {
		many[fmt.Sprintf("v%d", i)] = "x"
	}
	for _, tc := range []struct {
		name  string
		c     []Change
		field string
	}{
		{"NoTitle", []Change{{Type: InsertReusableContent, Markdown: strp("Text.\n")}}, "changes[0].title"},
		{"LongTitle", []Change{{Type: InsertReusableContent, Title: &long}}, "changes[0].title"},
		{"UnknownToUpdate", []Change{{Type: UpdateReusableContent, ReusableContent: "nope", Title: strp("X")}}, "changes[0].reusableContent"},
		{"NothingToUpdate", []Change{{Type: UpdateReusableContent, ReusableContent: "rc"}}, "changes[0].title"},
		{"UnknownToDelete", []Change{{Type: DeleteReusableContent, ReusableContent: "nope"}}, "changes[0].reusableContent"},
		{"UnknownInclude", []Change{{Type: InsertPage, Markdown: strp("{% include \"/reusable-contents/nope\" %}\n")}}, "changes[0].document"},
		{"IncludeOfDeleted", []Change{{Type: DeleteReusableContent, ReusableContent: "rc"},
			{Type: UpdatePage, Page: "intro", Markdown: strp("{% include \"/reusable-content/rc\" %}\n")}}, "changes[1].document"},
		{"SelfInclude", []Change{{Type: UpdateReusableContent, ReusableContent: "rc", Markdown: strp("{% include \"/reusable-contents/rc\" %}\n")}}, "changes[0].document"},
		{"DuplicateRef", []Change{{Type: InsertPage, Ref: "x", Markdown: strp("# X\n")}, {Type: InsertReusableContent, Ref: "x", Title: strp("X")}}, "changes[1].ref"},
		{"BadName", []Change{{Type: UpdateVariables, Variables: map[string]any{"1x": "a"}}}, "changes[0].variables.1x"},
		{"BadValue", []Change{{Type: UpdateVariables, Variables: map[string]any{"x": strings.Repeat("v", 257)}}}, "changes[0].variables.x"},
		{"ObjectValue", []Change{{Type: UpdateVariables, Variables: map[string]any{"x": map[string]any{}}}}, "changes[0].variables.x"},
		{"NoVariables", []Change{{Type: UpdateVariables}}, "changes[0].variables"},
		{"TooMany", []Change{{Type: UpdateVariables, Variables: many}}, "changes[0].variables"},
		{"GroupVariables", []Change{{Type: UpdateVariables, Page: "grp", Variables: map[string]any{"x": "a"}}}, "changes[0].page"},
		{"UnknownPage", []Change{{Type: UpdateVariables, Page: "nope", Variables: map[string]any{"x": "a"}}}, "changes[0].page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := sampleIndex()
			ix.PutReusableContent(ReusableContent{ID: "rc", Title: "RC"})
			err := newEditor(ix, memDocs{}).Apply(tc.c)
			var e *apperr.Error
			if !errors.As(err, &e) || e.Kind != apperr.Invalid || e.Field != tc.field {
				t.Fatalf("err %#v, want Invalid naming %s", err, tc.field)
			}
		})
	}
}

// Reusable contents changed on both sides merge their titles as fields and
// their bodies line by line; the same lines edited, or a delete against an
// edit, conflict naming the reusable content. A page's variables merge one
// name at a time.
func TestMergeReusableContentsAndPageVariables(t *testing.T) {
	docs := memDocs{}
	body, _ := docs.put("one\ntwo\nthree\nfour\n")
	base := sampleIndex()
	base.PutReusableContent(ReusableContent{ID: "rc", Title: "RC", Document: body})
	with(base, "guide", func(p *Page) { p.Variables = Variables{"a": "1", "b": "2"} })
	setBody := func(text string) func(*Index) {
		return func(ix *Index) {
			rc := *ix.ReusableContent("rc")
			rc.Document, _ = docs.put(text)
			ix.PutReusableContent(rc)
		}
	}
	vars := func(v Variables) func(*Index) {
		return func(ix *Index) { with(ix, "guide", func(p *Page) { p.Variables = v }) }
	}

	ix, conflicts := merge(t, docs, base, edit(base, setBody("ONE\ntwo\nthree\nfour\n")), edit(base, func(ix *Index) {
		setBody("one\ntwo\nthree\nFOUR\n")(ix)
		rc := *ix.ReusableContent("rc")
		rc.Title = "Renamed"
		ix.PutReusableContent(rc)
	}))
	if len(conflicts) != 0 {
		t.Fatalf("conflicts %+v", conflicts)
	}
	if rc := ix.ReusableContent("rc"); rc.Title != "Renamed" || docs[rc.Document] != "ONE\ntwo\nthree\nFOUR\n" {
		t.Fatalf("merged %+v %q", rc, docs[rc.Document])
	}

	_, conflicts = merge(t, docs, base, edit(base, setBody("ONE\ntwo\nthree\nfour\n")), edit(base, setBody("uno\ntwo\nthree\nfour\n")))
	if len(conflicts) != 1 || conflicts[0].ReusableContent != "rc" || !strings.Contains(conflicts[0].Reason, "same lines") {
		t.Fatalf("conflicts %+v", conflicts)
	}
	_, conflicts = merge(t, docs, base, edit(base, func(ix *Index) { ix.RemoveReusableContent("rc") }), edit(base, setBody("uno\n")))
	if len(conflicts) != 1 || conflicts[0].ReusableContent != "rc" || !strings.Contains(conflicts[0].Reason, "deleted in ours") {
		t.Fatalf("conflicts %+v", conflicts)
	}

	ix, conflicts = merge(t, docs, base, edit(base, vars(Variables{"a": "A", "b": "2"})), edit(base, vars(Variables{"a": "1", "c": "3"})))
	if len(conflicts) != 0 || !reflect.DeepEqual(ix.Page("guide").Variables, Variables{"a": "A", "c": "3"}) {
		t.Fatalf("page variables %v %+v", ix.Page("guide").Variables, conflicts)
	}
	_, conflicts = merge(t, docs, base, edit(base, vars(Variables{"a": "A"})), edit(base, vars(Variables{"a": "B"})))
	if len(conflicts) != 1 || conflicts[0].Page != "guide" || !strings.Contains(conflicts[0].Reason, `variable "a"`) {
		t.Fatalf("conflicts %+v", conflicts)
	}
}

// The semantic changes list reusable contents created, edited, deleted,
// the space's variables edited and a page's variables.
func TestExtraChanges(t *testing.T) {
	old := sampleIndex()
	old.PutReusableContent(ReusableContent{ID: "a", Title: "A"})
	old.PutReusableContent(ReusableContent{ID: "b", Title: "B", Document: "h1"})
	old.PutReusableContent(ReusableContent{ID: "c", Title: "C"})
	old.SetVariables(Variables{"x": "1", "y": true})
	now := edit(old, func(ix *Index) {
		ix.RemoveReusableContent("a")
		ix.PutReusableContent(ReusableContent{ID: "b", Title: "B", Document: "h2"})
		ix.PutReusableContent(ReusableContent{ID: "c", Title: "C", Git: &GitBlob{Path: "x.md"}}) // not reported
		ix.PutReusableContent(ReusableContent{ID: "d", Title: "D"})
		ix.SetVariables(Variables{"x": "2", "z": float64(0)})
		with(ix, "guide", func(p *Page) { p.Variables = Variables{"v": "1"} })
	})
	var got []string
	for _, c := range ExtraChanges(old, now) {
		switch {
		case c.ReusableContent != nil:
			got = append(got, c.Type+":"+c.ReusableContent.ID)
		default:
			got = append(got, fmt.Sprintf("%s:%v", c.Type, c.Variables))
		}
	}
	want := []string{"reusable_content_edited:b", "reusable_content_created:d", "reusable_content_deleted:a",
		"variables_edited:map[x:{1 2} y:{true <nil>} z:{<nil> 0}]"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("changes %v, want %v", got, want)
	}
	pc := PageChanges(old, now)
	if len(pc) != 1 || pc[0].Type != "page_edited" || pc[0].Attributes.Variables == nil || pc[0].Attributes.Variables.After["v"] != "1" {
		t.Fatalf("page changes %+v", pc)
	}
}
