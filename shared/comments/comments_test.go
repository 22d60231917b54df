package comments_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// id returns a comment's or reply's id.
func id(m map[string]any) string { return m["id"].(string) }

// count reads a counter of a space or change request answer.
func count(m map[string]any, field string) int { return int(m[field].(float64)) }

// TestLifeOfASpaceComment follows a comment on a space's page through
// every operation, on each storage backend.
func TestLifeOfASpaceComment(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		pages := f.seed(t)
		c := f.post(t, f.commenter, f.comments(), map[string]any{"page": pages["intro"], "node": "n1", "body": map[string]any{"markdown": "Is this **right**?"}})
		if c["object"] != "comment" || c["status"] != "open" || c["replies"] != 0.0 || c["editedAt"] != nil || c["resolvedAt"] != nil {
			t.Fatalf("new comment %v", c)
		}
		if by := c["postedBy"].(map[string]any); by["id"] != f.commenterID || by["object"] != "user" {
			t.Fatalf("postedBy %v", by)
		}
		target := c["target"].(map[string]any)
		sp := f.spaceOf(t)
		if target["space"] != f.space || target["revision"] != sp["revision"] || target["changeRequest"] != nil {
			t.Fatalf("target %v (space head %v)", target, sp["revision"])
		}
		if node := target["node"].(map[string]any); node["id"] != "n1" {
			t.Fatalf("target.node %v", node)
		}
		if page := target["page"].(map[string]any); page["id"] != pages["intro"] || page["title"] != "Intro" || page["path"] != "intro" || page["outdated"] != false {
			t.Fatalf("target.page %v", page)
		}
		if loc := c["urls"].(map[string]any)["location"]; loc != "https://api.test"+f.comments()+"/"+id(c) {
			t.Fatalf("urls.location %v", loc)
		}
		doc := c["body"].(map[string]any)["document"].(map[string]any)
		if doc["object"] != "document" || !strings.Contains(string(testkit.JSON(t, doc)), `"type":"bold"`) {
			t.Fatalf("default body is not the document: %v", c["body"])
		}
		if got := count(f.spaceOf(t), "comments"); got != 1 {
			t.Fatalf("space comments %d after one comment", got)
		}

		path := f.comments() + "/" + id(c)
		got := f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"?format=markdown", nil).Map(t)
		if got["body"].(map[string]any)["markdown"] != "Is this **right**?" {
			t.Fatalf("markdown body %v", got["body"])
		}
		if p := got["permissions"].(map[string]any); p["view"] != true || p["edit"] != false || p["reply"] != false || p["delete"] != false {
			t.Fatalf("reader's permissions %v", p)
		}

		// Replies count on the comment.
		r1 := f.post(t, f.editor, path+"/replies", say("Yes."))
		r2 := f.post(t, f.commenter, path+"/replies", say("Thanks"))
		if r1["object"] != "comment-reply" || r1["urls"].(map[string]any)["location"] != "https://api.test"+path+"/replies/"+id(r1) {
			t.Fatalf("reply %v", r1)
		}
		if got := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t); got["replies"] != 2.0 {
			t.Fatalf("replies %v after two replies", got["replies"])
		} else if rs := got["repliers"].([]any); len(rs) != 2 || rs[0].(map[string]any)["count"] != 1.0 ||
			rs[0].(map[string]any)["user"].(map[string]any)["id"] != f.editorID || rs[1].(map[string]any)["user"].(map[string]any)["id"] != f.commenterID {
			t.Fatalf("repliers after a reply each from the editor and the commenter: %v", rs)
		}
		list := f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/replies?format=markdown", nil).Map(t)
		if items := list["items"].([]any); list["count"] != 2.0 || id(items[0].(map[string]any)) != id(r1) || id(items[1].(map[string]any)) != id(r2) {
			t.Fatalf("replies, oldest first: %v", list)
		}
		one := f.as(t, f.reader).Expect(http.StatusOK, "GET", path+"/replies/"+id(r2)+"?format=markdown", nil).Map(t)
		if one["body"].(map[string]any)["markdown"] != "Thanks" {
			t.Fatalf("reply %v", one)
		}
		edited := f.as(t, f.commenter).Expect(http.StatusOK, "PUT", path+"/replies/"+id(r2)+"?format=markdown", map[string]any{"body": map[string]any{"markdown": "Thanks!"}}).Map(t)
		if edited["body"].(map[string]any)["markdown"] != "Thanks!" || edited["editedAt"] == nil {
			t.Fatalf("edited reply %v", edited)
		}
		f.as(t, f.commenter).Expect(http.StatusResetContent, "DELETE", path+"/replies/"+id(r2), nil)
		f.as(t, f.reader).Expect(http.StatusNotFound, "GET", path+"/replies/"+id(r2), nil)
		if got := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t); got["replies"] != 1.0 {
			t.Fatalf("replies %v after deleting one of two", got["replies"])
		} else if rs := got["repliers"].([]any); len(rs) != 1 || rs[0].(map[string]any)["user"].(map[string]any)["id"] != f.editorID {
			t.Fatalf("repliers after the commenter's reply is deleted: %v", rs)
		}

		// Resolve, reopen, edit.
		res := f.as(t, f.editor).Expect(http.StatusOK, "PUT", path, map[string]any{"resolved": true}).Map(t)
		if res["status"] != "resolved" || res["resolvedAt"] == nil || res["resolvedBy"].(map[string]any)["id"] != f.editorID {
			t.Fatalf("resolved %v", res)
		}
		if got := count(f.spaceOf(t), "comments"); got != 0 {
			t.Fatalf("space comments %d with the only comment resolved", got)
		}
		again := f.as(t, f.commenter).Expect(http.StatusOK, "PUT", path, map[string]any{"resolved": true}).Map(t)
		if again["resolvedAt"] != res["resolvedAt"] || again["resolvedBy"].(map[string]any)["id"] != f.editorID {
			t.Fatalf("resolving again changed who and when: %v", again)
		}
		open := f.as(t, f.commenter).Expect(http.StatusOK, "PUT", path, map[string]any{"resolved": false}).Map(t)
		if open["status"] != "open" || open["resolvedAt"] != nil || open["resolvedBy"] != nil {
			t.Fatalf("reopened %v", open)
		}
		if got := count(f.spaceOf(t), "comments"); got != 1 {
			t.Fatalf("space comments %d after reopening", got)
		}
		body := f.as(t, f.commenter).Expect(http.StatusOK, "PUT", path+"?format=markdown", map[string]any{"body": map[string]any{"markdown": "Is this right?"}}).Map(t)
		if body["body"].(map[string]any)["markdown"] != "Is this right?" || body["editedAt"] == nil {
			t.Fatalf("edited %v", body)
		}
		if open["editedAt"] != nil {
			t.Fatalf("resolving set editedAt: %v", open)
		}

		// Delete takes the replies with it.
		f.as(t, f.commenter).Expect(http.StatusResetContent, "DELETE", path, nil)
		f.as(t, f.reader).Expect(http.StatusNotFound, "GET", path, nil)
		f.as(t, f.reader).Expect(http.StatusNotFound, "GET", path+"/replies/"+id(r1), nil)
		f.as(t, f.reader).Expect(http.StatusNotFound, "GET", path+"/replies", nil)
		if n := replyItems(t, f, "", id(c)); n != 0 {
			t.Fatalf("%d replies left in storage after deleting their comment", n)
		}
		if got := count(f.spaceOf(t), "comments"); got != 0 {
			t.Fatalf("space comments %d after deleting the comment", got)
		}
		// Deleting it again: 204, there was no such comment (GitBook's pair).
		f.as(t, f.commenter).Expect(http.StatusNoContent, "DELETE", path, nil)
	})
}

