package changerequests_test

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// seedSpace merges a request adding pages a (body "one..five" lines) and b
// and returns their ids.
func (f *fixture) seedSpace(t *testing.T) (a, b string) {
	t.Helper()
	n := f.create(t, f.editor, "seed")["number"]
	refs := f.author(t, f.editor, n, insert("a", "", "# A\n\none\ntwo\nthree\nfour\nfive\n"), insert("b", "", "# B\n\nbee\n"))["refs"].(map[string]any)
	f.merge(t, n, "merge")
	return refs["a"].(string), refs["b"].(string)
}

// merge merges request n as the reviewer; update brings it up to date as
// the editor. Each fails unless the answer's result is want.
func (f *fixture) merge(t *testing.T, n any, want string) map[string]any {
	t.Helper()
	return f.land(t, f.reviewer, n, "merge", want)
}

func (f *fixture) update(t *testing.T, n any, want string) map[string]any {
	t.Helper()
	return f.land(t, f.editor, n, "update", want)
}

func (f *fixture) land(t *testing.T, token string, n any, op, want string) map[string]any {
	t.Helper()
	got := f.as(t, token).Expect(http.StatusOK, "POST", f.cr(n)+"/"+op, nil).Map(t)
	if got["result"] != want {
		t.Fatalf("%s of %v: %v, want %s", op, n, got, want)
	}
	return got
}

func (f *fixture) spaceMarkdown(t *testing.T, pageID string) string {
	t.Helper()
	return f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/page/"+pageID+"?format=markdown", nil).Map(t)["markdown"].(string)
}

func (f *fixture) spacePages(t *testing.T) []string {
	t.Helper()
	return tree(f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/pages", nil).Map(t)["pages"].([]any))
}

func TestMergeMovesTheHeadAndMakesTheRequestMerged(t *testing.T) {
	f := setup(t)
	cr := f.create(t, f.editor, "Docs")
	f.as(t, f.editor).Expect(http.StatusOK, "PATCH", f.cr(1), map[string]any{"status": "open"})
	f.author(t, f.editor, 1, insert("", "", "# Hello\n\nWorld.\n"))
	for _, tc := range []struct {
		name   string
		token  string
		status int
	}{{"401NoToken", "", 401}, {"403Editor", f.editor, 403}, {"403Reader", f.reader, 403}, {"404Outsider", f.outsider, 404}, {"404Guest", f.guest, 404}} {
		t.Run(tc.name, func(t *testing.T) { f.as(t, tc.token).Expect(tc.status, "POST", f.cr(1)+"/merge", nil) })
	}
	got := f.merge(t, 1, "merge")
	sp := f.spaceOf(t)
	if sp["revision"] != got["revision"] || sp["changeRequestsOpen"] != 0.0 || sp["changeRequests"] != 1.0 {
		t.Fatalf("space after merge %v", sp)
	}
	merged := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(cr["id"]), nil).Map(t)
	if merged["status"] != "merged" || merged["revisionMerged"] != got["revision"] || merged["outdated"] != false {
		t.Fatalf("request after merge %v", merged)
	}
	rev := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content", nil).Map(t)
	if rev["type"] != "merge" || rev["mergedFrom"].(map[string]any)["id"] != cr["id"] || len(rev["parents"].([]any)) != 2 {
		t.Fatalf("merge revision %v", rev)
	}
	if paths := f.spacePages(t); strings.Join(paths, " ") != "hello" {
		t.Fatalf("space pages %v", paths)
	}
	// Merged is final.
	f.as(t, f.reviewer).Expect(http.StatusConflict, "POST", f.cr(1)+"/merge", nil)
	f.as(t, f.editor).Expect(http.StatusConflict, "POST", f.cr(1)+"/update", nil)
	f.as(t, f.editor).Expect(http.StatusConflict, "PATCH", f.cr(1), map[string]any{"status": "open"})
	f.as(t, f.editor).Expect(http.StatusConflict, "POST", f.cr(1)+"/content", map[string]any{"changes": []any{insert("", "", "# X\n")}})
	f.as(t, f.reviewer).Expect(http.StatusNotFound, "POST", f.cr(9)+"/merge", nil)
}

