package changerequests_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// tree flattens a pages answer to "path" lines, depth-first.
func tree(pages []any) []string {
	var out []string
	var walk func([]any)
	walk = func(ps []any) {
		for _, p := range ps {
			m := p.(map[string]any)
			out = append(out, m["path"].(string))
			if kids, ok := m["pages"].([]any); ok {
				walk(kids)
			}
		}
	}
	walk(pages)
	return out
}

func (f *fixture) pages(t *testing.T, id any) []string {
	t.Helper()
	return tree(f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(id)+"/content/pages", nil).Map(t)["pages"].([]any))
}

func (f *fixture) markdown(t *testing.T, id any, pageID string) string {
	t.Helper()
	return f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(id)+"/content/page/"+pageID+"?format=markdown", nil).Map(t)["markdown"].(string)
}

func TestInsertPagesWithRefsPlacementAndSlugs(t *testing.T) {
	f := setup(t)
	cr := f.create(t, f.editor, "Write the guide")
	before := cr["revision"]
	got := f.author(t, f.editor, 1,
		insert("guide", "", "---\ndescription: All about it\n---\n# Guide\n\nRead [setup](./guide/setup.md).\n"),
		insert("setup", "guide", "# Setup\n\nInstall.\n"),
		insert("", "guide", "# FAQ\n"),
		map[string]any{"operation": "insert_page", "into": "guide", "at": 0, "document": map[string]any{"markdown": "# Overview\n"}},
		map[string]any{"operation": "insert_page", "document": map[string]any{"markdown": "# Guide\n"}},
		map[string]any{"operation": "insert_page", "title": "Reference", "type": "group", "ref": "ref"},
		map[string]any{"operation": "insert_page", "into": "ref", "document": map[string]any{"markdown": "# API\n"}, "slug": "api-v2"},
		map[string]any{"operation": "insert_page", "type": "link", "title": "Website", "href": "https://example.com"},
	)
	refs := got["refs"].(map[string]any)
	if got["changeRequest"].(map[string]any)["revision"] == before || refs["guide"] == nil || refs["setup"] == nil {
		t.Fatalf("answer %v", got)
	}
	want := "guide guide/overview guide/setup guide/faq guide-2 reference reference/api-v2"
	pages := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/pages", nil).Map(t)["pages"].([]any)
	paths := tree(pages[:3])
	if strings.Join(paths, " ") != want {
		t.Fatalf("paths %v, want %s", paths, want)
	}
	if link := pages[3].(map[string]any); link["type"] != "link" || link["href"] != "https://example.com" {
		t.Errorf("link page %v", link)
	}
	md := f.markdown(t, 1, refs["guide"].(string))
	if md != "---\ndescription: All about it\n---\n\n# Guide\n\nRead [setup](./guide/setup.md).\n" {
		t.Errorf("markdown %q", md)
	}
	// The space itself is unchanged until a merge.
	if head := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/pages", nil).Map(t)["pages"].([]any); len(head) != 0 {
		t.Errorf("the space has pages before any merge: %v", head)
	}
	rev := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content", nil).Map(t)
	if rev["id"] != got["changeRequest"].(map[string]any)["revision"] || rev["parents"].([]any)[0] != before {
		t.Errorf("revision %v parents %v, want parent %v", rev["id"], rev["parents"], before)
	}
}

func TestUpdateMovesAndDeletePages(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "")
	refs := f.author(t, f.editor, 1, insert("a", "", "# A\n\nOne.\n"), insert("b", "", "# B\n"), insert("c", "b", "# C\n"))["refs"].(map[string]any)
	a, b, c := refs["a"].(string), refs["b"].(string), refs["c"].(string)
	f.author(t, f.editor, 1,
		map[string]any{"operation": "update_page", "page": a, "document": map[string]any{"markdown": "# Alpha\n\nTwo.\n"}},
		map[string]any{"operation": "update_page", "page": c, "into": "", "at": 0},
		map[string]any{"operation": "update_page", "page": b, "title": "Beta", "slug": "beta", "hidden": true},
	)
	if got := strings.Join(f.pages(t, 1), " "); got != "c a beta" {
		t.Fatalf("after moves: %s", got)
	}
	if md := f.markdown(t, 1, a); md != "# Alpha\n\nTwo.\n" {
		t.Errorf("updated markdown %q", md)
	}
	f.author(t, f.editor, 1, map[string]any{"operation": "update_page", "page": c, "into": b}, map[string]any{"operation": "delete_page", "page": b})
	if got := strings.Join(f.pages(t, 1), " "); got != "a" {
		t.Fatalf("after deleting b and its child: %s", got)
	}
}

