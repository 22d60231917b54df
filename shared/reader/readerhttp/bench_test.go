package readerhttp_test

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/testkit"
)

// typicalBody is a page of documentation: headings, paragraphs with marks
// and links, a list, a code block and a hint.
func typicalBody(i int) string {
	return fmt.Sprintf("Page %d explains one thing. See [the next page](./page-%d.md) and **mind the details**.\n\n"+
		"## Before you start\n\nYou need:\n\n* an account\n* a token\n* ten minutes\n\n"+
		"## Steps\n\n%s\n```go\nfunc main() {\n\tclient := galley.New(token)\n\tpages, err := client.Pages(ctx, space)\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n\tfmt.Println(len(pages))\n}\n```\n\n"+
		"{%% hint style=\"info\" %%}\nTokens expire after a year.\n{%% endhint %%}\n\n### Troubleshooting\n\n%s",
		i, i+1, strings.Repeat("A line of documentation text, long enough to wrap in a browser window.\n", 8),
		strings.Repeat("Another paragraph of explanation.\n", 6))
}

// bigSite publishes a site over a space of n pages in sections of 100 (a
// top-level page with 99 children), seeded with direct writes, and
// returns the fixture and the path of a leaf page in the middle.
func bigSite(b *testing.B, n int) (*fixture, string) {
	f := newFixture(b)
	f.space = f.Space(b)
	repo := content.NewRepo(f.Kit.Deps)
	// The sections share their bodies (page i of each the same): 5,000
	// blobs would make the set-up take most of the run.
	docs := map[int]string{}
	tree := testkit.NewBigTree(n, func(_, i int) string {
		if docs[i] == "" {
			d, err := repo.PutDocument(f.Kit.Ctx, f.space, typicalBody(i))
			if err != nil {
				b.Fatal(err)
			}
			docs[i] = d
		}
		return docs[i]
	})
	f.Kit.Land(b, f.space, &content.Tree{Pages: tree.Pages}, nil)
	f.publish(b, "Big", map[string]any{"basename": "docs"})
	return f, f.base + "/" + tree.LeafPath
}

// BenchmarkRenderPage5000 measures the warm render of one page of a
// 5,000-page site through the reader's handler (the site's resolution,
// the visitor's reads, the document's rendering; the revision's
// navigation cached), with p50 and p95 and the page's bytes; and the
// revalidation of an unchanged page (304).
func BenchmarkRenderPage5000(b *testing.B) {
	f, leaf := bigSite(b, 5000)
	get := func(headers ...string) (*http.Response, []byte) {
		res := f.send("GET", leaf, nil, headers...)
		body, _ := io.ReadAll(res.Body)
		return res, body
	}
	res, body := get()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "<h1>Page 50 of section 25</h1>") {
		b.Fatalf("%d: %.500s", res.StatusCode, body)
	}
	etag := res.Header.Get("ETag")
	run := func(b *testing.B, want int, headers ...string) {
		durs := make([]time.Duration, 0, b.N)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			start := time.Now()
			res, _ := get(headers...)
			durs = append(durs, time.Since(start))
			if res.StatusCode != want {
				b.Fatalf("status %d", res.StatusCode)
			}
		}
		b.StopTimer()
		sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
		b.ReportMetric(float64(durs[len(durs)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(durs[len(durs)*95/100].Microseconds())/1000, "p95-ms")
	}
	b.Run("html", func(b *testing.B) {
		run(b, http.StatusOK)
		b.ReportMetric(float64(len(body)), "page-bytes")
	})
	b.Run("not_modified", func(b *testing.B) { run(b, http.StatusNotModified, "If-None-Match", etag) })
}
