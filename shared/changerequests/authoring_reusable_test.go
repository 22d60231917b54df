package changerequests_test

import (
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// reusableBlock is a document tree holding a paragraph and a
// reusable-content block naming id (or a ref of the batch).
func reusableBlock(id string) map[string]any {
	return map[string]any{"document": map[string]any{"object": "document", "nodes": []any{
		map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
			map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Before.", "marks": []any{}}}}}},
		map[string]any{"object": "block", "type": "reusable-content", "isVoid": true,
			"data": map[string]any{"ref": map[string]any{"kind": "reusable-content", "reusableContent": id}}},
	}}}
}

// changesOf reads a revision's semantic changes as "type:id" (a page's or
// a reusable content's id; variables_edited lists the names), sorted.
func (f *fixture) changesOf(t *testing.T, rev string) ([]string, []map[string]any) {
	t.Helper()
	var ch struct{ Changes []map[string]any }
	f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/revisions/"+rev+"/changes", nil).JSON(t, &ch)
	var out []string
	for _, c := range ch.Changes {
		switch {
		case c["page"] != nil:
			out = append(out, c["type"].(string)+":"+c["page"].(map[string]any)["id"].(string))
		case c["reusableContent"] != nil:
			out = append(out, c["type"].(string)+":"+c["reusableContent"].(map[string]any)["id"].(string))
		default:
			var names []string
			for k := range c["variables"].(map[string]any) {
				names = append(names, k)
			}
			sort.Strings(names)
			out = append(out, c["type"].(string)+":"+strings.Join(names, ","))
		}
	}
	sort.Strings(out)
	return out, ch.Changes
}

func (f *fixture) head(t *testing.T) string {
	t.Helper()
	return f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content", nil).Map(t)["id"].(string)
}

// A change request creates a reusable content (by ref, included from a
// page inserted in {document} form and from markdown), sets the space's
// and a page's variables; merged, the space reads them back through the
// reusable-content reads and the revision, and the merge revision's
// semantic changes list them (answers checked against GitBook's schemas by
// the test client). A second request edits and deletes reusable contents
// and variables.
func TestAuthorReusableContentsAndVariablesThroughChangeRequests(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		n := f.create(t, f.editor, "Reusable")["number"]
		got := f.author(t, f.editor, n,
			map[string]any{"operation": "insert_page", "ref": "guide", "document": reusableBlock("banner")},
			map[string]any{"operation": "insert_reusable_content", "ref": "banner", "title": "Banner",
				"document": map[string]any{"markdown": "# Try it\n\nSee the [guide](./guide.md).\n"}},
			map[string]any{"operation": "insert_reusable_content", "ref": "note", "title": "Note", "document": map[string]any{"markdown": "A note.\n"}},
			insert("more", "", "# More\n\n{% include \"/reusable-contents/note\" %}\n"),
			map[string]any{"operation": "update_variables", "variables": map[string]any{"version": "2.1", "beta": true, "seats": 3}},
			map[string]any{"operation": "update_variables", "page": "guide", "variables": map[string]any{"product": "Acme"}},
		)
		refs := got["refs"].(map[string]any)
		banner, note, guide, more := refs["banner"].(string), refs["note"].(string), refs["guide"].(string), refs["more"].(string)
		if changes := got["changes"].([]any); len(changes) != 2 {
			t.Fatalf("pages affected %v", changes)
		}
		rc := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(n)+"/content/reusable-contents/"+banner, nil).Map(t)
		if rc["title"] != "Banner" || rc["document"] == nil {
			t.Fatalf("reusable content %v", rc)
		}
		if md := f.markdown(t, n, guide); !strings.Contains(md, `{% include "/reusable-contents/`+banner+`" %}`) {
			t.Fatalf("the block is stored as %q", md)
		}
		if md := f.markdown(t, n, more); !strings.Contains(md, `{% include "/reusable-contents/`+note+`" %}`) {
			t.Fatalf("the include is stored as %q", md)
		}

		f.merge(t, n, "merge")
		sp := "/v1/spaces/" + f.space
		rev := f.as(t, f.reader).Expect(http.StatusOK, "GET", sp+"/content", nil).Map(t)
		if len(rev["reusableContents"].([]any)) != 2 || !reflect.DeepEqual(rev["variables"], map[string]any{"version": "2.1", "beta": true, "seats": float64(3)}) {
			t.Fatalf("merged revision %v %v", rev["reusableContents"], rev["variables"])
		}
		doc := f.as(t, f.reader).Expect(http.StatusOK, "GET", sp+"/revisions/"+rev["id"].(string)+"/reusable-contents/"+banner+"/document", nil).Map(t)
		if doc["object"] != "document" || !strings.Contains(strings.ToLower(string(testkit.JSON(t, doc))), "try it") {
			t.Fatalf("reusable content's document %v", doc)
		}
		if page := f.as(t, f.reader).Expect(http.StatusOK, "GET", sp+"/content/page/"+guide, nil).Map(t); !reflect.DeepEqual(page["variables"], map[string]any{"product": "Acme"}) {
			t.Fatalf("page variables %v", page["variables"])
		}
		list, _ := f.changesOf(t, rev["id"].(string))
		want := []string{"page_created:" + guide, "page_created:" + more, "reusable_content_created:" + banner, "reusable_content_created:" + note, "variables_edited:beta,seats,version"}
		sort.Strings(want)
		if !reflect.DeepEqual(list, want) {
			t.Fatalf("semantic changes %v, want %v", list, want)
		}

		// A second request edits, deletes, unsets.
		m := f.create(t, f.editor, "Edit")["number"]
		f.author(t, f.editor, m,
			map[string]any{"operation": "update_reusable_content", "reusableContent": banner, "title": "Banner 2",
				"document": map[string]any{"markdown": "Changed.\n"}},
			map[string]any{"operation": "delete_reusable_content", "reusableContent": note},
			map[string]any{"operation": "update_variables", "variables": map[string]any{"beta": nil, "version": "2.2"}},
			map[string]any{"operation": "update_variables", "page": guide, "variables": map[string]any{"product": nil, "edition": "pro"}},
		)
		f.merge(t, m, "merge")
		rev = f.as(t, f.reader).Expect(http.StatusOK, "GET", sp+"/content", nil).Map(t)
		if !reflect.DeepEqual(rev["variables"], map[string]any{"version": "2.2", "seats": float64(3)}) {
			t.Fatalf("variables %v", rev["variables"])
		}
		f.as(t, f.reader).Expect(http.StatusNotFound, "GET", sp+"/content/reusable-contents/"+note, nil)
		if rc := f.as(t, f.reader).Expect(http.StatusOK, "GET", sp+"/content/reusable-contents/"+banner, nil).Map(t); rc["title"] != "Banner 2" {
			t.Fatalf("edited %v", rc)
		}
		list, all := f.changesOf(t, rev["id"].(string))
		want = []string{"page_edited:" + guide, "reusable_content_deleted:" + note, "reusable_content_edited:" + banner, "variables_edited:beta,version"}
		sort.Strings(want)
		if !reflect.DeepEqual(list, want) {
			t.Fatalf("semantic changes %v, want %v", list, want)
		}
		for _, c := range all {
			switch c["type"] {
			case "reusable_content_edited":
				a := c["attributes"].(map[string]any)
				if a["title"].(map[string]any)["before"] != "Banner" || a["title"].(map[string]any)["after"] != "Banner 2" || a["document"] == nil {
					t.Errorf("edit %v", a)
				}
			case "variables_edited":
				v := c["variables"].(map[string]any)
				if !reflect.DeepEqual(v["beta"], map[string]any{"before": true}) || !reflect.DeepEqual(v["version"], map[string]any{"before": "2.1", "after": "2.2"}) {
					t.Errorf("variables %v", v)
				}
			case "page_edited":
				a := c["attributes"].(map[string]any)["variables"]
				if !reflect.DeepEqual(a, map[string]any{"before": map[string]any{"product": "Acme"}, "after": map[string]any{"edition": "pro"}}) {
					t.Errorf("page variables %v", a)
				}
			}
		}
	})
}

