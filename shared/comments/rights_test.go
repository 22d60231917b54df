package comments_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
)

// thread is a comment and a reply by the commenter, on the space or in a
// change request; base is the thread's comments path.
type thread struct {
	base, comment, reply string
}

func (th thread) commentPath() string { return th.base + "/" + th.comment }
func (th thread) replyPath() string   { return th.commentPath() + "/replies/" + th.reply }

// newThread posts a comment and a reply as the commenter at base.
func (f *fixture) newThread(t testing.TB, base string) thread {
	t.Helper()
	c := id(f.post(t, f.commenter, base, say("Question")))
	r := id(f.post(t, f.commenter, base+"/"+c+"/replies", say("Detail")))
	return thread{base: base, comment: c, reply: r}
}

// TestRightsOfEveryOperation: every operation, on the space and in a change
// request (by number), as each kind of caller.
func TestRightsOfEveryOperation(t *testing.T) {
	f := setup(t)
	cr := f.request(t, "Review")
	type op struct {
		name   string
		method string
		path   func(thread) string
		body   any
		// least is who may: "read", "comment", or "owner" (the author or
		// a space admin).
		least string
		ok    int
	}
	react := map[string]any{"addedReactions": []string{"👍"}}
	edit := map[string]any{"body": map[string]any{"markdown": "Edited"}}
	ops := []op{
		{"ListComments", "GET", func(th thread) string { return th.base }, nil, "read", 200},
		{"PostComment", "POST", func(th thread) string { return th.base }, say("Hi"), "comment", 200},
		{"GetComment", "GET", thread.commentPath, nil, "read", 200},
		{"ReactToComment", "PUT", thread.commentPath, react, "comment", 200},
		{"ResolveComment", "PUT", thread.commentPath, map[string]any{"resolved": true}, "comment", 200},
		{"EditComment", "PUT", thread.commentPath, edit, "owner", 200},
		{"DeleteComment", "DELETE", thread.commentPath, nil, "owner", 205},
		{"ListReplies", "GET", func(th thread) string { return th.commentPath() + "/replies" }, nil, "read", 200},
		{"PostReply", "POST", func(th thread) string { return th.commentPath() + "/replies" }, say("Hi"), "comment", 200},
		{"GetReply", "GET", thread.replyPath, nil, "read", 200},
		{"ReactToReply", "PUT", thread.replyPath, react, "comment", 200},
		{"EditReply", "PUT", thread.replyPath, edit, "owner", 200},
		{"DeleteReply", "DELETE", thread.replyPath, nil, "owner", 205},
	}
	callers := []struct {
		name, token string
		// level: what the caller may ("" nothing, "read", "comment",
		// "author", "admin").
		level string
	}{
		{"NoToken", "", "none"},
		{"Outsider", f.outsider, ""},
		{"Guest", f.guest, ""},
		{"Reader", f.reader, "read"},
		{"OtherCommenter", f.commenter2, "comment"},
		{"Editor", f.editor, "comment"},
		{"Author", f.commenter, "author"},
		{"Admin", f.admin, "admin"},
	}
	rank := map[string]int{"none": -1, "": 0, "read": 1, "comment": 2, "author": 3, "admin": 3}
	for _, where := range []struct{ name, base string }{{"Space", f.comments()}, {"ChangeRequest", f.crComments(cr["number"])}} {
		for _, o := range ops {
			for _, c := range callers {
				var want int
				switch {
				case c.level == "none":
					want = http.StatusUnauthorized
				case c.level == "":
					want = http.StatusNotFound
				case o.least == "read" || (o.least == "comment" && rank[c.level] >= 2) || (o.least == "owner" && rank[c.level] >= 3):
					want = o.ok
				default:
					want = http.StatusForbidden
				}
				t.Run(fmt.Sprintf("%s/%s/%d%s", where.name, o.name, want, c.name), func(t *testing.T) {
					th := f.newThread(t, where.base)
					f.as(t, c.token).Expect(want, o.method, o.path(th), o.body)
				})
			}
		}
	}
}

// TestPermissionsSayWhatTheCallerMay checks `permissions` on a comment and
// a reply for each kind of member.
func TestPermissionsSayWhatTheCallerMay(t *testing.T) {
	f := setup(t)
	th := f.newThread(t, f.comments())
	for _, tc := range []struct {
		name, token string
		edit, reply bool
	}{
		{"Reader", f.reader, false, false},
		{"OtherCommenter", f.commenter2, false, true},
		{"Author", f.commenter, true, true},
		{"Admin", f.admin, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{th.commentPath(), th.replyPath()} {
				p := f.as(t, tc.token).Expect(http.StatusOK, "GET", path, nil).Map(t)["permissions"].(map[string]any)
				want := map[string]any{"view": true, "edit": tc.edit, "delete": tc.edit, "reply": tc.reply, "react": tc.reply}
				for k, v := range want {
					if p[k] != v {
						t.Fatalf("%s: permissions %v, want %v", path, p, want)
					}
				}
			}
		})
	}
}

