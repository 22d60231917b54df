package changerequests_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/orgsroot"
	"github.com/galleydocs/galley/shared/testkit"
)

// errorMessage is the message of an error answer.
func errorMessage(t testing.TB, m map[string]any) string {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	if !ok {
		t.Fatalf("not an error answer: %v", m)
	}
	return e["message"].(string)
}

// TestReviewsAndMergeRules: a space's merge rules hold a merge until the
// reviews they ask for are given; reviews are asked, given, superseded and
// listed as GitBook's client reads them, on each storage backend.
func TestReviewsAndMergeRules(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		orgsroot.Routes(f.api, app.NewRoot(k.Deps))
		admin, ed, rev := f.as(t, f.admin), f.as(t, f.editor), f.as(t, f.reviewer)
		space := "/v1/spaces/" + f.space

		if got := f.spaceOf(t)["mergeRules"]; got.(map[string]any)["type"] != "inherit" {
			t.Fatalf("a new space's merge rules: %v", got)
		}
		// Rules the reference has and Galley cannot check are refused,
		// naming the field; so are the editor's changes (admin only).
		bad := admin.Expect(http.StatusBadRequest, "PATCH", space, map[string]any{"mergeRules": map[string]any{
			"type": "rules", "rules": []any{map[string]any{"rule": "require_at_least_one_review"}, map[string]any{"rule": "custom", "expression": "true"}}}}).Map(t)
		if msg := errorMessage(t, bad); !strings.Contains(msg, "mergeRules.rules[1].rule") {
			t.Fatalf("custom rule refused with %q", msg)
		}
		rules := map[string]any{"type": "rules", "rules": []any{
			map[string]any{"rule": "require_at_least_one_approved_review"},
			map[string]any{"rule": "require_all_reviews_approved"},
		}}
		ed.Expect(http.StatusForbidden, "PATCH", space, map[string]any{"mergeRules": rules})
		got := admin.Expect(http.StatusOK, "PATCH", space, map[string]any{"mergeRules": rules}).Map(t)["mergeRules"].(map[string]any)
		if got["type"] != "rules" || len(got["rules"].([]any)) != 2 {
			t.Fatalf("merge rules after PATCH: %v", got)
		}

		cr := f.create(t, f.editor, "Install guide")
		f.author(t, f.editor, cr["id"], insert("", "", "# Install\n\nRun it.\n"))
		msg := errorMessage(t, rev.Expect(http.StatusConflict, "POST", f.cr(cr["id"])+"/merge", nil).Map(t))
		if !strings.Contains(msg, "require_at_least_one_approved_review") || !strings.Contains(msg, "require_all_reviews_approved") {
			t.Fatalf("merge without reviews refused with %q", msg)
		}

		// Asking: only members who may review, never the author.
		reader, vera := f.readerID, f.reviewerID
		for field, users := range map[string][]string{"users[0]": {reader}, "users[1]": {vera, f.editorID}} {
			m := ed.Expect(http.StatusBadRequest, "POST", f.cr(cr["id"])+"/requested-reviewers", map[string]any{"users": users}).Map(t)
			if !strings.Contains(errorMessage(t, m), field) {
				t.Fatalf("request of %v refused with %v, want %s named", users, m, field)
			}
		}
		asked := ed.Expect(http.StatusOK, "POST", f.cr(cr["id"])+"/requested-reviewers", map[string]any{"users": []string{vera}}).Map(t)
		if u := asked["users"].([]any); len(u) != 1 || u[0].(map[string]any)["user"].(map[string]any)["id"] != vera {
			t.Fatalf("requested reviewers answer %v", asked)
		}
		pending := rev.Expect(http.StatusOK, "GET", f.cr(cr["id"])+"/requested-reviewers", nil).Map(t)
		if pending["count"] != 1.0 {
			t.Fatalf("pending requests %v", pending)
		}

		// The author cannot review; the reviewer requests changes, with a
		// comment that is also in the request's comments.
		ed.Expect(http.StatusForbidden, "POST", f.cr(cr["id"])+"/reviews", map[string]any{"status": "approved"})
		first := rev.Expect(http.StatusCreated, "POST", f.cr(cr["id"])+"/reviews", map[string]any{
			"status": "changes-requested", "comment": map[string]any{"markdown": "Say **which** version."}}).Map(t)
		if first["status"] != "changes-requested" || first["outdated"] != false || first["requestedBy"] == nil {
			t.Fatalf("first review %v", first)
		}
		comment := first["comment"].(map[string]any)
		if comment["target"].(map[string]any)["review"] != first["id"] {
			t.Fatalf("review comment's target %v", comment["target"])
		}
		if n := rev.Expect(http.StatusOK, "GET", f.cr(cr["id"])+"/requested-reviewers", nil).Map(t)["count"]; n != 0.0 {
			t.Fatalf("the request is still pending after the review: %v", n)
		}
		msg = errorMessage(t, rev.Expect(http.StatusConflict, "POST", f.cr(cr["id"])+"/merge", nil).Map(t))
		if !strings.Contains(msg, "require_all_reviews_approved (changes requested)") {
			t.Fatalf("merge with changes requested refused with %q", msg)
		}

		// Approving supersedes the first review; then the merge goes.
		second := rev.Expect(http.StatusCreated, "POST", f.cr(cr["id"])+"/reviews", map[string]any{"status": "approved"}).Map(t)
		again := rev.Expect(http.StatusOK, "GET", f.cr(cr["id"])+"/reviews/"+first["id"].(string)+"?format=markdown", nil).Map(t)
		if again["outdated"] != true || again["comment"].(map[string]any)["body"].(map[string]any)["markdown"] != "Say **which** version." {
			t.Fatalf("first review after the second: %v", again)
		}
		current := rev.Expect(http.StatusOK, "GET", f.cr(cr["id"])+"/reviews?outdated=false", nil).Map(t)
		if items := current["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != second["id"] {
			t.Fatalf("current reviews %v", current)
		}
		all := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(cr["id"])+"/reviews?limit=1", nil).Map(t)
		next := all["next"].(map[string]any)["page"].(string)
		rest := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(cr["id"])+"/reviews?limit=1&page="+next, nil).Map(t)
		if all["items"].([]any)[0].(map[string]any)["id"] != first["id"] || rest["items"].([]any)[0].(map[string]any)["id"] != second["id"] || rest["next"] != nil {
			t.Fatalf("reviews by pages: %v then %v", all, rest)
		}
		f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", f.cr(cr["id"])+"/reviews", nil)
		f.merge(t, cr["id"], "merge")

		// Inherited rules: the organization's apply once the space inherits.
		admin.Expect(http.StatusOK, "PATCH", space, map[string]any{"mergeRules": map[string]any{"type": "inherit"}})
		admin.Expect(http.StatusBadRequest, "PATCH", "/v1/orgs/"+f.org.ID, map[string]any{"mergeRules": map[string]any{"type": "inherit"}})
		org := admin.Expect(http.StatusOK, "PATCH", "/v1/orgs/"+f.org.ID, map[string]any{"mergeRules": map[string]any{
			"type": "rules", "rules": []any{map[string]any{"rule": "require_author_to_merge"}}}}).Map(t)
		if org["mergeRules"].(map[string]any)["type"] != "rules" {
			t.Fatalf("organization's merge rules: %v", org["mergeRules"])
		}
		two := f.create(t, f.editor, "Upgrade guide")
		f.author(t, f.editor, two["id"], insert("", "", "# Upgrade\n"))
		msg = errorMessage(t, rev.Expect(http.StatusConflict, "POST", f.cr(two["id"])+"/merge", nil).Map(t))
		if !strings.Contains(msg, "require_author_to_merge") {
			t.Fatalf("merge by another than the author refused with %q", msg)
		}
		ed.Expect(http.StatusForbidden, "POST", f.cr(two["id"])+"/merge", nil) // edit may not merge at all
		admin.Expect(http.StatusOK, "PATCH", space, map[string]any{"mergeRules": map[string]any{"type": "none"}})
		f.merge(t, two["id"], "merge")
	})
}

