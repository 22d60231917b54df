package collections_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

func before(kind, id string) map[string]any {
	return map[string]any{"position": map[string]any{"before": map[string]any{"type": kind, kind: id}}}
}

func after(kind, id string) map[string]any {
	return map[string]any{"position": map[string]any{"after": map[string]any{"type": kind, kind: id}}}
}

// spacesOf lists the titles of a collection's spaces, in order.
func (f *fixture) spacesOf(t *testing.T, token, id string) []string {
	t.Helper()
	return f.titles(t, f.all(t, token, "/v1/collections/"+id+"/spaces", 2, "id"), "spaces")
}

func TestSpacesInCollections(t *testing.T) {
	f := setup(t)
	admin := f.as(t, f.admin)
	docs := f.collection(t, "Docs", "")
	api := f.collection(t, "API", docs)
	s1 := f.space(t, "One", docs)
	s2 := f.space(t, "Two", docs)
	s3 := f.space(t, "Three", "")
	if got := admin.Expect(http.StatusOK, "GET", "/v1/spaces/"+s1, nil).Map(t)["parent"]; got != docs {
		t.Fatalf("parent of a space created in a collection: %v", got)
	}
	if got, want := f.spacesOf(t, f.reader, docs), []string{"One", "Two"}; !slices.Equal(got, want) {
		t.Fatalf("spaces of Docs: %v, want %v", got, want)
	}
	// PATCH parent moves a space to the end of another collection, null to the top level.
	sp := admin.Expect(http.StatusOK, "PATCH", "/v1/spaces/"+s3, map[string]any{"parent": docs}).Map(t)
	if sp["parent"] != docs {
		t.Fatalf("moved space: %v", sp)
	}
	admin.Expect(http.StatusOK, "PATCH", "/v1/spaces/"+s1, map[string]any{"parent": api})
	if got, want := f.spacesOf(t, f.reader, docs), []string{"Two", "Three"}; !slices.Equal(got, want) {
		t.Fatalf("spaces of Docs after moves: %v, want %v", got, want)
	}
	if got, want := f.spacesOf(t, f.reader, api), []string{"One"}; !slices.Equal(got, want) {
		t.Fatalf("spaces of API: %v, want %v", got, want)
	}
	sp = admin.Expect(http.StatusOK, "PATCH", "/v1/spaces/"+s1, `{"parent":null}`).Map(t)
	if sp["parent"] != nil {
		t.Fatalf("space moved to the top level has parent %v", sp["parent"])
	}
	// The same parent again changes nothing: the space stays where it is.
	admin.Expect(http.StatusOK, "PATCH", "/v1/spaces/"+s2, map[string]any{"parent": docs, "title": "Two!"})
	if got, want := f.spacesOf(t, f.reader, docs), []string{"Two!", "Three"}; !slices.Equal(got, want) {
		t.Fatalf("spaces of Docs: %v, want %v", got, want)
	}
	for _, tc := range []struct {
		name, token, space string
		body               any
		status             int
	}{
		{"400UnknownParent", f.admin, s2, map[string]any{"parent": "nope"}, 400},
		{"400ParentOfAnotherOrganization", f.admin, s2, map[string]any{"parent": f.otherCollection(t)}, 400},
		{"403CreatorIsNotAdminOfTheSpace", f.creator, s2, map[string]any{"parent": api}, 403},
		{"404Outsider", f.outsider, s2, map[string]any{"parent": api}, 404},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, tc.token).Expect(tc.status, "PATCH", "/v1/spaces/"+tc.space, tc.body)
			if tc.status == 400 && !strings.Contains(string(res.Body), "parent") {
				t.Errorf("error does not name parent: %s", res.Body)
			}
		})
	}
	// Listing a collection's spaces: auth and paging cases.
	path := "/v1/collections/" + docs + "/spaces"
	f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", path, nil)
	f.as(t, f.guest).Expect(http.StatusNotFound, "GET", path, nil)
	f.as(t, "").Expect(http.StatusUnauthorized, "GET", path, nil)
	admin.Expect(http.StatusNotFound, "GET", "/v1/collections/unknown/spaces", nil)
	first := admin.Expect(http.StatusOK, "GET", path+"?limit=1", nil).Map(t)
	tok := first["next"].(map[string]any)["page"].(string)
	admin.Expect(http.StatusBadRequest, "GET", "/v1/collections/"+api+"/spaces?page="+tok, nil)
	admin.Expect(http.StatusBadRequest, "GET", path+"?limit=0", nil)
	// A guest granted one space of the collection sees... only that space, through its own link.
	err := f.kit.Deps.Authz.Grant(f.kit.Ctx, model.Grant{OrgID: f.org.ID, ContentKind: model.KindSpace, ContentID: s2,
		PrincipalKind: model.PrincipalUser, PrincipalID: f.users["gus"].ID, Role: model.RoleRead})
	if err != nil {
		t.Fatal(err)
	}
	f.as(t, f.guest).Expect(http.StatusOK, "GET", "/v1/spaces/"+s2, nil)
	if got := f.all(t, f.guest, "/v1/orgs/"+f.org.ID+"/spaces", 10, "id"); !slices.Equal(got, []string{s2}) {
		t.Fatalf("guest lists %v, want only the granted space", got)
	}
}

