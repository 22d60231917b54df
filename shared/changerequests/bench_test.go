package changerequests_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/testkit"
)

// counts are the round trips of some work.
type counts struct {
	TableGets, TableWrites, TableQueries, BlobGets, BlobPuts int64
}

func (c counts) String() string {
	return fmt.Sprintf("table: %d gets, %d writes, %d queries; blobs: %d gets, %d puts", c.TableGets, c.TableWrites, c.TableQueries, c.BlobGets, c.BlobPuts)
}

// counted is a fixture whose store and blobs count round trips.
type counted struct {
	*fixture
	st    *testkit.CountingStore
	blobs *testkit.CountingBlobs
}

func countedSetup(tb testing.TB) *counted {
	k := testkit.New(tb)
	st := &testkit.CountingStore{Store: k.Deps.Store}
	blobs := &testkit.CountingBlobs{Store: k.Deps.Blobs}
	k.Deps.Store, k.Deps.Blobs, k.Deps.Authz = st, blobs, access.NewAuthorizer(st)
	return &counted{fixture: setupOn(tb, k), st: st, blobs: blobs}
}

func (c *counted) reset() {
	c.st.Gets.Store(0)
	c.st.Writes.Store(0)
	c.st.Queries.Store(0)
	c.blobs.Gets.Store(0)
	c.blobs.Puts.Store(0)
}

func (c *counted) counts() counts {
	return counts{c.st.Gets.Load(), c.st.Writes.Load(), c.st.Queries.Load(), c.blobs.Gets.Load(), c.blobs.Puts.Load()}
}

// seedPages makes the space's head a revision of n pages (testkit's
// BigTree), each page with a body of its own. It returns a leaf page.
func (c *counted) seedPages(tb testing.TB, n int) string {
	tb.Helper()
	bt := testkit.NewBigTree(n, func(int, int) string { return "" })
	bodies := make(map[string]string, len(bt.Pages))
	for _, p := range bt.Pages {
		bodies[p.ID] = fmt.Sprintf("Body of %s.\n\n%s", p.ID, strings.Repeat("A line of documentation text.\n", 20))
	}
	c.kit.Land(tb, c.space, &content.Tree{Pages: bt.Pages}, bodies)
	return bt.Pages[len(bt.Pages)-1].ID
}

// operation is one measured request; prepare (not measured) readies it.
type operation struct {
	name    string
	prepare func(tb testing.TB, c *counted, leaf string, i int) (method, path string, body any, token string)
	// testOnly leaves it out of the benchmark: its request is so quick
	// next to its preparation that the benchmark would run for minutes.
	testOnly bool
}

var operations = []operation{
	{name: "read the page tree", prepare: func(_ testing.TB, c *counted, _ string, _ int) (string, string, any, string) {
		return "GET", "/v1/spaces/" + c.space + "/content/pages", nil, c.reader
	}},
	{name: "read one page as markdown", prepare: func(_ testing.TB, c *counted, leaf string, _ int) (string, string, any, string) {
		return "GET", "/v1/spaces/" + c.space + "/content/page/" + leaf + "?format=markdown", nil, c.reader
	}},
	{name: "read one page as a document", prepare: func(_ testing.TB, c *counted, leaf string, _ int) (string, string, any, string) {
		return "GET", "/v1/spaces/" + c.space + "/content/page/" + leaf + "?format=document", nil, c.reader
	}},
	{name: "apply a batch changing one page", prepare: func(tb testing.TB, c *counted, leaf string, i int) (string, string, any, string) {
		if i == 0 {
			c.create(tb, c.editor, "bench")
		}
		return "POST", c.cr(1) + "/content", map[string]any{"changes": []any{
			map[string]any{"operation": "update_page", "page": leaf, "document": map[string]any{"markdown": fmt.Sprintf("# Leaf\n\nEdit %d.\n", i)}}}}, c.editor
	}},
	{name: "merge a request changing one page", prepare: func(tb testing.TB, c *counted, leaf string, i int) (string, string, any, string) {
		n := c.create(tb, c.editor, "")["number"]
		c.author(tb, c.editor, n, map[string]any{"operation": "update_page", "page": leaf, "document": map[string]any{"markdown": fmt.Sprintf("# Leaf\n\nMerge %d.\n", i)}})
		return "POST", c.cr(n) + "/merge", nil, c.reviewer
	}, testOnly: true},
	{name: "merge an outdated request (three-way)", prepare: func(tb testing.TB, c *counted, leaf string, i int) (string, string, any, string) {
		n := c.create(tb, c.editor, "")["number"]
		c.author(tb, c.editor, n, map[string]any{"operation": "update_page", "page": leaf, "document": map[string]any{"markdown": fmt.Sprintf("# Leaf\n\nThree-way %d.\n", i)}})
		other := c.create(tb, c.editor, "")["number"]
		c.author(tb, c.editor, other, map[string]any{"operation": "update_page", "page": "s0000", "title": fmt.Sprintf("Section %d", i)})
		if got := c.as(tb, c.reviewer).Do("POST", c.cr(other)+"/merge", nil); got.Status != http.StatusOK {
			tb.Fatalf("merge: %d %s", got.Status, got.Body)
		}
		return "POST", c.cr(n) + "/merge", nil, c.reviewer
	}},
}

