package changerequests_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// fixture is an API with the spaces, content, change requests and sites
// families (sites for the organization list's site filter),
// an organization with a member of each role, and one space.
type fixture struct {
	kit                                              *testkit.Kit
	api                                              *httpapi.API
	org                                              model.Organization
	other                                            model.Organization // the outsider's
	space                                            string
	admin, editor, reviewer, reader, guest, outsider string
	editorID, reviewerID, readerID                   string
	// content is the content service the API uses.
	content *content.Service
}

func setup(t testing.TB) *fixture { return setupOn(t, testkit.New(t)) }

func setupOn(t testing.TB, k *testkit.Kit) *fixture {
	a := testkit.NewAPI(t, k, []string{"spaces", "content", "changerequests", "sites"})
	f := &fixture{kit: k, api: a.API, org: a.Org, other: a.Other, space: a.Space(t), content: contentwire.Service(a.Root)}
	tok := a.Tokens
	f.admin, f.editor, f.reviewer, f.reader, f.guest, f.outsider = tok["admin"], tok["edit"], tok["review"], tok["read"], tok["guest"], tok[testkit.Outsider]
	f.editorID, f.reviewerID, f.readerID = a.Users["edit"].ID, a.Users["review"].ID, a.Users["read"].ID
	return f
}

func (f *fixture) as(t testing.TB, token string) *apitest.Client {
	return testkit.Client(t, f.api, token)
}

// needsEdit checks the answers of POST path, an operation on a request
// that needs the edit level, to callers without it: no token, a reader, a
// guest, an outsider; and to an editor at unknown, an unknown request's
// path.
func (f *fixture) needsEdit(t *testing.T, path, unknown string, body any) {
	t.Helper()
	testkit.Check(t, f.api, []testkit.Case{
		{"401NoToken", "", "POST", path, body, http.StatusUnauthorized, ""},
		{"403Reader", f.reader, "POST", path, body, http.StatusForbidden, ""},
		{"404Guest", f.guest, "POST", path, body, http.StatusNotFound, ""},
		{"404Outsider", f.outsider, "POST", path, body, http.StatusNotFound, ""},
		{"404UnknownRequest", f.editor, "POST", unknown, body, http.StatusNotFound, ""},
	})
}

func (f *fixture) crs() string { return "/v1/spaces/" + f.space + "/change-requests" }

func (f *fixture) cr(id any) string { return fmt.Sprintf("%s/%v", f.crs(), id) }

// create opens a change request as token and returns it.
func (f *fixture) create(t testing.TB, token, subject string) map[string]any {
	t.Helper()
	return f.as(t, token).Expect(http.StatusCreated, "POST", f.crs(), map[string]any{"subject": subject}).Map(t)
}

// spaceOf reads the space.
func (f *fixture) spaceOf(t testing.TB) map[string]any {
	t.Helper()
	return f.as(t, f.admin).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space, nil).Map(t)
}

// author applies changes to a request and returns the answer.
func (f *fixture) author(t testing.TB, token string, id any, changes ...map[string]any) map[string]any {
	t.Helper()
	return f.as(t, token).Expect(http.StatusOK, "POST", f.cr(id)+"/content?compat=false", map[string]any{"changes": changes}).Map(t)
}

func insert(ref, into, markdown string) map[string]any {
	c := map[string]any{"operation": "insert_page", "document": map[string]any{"markdown": markdown}}
	if ref != "" {
		c["ref"] = ref
	}
	if into != "" {
		c["into"] = into
	}
	return c
}
