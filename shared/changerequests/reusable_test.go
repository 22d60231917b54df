package changerequests_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
)

// onHead changes the space's head tree with fn (a new revision), as a Git
// import does.
func (f *fixture) onHead(t *testing.T, fn func(ix *content.Index)) {
	t.Helper()
	repo := content.NewRepo(f.kit.Deps)
	_, _, err := changerequestswire.Service(app.NewRoot(f.kit.Deps)).LandOnSpace(f.kit.Ctx, f.space, false,
		func(ctx context.Context, base model.Revision, ix *content.Index) (model.Revision, []store.Op, error) {
			fn(ix)
			rev, err := repo.NewRevision(ctx, f.space, content.RevisionEdits, []string{base.ID}, ix)
			return rev, nil, err
		})
	if err != nil {
		t.Fatal(err)
	}
}

// A change request's content has the space's reusable contents and
// variables (getReusableContentInChangeRequestById; outsiders 404, no
// token 401, an unknown id 404), and a three-way merge keeps those the
// space gained meanwhile.
func TestReusableContentsOfAChangeRequest(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		f.onHead(t, func(ix *content.Index) {
			ix.PutReusableContent(content.ReusableContent{ID: "rc1", Title: "Banner"})
			ix.SetVariables(content.Variables{"version": "1"})
		})
		n := f.create(t, f.editor, "Docs")["number"]
		path := f.cr(n) + "/content/reusable-contents/rc1"
		if got := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t); got["id"] != "rc1" || got["title"] != "Banner" {
			t.Fatalf("reusable content %v", got)
		}
		f.as(t, f.reader).Expect(http.StatusNotFound, "GET", f.cr(n)+"/content/reusable-contents/nope", nil)
		f.as(t, "").Expect(http.StatusUnauthorized, "GET", path, nil)
		f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", path, nil)
		if rev := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(n)+"/content", nil).Map(t); len(rev["reusableContents"].([]any)) != 1 ||
			rev["variables"].(map[string]any)["version"] != "1" {
			t.Fatalf("request's revision %v %v", rev["reusableContents"], rev["variables"])
		}

		// The space gains a reusable content and changes a variable; the
		// request adds a page: the merge is three-way and keeps both.
		f.author(t, f.editor, n, insert("", "", "# Page\n\nText.\n"))
		f.onHead(t, func(ix *content.Index) {
			ix.PutReusableContent(content.ReusableContent{ID: "rc2", Title: "Note"})
			ix.SetVariables(content.Variables{"version": "2"})
		})
		f.merge(t, n, "merge")
		rev := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content", nil).Map(t)
		if len(rev["reusableContents"].([]any)) != 2 || rev["variables"].(map[string]any)["version"] != "2" || len(rev["pages"].([]any)) != 1 {
			t.Fatalf("merged: %v %v %v", rev["reusableContents"], rev["variables"], rev["pages"])
		}
	})
}

// Authored markdown sets a page's variables with frontmatter vars:,
// checked by GitBook's rules (400 naming the markdown otherwise), and
// read back in the page's variables and its markdown for Git.
func TestAuthoredPageVariables(t *testing.T) {
	f := setup(t)
	n := f.create(t, f.editor, "Vars")["number"]
	refs := f.author(t, f.editor, n, insert("p", "", "---\nvars:\n  product: Acme\n  seats: 3\n  beta: true\n---\n\n# P\n\nText.\n"))["refs"].(map[string]any)
	page := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(n)+"/content/page/"+refs["p"].(string), nil).Map(t)
	if v := page["variables"].(map[string]any); v["product"] != "Acme" || v["seats"] != float64(3) || v["beta"] != true {
		t.Fatalf("variables %v", page["variables"])
	}
	for _, bad := range []string{"vars:\n  1st: x", "vars:\n  a: [1, 2]", "vars:\n  a-b: x"} {
		res := f.as(t, f.editor).Expect(http.StatusBadRequest, "POST", f.cr(n)+"/content?compat=false",
			map[string]any{"changes": []any{insert("", "", "---\n"+bad+"\n---\n\n# Q\n")}})
		if !strings.Contains(string(res.Body), "document.markdown") || !strings.Contains(string(res.Body), "vars") {
			t.Errorf("%q: %s", bad, res.Body)
		}
	}
}