func TestABadChangeFailsTheWholeBatch(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "")
	refs := f.author(t, f.editor, 1, insert("a", "", "# A\n"), insert("b", "a", "# B\n"))["refs"].(map[string]any)
	rev := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1), nil).Map(t)["revision"]
	path := f.cr(1) + "/content"
	for _, tc := range []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"400NoChanges", map[string]any{"changes": []any{}}, 400, "changes"},
		{"400NoBody", nil, 400, ""},
		{"400UnknownOperation", map[string]any{"changes": []any{map[string]any{"operation": "rename_page"}}}, 400, "operation"},
		{"400OldShape", map[string]any{"changes": []any{map[string]any{"type": "insert_page", "markdown": "# X\n"}}}, 400, "operation"},
		{"400EmptyTitle", map[string]any{"changes": []any{map[string]any{"operation": "insert_page", "title": "", "document": map[string]any{"markdown": "Just text.\n"}}}}, 400, "changes[0].title"},
		{"400NoDocument", map[string]any{"changes": []any{map[string]any{"operation": "insert_page", "title": "X"}}}, 400, "changes[0].document"},
		{"400FieldOfAnotherOperation", map[string]any{"changes": []any{map[string]any{"operation": "delete_page", "page": refs["a"], "document": map[string]any{"markdown": "x"}}}}, 400, "changes[0].document"},
		{"400BlockRevert", map[string]any{"changes": []any{map[string]any{"operation": "revert_page", "page": refs["a"], "block": []any{"k1"}}}}, 400, "changes[0].block"},
		{"400UnknownRevision", map[string]any{"changes": []any{map[string]any{"operation": "revert_page", "page": refs["a"], "revision": "nope"}}}, 400, "changes[0].revision"},
		{"400BadDocumentTree", map[string]any{"changes": []any{map[string]any{"operation": "insert_page", "document": map[string]any{"document": map[string]any{"object": "document", "nodes": []any{map[string]any{"object": "block", "type": "mystery"}}}}}}}, 400, "changes[0].document.document"},
		{"400Condition", map[string]any{"changes": []any{map[string]any{"operation": "update_page", "page": refs["a"], "condition": "visitor.isAdmin"}}}, 400, "changes[0].condition"},
		{"400UnknownPage", map[string]any{"changes": []any{insert("x", "", "# X\n"), map[string]any{"operation": "delete_page", "page": "nope"}}}, 400, "changes[1].page"},
		{"400UnknownParent", map[string]any{"changes": []any{insert("", "nope", "# X\n")}}, 400, "changes[0].into"},
		{"400SlugTaken", map[string]any{"changes": []any{map[string]any{"operation": "insert_page", "document": map[string]any{"markdown": "# X\n"}, "slug": "a"}}}, 400, "changes[0].slug"},
		{"400BadSlug", map[string]any{"changes": []any{map[string]any{"operation": "insert_page", "document": map[string]any{"markdown": "# X\n"}, "slug": "Not A Slug"}}}, 400, "slug"},
		{"400MoveUnderItself", map[string]any{"changes": []any{map[string]any{"operation": "update_page", "page": refs["a"], "into": refs["b"]}}}, 400, "changes[0].into"},
		{"400GroupNotAtTop", map[string]any{"changes": []any{map[string]any{"operation": "insert_page", "type": "group", "title": "G", "into": refs["a"]}}}, 400, "changes[0].into"},
		{"400LinkWithoutURL", map[string]any{"changes": []any{map[string]any{"operation": "insert_page", "type": "link", "title": "L"}}}, 400, "changes[0].href"},
		{"400BadFrontmatter", map[string]any{"changes": []any{insert("", "", "---\nnope: 1\n---\n# X\n")}}, 400, "changes[0].document.markdown"},
		{"400DuplicateRef", map[string]any{"changes": []any{insert("x", "", "# X\n"), insert("x", "", "# Y\n")}}, 400, "changes[1].ref"},
		{"400TooManyChanges", map[string]any{"changes": manyInserts(51)}, 400, "changes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, f.editor).Expect(tc.status, "POST", path, tc.body)
			if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
	if now := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1), nil).Map(t)["revision"]; now != rev {
		t.Fatalf("a refused batch changed the revision: %v -> %v", rev, now)
	}
	if got := strings.Join(f.pages(t, 1), " "); got != "a a/b" {
		t.Fatalf("a refused batch changed the pages: %s", got)
	}
}

func manyInserts(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = insert("", "", "# P\n")
	}
	return out
}

func TestOnlyActiveRequestsAcceptChanges(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "")
	f.as(t, f.editor).Expect(http.StatusOK, "PATCH", f.cr(1), map[string]any{"status": "archived"})
	body := map[string]any{"changes": []any{insert("", "", "# X\n")}}
	f.as(t, f.editor).Expect(http.StatusConflict, "POST", f.cr(1)+"/content", body)
	f.as(t, f.editor).Expect(http.StatusOK, "PATCH", f.cr(1), map[string]any{"status": "open"})
	f.as(t, f.editor).Expect(http.StatusOK, "POST", f.cr(1)+"/content", body)
	f.needsEdit(t, f.cr(1)+"/content", f.cr(7)+"/content", body)
}

