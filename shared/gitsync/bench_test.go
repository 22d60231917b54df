package gitsync_test

import (
	"fmt"
	"net/http"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/gitsync"
)

// BenchmarkGitRoundTrip500Pages imports a repository of 500 pages (50
// folders of 10) served by git http-backend on loopback, exports the space
// to an empty repository, and imports that into a second space; it
// reports the time of each step.
func BenchmarkGitRoundTrip500Pages(b *testing.B) {
	files := map[string]string{}
	for d := 0; d < 50; d++ {
		files[fmt.Sprintf("part-%02d/README.md", d)] = fmt.Sprintf("# Part %d\n\nOverview.\n", d)
		for p := 0; p < 9; p++ {
			files[fmt.Sprintf("part-%02d/page-%d.md", d, p)] = fmt.Sprintf("---\ndescription: Page %d of part %d\n---\n\n# Page %d.%d\n\n%s\nSee [the overview](README.md).\n",
				p, d, d, p, strings.Repeat("Some words of documentation. ", 40))
		}
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f := setup(b)
		f.git.repo(b, "big", files)
		f.git.repo(b, "copy", nil)
		sp1, sp2 := f.space(b), f.space(b)
		b.StartTimer()
		start := time.Now()
		f.importRepo(b, sp1, "big", nil)
		imp := time.Since(start)
		start = time.Now()
		f.exportTo(b, sp1, "copy", "export 500 pages", nil)
		exp := time.Since(start)
		start = time.Now()
		f.importRepo(b, sp2, "copy", nil)
		b.StopTimer()
		if _, pages, _ := f.head(b, sp2); len(pages) != 500 {
			b.Fatalf("%d pages after the round trip", len(pages))
		}
		b.StartTimer()
		imp2 := time.Since(start)
		b.ReportMetric(float64(imp.Milliseconds()), "import-ms")
		b.ReportMetric(float64(exp.Milliseconds()), "export-ms")
		b.ReportMetric(float64(imp2.Milliseconds()), "reimport-ms")
	}
}

// BenchmarkMergeToPushedCommitGitBookDocs measures, on GitBook's product
// documentation (fixture gitbook-docs, 195 pages, 594 files) served on
// loopback, the time from the merge of a change request editing one page
// to the export's commit pushed (the merge, the queued job run: fetch,
// tree, commit, push).
func BenchmarkMergeToPushedCommitGitBookDocs(b *testing.B) {
	bundle := fixtureBundle(b, "gitbook-docs")
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f := setup(b)
		bare := f.git.fromBundle(b, "repo", bundle)
		sp := f.space(b)
		f.importRepo(b, sp, "repo", nil)
		f.syncBoth(b, sp, "")
		cr := f.propose(b, sp, "admin", "One page", appendTo("README.md", "\nMerged.\n"))
		head0 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
		b.StartTimer()
		f.merge(b, sp, "admin", cr.ID)
		f.work(b)
		b.StopTimer()
		if head := strings.TrimSpace(gitOK(bare, "rev-parse", "main")); head == head0 {
			b.Fatal("nothing pushed")
		}
	}
}

// BenchmarkWebhookToUpdatedSpace measures, on GitBook's documentation
// (the gitbook-docs fixture, 195 pages), the time from a signed GitHub
// push webhook to the space updated: the request, then the one import
// job it queued.
func BenchmarkWebhookToUpdatedSpace(b *testing.B) {
	f := setup(b)
	f.git.fromBundle(b, "docs", fixtureBundle(b, "gitbook-docs"))
	sp := f.space(b)
	f.As(b, "admin").Expect(http.StatusOK, "PUT", "/v1/spaces/"+sp+"/git/settings", map[string]any{"url": f.git.url("docs"),
		"branch": "refs/heads/main", "direction": "both", "enabled": true, "webhookSecret": hookSecret})
	f.work(b)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		text := fmt.Sprintf("# Commits\n\nPushed change %d.\n", i)
		after := f.git.commit(b, "docs", "Change the commits page", map[string]string{"docs-as-code/git-sync/commits.md": text})
		body := githubPush("refs/heads/main", strings.Repeat("0", 40), after)
		b.StartTimer()
		f.With(b, "").Expect(http.StatusAccepted, "POST", "/v1/spaces/"+sp+"/git/webhook", body, "X-GitHub-Event", "push",
			"X-GitHub-Delivery", fmt.Sprintf("bench-%d", i), "X-Hub-Signature-256", "sha256="+sign(hookSecret, body))
		f.work(b)
		b.StopTimer()
		st := f.info(b, sp)["galleySync"].(map[string]any)["lastImport"].(map[string]any)
		if st["commit"] != after || st["state"] != "success" {
			b.Fatalf("after the webhook: %v", st)
		}
		b.StartTimer()
	}
}

// BenchmarkGitImport imports a generated repository (pages=N: folders of
// 100, a README.md and 99 pages of ~1.3 KB) served by git http-backend on
// loopback into a new space: the request and its queued job. The
// repository is made once for each size; import-ms is the median import's
// time (-benchtime 3x: of 3), per-page-us its time per page, cpu-ms the
// median CPU time the process used (user and system: the import, and the
// loopback Git server's Go side), peak-heap-MB the most heap the process
// held during an import (runtime/metrics, sampled every 5 ms) less what
// it held before.
func BenchmarkGitImport(b *testing.B) {
	for _, n := range []int{5000, gitsync.MaxPages} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			files := map[string]string{}
			for d := 0; d < n/100; d++ {
				files[fmt.Sprintf("part-%03d/README.md", d)] = fmt.Sprintf("# Part %d\n\nOverview.\n", d)
				for p := 0; p < 99; p++ {
					files[fmt.Sprintf("part-%03d/page-%d.md", d, p)] = fmt.Sprintf("---\ndescription: Page %d of part %d\n---\n\n# Page %d.%d\n\n%s\nSee [the overview](README.md).\n",
						p, d, d, p, strings.Repeat("Some words of documentation. ", 40))
				}
			}
			f := setup(b)
			f.git.repo(b, "big", files)
			var imps, cpus []time.Duration
			var peak uint64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				sp := f.space(b)
				runtime.GC()
				stop := sampleHeap()
				cpu0 := processCPU(b)
				b.StartTimer()
				start := time.Now()
				f.importRepo(b, sp, "big", nil)
				imps = append(imps, time.Since(start))
				b.StopTimer()
				cpus = append(cpus, processCPU(b)-cpu0)
				peak = max(peak, stop())
				if _, pages, _ := f.head(b, sp); len(pages) != n {
					b.Fatalf("%d pages imported", len(pages))
				}
				b.StartTimer()
			}
			imp, cpu := median(imps), median(cpus)
			b.ReportMetric(float64(imp.Milliseconds()), "import-ms")
			b.ReportMetric(float64(imp.Microseconds())/float64(n), "per-page-us")
			b.ReportMetric(float64(cpu.Milliseconds()), "cpu-ms")
			b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-per-page-us")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// sampleHeap samples the heap's live and unswept objects' bytes until
// the function it answers is called, which answers their most less the
// first sample.
func sampleHeap() func() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(s); return s[0].Value.Uint64() }
	base := read()
	done, out := make(chan struct{}), make(chan uint64)
	go func() {
		most := base
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				out <- most - base
				return
			case <-t.C:
				most = max(most, read())
			}
		}
	}()
	return func() uint64 { close(done); return <-out }
}

// processCPU is the process's user and system CPU time so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// median is the middle of durations (the upper one of an even count).
func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}