// Two requests edit one reusable content and one variable: edits to
// different lines of its body merge, edits to the same lines (or the same
// variable, differently) conflict naming it, and nothing changes.
func TestConflictingReusableContentEdits(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		n := f.create(t, f.editor, "Seed")["number"]
		rc := f.author(t, f.editor, n,
			map[string]any{"operation": "insert_reusable_content", "ref": "rc", "title": "RC", "document": map[string]any{"markdown": "one\n\ntwo\n\nthree\n\nfour\n"}},
			map[string]any{"operation": "update_variables", "variables": map[string]any{"v": "0"}},
		)["refs"].(map[string]any)["rc"].(string)
		f.merge(t, n, "merge")
		edit := func(body string, vars map[string]any) any {
			n := f.create(t, f.editor, "Edit")["number"]
			var changes []map[string]any
			if body != "" {
				changes = append(changes, map[string]any{"operation": "update_reusable_content", "reusableContent": rc, "document": map[string]any{"markdown": body}})
			}
			if vars != nil {
				changes = append(changes, map[string]any{"operation": "update_variables", "variables": vars})
			}
			f.author(t, f.editor, n, changes...)
			return n
		}
		a, b := edit("ONE\n\ntwo\n\nthree\n\nfour\n", nil), edit("one\n\ntwo\n\nthree\n\nFOUR\n", nil)
		c, d := edit("", map[string]any{"v": "1"}), edit("uno\n\ntwo\n\nthree\n\nfour\n", map[string]any{"v": "2"})
		f.merge(t, a, "merge")
		f.merge(t, b, "merge")
		doc := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/revisions/"+f.head(t)+"/reusable-contents/"+rc+"/document", nil).Map(t)
		if s := string(testkit.JSON(t, doc)); !strings.Contains(s, "ONE") || !strings.Contains(s, "FOUR") {
			t.Fatalf("merged by line: %s", s)
		}
		f.merge(t, c, "merge")
		head := f.head(t)
		got := f.merge(t, d, "conflicts")
		var kinds []string
		for _, x := range got["conflicts"].([]any) {
			x := x.(map[string]any)
			switch {
			case x["reusableContent"] == rc: // uno against ONE
				kinds = append(kinds, "reusableContent")
			case x["variable"] == "v":
				kinds = append(kinds, "variable")
			}
		}
		if strings.Join(kinds, ",") != "reusableContent,variable" {
			t.Fatalf("conflicts %v", got["conflicts"])
		}
		if f.head(t) != head {
			t.Fatal("a conflicting merge moved the head")
		}
	})
}