func TestUnknownThingsAnswer404(t *testing.T) {
	f := setup(t)
	th := f.newThread(t, f.comments())
	cr := f.request(t, "Review")
	crTh := f.newThread(t, f.crComments(cr["id"]))
	deleted := f.as(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/spaces", map[string]any{"title": "Old"}).Map(t)
	f.as(t, f.admin).Expect(http.StatusResetContent, "DELETE", "/v1/spaces/"+id(deleted), nil)
	for name, tc := range map[string]struct{ method, path string }{
		"UnknownSpace":             {"GET", "/v1/spaces/nope/comments"},
		"DeletedSpace":             {"GET", "/v1/spaces/" + id(deleted) + "/comments"},
		"PostInDeletedSpace":       {"POST", "/v1/spaces/" + id(deleted) + "/comments"},
		"UnknownComment":           {"GET", f.comments() + "/nope"},
		"UnknownCommentReplies":    {"GET", f.comments() + "/nope/replies"},
		"ReplyToUnknownComment":    {"POST", f.comments() + "/nope/replies"},
		"UnknownReply":             {"GET", th.commentPath() + "/replies/nope"},
		"UpdateUnknownReply":       {"PUT", th.commentPath() + "/replies/nope"},
		"ReplyOfAnotherComment":    {"GET", f.comments() + "/" + crTh.comment + "/replies/" + th.reply},
		"UnknownRequestNumber":     {"GET", f.crComments(99)},
		"UnknownRequestID":         {"GET", f.crComments("nope")},
		"RequestCommentOnTheSpace": {"GET", f.comments() + "/" + crTh.comment},
		"SpaceCommentInTheRequest": {"GET", f.crComments(cr["number"]) + "/" + th.comment},
		"UpdateUnknownComment":     {"PUT", f.comments() + "/nope"},
		"RequestOfAnotherSpace":    {"GET", "/v1/spaces/" + id(deleted) + "/change-requests/1/comments"},
	} {
		t.Run(name, func(t *testing.T) {
			var body any
			if tc.method != "GET" && tc.method != "DELETE" {
				body = say("x")
			}
			f.as(t, f.admin).Expect(http.StatusNotFound, tc.method, tc.path, body)
		})
	}
	// A delete of what is not there, in a thread the caller sees, is GitBook's
	// 204 ("did not exist"), not a 404.
	for name, path := range map[string]string{
		"DeleteUnknownReply":          th.commentPath() + "/replies/nope",
		"DeleteReplyOfUnknownComment": f.comments() + "/nope/replies/nope",
		"DeleteUnknownComment":        f.comments() + "/nope",
	} {
		t.Run(name, func(t *testing.T) { f.as(t, f.admin).Expect(http.StatusNoContent, "DELETE", path, nil) })
	}
	// In a space the caller cannot see, still 404.
	f.as(t, f.admin).Expect(http.StatusNotFound, "DELETE", "/v1/spaces/"+id(deleted)+"/comments/nope", nil)
}

// TestValidationNamesTheField: each limit of each operation answers 400
// naming its field.
func TestValidationNamesTheField(t *testing.T) {
	f := setup(t)
	th := f.newThread(t, f.comments())
	long := strings.Repeat("x", 20001)
	authors := strings.Repeat("&authors=u", 51)
	list, replies := f.comments(), th.commentPath()+"/replies"
	cases := []struct {
		name, method, path string
		body               any
		field              string
	}{
		{"ListLimitZero", "GET", list + "?limit=0", nil, "limit"},
		{"ListLimitTooHigh", "GET", list + "?limit=1001", nil, "limit"},
		{"ListBadOrder", "GET", list + "?order=sideways", nil, "order"},
		{"ListBadStatus", "GET", list + "?status=closed", nil, "status"},
		{"ListBadFormat", "GET", list + "?format=html", nil, "format"},
		{"ListTargetPageTooLong", "GET", list + "?targetPage=" + strings.Repeat("p", 65), nil, "targetPage"},
		{"ListTooManyAuthors", "GET", list + "?" + authors[1:], nil, "authors"},
		{"ListBadPageToken", "GET", list + "?page=nope", nil, "page"},
		{"PostWithoutBody", "POST", list, map[string]any{}, "body"},
		{"PostBodyTooLong", "POST", list, say(long), "body.markdown"},
		{"PostBodyNotMarkdown", "POST", list, map[string]any{"body": map[string]any{"markdown": 1}}, "body.markdown"},
		{"PostUnknownBodyForm", "POST", list, map[string]any{"body": map[string]any{"html": "<p>"}}, "body.html"},
		{"PostMalformedJSON", "POST", list, `{"body":`, ""},
		{"PostBadFormat", "POST", list + "?format=html", say("x"), "format"},
		{"GetBadFormat", "GET", th.commentPath() + "?format=html", nil, "format"},
		{"UpdateBodyTooLong", "PUT", th.commentPath(), say(long), "body.markdown"},
		{"UpdateResolvedNotBoolean", "PUT", th.commentPath(), map[string]any{"resolved": "yes"}, "resolved"},
		{"UpdateTooManyReactions", "PUT", th.commentPath(), map[string]any{"addedReactions": make21()}, "addedReactions"},
		{"UpdateEmojiTooLong", "PUT", th.commentPath(), map[string]any{"addedReactions": []string{strings.Repeat("e", 51)}}, "addedReactions[0]"},
		{"UpdateEmpty", "PUT", th.commentPath(), map[string]any{"removedReactions": []string{""}}, "removedReactions[0]"},
		{"UpdateEmojiWithSpace", "PUT", th.commentPath(), map[string]any{"addedReactions": []string{"👍", "a b"}}, "addedReactions[1]"},
		{"RepliesLimitZero", "GET", replies + "?limit=0", nil, "limit"},
		{"RepliesBadFormat", "GET", replies + "?format=html", nil, "format"},
		{"ReplyWithoutBody", "POST", replies, map[string]any{}, "body"},
		{"ReplyBodyTooLong", "POST", replies, say(long), "body.markdown"},
		{"GetReplyBadFormat", "GET", th.replyPath() + "?format=html", nil, "format"},
		{"UpdateReplyBodyTooLong", "PUT", th.replyPath(), say(long), "body.markdown"},
		{"UpdateReplyResolved", "PUT", th.replyPath(), map[string]any{"resolved": true}, "resolved"},
		{"UpdateReplyTooManyReactions", "PUT", th.replyPath(), map[string]any{"removedReactions": make21()}, "removedReactions"},
		{"BodyTooLarge", "POST", list, `{"body":{"markdown":"` + strings.Repeat("x", httpapi.MaxBodyBytes) + `"}}`, ""},
	}
	for _, tc := range cases {
		t.Run("400"+tc.name, func(t *testing.T) {
			want := http.StatusBadRequest
			if tc.name == "BodyTooLarge" {
				want = http.StatusRequestEntityTooLarge
			}
			res := f.as(t, f.commenter).Expect(want, tc.method, tc.path, tc.body)
			if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
				t.Fatalf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
	if got := count(f.spaceOf(t), "comments"); got != 1 {
		t.Fatalf("refused requests changed the count: %d", got)
	}
}

func make21() []string {
	out := make([]string, 21)
	for i := range out {
		out[i] = fmt.Sprintf("e%d", i)
	}
	return out
}

// TestRightsFollowTheContentPermissionModel: the level on the space, not
// the organization role, decides (a space's defaultLevel raises readers
// to commenters and lowers commenters to readers).
func TestRightsFollowTheContentPermissionModel(t *testing.T) {
	f := setup(t)
	th := f.newThread(t, f.comments())
	f.as(t, f.reader).Expect(http.StatusForbidden, "POST", f.comments(), say("Hi"))
	f.as(t, f.admin).Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, map[string]any{"defaultLevel": "comment"})
	f.as(t, f.reader).Expect(http.StatusOK, "POST", f.comments(), say("Hi"))
	f.as(t, f.admin).Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, map[string]any{"defaultLevel": "read"})
	f.as(t, f.commenter).Expect(http.StatusForbidden, "PUT", th.commentPath(), map[string]any{"body": map[string]any{"markdown": "mine"}})
	f.as(t, f.commenter).Expect(http.StatusForbidden, "DELETE", th.replyPath(), nil)
	if p := f.as(t, f.commenter).Expect(http.StatusOK, "GET", th.commentPath(), nil).Map(t)["permissions"].(map[string]any); p["edit"] != false || p["reply"] != false {
		t.Fatalf("the author's permissions as a reader: %v", p)
	}
	f.as(t, f.admin).Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, map[string]any{"defaultLevel": nil})
	f.as(t, f.commenter).Expect(http.StatusNotFound, "GET", th.commentPath(), nil)
}