func (f *fixture) otherCollection(t *testing.T) string {
	return f.as(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.other.ID+"/collections", map[string]any{"title": "Elsewhere"}).Map(t)["id"].(string)
}

// tree3 builds, at the top level: A { A1 { A1a { s-deep } }, s-a }, B, s-top.
type tree3 struct {
	a, a1, a1a, b, sDeep, sA, sTop string
}

func (f *fixture) tree3(t *testing.T) tree3 {
	var tr tree3
	tr.a = f.collection(t, "A", "")
	tr.a1 = f.collection(t, "A1", tr.a)
	tr.a1a = f.collection(t, "A1a", tr.a1)
	tr.sDeep = f.space(t, "deep", tr.a1a)
	tr.sA = f.space(t, "in A", tr.a)
	tr.b = f.collection(t, "B", "")
	tr.sTop = f.space(t, "top", "")
	return tr
}

func (f *fixture) nested(t *testing.T, org string) []string {
	t.Helper()
	return f.titles(t, f.all(t, f.admin, "/v1/orgs/"+org+"/collections", 2, "id"), "collections")
}

func TestMoveAcrossThreeLevels(t *testing.T) {
	f := setup(t)
	tr := f.tree3(t)
	admin := f.as(t, f.admin)
	move := func(id string, body any) map[string]any {
		t.Helper()
		return admin.Expect(http.StatusOK, "POST", "/v1/collections/"+id+"/move", body).Map(t)
	}
	// B goes under A1a: its subtree order follows, three levels down.
	if got := move(tr.b, map[string]any{"parent": tr.a1a}); got["parent"] != tr.a1a {
		t.Fatalf("moved: %v", got)
	}
	if got, want := f.nested(t, f.org.ID), []string{"A", "A1", "A1a", "B"}; !slices.Equal(got, want) {
		t.Fatalf("nested after move under A1a: %v, want %v", got, want)
	}
	// A1 goes to the top, before A (a collection sibling); then after s-top (a space sibling).
	move(tr.a1, map[string]any{"parent": nil, "position": map[string]any{"before": map[string]any{"type": "collection", "collection": tr.a}}})
	if got, want := f.nested(t, f.org.ID), []string{"A1", "A1a", "B", "A"}; !slices.Equal(got, want) {
		t.Fatalf("nested after A1 before A: %v, want %v", got, want)
	}
	move(tr.a1, after("space", tr.sTop))
	if got, want := f.nested(t, f.org.ID), []string{"A", "A1", "A1a", "B"}; !slices.Equal(got, want) {
		t.Fatalf("nested after A1 after the top space: %v, want %v", got, want)
	}
	// Between two siblings: B back to the top, between A and A1.
	move(tr.b, map[string]any{"parent": nil, "position": map[string]any{"after": map[string]any{"type": "collection", "collection": tr.a}}})
	if got, want := f.titles(t, f.all(t, f.admin, "/v1/orgs/"+f.org.ID+"/collections?nested=false", 1, "id"), "collections"), []string{"A", "B", "A1"}; !slices.Equal(got, want) {
		t.Fatalf("top level: %v, want %v", got, want)
	}
	// Spaces are still where they were, and the deep one is still readable through its chain.
	if got := admin.Expect(http.StatusOK, "GET", "/v1/spaces/"+tr.sDeep, nil).Map(t)["parent"]; got != tr.a1a {
		t.Fatalf("deep space's parent: %v", got)
	}
	// Cycles: into itself, into its child, into its grandchild; nothing changes.
	move(tr.a1, map[string]any{"parent": tr.a})
	for _, dest := range []string{tr.a, tr.a1, tr.a1a} {
		res := admin.Expect(http.StatusBadRequest, "POST", "/v1/collections/"+tr.a+"/move", map[string]any{"parent": dest})
		if !strings.Contains(string(res.Body), "parent") {
			t.Fatalf("cycle error does not name parent: %s", res.Body)
		}
	}
	if got, want := f.nested(t, f.org.ID), []string{"A", "A1", "A1a", "B"}; !slices.Equal(got, want) {
		t.Fatalf("nested after refused cycles: %v, want %v", got, want)
	}
}