// The new operations answer 400 naming the field for each bad change,
// 403 to a reader, 404 to an outsider, 401 without a token.
func TestReusableAndVariableOperationsRefused(t *testing.T) {
	f := setup(t)
	n := f.create(t, f.editor, "Bad")["number"]
	rc := f.author(t, f.editor, n, map[string]any{"operation": "insert_reusable_content", "ref": "rc", "title": "RC"})["refs"].(map[string]any)["rc"].(string)
	path := f.cr(n) + "/content"
	ok := map[string]any{"changes": []any{map[string]any{"operation": "update_variables", "variables": map[string]any{"x": "1"}}}}
	f.as(t, f.reader).Expect(http.StatusForbidden, "POST", path, ok)
	f.as(t, f.outsider).Expect(http.StatusNotFound, "POST", path, ok)
	f.as(t, "").Expect(http.StatusUnauthorized, "POST", path, ok)
	one := func(c map[string]any) any { return map[string]any{"changes": []any{c}} }
	for _, tc := range []struct {
		name  string
		body  any
		field string
	}{
		{"InsertNoTitle", one(map[string]any{"operation": "insert_reusable_content", "document": map[string]any{"markdown": "x\n"}}), "changes[0].title"},
		{"InsertLongTitle", one(map[string]any{"operation": "insert_reusable_content", "title": strings.Repeat("t", 201)}), "title"},
		{"InsertPageField", one(map[string]any{"operation": "insert_reusable_content", "title": "T", "slug": "t"}), "changes[0].slug"},
		{"InsertUnknownInclude", one(map[string]any{"operation": "insert_reusable_content", "title": "T", "document": map[string]any{"markdown": "{% include \"/reusable-contents/nope\" %}\n"}}), "changes[0].document"},
		{"InsertBadDocument", one(map[string]any{"operation": "insert_reusable_content", "title": "T", "document": map[string]any{"document": map[string]any{"object": "document", "nodes": []any{map[string]any{"object": "block", "type": "mystery"}}}}}), "changes[0].document.document"},
		{"UpdateNoReusableContent", one(map[string]any{"operation": "update_reusable_content", "title": "T"}), "changes[0].reusableContent"},
		{"UpdateUnknown", one(map[string]any{"operation": "update_reusable_content", "reusableContent": "nope", "title": "T"}), "changes[0].reusableContent"},
		{"UpdateNothing", one(map[string]any{"operation": "update_reusable_content", "reusableContent": rc}), "changes[0].title"},
		{"UpdateSelfInclude", one(map[string]any{"operation": "update_reusable_content", "reusableContent": rc, "document": map[string]any{"markdown": "{% include \"/reusable-contents/" + rc + "\" %}\n"}}), "changes[0].document"},
		{"UpdatePageField", one(map[string]any{"operation": "update_reusable_content", "reusableContent": rc, "page": "x"}), "changes[0].page"},
		{"DeleteNoReusableContent", one(map[string]any{"operation": "delete_reusable_content"}), "changes[0].reusableContent"},
		{"DeleteUnknown", one(map[string]any{"operation": "delete_reusable_content", "reusableContent": "nope"}), "changes[0].reusableContent"},
		{"DeleteWithTitle", one(map[string]any{"operation": "delete_reusable_content", "reusableContent": rc, "title": "T"}), "changes[0].title"},
		{"PageUnknownBlock", one(map[string]any{"operation": "insert_page", "document": reusableBlock("nope")}), "changes[0].document"},
		{"VariablesMissing", one(map[string]any{"operation": "update_variables"}), "changes[0].variables"},
		{"VariablesEmpty", one(map[string]any{"operation": "update_variables", "variables": map[string]any{}}), "variables"},
		{"VariableName", one(map[string]any{"operation": "update_variables", "variables": map[string]any{"no-dash": "x"}}), "changes[0].variables.no-dash"},
		{"VariableValueTooLong", one(map[string]any{"operation": "update_variables", "variables": map[string]any{"x": strings.Repeat("v", 257)}}), "variables"},
		{"VariableValueObject", one(map[string]any{"operation": "update_variables", "variables": map[string]any{"x": map[string]any{}}}), "variables"},
		{"VariablesUnknownPage", one(map[string]any{"operation": "update_variables", "page": "nope", "variables": map[string]any{"x": "1"}}), "changes[0].page"},
		{"VariablesWithDocument", one(map[string]any{"operation": "update_variables", "variables": map[string]any{"x": "1"}, "document": map[string]any{"markdown": "x"}}), "changes[0].document"},
		{"VariablesOnPageOp", one(map[string]any{"operation": "update_page", "page": "x", "variables": map[string]any{"x": "1"}}), "changes[0].variables"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, f.editor).Expect(http.StatusBadRequest, "POST", path, tc.body)
			if !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
}
