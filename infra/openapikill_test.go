package infra_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
)

// openAPIKill is the OpenAPI worker's binary killed at random points of
// its jobs (killRig, standard queue), processing specs whose documents
// (two real ones, 0.4–0.5 MB of YAML) it fetches from a server on
// loopback.
type openAPIKill struct {
	*killRig
	docs string // the documents' base URL
}

func newOpenAPIKill(tb testing.TB, seed uint64) *openAPIKill {
	tb.Helper()
	o := &openAPIKill{killRig: newKillRig(tb, "openapiworker", false, seed)}
	srv := httptest.NewServer(http.FileServer(http.Dir("../../shared/fixtures/openapi")))
	tb.Cleanup(srv.Close)
	o.docs = srv.URL
	o.setWindow(tb, "processing of a spec", func() { o.put(tb, "first", "blockfrost.yaml", http.StatusCreated) })
	o.settled(tb, "first", 1, 1)
	return o
}

// put sets the source of the spec slug to the document doc.
func (o *openAPIKill) put(tb testing.TB, slug, doc string, want int) {
	tb.Helper()
	o.api.Expect(want, "PUT", "/v1/orgs/"+o.org+"/openapi/"+slug, map[string]any{"source": map[string]any{"url": o.docs + "/" + doc}})
}

// settled checks that the spec's job ended once: the spec complete at its
// generation (want), no error, no lease (never left processing), and
// versions versions (none made twice), the latest one's content readable.
func (o *openAPIKill) settled(tb testing.TB, slug string, generation int64, versions int) {
	tb.Helper()
	sp, _, err := records.Get[model.OpenAPISpec](context.Background(), o.st, keys.OpenAPISpec(o.org, slug))
	if err != nil {
		tb.Fatal(err)
	}
	if sp.ProcessingState != model.OpenAPIComplete || sp.Generation != generation || sp.Processed != generation || sp.Lease != nil || sp.LastProcessErrorCode != "" {
		tb.Fatalf("%s: state %s, processed %d of %d (want %d), lease %v, error %q", slug, sp.ProcessingState, sp.Processed, sp.Generation, generation, sp.Lease, sp.LastProcessErrorCode)
	}
	var list struct {
		Items []map[string]any `json:"items"`
	}
	base := "/v1/orgs/" + o.org + "/openapi/" + slug
	o.api.Expect(http.StatusOK, "GET", base+"/versions", nil).JSON(tb, &list)
	if len(list.Items) != versions {
		tb.Fatalf("%s: %d versions, want %d", slug, len(list.Items), versions)
	}
	o.api.Expect(http.StatusOK, "GET", base+"/versions/latest/content", nil)
}

// round asks for one job and works it with SIGKILLs: even rounds a new
// spec (one version), odd rounds another document for the previous
// round's spec (its second generation, a second version).
func (o *openAPIKill) round(tb testing.TB, i int) {
	tb.Helper()
	if i%2 == 0 {
		slug := fmt.Sprint("spec-", i)
		o.put(tb, slug, "blockfrost.yaml", http.StatusCreated)
		o.work1(tb, true)
		o.settled(tb, slug, 1, 1)
		return
	}
	slug := fmt.Sprint("spec-", i-1)
	o.put(tb, slug, "docker-engine-swagger2.yaml", http.StatusOK)
	o.work1(tb, true)
	o.settled(tb, slug, 2, 2)
}

// The OpenAPI worker as a process, killed with SIGKILL at random points
// of processing a spec, then delivered the message again: each spec ends
// complete at its generation once (no lease left, never stuck
// processing), with one version per document (none duplicated).
// Short (a few rounds): BenchmarkWorkerSIGKILL runs many.
func TestOpenAPIWorkerSIGKILLedEndsOnce(t *testing.T) {
	t.Parallel()
	o := newOpenAPIKill(t, uint64(time.Now().UnixNano()))
	o.rounds(t, 4, o.round)
}
