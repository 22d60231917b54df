package collections_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestCreateAnswers201WithTheCollection(t *testing.T) {
	f := setup(t)
	res := f.as(t, f.creator).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/collections", map[string]any{"title": "Guides"})
	c := res.Map(t)
	for field, want := range map[string]any{"object": "collection", "title": "Guides", "organization": f.org.ID, "defaultLevel": "inherit"} {
		if c[field] != want {
			t.Errorf("%s = %v, want %v", field, c[field], want)
		}
	}
	if c["parent"] != nil {
		t.Errorf("a top-level collection has parent %v", c["parent"])
	}
	loc := c["urls"].(map[string]any)["location"].(string)
	if !strings.HasSuffix(loc, "/v1/collections/"+c["id"].(string)) || res.Header.Get("Location") != loc {
		t.Errorf("urls.location %q, Location header %q", loc, res.Header.Get("Location"))
	}
	perms := c["permissions"].(map[string]any)
	if perms["view"] != true || perms["create"] != true || perms["admin"] != false || perms["viewInviteLinks"] != false {
		t.Errorf("creator's permissions = %v", perms)
	}
	child := f.as(t, f.creator).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/collections",
		map[string]any{"title": "Nested", "parent": c["id"]}).Map(t)
	if child["parent"] != c["id"] {
		t.Fatalf("child's parent = %v", child["parent"])
	}
	none := f.as(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/collections", nil).Map(t)
	if none["title"] != "" {
		t.Fatalf("a collection created without a body has title %v", none["title"])
	}
}

func TestCreateRejects(t *testing.T) {
	f := setup(t)
	path := "/v1/orgs/" + f.org.ID + "/collections"
	elsewhere := f.as(t, f.admin).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.other.ID+"/collections", map[string]any{"title": "X"}).Map(t)["id"].(string)
	restricted := f.collection(t, "Restricted", "")
	f.as(t, f.admin).Expect(http.StatusOK, "PATCH", "/v1/collections/"+restricted, `{"defaultLevel":null}`)
	readOnly := f.collection(t, "Read only", "")
	f.as(t, f.admin).Expect(http.StatusOK, "PATCH", "/v1/collections/"+readOnly, map[string]any{"defaultLevel": "read"})
	cases := []testkit.Case{
		{"400TitleTooLong", f.admin, "POST", path, map[string]any{"title": strings.Repeat("x", 51)}, 400, "title"},
		{"400ParentTooLong", f.admin, "POST", path, map[string]any{"parent": strings.Repeat("x", 65)}, 400, "parent"},
		{"400UnknownParent", f.admin, "POST", path, map[string]any{"parent": "nope"}, 400, "parent"},
		{"400ParentOfAnotherOrganization", f.admin, "POST", path, map[string]any{"parent": elsewhere}, 400, "parent"},
		{"400ParentHiddenFromCaller", f.creator, "POST", path, map[string]any{"parent": restricted}, 400, "parent"},
		{"400MalformedJSON", f.admin, "POST", path, `{"title":`, 400, ""},
		{"401NoToken", "", "POST", path, map[string]any{}, 401, ""},
		{"403Reader", f.reader, "POST", path, map[string]any{}, 403, ""},
		{"403Guest", f.guest, "POST", path, map[string]any{}, 403, ""},
		{"403CreatorInReadOnlyCollection", f.creator, "POST", path, map[string]any{"parent": readOnly}, 403, ""},
		{"404Outsider", f.outsider, "POST", path, map[string]any{}, 404, ""},
		{"404UnknownOrg", f.admin, "POST", "/v1/orgs/unknown/collections", map[string]any{}, 404, ""},
		{"413BodyTooLarge", f.admin, "POST", path, `{"title":"` + strings.Repeat("x", httpapi.MaxBodyBytes) + `"}`, 413, ""},
	}
	testkit.Check(t, f.api, cases)
}

