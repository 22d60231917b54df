package search_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/search"
)

// benchPages is a space of n pages of about 700 bytes: three sections
// under headings, text drawn from a vocabulary of 300 words.
func benchPages(n int) []page {
	var words []string
	for _, w := range strings.Fields(qualityVocabulary) {
		words = append(words, w, w+"s", w+"ing")
	}
	var pages []page
	for i := 0; i < n; i++ {
		var b strings.Builder
		for s := 0; s < 3; s++ {
			fmt.Fprintf(&b, "## %s %s\n\n", words[(i*7+s*13)%len(words)], words[(i*11+s*5)%len(words)])
			for w := 0; w < 30; w++ {
				b.WriteString(words[(i*31+s*17+w*w*7+w*3)%len(words)])
				b.WriteString(" ")
			}
			b.WriteString("\n\n")
		}
		parent := ""
		if i%50 != 0 {
			parent = fmt.Sprintf("p%05d", i-i%50)
		}
		pages = append(pages, page{ID: fmt.Sprintf("p%05d", i), Parent: parent,
			Title: words[i%len(words)] + " " + words[(i*3+1)%len(words)] + fmt.Sprint(" ", i), Body: b.String()})
	}
	return pages
}

var benchQueries = []string{"deploy", "invoice payments", "configure the webhook", "monitoring", "zone", "secret tokens",
	"release schedule", "Indexing", "cluster nodes", "\"backup policy\""}

func percentile(sorted []time.Duration, p float64) time.Duration {
	return sorted[min(len(sorted)-1, int(float64(len(sorted))*p))]
}

func (f *fixture) searchOnce(tb testing.TB, h http.Handler, query string) time.Duration {
	req := httptest.NewRequest("GET", "/v1/spaces/"+f.docs+"/search?limit=20&query="+q(query), nil)
	req.Header.Set("Authorization", "Bearer "+f.Tokens["read"])
	rec := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(rec, req)
	d := time.Since(start)
	if rec.Code != http.StatusOK {
		tb.Fatalf("%s: %d %s", query, rec.Code, rec.Body)
	}
	return d
}

// cpuTime is the CPU time the process has used (user and system): unlike
// the wall time of a search, it does not count the wait for a core on a
// busy machine.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchSizes are the sizes of the spaces the benchmarks compare, side by
// side in one run (docs/search.md, "Speed").
var benchSizes = []int{5000, 50000}

// BenchmarkSearch measures a space search through the HTTP handler
// (authentication and the permission model included) on spaces of 5,000
// and 50,000 pages (pages=N): the first search of a revision (the index built from the
// pages and stored: build-ms), the first search of the next revision,
// which changed one page (its parent's index updated: update-ms), the
// first search of a cold process (the
// index read from the blob store and opened: cold-ms), and warm searches
// (index open in the process): p50 and p95 over 200 queries, the CPU time
// a warm search costs (warm-cpu-ms: the process's, over those 200 queries),
// and ns/op.
// The space is made once: a benchmark with sub-benchmarks runs once, and
// only "warm" is run again to size b.N.
func BenchmarkSearch(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) { benchSearch(b, n) })
	}
}

func benchSearch(b *testing.B, n int) {
	f := setup(b)
	pages := benchPages(n)
	f.seed(b, f.docs, pages)
	build := f.searchOnce(b, f.API.API.Handler(), "deploy")
	// One page changes: the next revision's index is its parent's, updated.
	pages[n/2].Body += "\nOne more line.\n"
	f.seed(b, f.docs, pages)
	update := f.searchOnce(b, f.API.API.Handler(), "deploy")
	// A cold process: a new service, whose cache is empty.
	f.svc.Close()
	f.restart(b)
	h := f.API.API.Handler()
	cold := f.searchOnce(b, h, "invoice payments")
	var warm []time.Duration
	cpu0 := cpuTime(b)
	for i := 0; i < 200; i++ {
		warm = append(warm, f.searchOnce(b, h, benchQueries[i%len(benchQueries)]))
	}
	cpu := (cpuTime(b) - cpu0) / 200
	sort.Slice(warm, func(i, j int) bool { return warm[i] < warm[j] })
	b.Run("warm", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			f.searchOnce(b, h, benchQueries[i%len(benchQueries)])
		}
		b.ReportMetric(float64(build.Milliseconds()), "build-ms")
		b.ReportMetric(float64(update.Milliseconds()), "update-ms")
		b.ReportMetric(float64(cold.Milliseconds()), "cold-ms")
		b.ReportMetric(float64(percentile(warm, 0.50).Microseconds())/1000, "warm-p50-ms")
		b.ReportMetric(float64(percentile(warm, 0.95).Microseconds())/1000, "warm-p95-ms")
		b.ReportMetric(float64(cpu.Microseconds())/1000, "warm-cpu-ms")
	})
}

// BenchmarkQuery measures the engine alone on the pages of BenchmarkSearch
// (5,000 and 50,000), their index built once (pages=N/query): ranking the pages
// (Pages, 20 a query) and finding their sections (AddSections), the ten
// queries in turn. Single-threaded and without HTTP, its ns/op is the CPU
// a search costs in the index, less sensitive to a busy machine than the
// handler's wall time.
func BenchmarkQuery(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) { benchQuery(b, n) })
	}
}

func benchQuery(b *testing.B, n int) {
	ctx := context.Background()
	var ps []search.Page
	for _, p := range benchPages(n) {
		ps = append(ps, search.Page{ID: p.ID, Title: p.Title, Path: strings.ToLower(p.ID), Body: p.Body})
	}
	dir := filepath.Join(b.TempDir(), "index")
	if err := search.Build(ctx, dir, search.AnalysisDefault, ps); err != nil {
		b.Fatal(err)
	}
	idx, err := search.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	// The index is built once: only "query" is run again to size b.N.
	b.Run("query", func(b *testing.B) {
		runtime.GC()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			text := benchQueries[i%len(benchQueries)]
			hits, err := search.Pages(ctx, idx, text, 0, 20)
			if err != nil {
				b.Fatal(err)
			}
			if err := search.AddSections(ctx, idx, text, hits.Pages); err != nil {
				b.Fatal(err)
			}
		}
	})
}
