package access_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// who are the callers of the matrix: each organization role, a guest (a
// member without a role) and a non-member, named as the API fixture names
// its users.
var who = append(testkit.Roles(), testkit.Outsider)

// world is the API fixture (an organization with a member of each role,
// an outsider) with the families whose operations the matrix calls; the
// admin administers the other organization too (transfers).
type world struct{ *testkit.API }

func newWorld(t *testing.T, k *testkit.Kit) *world {
	return &world{testkit.NewAPI(t, k, []string{"spaces", "collections", "customfields"}, testkit.AlsoInOther("admin"))}
}

// id creates something as the admin and returns its id.
func (w *world) id(t *testing.T, method, path string, body any) string {
	t.Helper()
	return w.As(t, "admin").Expect(http.StatusCreated, method, path, body).Map(t)["id"].(string)
}

// request is one call of an operation: built fresh for each caller, so
// that one caller's delete does not change what the next one meets.
type request struct {
	method, path string
	body         any
}

// operation is one row of the matrix: how to call it, and the status each
// caller gets, in the order of who.
type operation struct {
	name string
	call func(t *testing.T, w *world) request
	want [8]int
}

// Statuses by caller, in the order of who.
var (
	anyMember = [8]int{200, 200, 200, 200, 200, 200, 200, 404}
	// A guest creating in a collection they cannot see meets a 400 naming
	// the parent, as for a collection that does not exist.
	creatorsIn = [8]int{201, 201, 403, 403, 403, 403, 400, 404}
	orgAdmins  = [8]int{200, 403, 403, 403, 403, 403, 404, 404}
	// Custom field definitions belong to the organization: guests, who see
	// it, get 403 rather than 404.
	orgReaders  = [8]int{200, 200, 200, 200, 200, 200, 403, 404}
	fieldAdmin  = [8]int{200, 403, 403, 403, 403, 403, 403, 404}
	editors204  = [8]int{204, 204, 204, 204, 403, 403, 404, 404}
	readers     = [8]int{200, 200, 200, 200, 200, 200, 404, 404}
	creators201 = [8]int{201, 201, 403, 403, 403, 403, 403, 404}
	admins200   = [8]int{200, 403, 403, 403, 403, 403, 404, 404}
	admins205   = [8]int{205, 403, 403, 403, 403, 403, 404, 404}
)

