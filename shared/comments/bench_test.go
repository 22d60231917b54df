package comments_test

import (
	"fmt"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/galleydocs/galley/shared/store/boltstore"
	"github.com/galleydocs/galley/shared/testkit"
)

type trips struct{ gets, writes, queries, blobGets int64 }

func reset(c *testkit.CountingStore, b *testkit.CountingBlobs) {
	c.Reset()
	b.Reset()
}

func read(c *testkit.CountingStore, b *testkit.CountingBlobs) trips {
	return trips{c.Gets.Load(), c.Writes.Load(), c.Queries.Load(), b.Gets.Load()}
}

// countedFixture is a fixture whose store and blobs count round trips, with
// n comments on the space's pages (by n/5 authors, with a reaction each).
func countedFixture(t testing.TB, n int) (*fixture, *testkit.CountingStore, *testkit.CountingBlobs, map[string]string, string) {
	bolt, err := boltstore.Open(filepath.Join(t.TempDir(), "galley.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bolt.Close() })
	cs := &testkit.CountingStore{Store: bolt}
	k := testkit.NewOn(t, cs)
	cb := &testkit.CountingBlobs{Store: k.Deps.Blobs}
	k.Deps.Blobs = cb
	f := setupOn(t, k)
	pages := f.seed(t)
	tokens := []string{f.commenter, f.commenter2, f.editor, f.admin, f.reader}
	var last string
	for i := 0; i < n; i++ {
		page := pages["intro"]
		if i%2 == 1 {
			page = pages["guide"]
		}
		c := f.post(t, tokens[i%4], f.comments(), map[string]any{"page": page, "body": map[string]any{"markdown": fmt.Sprintf("Comment **%d**", i)}})
		last = f.comments() + "/" + id(c)
		f.as(t, tokens[(i+1)%4]).Expect(http.StatusOK, "PUT", last, map[string]any{"addedReactions": []string{"👍"}})
	}
	return f, cs, cb, pages, last
}

// TestRoundTripsDoNotGrowWithTheComments: reading a page of 20 comments
// costs the same with 40 or 200 comments in the space; the figures are
// logged (and written in docs/comments.md).
func TestRoundTripsDoNotGrowWithTheComments(t *testing.T) {
	measure := func(n int) map[string]trips {
		f, cs, cb, pages, last := countedFixture(t, n)
		out := map[string]trips{}
		run := func(name string, fn func()) {
			reset(cs, cb)
			fn()
			out[name] = read(cs, cb)
		}
		run("list 20", func() { f.as(t, f.reader).Expect(http.StatusOK, "GET", f.comments()+"?limit=20", nil) })
		run("list 20 open on a page by 2 authors", func() {
			f.as(t, f.reader).Expect(http.StatusOK, "GET", f.comments()+"?limit=20&status=open&targetPage="+pages["intro"]+"&authors="+f.commenterID+"&authors="+f.editorID, nil)
		})
		run("get", func() { f.as(t, f.reader).Expect(http.StatusOK, "GET", last, nil) })
		run("post on a page", func() {
			f.post(t, f.commenter, f.comments(), map[string]any{"page": pages["guide"], "body": map[string]any{}})
		})
		run("resolve", func() { f.as(t, f.editor).Expect(http.StatusOK, "PUT", last, map[string]any{"resolved": true}) })
		run("reply", func() { f.post(t, f.commenter, last+"/replies", say("r")) })
		run("delete", func() { f.as(t, f.admin).Expect(http.StatusResetContent, "DELETE", last, nil) })
		return out
	}
	small, large := measure(40), measure(200)
	for name, s := range small {
		t.Logf("%-40s gets %d, writes %d, queries %d, blob gets %d", name, s.gets, s.writes, s.queries, s.blobGets)
		if l := large[name]; l != s {
			t.Errorf("%s: %+v with 40 comments, %+v with 200", name, s, l)
		}
	}
}

// BenchmarkListComments reads a page of 50 comments (of 200) through the
// whole HTTP stack on bbolt.
func BenchmarkListComments(b *testing.B) {
	f, _, _, _, _ := countedFixture(b, 200)
	c := f.as(b, f.reader)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Expect(http.StatusOK, "GET", f.comments()+"?limit=50", nil)
	}
}

// BenchmarkPostComment posts comments on a page through the whole HTTP
// stack on bbolt (one transaction with the space's counter each).
func BenchmarkPostComment(b *testing.B) {
	f, _, _, pages, _ := countedFixture(b, 0)
	c := f.as(b, f.commenter)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Expect(http.StatusOK, "POST", f.comments(), map[string]any{"page": pages["intro"], "body": map[string]any{"markdown": "Hello"}})
	}
}