func TestAuthorsBecomeContributors(t *testing.T) {
	f := setup(t)
	f.create(t, f.admin, "")
	list := func() int {
		return len(f.as(t, f.reader).Expect(http.StatusOK, "GET", f.crs()+"?status=draft&contributor="+f.editorID, nil).Map(t)["items"].([]any))
	}
	if list() != 0 {
		t.Fatal("the editor contributes before authoring")
	}
	f.author(t, f.editor, 1, insert("", "", "# X\n"))
	if list() != 1 {
		t.Fatal("the editor's batch did not make them a contributor")
	}
}

func pngBytes(t *testing.T, w, h int) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestInsertFilesAndPointAtThemByRef(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "")
	img := pngBytes(t, 3, 2)
	got := f.author(t, f.editor, 1,
		insert("p", "", "# Pictures\n\n![diagram](/files/diagram)\n"),
		map[string]any{"operation": "insert_files", "files": []any{
			map[string]any{"ref": "diagram", "name": "diagram.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(img)},
			map[string]any{"name": "notes.txt", "contentType": "text/plain", "base64": base64.StdEncoding.EncodeToString([]byte("hello"))},
		}})
	fileID := got["refs"].(map[string]any)["diagram"].(string)
	pageID := got["refs"].(map[string]any)["p"].(string)
	if md := f.markdown(t, 1, pageID); !strings.Contains(md, "/files/"+fileID) {
		t.Fatalf("markdown does not point at the file's id: %q", md)
	}
	doc := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/page/"+pageID+"?format=document", nil).Map(t)["document"].(map[string]any)
	image := doc["nodes"].([]any)[0].(map[string]any)["nodes"].([]any)[0].(map[string]any)
	if ref := image["data"].(map[string]any)["ref"].(map[string]any); ref["kind"] != "file" || ref["file"] != fileID {
		t.Errorf("image ref %v", ref)
	}
	file := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/files/"+fileID, nil).Map(t)
	dims, _ := file["dimensions"].(map[string]any)
	if file["contentType"] != "image/png" || file["size"] != float64(len(img)) || dims["width"] != 3.0 || dims["height"] != 2.0 {
		t.Fatalf("file %v", file)
	}
	link, _ := url.Parse(file["downloadURL"].(string))
	if res := f.as(t, "").Expect(http.StatusOK, "GET", link.RequestURI(), nil); !bytes.Equal(res.Body, img) {
		t.Fatal("the download link does not give the file's bytes")
	}
	list := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/files", nil).Map(t)
	if list["count"] != 2.0 {
		t.Fatalf("files %v", list)
	}
	for _, tc := range []struct {
		name, field string
		file        map[string]any
		status      int
	}{
		{"400NotBase64", "base64", map[string]any{"name": "x", "contentType": "application/octet-stream", "base64": "***"}, 400},
		{"400NoBytes", "url", map[string]any{"name": "x"}, 400},
		{"400Base64WithoutContentType", "contentType", map[string]any{"name": "x", "base64": "aGk="}, 400},
		{"400BothSources", "base64", map[string]any{"name": "x", "contentType": "text/plain", "base64": "aGk=", "url": "https://example.com/x"}, 400},
		{"400PrivateURL", "url", map[string]any{"name": "x", "url": "http://127.0.0.1:1/x"}, 400},
		{"400NoName", "name", map[string]any{"contentType": "application/octet-stream", "base64": "aGk="}, 400},
		{"400TooLargeInline", "files[0].base64", map[string]any{"name": "x", "contentType": "application/octet-stream", "base64": base64.StdEncoding.EncodeToString(make([]byte, 1<<20+1))}, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, f.editor).Expect(tc.status, "POST", f.cr(1)+"/content",
				map[string]any{"changes": []any{map[string]any{"operation": "insert_files", "files": []any{tc.file}}}})
			if !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
}

func TestInsertFilesFetchedFromAURL(t *testing.T) {
	f := setup(t)
	img := pngBytes(t, 4, 5)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(img) }))
	defer srv.Close()
	f.create(t, f.editor, "")
	body := map[string]any{"changes": []any{map[string]any{"operation": "insert_files", "files": []any{map[string]any{"ref": "f", "name": "x.png", "url": srv.URL + "/x.png"}}}}}
	// Loopback addresses are refused unless the installation allows them.
	f.as(t, f.editor).Expect(http.StatusBadRequest, "POST", f.cr(1)+"/content", body)
	f.kit.Deps.FetchAllowPrivate = true
	got := f.as(t, f.editor).Expect(http.StatusOK, "POST", f.cr(1)+"/content?compat=false", body).Map(t)
	file := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/files/"+got["refs"].(map[string]any)["f"].(string), nil).Map(t)
	if file["size"] != float64(len(img)) || file["dimensions"].(map[string]any)["height"] != 5.0 {
		t.Fatalf("fetched file %v", file)
	}
}