func TestAnOutdatedRequestIsUpdatedThenMerged(t *testing.T) {
	f := setup(t)
	a, b := f.seedSpace(t)
	f.create(t, f.editor, "edit a") // 2
	f.create(t, f.editor, "edit b") // 3
	f.author(t, f.editor, 2, map[string]any{"operation": "update_page", "page": a, "document": map[string]any{"markdown": "# A\n\nONE\ntwo\nthree\nfour\nfive\n"}})
	f.author(t, f.editor, 3, map[string]any{"operation": "update_page", "page": a, "document": map[string]any{"markdown": "# A\n\none\ntwo\nthree\nfour\nFIVE\n"}},
		map[string]any{"operation": "update_page", "page": b, "title": "Bee"})
	if f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(3), nil).Map(t)["outdated"] != false {
		t.Fatal("a request on the space's head is outdated")
	}
	f.merge(t, 2, "merge")
	head := f.spaceOf(t)["revision"]
	third := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(3), nil).Map(t)
	if third["outdated"] != true {
		t.Fatal("the other request is not outdated after a merge")
	}
	up := f.update(t, 3, "update")
	third = f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(3), nil).Map(t)
	if third["outdated"] != false || third["revisionMergedAncestor"] != head || third["revision"] != up["revision"] {
		t.Fatalf("after update %v", third)
	}
	if md := f.markdown(t, 3, a); md != "# A\n\nONE\ntwo\nthree\nfour\nFIVE\n" {
		t.Fatalf("updated request's page %q", md)
	}
	// Updating again changes nothing.
	if again := f.update(t, 3, "update"); again["revision"] != up["revision"] {
		t.Fatalf("a second update made %v", again["revision"])
	}
	f.merge(t, 3, "merge")
	if md := f.spaceMarkdown(t, a); md != "# A\n\nONE\ntwo\nthree\nfour\nFIVE\n" {
		t.Fatalf("space page after both merges %q", md)
	}
	if md := f.spaceMarkdown(t, b); !strings.HasPrefix(md, "# Bee\n") {
		t.Fatalf("space page b %q", md)
	}
}

func TestConflictingEditsChangeNothing(t *testing.T) {
	f := setup(t)
	a, _ := f.seedSpace(t)
	f.create(t, f.editor, "")
	f.create(t, f.editor, "")
	f.author(t, f.editor, 2, map[string]any{"operation": "update_page", "page": a, "document": map[string]any{"markdown": "# A\n\none\nTWO\nthree\nfour\nfive\n"}})
	f.author(t, f.editor, 3, map[string]any{"operation": "update_page", "page": a, "document": map[string]any{"markdown": "# A\n\none\n2\nthree\nfour\nfive\n"}})
	f.merge(t, 2, "merge")
	head := f.spaceOf(t)["revision"]
	before := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(3), nil).Map(t)
	got := f.merge(t, 3, "conflicts")
	if got["revision"] != head || len(got["conflicts"].([]any)) != 1 || got["conflicts"].([]any)[0].(map[string]any)["page"] != a {
		t.Fatalf("conflicting merge %v", got)
	}
	up := f.update(t, 3, "conflicts")
	if up["revision"] != before["revision"] {
		t.Fatalf("conflicting update answered %v", up)
	}
	after := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(3), nil).Map(t)
	if after["revision"] != before["revision"] || after["status"] != "draft" || f.spaceOf(t)["revision"] != head {
		t.Fatalf("a conflict changed something: %v", after)
	}
	if md := f.spaceMarkdown(t, a); md != "# A\n\none\nTWO\nthree\nfour\nfive\n" {
		t.Fatalf("space page %q", md)
	}
	// Resolving by hand (writing the page again) then updating works.
	f.author(t, f.editor, 3, map[string]any{"operation": "update_page", "page": a, "document": map[string]any{"markdown": "# A\n\none\nTWO\nthree\nfour\nfive\n"}})
	f.update(t, 3, "update")
	f.merge(t, 3, "merge")
}

func TestMovesAndDeletesAgainstEdits(t *testing.T) {
	f := setup(t)
	a, b := f.seedSpace(t)
	for i := 0; i < 4; i++ {
		f.create(t, f.editor, "")
	}
	f.author(t, f.editor, 2, map[string]any{"operation": "update_page", "page": a, "into": b})                                                     // move a under b
	f.author(t, f.editor, 3, map[string]any{"operation": "update_page", "page": a, "document": map[string]any{"markdown": "# A\n\nedited\n"}})     // edit a
	f.author(t, f.editor, 4, map[string]any{"operation": "delete_page", "page": b})                                                                // delete b
	f.author(t, f.editor, 5, map[string]any{"operation": "update_page", "page": b, "document": map[string]any{"markdown": "# B\n\nbee edited\n"}}) // edit b
	f.merge(t, 2, "merge")
	f.merge(t, 3, "merge")
	if paths := f.spacePages(t); strings.Join(paths, " ") != "b b/a" || f.spaceMarkdown(t, a) != "# A\n\nedited\n" {
		t.Fatalf("after move and edit: %v %q", paths, f.spaceMarkdown(t, a))
	}
	// Request 4 deleted b when a was not under it; in the space a has
	// since moved under b, which would leave a without its parent.
	got := f.merge(t, 4, "conflicts")
	if c := got["conflicts"].([]any); len(c) != 1 || c[0].(map[string]any)["page"] != a {
		t.Fatalf("conflicts %v, want one on page a", c)
	}
	f.merge(t, 5, "merge")
}