func TestGrantOnACollectionLetsAReaderCreateInIt(t *testing.T) {
	f := setup(t)
	id := f.collection(t, "Team space", "")
	err := f.kit.Deps.Authz.Grant(f.kit.Ctx, model.Grant{OrgID: f.org.ID, ContentKind: model.KindCollection, ContentID: id,
		PrincipalKind: model.PrincipalUser, PrincipalID: f.users["rita"].ID, Role: model.RoleCreate})
	if err != nil {
		t.Fatal(err)
	}
	f.as(t, f.reader).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/spaces", map[string]any{"parent": id})
	f.as(t, f.reader).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/collections", map[string]any{"parent": id})
	f.as(t, f.reader).Expect(http.StatusForbidden, "POST", "/v1/orgs/"+f.org.ID+"/collections", map[string]any{})
	c := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/collections/"+id, nil).Map(t)
	if c["permissions"].(map[string]any)["create"] != true {
		t.Fatalf("permissions %v", c["permissions"])
	}
}

func TestGetPatch(t *testing.T) {
	f := setup(t)
	id := f.collection(t, "Guides", "")
	path := "/v1/collections/" + id
	f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil)
	f.as(t, f.guest).Expect(http.StatusNotFound, "GET", path, nil)
	f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", path, nil)
	f.as(t, f.admin).Expect(http.StatusNotFound, "GET", "/v1/collections/unknown", nil)
	f.as(t, "").Expect(http.StatusUnauthorized, "GET", path, nil)

	admin := f.as(t, f.admin)
	c := admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"title": "Guides 2", "description": "All guides", "defaultLevel": "comment"}).Map(t)
	if c["title"] != "Guides 2" || c["description"] != "All guides" || c["defaultLevel"] != "comment" {
		t.Fatalf("patched = %v", c)
	}
	// The level applies to members below admin: the reader now comments.
	sp := f.space(t, "Inside", id)
	perms := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+sp, nil).Map(t)["permissions"].(map[string]any)
	if perms["comment"] != true || perms["edit"] != false {
		t.Fatalf("reader's permissions on a space of a comment-level collection: %v", perms)
	}
	c = admin.Expect(http.StatusOK, "PATCH", path, `{"description":null,"defaultLevel":null}`).Map(t)
	if c["title"] != "Guides 2" || c["description"] != nil || c["defaultLevel"] != nil {
		t.Fatalf("after null patch = %v", c)
	}
	// Guest level: members without a grant no longer see it or its spaces.
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", path, nil)
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", "/v1/spaces/"+sp, nil)
	admin.Expect(http.StatusOK, "PATCH", path, map[string]any{"defaultLevel": "inherit"})
	testkit.Check(t, f.api, []testkit.Case{
		{"400TitleTooLong", f.admin, "PATCH", path, map[string]any{"title": strings.Repeat("x", 51)}, 400, "title"},
		{"400DescriptionTooLong", f.admin, "PATCH", path, map[string]any{"description": strings.Repeat("x", 101)}, 400, "description"},
		{"400UnknownLevel", f.admin, "PATCH", path, map[string]any{"defaultLevel": "owner"}, 400, "defaultLevel"},
		{"403Creator", f.creator, "PATCH", path, map[string]any{"title": "x"}, 403, ""},
		{"403Reader", f.reader, "PATCH", path, map[string]any{"title": "x"}, 403, ""},
		{"404Guest", f.guest, "PATCH", path, map[string]any{"title": "x"}, 404, ""},
		{"404Outsider", f.outsider, "PATCH", path, map[string]any{"title": "x"}, 404, ""},
		{"401NoToken", "", "PATCH", path, map[string]any{"title": "x"}, 401, ""},
	})
}

