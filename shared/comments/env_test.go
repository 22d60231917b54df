package comments_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// fixture is an API with the spaces, content, change requests and
// comments families, an organization with a member of each kind, and one
// space.
type fixture struct {
	kit *testkit.Kit
	api *httpapi.API
	org model.Organization
	// space is the id of a space of org.
	space string
	// Tokens: an organization admin, an editor, a member with the comment
	// role, a second commenter, a reader, a guest, and a user of another
	// organization.
	admin, editor, commenter, commenter2, reader, guest, outsider string
	// User ids.
	adminID, editorID, commenterID, commenter2ID string
}

func setup(t testing.TB) *fixture { return setupOn(t, testkit.New(t)) }

func setupOn(t testing.TB, k *testkit.Kit) *fixture {
	a := testkit.NewAPI(t, k, []string{"spaces", "content", "changerequests", "comments"}, testkit.Member("comment2", model.RoleComment))
	f := &fixture{kit: k, api: a.API, org: a.Org, space: a.Space(t)}
	tok := a.Tokens
	f.admin, f.editor, f.commenter, f.commenter2, f.reader, f.guest, f.outsider = tok["admin"], tok["edit"], tok["comment"], tok["comment2"], tok["read"], tok["guest"], tok[testkit.Outsider]
	f.adminID, f.editorID, f.commenterID, f.commenter2ID = a.Users["admin"].ID, a.Users["edit"].ID, a.Users["comment"].ID, a.Users["comment2"].ID
	return f
}

func (f *fixture) as(t testing.TB, token string) *apitest.Client {
	return testkit.Client(t, f.api, token)
}

// comments is the base path of the space's comments.
func (f *fixture) comments() string { return "/v1/spaces/" + f.space + "/comments" }

// cr is the path of a change request (by id or number).
func (f *fixture) cr(ref any) string {
	return fmt.Sprintf("/v1/spaces/%s/change-requests/%v", f.space, ref)
}

// crComments is the base path of a change request's comments.
func (f *fixture) crComments(ref any) string { return f.cr(ref) + "/comments" }

// post posts a comment at base as token and returns it.
func (f *fixture) post(t testing.TB, token, base string, body map[string]any) map[string]any {
	t.Helper()
	return f.as(t, token).Expect(http.StatusOK, "POST", base, body).Map(t)
}

// say is a comment body of markdown.
func say(md string) map[string]any { return map[string]any{"body": map[string]any{"markdown": md}} }

// spaceOf reads the space.
func (f *fixture) spaceOf(t testing.TB) map[string]any {
	t.Helper()
	return f.as(t, f.admin).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space, nil).Map(t)
}

// request opens a change request and returns it.
func (f *fixture) request(t testing.TB, subject string) map[string]any {
	t.Helper()
	return f.as(t, f.editor).Expect(http.StatusCreated, "POST", "/v1/spaces/"+f.space+"/change-requests", map[string]any{"subject": subject}).Map(t)
}

// author applies changes to a change request and returns the refs.
func (f *fixture) author(t testing.TB, ref any, changes ...map[string]any) map[string]any {
	t.Helper()
	res := f.as(t, f.editor).Expect(http.StatusOK, "POST", f.cr(ref)+"/content?compat=false", map[string]any{"changes": changes}).Map(t)
	refs, _ := res["refs"].(map[string]any)
	return refs
}

// merge merges a change request into the space.
func (f *fixture) merge(t testing.TB, ref any) {
	t.Helper()
	got := f.as(t, f.admin).Expect(http.StatusOK, "POST", f.cr(ref)+"/merge", nil).Map(t)
	if got["result"] != "merge" {
		t.Fatalf("merge of %v: %v", ref, got)
	}
}

// seed makes pages in the space's head through a merged change request
// and returns their ids by ref ("intro", "guide").
func (f *fixture) seed(t testing.TB) map[string]string {
	t.Helper()
	cr := f.request(t, "Seed")
	refs := f.author(t, cr["number"],
		map[string]any{"operation": "insert_page", "ref": "intro", "document": map[string]any{"markdown": "# Intro\n\nWelcome.\n"}},
		map[string]any{"operation": "insert_page", "ref": "guide", "document": map[string]any{"markdown": "# Guide\n\nSteps.\n"}})
	f.merge(t, cr["number"])
	out := map[string]string{}
	for k, v := range refs {
		out[k] = v.(string)
	}
	return out
}

// edit changes pages of the space's head through a merged change request.
func (f *fixture) edit(t testing.TB, changes ...map[string]any) {
	t.Helper()
	cr := f.request(t, "Edit")
	f.author(t, cr["number"], changes...)
	f.merge(t, cr["number"])
}

// replyItems counts the stored replies of a comment of the space's
// content (crID "") or of a change request (by id).
func replyItems(t testing.TB, f *fixture, crID, commentID string) int {
	t.Helper()
	items, err := store.QueryAll(f.kit.Ctx, f.kit.Deps.Store, store.Query{PK: keys.CommentThread(f.space, crID), SKPrefix: keys.ReplyPrefix(commentID)})
	if err != nil {
		t.Fatal(err)
	}
	return len(items)
}