func TestConcurrentMergesNeverLoseAChange(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) { concurrentMerges(t, setupOn(t, k)) })
}

func concurrentMerges(t *testing.T, f *fixture) {
	const n = 8
	for i := 1; i <= n; i++ {
		f.create(t, f.editor, "")
		f.author(t, f.editor, i, insert("", "", fmt.Sprintf("# Page %d\n\nbody %d\n", i, i)))
	}
	var wg sync.WaitGroup
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := f.as(t, f.reviewer).Do("POST", f.cr(i)+"/merge", nil)
			if res.Status != http.StatusOK || res.Map(t)["result"] != "merge" {
				t.Errorf("merge %d: %d %s", i, res.Status, res.Body)
			}
		}(i)
	}
	wg.Wait()
	paths := f.spacePages(t)
	sort.Strings(paths)
	if len(paths) != n {
		t.Fatalf("space has %d pages after %d merges: %v", len(paths), n, paths)
	}
	sp := f.spaceOf(t)
	if sp["changeRequestsDraft"] != 0.0 || sp["changeRequests"] != float64(n) {
		t.Fatalf("counters %v", sp)
	}
	// Each merge's revision has the previous head as its first parent.
	rev := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content", nil).Map(t)
	if rev["type"] != "merge" {
		t.Fatalf("head %v", rev)
	}
}

// duplicateSpace copies a space's current pages and files into a new space
// beside it; the copy is independent of its source.
func TestDuplicateSpace(t *testing.T) {
	f := setup(t)
	cr := f.create(t, f.editor, "Docs")
	refs := f.author(t, f.editor, cr["id"],
		map[string]any{"operation": "insert_files", "files": []any{map[string]any{"ref": "logo", "name": "logo.png", "contentType": "image/png",
			"base64": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="}}},
		insert("start", "", "# Start\n\n![Logo](./logo)\n"), insert("install", "start", "# Install\n\nRun it.\n"))["refs"].(map[string]any)
	f.merge(t, cr["id"], "merge")

	f.as(t, f.reader).Expect(http.StatusForbidden, "POST", "/v1/spaces/"+f.space+"/duplicate", nil)
	f.as(t, f.outsider).Expect(http.StatusNotFound, "POST", "/v1/spaces/"+f.space+"/duplicate", nil)
	f.as(t, "").Expect(http.StatusUnauthorized, "POST", "/v1/spaces/"+f.space+"/duplicate", nil)
	res := f.as(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/spaces/"+f.space+"/duplicate", nil)
	copied := res.Map(t)
	if copied["title"] != "Docs (copy)" || copied["id"] == f.space || res.Header.Get("Location") != copied["urls"].(map[string]any)["location"] {
		t.Fatalf("copy %v (Location %s)", copied, res.Header.Get("Location"))
	}
	id := copied["id"].(string)
	pages := tree(f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+id+"/content/pages", nil).Map(t)["pages"].([]any))
	if strings.Join(pages, " ") != strings.Join(f.spacePages(t), " ") {
		t.Fatalf("copy's pages %v, source's %v", pages, f.spacePages(t))
	}
	md := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+id+"/content/page/"+refs["install"].(string)+"?format=markdown", nil).Map(t)["markdown"]
	if md != "# Install\n\nRun it.\n" {
		t.Fatalf("copied page %q", md)
	}
	files := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+id+"/content/files", nil).Map(t)["items"].([]any)
	if len(files) != 1 {
		t.Fatalf("copied files %v", files)
	}
	dl := files[0].(map[string]any)["downloadURL"].(string)
	if u, _ := url.Parse(dl); f.as(t, f.reader).Do("GET", u.RequestURI(), nil).Status != http.StatusOK {
		t.Fatalf("the copied file does not download: %s", dl)
	}
	// The copy changes alone.
	two := f.as(t, f.editor).Expect(http.StatusCreated, "POST", "/v1/spaces/"+id+"/change-requests", map[string]any{"subject": "x"}).Map(t)
	f.as(t, f.editor).Expect(http.StatusOK, "POST", "/v1/spaces/"+id+"/change-requests/"+two["id"].(string)+"/content",
		map[string]any{"changes": []any{map[string]any{"operation": "delete_page", "page": refs["install"]}}})
	f.as(t, f.admin).Expect(http.StatusOK, "POST", "/v1/spaces/"+id+"/change-requests/"+two["id"].(string)+"/merge", nil)
	if got := f.spacePages(t); len(got) != 2 {
		t.Fatalf("the source changed with its copy: %v", got)
	}
}
