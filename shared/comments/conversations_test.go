package comments_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// names lists the display names of a list's members, every page read.
func (f *fixture) names(t *testing.T, token, path string, limit int) string {
	t.Helper()
	var out []string
	for _, it := range testkit.Items(t, f.as(t, token), path, limit) {
		if it["object"] != "member" {
			t.Errorf("a commenter is a member: %v", it)
		}
		out = append(out, it["user"].(map[string]any)["displayName"].(string))
	}
	return strings.Join(out, " ")
}

// Commenters are the members who posted a comment or a reply in the
// thread, once each, whatever was deleted since; a space's and a
// request's threads are apart.
func TestCommentersOfASpaceAndOfAChangeRequest(t *testing.T) {
	f := setup(t)
	f.request(t, "Discuss")
	c := f.post(t, f.commenter, f.comments(), say("On the space"))
	f.as(t, f.editor).Expect(http.StatusOK, "POST", f.comments()+"/"+c["id"].(string)+"/replies", say("A reply"))
	f.post(t, f.commenter, f.comments(), say("Again"))
	gone := f.post(t, f.admin, f.crComments(1), say("In the request"))
	f.as(t, f.admin).Expect(http.StatusResetContent, "DELETE", f.crComments(1)+"/"+gone["id"].(string), nil)
	spaceList := "/v1/spaces/" + f.space + "/commenters"
	crList := f.cr(1) + "/commenters"
	for _, limit := range []int{1, 50} {
		got := f.names(t, f.reader, spaceList, limit)
		if len(strings.Fields(got)) != 2 || !strings.Contains(got, "comment") || !strings.Contains(got, "edit") {
			t.Errorf("the space's commenters (limit %d): %q", limit, got)
		}
		if got := f.names(t, f.reader, crList, limit); got != "admin" {
			t.Errorf("the request's commenters (limit %d): %q", limit, got)
		}
	}
	testkit.Check(t, f.api, []testkit.Case{
		{"no token", "", "GET", spaceList, nil, http.StatusUnauthorized, ""},
		{"outsider", f.outsider, "GET", spaceList, nil, http.StatusNotFound, ""},
		{"guest", f.guest, "GET", crList, nil, http.StatusNotFound, ""},
		{"limit 0", f.reader, "GET", crList + "?limit=0", nil, http.StatusBadRequest, "limit"},
		{"unknown request", f.reader, "GET", f.cr(9) + "/commenters", nil, http.StatusNotFound, ""},
	})
}

// A change request's conversations are its comment threads: titled by
// their first line until renamed, renamed and deleted by their author or
// a space admin.
func TestConversationsAreTheRequestsCommentThreads(t *testing.T) {
	f := setup(t)
	f.request(t, "Discuss")
	first := f.post(t, f.commenter, f.crComments(1), say("\n  Why this page?  \nBecause."))["id"].(string)
	second := f.post(t, f.commenter2, f.crComments(1), map[string]any{"body": map[string]any{}})["id"].(string)
	f.post(t, f.commenter, f.comments(), say("Not in the request"))
	convs := f.cr(1) + "/conversations"
	items := testkit.Items(t, f.as(t, f.reader), convs, 1)
	if len(items) != 2 || items[0]["id"] != second || items[1]["id"] != first || items[1]["title"] != "Why this page?" ||
		items[0]["title"] != nil || items[0]["object"] != "agent-conversation" || items[0]["shared"] != true {
		t.Fatalf("conversations %v", items)
	}
	one := convs + "/" + first
	renamed := f.as(t, f.commenter).Expect(http.StatusOK, "PATCH", one, map[string]any{"title": "Page choice"}).Map(t)
	if renamed["title"] != "Page choice" || renamed["id"] != first {
		t.Errorf("renamed %v", renamed)
	}
	if got := f.as(t, f.admin).Expect(http.StatusOK, "PATCH", one, map[string]any{"title": ""}).Map(t)["title"]; got != "Why this page?" {
		t.Errorf("an empty title goes back to the first line: %v", got)
	}
	testkit.Check(t, f.api, []testkit.Case{
		{"list, no token", "", "GET", convs, nil, http.StatusUnauthorized, ""},
		{"list, outsider", f.outsider, "GET", convs, nil, http.StatusNotFound, ""},
		{"rename, not the author", f.commenter2, "PATCH", one, map[string]any{"title": "Mine"}, http.StatusForbidden, ""},
		{"rename, reader", f.reader, "PATCH", one, map[string]any{"title": "Mine"}, http.StatusForbidden, ""},
		{"rename, outsider", f.outsider, "PATCH", one, map[string]any{"title": "Mine"}, http.StatusNotFound, ""},
		{"rename, no token", "", "PATCH", one, map[string]any{"title": "Mine"}, http.StatusUnauthorized, ""},
		{"rename, no title", f.commenter, "PATCH", one, map[string]any{}, http.StatusBadRequest, "title"},
		{"rename, title too long", f.commenter, "PATCH", one, map[string]any{"title": strings.Repeat("x", 201)}, http.StatusBadRequest, "title"},
		{"rename, unknown", f.commenter, "PATCH", convs + "/nope", map[string]any{"title": "Mine"}, http.StatusNotFound, ""},
		{"delete, not the author", f.commenter2, "DELETE", one, nil, http.StatusForbidden, ""},
		{"delete, unknown", f.admin, "DELETE", convs + "/nope", nil, http.StatusNotFound, ""},
		{"delete, no token", "", "DELETE", one, nil, http.StatusUnauthorized, ""},
		{"delete", f.commenter, "DELETE", one, nil, http.StatusResetContent, ""},
		{"deleted, its comment is gone", f.reader, "GET", f.crComments(1) + "/" + first, nil, http.StatusNotFound, ""},
		{"deleted again", f.commenter, "DELETE", one, nil, http.StatusNotFound, ""},
	})
}
