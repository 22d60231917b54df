package changerequests_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// fixture is an API with the spaces, content and change requests families,
// an organization with a member of each role, and one space.
type fixture struct {
	kit                                              *testkit.Kit
	api                                              *httpapi.API
	org, other                                       model.Organization
	space                                            string
	admin, editor, reviewer, reader, guest, outsider string
	editorID, reviewerID, readerID                   string
}

func setup(t testing.TB) *fixture { return setupOn(t, testkit.New(t)) }

func setupOn(t testing.TB, k *testkit.Kit) *fixture {
	a := testkit.NewAPI(t, k, []string{"spaces", "content", "changerequests"})
	f := &fixture{kit: k, api: a.API, org: a.Org, other: a.Other, space: a.Space(t)}
	tok := a.Tokens
	f.admin, f.editor, f.reviewer, f.reader, f.guest, f.outsider = tok["admin"], tok["edit"], tok["review"], tok["read"], tok["guest"], tok[testkit.Outsider]
	f.editorID, f.reviewerID, f.readerID = a.Users["edit"].ID, a.Users["review"].ID, a.Users["read"].ID
	return f
}

func (f *fixture) as(t testing.TB, token string) *apitest.Client {
	return testkit.Client(t, f.api, token)
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
