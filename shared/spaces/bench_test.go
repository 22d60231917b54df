package spaces_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// BenchmarkGetSpace measures one authenticated read through the whole HTTP
// stack on the embedded store: token lookup, membership, space, encoding.
func BenchmarkGetSpace(b *testing.B) {
	a := testkit.NewAPI(b, testkit.New(b), []string{"spaces"})
	id, tok, h := a.Space(b), a.Tokens["admin"], a.API.Handler()
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