func (c *counted) run(tb testing.TB, op operation, leaf string, i int) counts {
	tb.Helper()
	method, path, body, token := op.prepare(tb, c, leaf, i)
	c.reset()
	res := c.as(tb, token).Do(method, path, body)
	if res.Status != http.StatusOK {
		tb.Fatalf("%s: %d %s", op.name, res.Status, res.Body)
	}
	return c.counts()
}

// TestRoundTripsDoNotGrowWithThePages measures each operation on a space of
// 10 pages and of 1,000: the table and blob round trips are the same.
func TestRoundTripsDoNotGrowWithThePages(t *testing.T) {
	small, large := countedSetup(t), countedSetup(t)
	smallLeaf, largeLeaf := small.seedPages(t, 10), large.seedPages(t, 1000)
	for _, op := range operations {
		t.Run(strings.ReplaceAll(op.name, " ", "_"), func(t *testing.T) {
			// The second run of each is measured: the first creates the
			// change request the authoring runs reuse.
			small.run(t, op, smallLeaf, 0)
			large.run(t, op, largeLeaf, 0)
			s, l := small.run(t, op, smallLeaf, 1), large.run(t, op, largeLeaf, 1)
			if s != l {
				t.Fatalf("10 pages: %v\n1,000 pages: %v", s, l)
			}
			t.Logf("%s: %v", op.name, l)
		})
	}
}

// BenchmarkContent5000Pages runs each operation on a space of 5,000 pages
// and reports its table and blob round trips per operation.
func BenchmarkContent5000Pages(b *testing.B) {
	c := countedSetup(b)
	leaf := c.seedPages(b, 5000)
	handler := c.api.Handler()
	for _, op := range operations {
		if op.testOnly {
			continue
		}
		b.Run(strings.ReplaceAll(op.name, " ", "_"), func(b *testing.B) {
			var total counts
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				method, path, body, token := op.prepare(b, c, leaf, i)
				var rd io.Reader
				if body != nil {
					raw, err := json.Marshal(body)
					if err != nil {
						b.Fatal(err)
					}
					rd = bytes.NewReader(raw)
				}
				// The bare handler, without the test client's validation of
				// the answer against the OpenAPI document.
				req := httptest.NewRequest(method, path, rd)
				req.Header.Set("Authorization", "Bearer "+token)
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				c.reset()
				b.StartTimer()
				handler.ServeHTTP(rec, req)
				b.StopTimer()
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", op.name, rec.Code, rec.Body)
				}
				n := c.counts()
				total.TableGets += n.TableGets
				total.TableWrites += n.TableWrites
				total.TableQueries += n.TableQueries
				total.BlobGets += n.BlobGets
				total.BlobPuts += n.BlobPuts
				b.StartTimer()
			}
			per := func(v int64) float64 { return float64(v) / float64(b.N) }
			b.ReportMetric(per(total.TableGets), "table-gets/op")
			b.ReportMetric(per(total.TableWrites), "table-writes/op")
			b.ReportMetric(per(total.TableQueries), "table-queries/op")
			b.ReportMetric(per(total.BlobGets), "blob-gets/op")
			b.ReportMetric(per(total.BlobPuts), "blob-puts/op")
		})
	}
}
