package readerhttp_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/queue/localqueue"
	"github.com/galleydocs/galley/shared/store/boltstore"
	"github.com/galleydocs/galley/shared/testkit"
	bolt "go.etcd.io/bbolt"
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
func bigSite(b *testing.B, n int) (*fixture, string) { return bigSiteOn(b, newFixture(b), n) }

// bigSiteOn is bigSite on the fixture f.
func bigSiteOn(b *testing.B, f *fixture, n int) (*fixture, string) {
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

// BenchmarkRenderPage measures the warm render of one page of a site of
// 5,000 and of 50,000 pages (pages=N) through the reader's handler (the
// site's resolution, the visitor's reads, the document's rendering; the
// revision's navigation cached), with p50 and p95 and the page's bytes;
// and the revalidation of an unchanged page (304). The first render of the
// revision (its navigation built) is first-ms.
func BenchmarkRenderPage(b *testing.B) {
	for _, n := range []int{5000, 50000} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) { benchRenderPage(b, n) })
	}
}

func benchRenderPage(b *testing.B, n int) {
	f, leaf := bigSite(b, n)
	get := func(headers ...string) (*http.Response, []byte) {
		res := f.send("GET", leaf, nil, headers...)
		body, _ := io.ReadAll(res.Body)
		return res, body
	}
	start := time.Now()
	res, body := get()
	first := time.Since(start)
	if want := fmt.Sprintf("<h1>Page 50 of section %d</h1>", n/200); res.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
		b.Fatalf("%d: %.500s", res.StatusCode, body)
	}
	etag := res.Header.Get("ETag")
	run := func(b *testing.B, want int, headers ...string) { measure(b, f, leaf, want, headers...) }
	b.Run("html", func(b *testing.B) {
		run(b, http.StatusOK)
		b.ReportMetric(float64(len(body)), "page-bytes")
		b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
	})
	b.Run("not_modified", func(b *testing.B) { run(b, http.StatusNotModified, "If-None-Match", etag) })
}