// Every review operation's rights: outsiders 404, too low a role 403, no
// token 401; bad input 400 naming the field.
func TestReviewOperationsRights(t *testing.T) {
	f := setup(t)
	cr := f.create(t, f.editor, "Rights")
	base := f.cr(cr["id"])
	ops := []struct {
		method, path string
		body         any
		low          string // the token of a role too low (403)
	}{
		{"POST", base + "/reviews", map[string]any{"status": "approved"}, f.reader},
		{"GET", base + "/reviews", nil, ""},
		{"GET", base + "/requested-reviewers", nil, ""},
		{"POST", base + "/requested-reviewers", map[string]any{"users": []string{f.reviewerID}}, f.reader},
		{"DELETE", base + "/requested-reviewers/" + f.reviewerID, nil, f.reader},
	}
	for _, op := range ops {
		f.as(t, f.outsider).Expect(http.StatusNotFound, op.method, op.path, op.body)
		f.as(t, f.guest).Expect(http.StatusNotFound, op.method, op.path, op.body)
		f.as(t, "").Expect(http.StatusUnauthorized, op.method, op.path, op.body)
		if op.low != "" {
			f.as(t, op.low).Expect(http.StatusForbidden, op.method, op.path, op.body)
		}
	}
	for field, body := range map[string]any{
		"status": map[string]any{"status": "maybe"},
		"users":  map[string]any{"users": []string{}},
	} {
		path := base + "/reviews"
		if field == "users" {
			path = base + "/requested-reviewers"
		}
		m := f.as(t, f.reviewer).Expect(http.StatusBadRequest, "POST", path, body).Map(t)
		if !strings.Contains(errorMessage(t, m), field) {
			t.Errorf("%s: %v does not name the field", path, m)
		}
	}
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", base+"/reviews/nope", nil)
}