func TestMoveRejects(t *testing.T) {
	f := setup(t)
	tr := f.tree3(t)
	path := "/v1/collections/" + tr.b + "/move"
	for _, tc := range []struct {
		name, token, path string
		body              any
		status            int
		field             string
	}{
		{"400EmptyBody", f.admin, path, map[string]any{}, 400, "body"},
		{"400BeforeAndAfter", f.admin, path, map[string]any{"position": map[string]any{
			"before": map[string]any{"type": "space", "space": tr.sTop}, "after": map[string]any{"type": "space", "space": tr.sTop}}}, 400, "position"},
		{"400PointerWithoutId", f.admin, path, map[string]any{"position": map[string]any{"before": map[string]any{"type": "space"}}}, 400, "position.before.space"},
		{"400PointerTypeUnknown", f.admin, path, map[string]any{"position": map[string]any{"before": map[string]any{"type": "page", "page": "x"}}}, 400, "type"},
		{"400NeighbourInAnotherParent", f.admin, path, before("space", tr.sDeep), 400, "position.before"},
		{"400NeighbourUnknown", f.admin, path, after("collection", "nope"), 400, "position.after"},
		{"400NextToItself", f.admin, path, before("collection", tr.b), 400, "position.before"},
		{"400UnknownParent", f.admin, path, map[string]any{"parent": "nope"}, 400, "parent"},
		{"400ParentOfAnotherOrganization", f.admin, path, map[string]any{"parent": f.otherCollection(t)}, 400, "parent"},
		{"409AlreadyBeforeIt", f.admin, path, before("space", tr.sTop), 409, ""},
		{"409AlreadyAfterIt", f.admin, path, after("collection", tr.a), 409, ""},
		{"409AlreadyLastInItsParent", f.admin, "/v1/collections/" + tr.a1a + "/move", map[string]any{"parent": tr.a1}, 409, ""},
		{"403Creator", f.creator, path, map[string]any{"parent": tr.a}, 403, ""},
		{"404Guest", f.guest, path, map[string]any{"parent": tr.a}, 404, ""},
		{"404Outsider", f.outsider, path, map[string]any{"parent": tr.a}, 404, ""},
		{"404Unknown", f.admin, "/v1/collections/nope/move", map[string]any{"parent": tr.a}, 404, ""},
		{"401NoToken", "", path, map[string]any{"parent": tr.a}, 401, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, tc.token).Expect(tc.status, "POST", tc.path, tc.body)
			if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
}

func TestTransferMovesTheWholeSubtree(t *testing.T) {
	f := setup(t)
	tr := f.tree3(t)
	admin := f.as(t, f.admin)
	err := f.kit.Deps.Authz.Grant(f.kit.Ctx, model.Grant{OrgID: f.org.ID, ContentKind: model.KindSpace, ContentID: tr.sDeep,
		PrincipalKind: model.PrincipalUser, PrincipalID: f.users["gus"].ID, Role: model.RoleEdit})
	if err != nil {
		t.Fatal(err)
	}
	f.as(t, f.guest).Expect(http.StatusOK, "GET", "/v1/spaces/"+tr.sDeep, nil)
	existing := f.otherCollection(t)
	// Transferring A1 (A1 { A1a { deep } }) out of A.
	got := admin.Expect(http.StatusOK, "POST", "/v1/collections/"+tr.a1+"/transfer", map[string]any{"organization": f.other.ID}).Map(t)
	if got["organization"] != f.other.ID || got["parent"] != nil {
		t.Fatalf("transferred: %v", got)
	}
	if got, want := f.nested(t, f.other.ID), []string{"Elsewhere", "A1", "A1a"}; !slices.Equal(got, want) {
		t.Fatalf("target's collections: %v, want %v", got, want)
	}
	if got, want := f.nested(t, f.org.ID), []string{"A", "B"}; !slices.Equal(got, want) {
		t.Fatalf("source's collections: %v, want %v", got, want)
	}
	deep := admin.Expect(http.StatusOK, "GET", "/v1/spaces/"+tr.sDeep, nil).Map(t)
	if deep["organization"] != f.other.ID || deep["parent"] != tr.a1a {
		t.Fatalf("deep space after transfer: %v", deep)
	}
	if got := f.all(t, f.admin, "/v1/orgs/"+f.other.ID+"/spaces", 10, "id"); !slices.Equal(got, []string{tr.sDeep}) {
		t.Fatalf("target's spaces: %v", got)
	}
	if got := f.all(t, f.admin, "/v1/orgs/"+f.org.ID+"/spaces", 10, "id"); slices.Contains(got, tr.sDeep) {
		t.Fatalf("source still lists the transferred space: %v", got)
	}
	if got, want := f.spacesOf(t, f.admin, tr.a1a), []string{"deep"}; !slices.Equal(got, want) {
		t.Fatalf("spaces of A1a: %v", got)
	}
	// Grants of the old organization are gone, and so is its members' reach.
	f.as(t, f.guest).Expect(http.StatusNotFound, "GET", "/v1/spaces/"+tr.sDeep, nil)
	m := f.as(t, f.admin).Expect(http.StatusOK, "GET", "/v1/collections/"+tr.a1, nil).Map(t)
	if m["permissions"].(map[string]any)["admin"] != true {
		t.Fatalf("admin of the target: %v", m["permissions"])
	}
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", "/v1/collections/"+tr.a1, nil)
	// A is empty of A1 now: it holds only its space.
	admin.Expect(http.StatusResetContent, "DELETE", "/v1/spaces/"+tr.sA, nil)
	admin.Expect(http.StatusResetContent, "DELETE", "/v1/collections/"+tr.a, nil)
	// The moved tree works in its new organization: it moves and nests there.
	admin.Expect(http.StatusOK, "POST", "/v1/collections/"+tr.a1+"/move", map[string]any{"parent": existing})
	if got, want := f.nested(t, f.other.ID), []string{"Elsewhere", "A1", "A1a"}; !slices.Equal(got, want) {
		t.Fatalf("target's collections after a move: %v, want %v", got, want)
	}
}

func TestTransferRejects(t *testing.T) {
	f := setup(t)
	id := f.collection(t, "T", "")
	path := "/v1/collections/" + id + "/transfer"
	u, tok := f.kit.User("stan")
	third := f.kit.Org("Third", map[string]model.Role{u.ID: model.RoleAdmin, f.users["alice"].ID: model.RoleCreate})
	f.as(t, f.admin).Expect(http.StatusOK, "PATCH", "/v1/collections/"+id, map[string]any{"title": "T"})
	testkit.Check(t, f.api, []testkit.Case{
		{"400NoOrganization", f.admin, "POST", path, map[string]any{}, 400, "organization"},
		{"400UnknownOrganization", f.admin, "POST", path, map[string]any{"organization": "nope"}, 400, "organization"},
		{"403NotAdminOfTarget", f.admin, "POST", path, map[string]any{"organization": third.ID}, 403, ""},
		{"403NotAdminOfSource", f.creator, "POST", path, map[string]any{"organization": f.other.ID}, 403, ""},
		{"404NotMemberOfSource", tok, "POST", path, map[string]any{"organization": third.ID}, 404, ""},
		{"404Unknown", f.admin, "POST", "/v1/collections/nope/transfer", map[string]any{"organization": f.other.ID}, 404, ""},
		{"409SameOrganization", f.admin, "POST", path, map[string]any{"organization": f.org.ID}, 409, ""},
		{"401NoToken", "", "POST", path, map[string]any{"organization": f.other.ID}, 401, ""},
	})
}

func TestDeletedSpaceLeavesItsCollectionAndComesBackToIt(t *testing.T) {
	f := setup(t)
	admin := f.as(t, f.admin)
	c := f.collection(t, "C", "")
	first := f.space(t, "First", c)
	f.space(t, "Second", c)
	admin.Expect(http.StatusResetContent, "DELETE", "/v1/spaces/"+first, nil)
	if got, want := f.spacesOf(t, f.admin, c), []string{"Second"}; !slices.Equal(got, want) {
		t.Fatalf("after delete: %v, want %v", got, want)
	}
	if got := admin.Expect(http.StatusOK, "GET", "/v1/spaces/"+first, nil).Map(t)["parent"]; got != c {
		t.Fatalf("a deleted space remembers its collection: parent %v", got)
	}
	// Restored, it comes back at the end of its collection.
	if got := admin.Expect(http.StatusOK, "POST", "/v1/spaces/"+first+"/restore", nil).Map(t)["parent"]; got != c {
		t.Fatalf("restored into %v", got)
	}
	if got, want := f.spacesOf(t, f.admin, c), []string{"Second", "First"}; !slices.Equal(got, want) {
		t.Fatalf("after restore: %v, want %v", got, want)
	}
	// Restoring a space that is not deleted changes nothing.
	admin.Expect(http.StatusOK, "POST", "/v1/spaces/"+first+"/restore", nil)
	if got, want := f.spacesOf(t, f.admin, c), []string{"Second", "First"}; !slices.Equal(got, want) {
		t.Fatalf("after a second restore: %v, want %v", got, want)
	}
}

// moveSpace (GitBook's POST /v1/spaces/{spaceId}/move): into a collection,
// among its siblings, out to the top level; the same place is a conflict;
// the rights are the space's and the destination's.
func TestMoveSpace(t *testing.T) {
	f := setup(t)
	col := f.collection(t, "Guides", "")
	a := f.space(t, "A", col)
	b := f.space(t, "B", "")
	admin := f.as(t, f.admin)
	got := admin.Expect(http.StatusOK, "POST", "/v1/spaces/"+b+"/move", map[string]any{"parent": col}).Map(t)
	if got["parent"] != col || got["object"] != "space" {
		t.Fatalf("moved into the collection: %v", got)
	}
	list := func() []string {
		var out []string
		for _, it := range admin.Expect(http.StatusOK, "GET", "/v1/collections/"+col+"/spaces", nil).Map(t)["items"].([]any) {
			out = append(out, it.(map[string]any)["title"].(string))
		}
		return out
	}
	if got := list(); !slices.Equal(got, []string{"A", "B"}) {
		t.Fatalf("collection's spaces %v", got)
	}
	admin.Expect(http.StatusOK, "POST", "/v1/spaces/"+b+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": a}}})
	if got := list(); !slices.Equal(got, []string{"B", "A"}) {
		t.Fatalf("after B before A: %v", got)
	}
	if got := admin.Expect(http.StatusOK, "POST", "/v1/spaces/"+a+"/move", map[string]any{"parent": nil}).Map(t); got["parent"] != nil {
		t.Fatalf("moved to the top: %v", got)
	}
	admin.Expect(http.StatusConflict, "POST", "/v1/spaces/"+a+"/move", map[string]any{"parent": nil})
	admin.Expect(http.StatusBadRequest, "POST", "/v1/spaces/"+a+"/move", map[string]any{})
	f.as(t, f.reader).Expect(http.StatusForbidden, "POST", "/v1/spaces/"+a+"/move", map[string]any{"parent": col})
	f.as(t, f.outsider).Expect(http.StatusNotFound, "POST", "/v1/spaces/"+a+"/move", map[string]any{"parent": col})
	f.as(t, "").Expect(http.StatusUnauthorized, "POST", "/v1/spaces/"+a+"/move", map[string]any{"parent": col})
}
