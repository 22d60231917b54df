package content_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app/wire/contentpdfwire"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/contentpdf"
	"github.com/galleydocs/galley/shared/testkit"
)

// bigSpace is a space of many pages, seeded with direct writes (thousands
// of HTTP calls would make the benchmarks take minutes).
type bigSpace struct {
	api     *testkit.API
	space   string
	svc     *content.Service
	ctx     context.Context // the space admin's
	src     content.At
	leaf    string // a page without children, in a middle section
	section string // the middle section's top page
	path    string // the leaf's path
	file    string
}

// seedBigSpace makes a space whose head has n pages in sections of 100 (a
// top-level page with 99 children), each body ~700 bytes with a link to
// the next sibling and an image, and 50 files.
func seedBigSpace(tb testing.TB, n int) *bigSpace {
	tb.Helper()
	a := testkit.NewAPI(tb, testkit.New(tb), []string{"content"})
	sp, k := a.Space(tb), a.Kit
	repo := content.NewRepo(k.Deps)
	// The sections share their bodies (page i of each the same).
	bodies := map[int]string{}
	tree := testkit.NewBigTree(n, func(_, i int) string {
		if bodies[i] == "" {
			body := fmt.Sprintf("Body of page %d. See [the next page](./page-%d.md) and ![a picture](/files/f%03d).\n\n%s",
				i, i+1, i%50, strings.Repeat("A line of documentation text.\n", 20))
			h, err := repo.PutDocument(k.Ctx, sp, body)
			if err != nil {
				tb.Fatal(err)
			}
			bodies[i] = h
		}
		return bodies[i]
	})
	var files []content.File
	for i := 0; i < 50; i++ {
		files = append(files, content.File{ID: fmt.Sprintf("f%03d", i), Name: fmt.Sprintf("picture-%d.png", i), ContentType: "image/png",
			Size: 1000, Width: 10, Height: 10, Blob: content.Hash([]byte{byte(i)})})
	}
	k.Land(tb, sp, &content.Tree{Pages: tree.Pages, Files: files}, nil)
	return &bigSpace{api: a, space: sp, svc: contentwire.Service(a.Root), ctx: a.Ctx("admin"), src: content.At{SpaceID: sp}, leaf: tree.Leaf, section: tree.Section,
		path: tree.LeafPath, file: "f025"}
}

// benchSizes are the sizes of the spaces the read benchmarks compare, side
// by side in one run (pages=5000 and pages=50000; docs/content.md,
// "Performance"). Benchmarks do not run in `go test`.
var benchSizes = []int{5000, 50000}

// BenchmarkReads measures the content reads of one page, one file and the
// page tree on spaces of 5,000 and 50,000 pages, at the service level
// (with its reading right's check; the handlers add authentication). The
// page tree also reports the bytes of its JSON answer (answer-bytes), the
// bytes a read allocates per byte of answer (alloc/answer), and the time
// of the revision's first read (first-ms, before its rendered tree is
// kept); page_tree_http is the API's read through its handler
// (authentication, the read, the answer written; the writer keeps no
// byte), with the same two ratios.
func BenchmarkReads(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) { benchReads(b, seedBigSpace(b, n)) })
	}
}

func benchReads(b *testing.B, bs *bigSpace) {
	ctx := bs.ctx
	// The revision's first tree read: before any sub-benchmark (each runs
	// several times, to size b.N).
	start := time.Now()
	tree, err := bs.svc.Pages(ctx, bs.src, true)
	if err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	handler := bs.api.API.Handler()
	answered := 0 // the bytes of page_tree_http's last answer
	reads := []struct {
		name string
		read func() error
	}{
		{"page_as_markdown", func() error {
			_, err := bs.svc.Page(ctx, bs.src, bs.leaf, content.FormatMarkdown, true)
			return err
		}},
		{"page_as_document", func() error {
			_, err := bs.svc.Page(ctx, bs.src, bs.leaf, content.FormatDocument, true)
			return err
		}},
		{"section_as_markdown", func() error {
			// A page with 99 children: the read grows with the page.
			_, err := bs.svc.Page(ctx, bs.src, bs.section, content.FormatMarkdown, true)
			return err
		}},
		{"page_by_path", func() error {
			_, err := bs.svc.PageByPath(ctx, bs.src, bs.path, content.FormatDocument, true)
			return err
		}},
		{"file", func() error {
			_, err := bs.svc.File(ctx, bs.src, bs.file, true)
			return err
		}},
		{"page_tree", func() (err error) {
			tree, err = bs.svc.Pages(ctx, bs.src, true)
			return err
		}},
		{"page_tree_http", func() error {
			req := httptest.NewRequest("GET", "/v1/spaces/"+bs.space+"/content/pages", nil)
			req.Header.Set("Authorization", "Bearer "+bs.api.Tokens["admin"])
			w := &countingWriter{h: http.Header{}}
			handler.ServeHTTP(w, req)
			if w.status != http.StatusOK {
				return fmt.Errorf("status %d", w.status)
			}
			answered = w.n
			return nil
		}},
	}
	for _, r := range reads {
		b.Run(r.name, func(b *testing.B) {
			// The first read of a revision may build what later reads use.
			if err := r.read(); err != nil {
				b.Fatal(err)
			}
			var answer int
			switch r.name {
			case "page_tree":
				raw, err := json.Marshal(map[string]any{"pages": tree})
				if err != nil {
					b.Fatal(err)
				}
				answer = len(raw)
			case "page_tree_http":
				answer = answered
			}
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := r.read(); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&m1)
			if answer > 0 {
				b.ReportMetric(float64(answer), "answer-bytes")
				b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N)/float64(answer), "alloc/answer")
				if r.name == "page_tree" {
					b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
				}
			}
		})
	}
}