// measure gets path b.N times through the reader's handler and reports
// the p50 and p95 of the answers' times.
func measure(b *testing.B, f *fixture, path string, want int, headers ...string) {
	durs := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res := f.send("GET", path, nil, headers...)
		_, _ = io.ReadAll(res.Body)
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

// BenchmarkRenderResolvedPage5000 measures the warm render of a page of a
// 5,000-page site with three includes and ten expressions (its body
// resolved for the visitor: three reusable contents read, the space's and
// the page's variables), next to its sibling of the same size without
// them (plain).
func BenchmarkRenderResolvedPage5000(b *testing.B) {
	f := newFixture(b)
	f.space = f.Space(b)
	repo := content.NewRepo(f.Kit.Deps)
	put := func(body string) string {
		d, err := repo.PutDocument(f.Kit.Ctx, f.space, body)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	docs := map[int]string{}
	tree := testkit.NewBigTree(5000, func(_, i int) string {
		if docs[i] == "" {
			docs[i] = put(typicalBody(i))
		}
		return docs[i]
	})
	var rcs []content.ReusableContent
	for i := 0; i < 3; i++ {
		name := fmt.Sprintf(".gitbook/includes/shared-%d.md", i)
		rcs = append(rcs, content.ReusableContent{ID: fmt.Sprintf("rc%d", i), Title: fmt.Sprintf("Shared %d", i),
			Document: put(fmt.Sprintf("{%% hint style=\"info\" %%}\nShared note %d: read [the guide](../section-1/page-2.md) first.\n{%% endhint %%}\n", i)),
			Git:      &content.GitBlob{OID: fmt.Sprintf("%040d", i), Path: name}})
	}
	var exprs strings.Builder
	for i := 0; i < 10; i++ {
		root := "space"
		if i%2 == 1 {
			root = "page"
		}
		fmt.Fprintf(&exprs, "Value %d is <code class=\"expression\">%s.vars.v%d</code>.\n", i, root, i)
	}
	resolved := typicalBody(50) + "\n" + exprs.String() + "\n{% include \"../.gitbook/includes/shared-0.md\" %}\n\n" +
		"{% include \"../.gitbook/includes/shared-1.md\" %}\n\n{% include \"../.gitbook/includes/shared-2.md\" %}\n"
	vars, pageVars := content.Variables{}, content.Variables{}
	for i := 0; i < 10; i++ {
		vars[fmt.Sprintf("v%d", i)] = fmt.Sprintf("space value %d", i)
		pageVars[fmt.Sprintf("v%d", i)] = fmt.Sprintf("page value %d", i)
	}
	for i := range tree.Pages {
		if tree.Pages[i].ID == tree.Leaf {
			tree.Pages[i].Document, tree.Pages[i].Variables = put(resolved), pageVars
		}
	}
	f.Kit.Land(b, f.space, &content.Tree{Pages: tree.Pages, ReusableContents: rcs, Variables: vars}, nil)
	f.publish(b, "Big", map[string]any{"basename": "docs"})
	leaf := f.base + "/" + tree.LeafPath
	plain := f.base + "/" + strings.TrimSuffix(tree.LeafPath, "50") + "51"
	body, _ := f.body(b, http.StatusOK, leaf)
	if !strings.Contains(body, "Shared note 2") || !strings.Contains(body, "Value 9 is page value 9.") || strings.Contains(body, "{%") {
		b.Fatalf("the page is not resolved: %.3000s", body)
	}
	f.body(b, http.StatusOK, plain)
	b.Run("plain", func(b *testing.B) { measure(b, f, plain, http.StatusOK) })
	b.Run("resolved", func(b *testing.B) { measure(b, f, leaf, http.StatusOK) })
}

// BenchmarkRenderPageUnderInsightsBurst measures the page of
// BenchmarkRenderPage (5,000 pages) with and without insights traffic, side by side
// in one run: the samples alternate between quiet windows and burst
// windows of burstWindow requests each (same process, same page), so the
// machine's other load weighs on both alike. In a burst window the site's
// pages post 10,000 events a minute (batches of 5 every 30 ms, 500
// visitors, to <site>/~gitbook/__evt) and local mode's in-process queue
// (localqueue, as `make run`) counts them in the same process; a quiet
// window starts once the queue has no job left. Reports p50 and p95 of
// each, the ratio of the p95s (burst / quiet), and the events posted a
// minute of burst.
func BenchmarkRenderPageUnderInsightsBurst(b *testing.B) {
	k := testkit.New(b)
	db := k.Deps.Store.(*boltstore.Store).DB()
	lq, err := localqueue.New(db, localqueue.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	k.Deps.Queue = lq
	f, leaf := bigSiteOn(b, newFixtureOn(b, k), 5000)
	ctx, stop := context.WithCancel(k.Ctx)
	defer stop()
	// As local mode runs it (make run): the insights jobs by batches.
	go func() { _ = lq.RunBatched(ctx, families.JobHandlers(f.Root), families.BatchHandlers(f.Root)) }()
	f.body(b, http.StatusOK, leaf)
	evt := f.base + "/~gitbook/__evt"
	batch := func(i int) string {
		loc := fmt.Sprintf(`"location":{"url":"https://app.test%s/section-%d/page-%d","page":"p%d","space":"%s"}`, f.base, i%50, i%100, i%5000, f.space)
		ses := fmt.Sprintf(`"session":{"sessionId":"tab-%d"}`, i%700)
		return `{"events":[{"type":"page_view",` + loc + `,` + ses + `},{"type":"page_view",` + loc + `,` + ses + `},` +
			`{"type":"search_type_query","query":"query ` + fmt.Sprint(i%300) + `","resultsCount":` + fmt.Sprint(i%7) + `,` + loc + `,` + ses + `},` +
			`{"type":"search_open_result","query":"query ` + fmt.Sprint(i%300) + `","result":{"spaceId":"s","pageId":"p` + fmt.Sprint(i%40) + `"},` + loc + `,` + ses + `},` +
			`{"type":"link_click","link":{"target":{"kind":"url","url":"https://example.com/` + fmt.Sprint(i%60) + `"},"position":"content"},` + loc + `,` + ses + `}]}`
	}
	// The insights' own first writes (the day's salt, its markers) are
	// made before measuring.
	if res := f.send("POST", evt, strings.NewReader(batch(0)), "Content-Type", "application/json"); res.StatusCode != http.StatusNoContent {
		b.Fatalf("events: %d", res.StatusCode)
	}
	// The poster runs throughout and posts on schedule (a late post is
	// sent at once, not dropped) while bursting is on.
	var bursting atomic.Bool
	var posted atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		next := time.Now()
		for i := 1; ; i++ {
			next = next.Add(30 * time.Millisecond)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Until(next)):
			}
			if !bursting.Load() {
				continue
			}
			res := f.send("POST", evt, strings.NewReader(batch(i)), "Content-Type", "application/json", "User-Agent", fmt.Sprintf("visitor-%d", i%500))
			if res.StatusCode != http.StatusNoContent {
				b.Errorf("events: %d", res.StatusCode)
				return
			}
			posted.Add(5)
		}
	}()
	// idle waits until the queue has no job left.
	idle := func() {
		for {
			n := 0
			if err := db.View(func(tx *bolt.Tx) error { n = tx.Bucket([]byte(localqueue.JobsBucket)).Stats().KeyN; return nil }); err != nil {
				b.Fatal(err)
			}
			if n == 0 {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	const burstWindow = 50
	quiet, burst := make([]time.Duration, 0, b.N/2+burstWindow), make([]time.Duration, 0, b.N/2+burstWindow)
	var burstTime time.Duration
	var windowStart time.Time
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		on := (i/burstWindow)%2 == 1
		if i%burstWindow == 0 {
			if bursting.Load() {
				burstTime += time.Since(windowStart)
			}
			bursting.Store(on)
			if !on {
				b.StopTimer()
				idle()
				b.StartTimer()
			}
			windowStart = time.Now()
		}
		start := time.Now()
		res := f.send("GET", leaf, nil)
		_, _ = io.ReadAll(res.Body)
		if on {
			burst = append(burst, time.Since(start))
		} else {
			quiet = append(quiet, time.Since(start))
		}
		if res.StatusCode != http.StatusOK {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
	b.StopTimer()
	if bursting.Load() {
		burstTime += time.Since(windowStart)
	}
	bursting.Store(false)
	stop()
	<-done
	if len(burst) == 0 {
		return // b.N within the first window (the framework's first try)
	}
	pct := func(ds []time.Duration, p int) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)*p/100].Microseconds()) / 1000
	}
	b.ReportMetric(pct(quiet, 50), "quiet-p50-ms")
	b.ReportMetric(pct(quiet, 95), "quiet-p95-ms")
	b.ReportMetric(pct(burst, 50), "burst-p50-ms")
	b.ReportMetric(pct(burst, 95), "burst-p95-ms")
	b.ReportMetric(pct(burst, 95)/pct(quiet, 95), "p95-ratio")
	b.ReportMetric(float64(posted.Load())/burstTime.Minutes(), "events/min")
	// The events posted in all (with a CPU profile, the ingest's CPU time
	// an event: docs/insights.md, "Figures").
	b.ReportMetric(float64(posted.Load()), "events")
}