// TestLifeOfAChangeRequestComment does the same in a change request,
// reached by number and by id, on each storage backend.
func TestLifeOfAChangeRequestComment(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		f.seed(t)
		cr := f.request(t, "Draft")
		refs := f.author(t, cr["number"], map[string]any{"operation": "insert_page", "ref": "new", "document": map[string]any{"markdown": "# New\n\nText.\n"}})
		crNow := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(cr["number"]), nil).Map(t)

		c := f.post(t, f.commenter, f.crComments(cr["number"]), map[string]any{"page": refs["new"], "body": map[string]any{"markdown": "Typo"}})
		target := c["target"].(map[string]any)
		if target["changeRequest"] != cr["id"] || target["revision"] != crNow["revision"] || target["space"] != f.space {
			t.Fatalf("target %v, request %v", target, crNow)
		}
		if page := target["page"].(map[string]any); page["id"] != refs["new"] || page["outdated"] != false {
			t.Fatalf("target.page %v", page)
		}
		if loc := c["urls"].(map[string]any)["location"]; loc != "https://api.test"+f.crComments(cr["id"])+"/"+id(c) {
			t.Fatalf("urls.location %v", loc)
		}
		if got := count(f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(cr["id"]), nil).Map(t), "comments"); got != 1 {
			t.Fatalf("request comments %d after one comment", got)
		}
		if got := count(f.spaceOf(t), "comments"); got != 0 {
			t.Fatalf("space comments %d: a request's comment counted on the space", got)
		}
		// A request's comment is not a space comment, and the other way round.
		f.as(t, f.reader).Expect(http.StatusNotFound, "GET", f.comments()+"/"+id(c), nil)
		if l := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.comments(), nil).Map(t); l["count"] != 0.0 {
			t.Fatalf("space comments list %v", l)
		}

		byID := f.crComments(cr["id"]) + "/" + id(c)
		byNumber := f.crComments(cr["number"]) + "/" + id(c)
		f.as(t, f.reader).Expect(http.StatusOK, "GET", byID, nil)
		f.as(t, f.reader).Expect(http.StatusOK, "GET", byNumber, nil)
		if l := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.crComments(cr["id"]), nil).Map(t); l["count"] != 1.0 {
			t.Fatalf("request comments list %v", l)
		}
		rep := f.as(t, f.editor).Expect(http.StatusOK, "POST", byNumber+"/replies?format=markdown", say("Fixed")).Map(t)
		if rep["body"].(map[string]any)["markdown"] != "Fixed" {
			t.Fatalf("reply with format=markdown %v", rep)
		}
		f.as(t, f.reader).Expect(http.StatusOK, "GET", byID+"/replies/"+id(rep), nil)
		f.as(t, f.editor).Expect(http.StatusOK, "PUT", byID+"/replies/"+id(rep), map[string]any{"addedReactions": []string{"👍"}})
		if got := f.as(t, f.reader).Expect(http.StatusOK, "GET", byNumber+"/replies", nil).Map(t); got["count"] != 1.0 {
			t.Fatalf("replies %v", got)
		}
		f.as(t, f.editor).Expect(http.StatusOK, "PUT", byNumber, map[string]any{"resolved": true})
		if got := count(f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(cr["id"]), nil).Map(t), "comments"); got != 0 {
			t.Fatalf("request comments %d with its comment resolved", got)
		}
		f.as(t, f.editor).Expect(http.StatusOK, "PUT", byNumber, map[string]any{"resolved": false})
		f.as(t, f.editor).Expect(http.StatusResetContent, "DELETE", byNumber+"/replies/"+id(rep), nil)
		f.as(t, f.admin).Expect(http.StatusResetContent, "DELETE", byID, nil)
		if got := count(f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(cr["id"]), nil).Map(t), "comments"); got != 0 {
			t.Fatalf("request comments %d after deleting its comment", got)
		}
		// Another request's comments are apart.
		other := f.request(t, "Other")
		f.as(t, f.reader).Expect(http.StatusNotFound, "GET", f.crComments(other["number"])+"/"+id(c), nil)
		f.as(t, f.reader).Expect(http.StatusNotFound, "GET", f.crComments(999), nil)
	})
}