func TestDeleteOnlyEmptyCollections(t *testing.T) {
	f := setup(t)
	admin := f.as(t, f.admin)
	outer := f.collection(t, "Outer", "")
	inner := f.collection(t, "Inner", outer)
	sp := f.space(t, "Space", inner)
	f.as(t, f.creator).Expect(http.StatusForbidden, "DELETE", "/v1/collections/"+inner, nil)
	f.as(t, f.outsider).Expect(http.StatusNotFound, "DELETE", "/v1/collections/"+inner, nil)
	f.as(t, "").Expect(http.StatusUnauthorized, "DELETE", "/v1/collections/"+inner, nil)
	// Holding a collection, holding a space: 409, nothing deleted.
	admin.Expect(http.StatusConflict, "DELETE", "/v1/collections/"+outer, nil)
	admin.Expect(http.StatusConflict, "DELETE", "/v1/collections/"+inner, nil)
	admin.Expect(http.StatusOK, "GET", "/v1/collections/"+inner, nil)
	// A deleted space no longer holds its collection.
	admin.Expect(http.StatusResetContent, "DELETE", "/v1/spaces/"+sp, nil)
	admin.Expect(http.StatusResetContent, "DELETE", "/v1/collections/"+inner, nil)
	admin.Expect(http.StatusNotFound, "GET", "/v1/collections/"+inner, nil)
	admin.Expect(http.StatusNotFound, "DELETE", "/v1/collections/"+inner, nil)
	admin.Expect(http.StatusResetContent, "DELETE", "/v1/collections/"+outer, nil)
	// Restored, the space goes to the top level: its collection is gone.
	restored := admin.Expect(http.StatusOK, "POST", "/v1/spaces/"+sp+"/restore", nil).Map(t)
	if restored["parent"] != nil {
		t.Fatalf("restored space's parent = %v", restored["parent"])
	}
	if got := f.all(t, f.admin, "/v1/orgs/"+f.org.ID+"/collections", 10, "id"); len(got) != 0 {
		t.Fatalf("collections left: %v", got)
	}
	admin.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/collections", map[string]any{"title": "After"})
}

func TestListNestedInTreeOrderAndTopLevelInOrder(t *testing.T) {
	f := setup(t)
	b := f.collection(t, "B", "")
	b1 := f.collection(t, "B1", b)
	f.collection(t, "B1a", b1)
	f.collection(t, "B2", b)
	a := f.collection(t, "A", "")
	f.collection(t, "A1", a)
	c := f.collection(t, "C", "")
	// A moves before B: every list follows.
	f.as(t, f.admin).Expect(http.StatusOK, "POST", "/v1/collections/"+a+"/move",
		map[string]any{"position": map[string]any{"before": map[string]any{"type": "collection", "collection": b}}})
	path := "/v1/orgs/" + f.org.ID + "/collections"
	for _, limit := range []int{1, 3, 50} {
		if got, want := f.titles(t, f.all(t, f.reader, path, limit, "id"), "collections"), []string{"A", "A1", "B", "B1", "B1a", "B2", "C"}; !slices.Equal(got, want) {
			t.Fatalf("nested, limit %d: %v, want %v", limit, got, want)
		}
	}
	if got, want := f.titles(t, f.all(t, f.reader, path+"?nested=false", 2, "id"), "collections"), []string{"A", "B", "C"}; !slices.Equal(got, want) {
		t.Fatalf("top level: %v, want %v", got, want)
	}
	// Hidden collections are left out; guests see nothing; outsiders 404.
	f.as(t, f.admin).Expect(http.StatusOK, "PATCH", "/v1/collections/"+c, `{"defaultLevel":null}`)
	if got := f.titles(t, f.all(t, f.reader, path, 50, "id"), "collections"); slices.Contains(got, "C") {
		t.Fatalf("reader lists a guest-level collection: %v", got)
	}
	if got := f.all(t, f.guest, path, 50, "id"); len(got) != 0 {
		t.Fatalf("guest lists %v", got)
	}
	f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", path, nil)
	f.as(t, "").Expect(http.StatusUnauthorized, "GET", path, nil)
	// Page tokens are bound to their list.
	first := f.as(t, f.admin).Expect(http.StatusOK, "GET", path+"?limit=1", nil).Map(t)
	tok := first["next"].(map[string]any)["page"].(string)
	f.as(t, f.admin).Expect(http.StatusBadRequest, "GET", path+"?nested=false&page="+tok, nil)
	f.as(t, f.admin).Expect(http.StatusBadRequest, "GET", path+"?page="+tok+"x", nil)
	f.as(t, f.admin).Expect(http.StatusBadRequest, "GET", "/v1/orgs/"+f.other.ID+"/collections?page="+tok, nil)
	for _, q := range []string{"limit=0", "limit=1001", "nested=maybe"} {
		res := f.as(t, f.admin).Expect(http.StatusBadRequest, "GET", path+"?"+q, nil)
		if name, _, _ := strings.Cut(q, "="); !strings.Contains(string(res.Body), name) {
			t.Errorf("%s: error does not name %s: %s", q, name, res.Body)
		}
	}
}
