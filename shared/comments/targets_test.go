package comments_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// targetPage reads a comment's target.page.
func (f *fixture) targetPage(t testing.TB, path string) map[string]any {
	t.Helper()
	c := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t)
	return c["target"].(map[string]any)["page"].(map[string]any)
}

// TestTargetsBecomeOutdated: a comment's page is outdated once a later
// revision changes its body or removes it; a change of title alone shows
// the new title. On each storage backend.
func TestTargetsBecomeOutdated(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		pages := f.seed(t)
		head := f.spaceOf(t)["revision"]
		onIntro := f.comments() + "/" + id(f.post(t, f.commenter, f.comments(), map[string]any{"page": pages["intro"], "body": map[string]any{}}))
		onGuide := f.comments() + "/" + id(f.post(t, f.commenter, f.comments(), map[string]any{"page": pages["guide"], "body": map[string]any{}}))
		general := f.post(t, f.commenter, f.comments(), map[string]any{"body": map[string]any{}})
		if general["target"].(map[string]any)["page"] != nil || len(general["body"].(map[string]any)) != 0 {
			t.Fatalf("a comment without page or body: %v", general)
		}

		f.edit(t, map[string]any{"operation": "update_page", "page": pages["guide"], "title": "Handbook"})
		if p := f.targetPage(t, onGuide); p["outdated"] != false || p["title"] != "Handbook" || p["path"] != "guide" {
			t.Fatalf("after a new title only: %v", p)
		}
		f.edit(t, map[string]any{"operation": "update_page", "page": pages["intro"], "document": map[string]any{"markdown": "# Intro\n\nWelcome, all.\n"}})
		if p := f.targetPage(t, onIntro); p["outdated"] != true || p["title"] != "Intro" {
			t.Fatalf("after a new body: %v", p)
		}
		if p := f.targetPage(t, onGuide); p["outdated"] != false {
			t.Fatalf("another page's comment after a new body: %v", p)
		}
		f.edit(t, map[string]any{"operation": "delete_page", "page": pages["guide"]})
		if p := f.targetPage(t, onGuide); p["outdated"] != true || p["title"] != "Guide" || p["path"] != "guide" || p["id"] != pages["guide"] {
			t.Fatalf("after the page was deleted, the page as it was: %v", p)
		}
		c := f.as(t, f.reader).Expect(http.StatusOK, "GET", onGuide, nil).Map(t)
		if c["target"].(map[string]any)["revision"] != head {
			t.Fatalf("target.revision %v, want the head when posted %v", c["target"].(map[string]any)["revision"], head)
		}
		// The targetPage filter still finds it.
		if got := ids(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", f.comments()+"?targetPage="+pages["guide"], nil).Map(t)); len(got) != 1 {
			t.Fatalf("comments on the deleted page: %v", got)
		}

		// In a change request, the request's revision is the reference.
		cr := f.request(t, "Review")
		refs := f.author(t, cr["number"], map[string]any{"operation": "insert_page", "ref": "new", "document": map[string]any{"markdown": "# New\n\nDraft.\n"}})
		onNew := f.crComments(cr["number"]) + "/" + id(f.post(t, f.commenter, f.crComments(cr["number"]), map[string]any{"page": refs["new"], "body": map[string]any{}}))
		onIntroInCR := f.crComments(cr["number"]) + "/" + id(f.post(t, f.commenter, f.crComments(cr["number"]), map[string]any{"page": pages["intro"], "body": map[string]any{}}))
		if p := f.targetPage(t, onNew); p["outdated"] != false {
			t.Fatalf("a new comment in a request: %v", p)
		}
		f.author(t, cr["number"], map[string]any{"operation": "update_page", "page": refs["new"], "document": map[string]any{"markdown": "# New\n\nFinal.\n"}})
		if p := f.targetPage(t, onNew); p["outdated"] != true {
			t.Fatalf("after the request changed the page: %v", p)
		}
		if p := f.targetPage(t, onIntroInCR); p["outdated"] != false {
			t.Fatalf("a page the request did not change: %v", p)
		}
		// A page of the request is not a page of the space's head.
		res := f.as(t, f.commenter).Expect(http.StatusBadRequest, "POST", f.comments(), map[string]any{"page": refs["new"], "body": map[string]any{}})
		if !strings.Contains(string(res.Body), "page") {
			t.Fatalf("error does not name page: %s", res.Body)
		}
	})
}

func TestTargetsMustExist(t *testing.T) {
	f := setup(t)
	pages := f.seed(t)
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"400UnknownPage", map[string]any{"page": "nope", "body": map[string]any{}}, "page"},
		{"400NodeWithoutPage", map[string]any{"node": "n1", "body": map[string]any{}}, "node"},
		{"400PageTooLong", map[string]any{"page": strings.Repeat("p", 65), "body": map[string]any{}}, "page"},
		{"400NodeTooLong", map[string]any{"page": pages["intro"], "node": strings.Repeat("n", 65), "body": map[string]any{}}, "node"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, base := range []string{f.comments(), f.crComments(f.request(t, "R")["number"])} {
				res := f.as(t, f.commenter).Expect(http.StatusBadRequest, "POST", base, tc.body)
				if !strings.Contains(string(res.Body), tc.field) {
					t.Fatalf("error does not name %s: %s", tc.field, res.Body)
				}
			}
		})
	}
	if got := count(f.spaceOf(t), "comments"); got != 0 {
		t.Fatalf("refused comments counted: %d", got)
	}
}