// countingWriter is a ResponseWriter that counts the body's bytes and
// keeps none of them.
type countingWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *countingWriter) Header() http.Header { return w.h }

func (w *countingWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *countingWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.n += len(b)
	return len(b), nil
}

// pdfPageBody is a page of sections of ~1.1 KB (4 sections: ~4.6 KB, the
// mean page of the sodadata fixture, 457 pages in 2.08 MB): headings,
// paragraphs with marks, lists, code blocks, a table, a hint, an include
// and two expressions.
func pdfPageBody(i, sections int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Page %d of <code class=\"expression\">space.vars.product</code> <code class=\"expression\">space.vars.version</code>.\n\n", i)
	for s := 0; s < sections; s++ {
		fmt.Fprintf(&b, "## Section %d\n\n", s)
		b.WriteString(strings.Repeat("A paragraph of documentation with **bold**, *italic* and `code` words that wraps over lines. ", 4) + "\n\n")
		b.WriteString("- first item of the list\n- second item\n  - a nested item\n- third item\n\n")
		b.WriteString("```yaml\ndata_source:\n  type: postgres\n  host: localhost\n  port: 5432\n```\n\n")
	}
	b.WriteString("| Name | Value |\n| ---- | ----- |\n| one | 1 |\n| two | 2 |\n\n")
	b.WriteString("{% hint style=\"info\" %}\nA hint with some words in it.\n{% endhint %}\n\n")
	b.WriteString("{% include \".gitbook/includes/banner.md\" %}\n")
	return b.String()
}

// cpuTime is the process's user and system CPU time.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// watchHeap samples the heap's objects every millisecond until the
// returned function is called, which answers the largest sample.
func watchHeap() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		var peak uint64
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-stop:
				done <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 { close(stop); return <-done }
}

// noPDFCache is a blob store that finds no stored PDF, so that each
// request renders one; it keeps the size of the last PDF put.
type noPDFCache struct {
	blob.Store
	size *int
}

func (s noPDFCache) Put(ctx context.Context, key string, data []byte, contentType string) error {
	if strings.Contains(key, "/pdf/") {
		*s.size = len(data)
	}
	return s.Store.Put(ctx, key, data, contentType)
}

func (s noPDFCache) Get(ctx context.Context, key string) ([]byte, error) {
	if strings.Contains(key, "/pdf/") {
		return nil, blob.ErrNotFound
	}
	return s.Store.Get(ctx, key)
}

// BenchmarkSpacePDF measures a whole space's PDF (made afresh each time:
// read the tree and the bodies, resolve, render, store) on 100 and 500
// pages of ~4.6 KB (docs/content.md, "PDF export": the limits). pdf-bytes
// is the PDF's size.
func BenchmarkSpacePDF(b *testing.B) {
	for _, c := range []struct {
		n, sections int // pages, and sections of ~1.1 KB per page body
	}{{100, 4}, {500, 4}, {500, 8}} {
		n := c.n
		b.Run(fmt.Sprintf("%d_pages_%dKB", n, c.sections*1100/1000+1), func(b *testing.B) {
			a := testkit.NewAPI(b, testkit.New(b), []string{"content"})
			sp, k := a.Space(b), a.Kit
			repo := content.NewRepo(k.Deps)
			inc, err := repo.PutDocument(k.Ctx, sp, "Included words of <code class=\"expression\">space.vars.product</code>.\n")
			if err != nil {
				b.Fatal(err)
			}
			// Every page a body of its own (as in a real space).
			tree := testkit.NewBigTree(n, func(s, i int) string {
				h, err := repo.PutDocument(k.Ctx, sp, pdfPageBody(s*100+i, c.sections))
				if err != nil {
					b.Fatal(err)
				}
				return h
			})
			k.Land(b, sp, &content.Tree{Pages: tree.Pages, Variables: content.Variables{"product": "Soda", "version": "3.1"},
				ReusableContents: []content.ReusableContent{{ID: "banner", Title: "Banner", Document: inc,
					Git: &content.GitBlob{OID: "0123456789abcdef0123456789abcdef01234567", Path: ".gitbook/includes/banner.md"}}}}, nil)
			var size int
			k.Deps.Blobs = noPDFCache{Store: k.Deps.Blobs, size: &size}
			svc := contentpdfwire.Service(a.Root)
			ctx := a.Ctx("admin")
			runtime.GC()
			peak := watchHeap()
			b.ResetTimer()
			before := cpuTime(b)
			for i := 0; i < b.N; i++ {
				if _, err := svc.Space(ctx, sp, contentpdf.Pick{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(size), "pdf-bytes")
			// The process's CPU time: on a shared machine the wall time
			// also counts the waits for a core.
			b.ReportMetric(float64((cpuTime(b)-before).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(peak()>>20), "peak-heap-MB")
		})
	}
}