func operations() []operation {
	return []operation{
		{"list spaces", func(t *testing.T, w *world) request {
			return request{"GET", "/v1/orgs/" + w.Org.ID + "/spaces", nil}
		}, anyMember},
		{"create space", func(t *testing.T, w *world) request {
			return request{"POST", "/v1/orgs/" + w.Org.ID + "/spaces", map[string]any{"title": "S"}}
		}, creators201},
		{"get space", func(t *testing.T, w *world) request {
			return request{"GET", "/v1/spaces/" + w.space(t), nil}
		}, readers},
		{"update space", func(t *testing.T, w *world) request {
			return request{"PATCH", "/v1/spaces/" + w.space(t), map[string]any{"title": "T"}}
		}, admins200},
		{"delete space", func(t *testing.T, w *world) request {
			return request{"DELETE", "/v1/spaces/" + w.space(t), nil}
		}, admins205},
		{"restore space", func(t *testing.T, w *world) request {
			id := w.space(t)
			w.As(t, "admin").Expect(http.StatusResetContent, "DELETE", "/v1/spaces/"+id, nil)
			return request{"POST", "/v1/spaces/" + id + "/restore", nil}
		}, admins200},
		{"create space in a collection", func(t *testing.T, w *world) request {
			return request{"POST", "/v1/orgs/" + w.Org.ID + "/spaces", map[string]any{"parent": w.collection(t)}}
		}, creatorsIn},
		{"move space into a collection", func(t *testing.T, w *world) request {
			return request{"PATCH", "/v1/spaces/" + w.space(t), map[string]any{"parent": w.collection(t)}}
		}, admins200},
		{"list collections", func(t *testing.T, w *world) request {
			return request{"GET", "/v1/orgs/" + w.Org.ID + "/collections", nil}
		}, anyMember},
		{"create collection", func(t *testing.T, w *world) request {
			return request{"POST", "/v1/orgs/" + w.Org.ID + "/collections", map[string]any{"title": "C"}}
		}, creators201},
		{"create collection in a collection", func(t *testing.T, w *world) request {
			return request{"POST", "/v1/orgs/" + w.Org.ID + "/collections", map[string]any{"parent": w.collection(t)}}
		}, creatorsIn},
		{"get collection", func(t *testing.T, w *world) request {
			return request{"GET", "/v1/collections/" + w.collection(t), nil}
		}, readers},
		{"list spaces of a collection", func(t *testing.T, w *world) request {
			return request{"GET", "/v1/collections/" + w.collection(t) + "/spaces", nil}
		}, readers},
		{"update collection", func(t *testing.T, w *world) request {
			return request{"PATCH", "/v1/collections/" + w.collection(t), map[string]any{"title": "T"}}
		}, admins200},
		{"delete collection", func(t *testing.T, w *world) request {
			return request{"DELETE", "/v1/collections/" + w.collection(t), nil}
		}, admins205},
		{"move collection", func(t *testing.T, w *world) request {
			return request{"POST", "/v1/collections/" + w.collection(t) + "/move", map[string]any{"parent": w.collection(t)}}
		}, admins200},
		{"transfer collection", func(t *testing.T, w *world) request {
			return request{"POST", "/v1/collections/" + w.collection(t) + "/transfer", map[string]any{"organization": w.Other.ID}}
		}, orgAdmins},
		{"list custom fields", func(t *testing.T, w *world) request {
			return request{"GET", "/v1/orgs/" + w.Org.ID + "/custom-fields", nil}
		}, orgReaders},
		{"create custom field", func(t *testing.T, w *world) request {
			return request{"POST", "/v1/orgs/" + w.Org.ID + "/custom-fields", map[string]any{"name": fieldName(), "type": "text"}}
		}, [8]int{201, 403, 403, 403, 403, 403, 403, 404}},
		{"get custom field", func(t *testing.T, w *world) request {
			return request{"GET", w.field(t), nil}
		}, orgReaders},
		{"update custom field", func(t *testing.T, w *world) request {
			return request{"PATCH", w.field(t), map[string]any{"title": "T"}}
		}, fieldAdmin},
		{"delete custom field", func(t *testing.T, w *world) request {
			return request{"DELETE", w.field(t), nil}
		}, [8]int{204, 403, 403, 403, 403, 403, 403, 404}},
		{"get space custom field values", func(t *testing.T, w *world) request {
			return request{"GET", "/v1/spaces/" + w.space(t) + "/custom-fields", nil}
		}, readers},
		{"update space custom field values", func(t *testing.T, w *world) request {
			path := w.field(t)
			name := path[strings.LastIndex(path, "/")+1:]
			return request{"PATCH", "/v1/spaces/" + w.space(t) + "/custom-fields",
				map[string]any{"values": map[string]any{name: map[string]any{"value": "v"}}}}
		}, editors204},
	}
}

// fieldName is a fresh custom field name.
func fieldName() string { return "f" + ids.New(time.Now()) }

// field creates a text custom field and returns its path.
func (w *world) field(t *testing.T) string {
	t.Helper()
	name := fieldName()
	w.As(t, "admin").Expect(http.StatusCreated, "POST", "/v1/orgs/"+w.Org.ID+"/custom-fields", map[string]any{"name": name, "type": "text"})
	return "/v1/orgs/" + w.Org.ID + "/custom-fields/" + name
}

// collection creates a collection at the top level.
func (w *world) collection(t *testing.T) string {
	return w.id(t, "POST", "/v1/orgs/"+w.Org.ID+"/collections", map[string]any{"title": "C"})
}

// space creates a space at the top level.
func (w *world) space(t *testing.T) string {
	return w.id(t, "POST", "/v1/orgs/"+w.Org.ID+"/spaces", map[string]any{"title": "S"})
}

// TestPermissionMatrix calls every operation on content as each role, a
// guest and a non-member, on both storage backends, and checks the status
// against docs/permissions.md.
func TestPermissionMatrix(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		w := newWorld(t, k)
		for _, op := range operations() {
			t.Run(op.name, func(t *testing.T) {
				for i, name := range who {
					r := op.call(t, w)
					res := w.As(t, name).Do(r.method, r.path, r.body)
					if res.Status != op.want[i] {
						t.Errorf("%s: status %d, want %d: %s", name, res.Status, op.want[i], res.Body)
					}
				}
			})
		}
	})
}
