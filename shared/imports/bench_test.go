package imports_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/imports"
)

// zipOfPages is a zip of n markdown pages of about 700 bytes, in folders
// of 100 (each with a README), as a documentation export would be.
func zipOfPages(tb testing.TB, n int) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	words := strings.Fields("deploy invoice payment webhook configure token secret cluster node backup policy release schedule monitor alert index")
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("docs/s%03d/p%05d.md", i/100, i)
		if i%100 == 0 {
			name = fmt.Sprintf("docs/s%03d/README.md", i/100)
		}
		w, err := zw.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		fmt.Fprintf(w, "# Page %d\n\n", i)
		for s := 0; s < 3; s++ {
			fmt.Fprintf(w, "## %s %d\n\n", words[(i+s)%len(words)], s)
			for k := 0; k < 25; k++ {
				w.Write([]byte(words[(i*7+s*3+k*k)%len(words)] + " "))
			}
			w.Write([]byte("\n\n"))
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkZipImport imports a zip of markdown pages through the API (the
// request that answers with the new revision), 2,000, 5,000 and 10,000
// pages (MaxArchivePages) side by side: the time of the request (ms-total,
// and per page), the process's heap after it. The import answers within
// the request, so in AWS API Gateway's 29 seconds bound it (docs/workers.md,
// "Content import").
func BenchmarkZipImport(b *testing.B) {
	for _, n := range []int{2000, 5000, imports.MaxArchivePages} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			archive := zipOfPages(b, n)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(archive) }))
			defer srv.Close()
			var total time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				f := setup(b)
				b.StartTimer()
				start := time.Now()
				res := f.As(b, "edit").Expect(http.StatusCreated, "POST", "/v1/spaces/"+f.space+"/content/import",
					map[string]any{"url": srv.URL + "/docs.zip", "source": "zip"}).Map(b)
				total += time.Since(start)
				if got := res["importedResources"]; got != float64(n) {
					b.Fatalf("imported %v of %d pages: %v", got, n, res)
				}
			}
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			per := total / time.Duration(b.N)
			b.ReportMetric(float64(per.Milliseconds()), "ms-total")
			b.ReportMetric(float64(per.Microseconds())/1000/float64(n), "ms-per-page")
			b.ReportMetric(float64(m.HeapAlloc)/(1<<20), "heap-MiB")
			b.ReportMetric(float64(len(archive))/(1<<20), "zip-MiB")
		})
	}
}
