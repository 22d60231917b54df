package spaces_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

// BenchmarkGetSpace measures one authenticated read through the whole HTTP
// stack on the embedded store: token lookup, membership, space, encoding.
func BenchmarkGetSpace(b *testing.B) {
	k := testkit.New(b)
	u, tok := k.User("bench")
	org := k.Org("Bench", map[string]model.Role{u.ID: model.RoleAdmin})
	api := httpapi.New(httpapi.Config{Auth: users.New(k.Deps), Logger: k.Deps.Logger})
	spaceshttp.Register(api, spaces.New(k.Deps))
	h := api.Handler()
	req := httptest.NewRequest("POST", "/v1/orgs/"+org.ID+"/spaces", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		b.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	var created struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil {
		b.Fatal(err)
	}
	id := created.ID
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest("GET", "/v1/spaces/"+id, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("get: %d %s", rec.Code, rec.Body)
		}
	}
}
