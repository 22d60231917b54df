package soak_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/testenv/faultproxy"
)

// rigs are the soak's targets, by name.
var rigs = []struct {
	name string
	make func(testing.TB) *rig
}{{"local", localRig}, {"aws", awsRig}, {"lambda", lambdaRig}}

// outcome is what a soak did and found.
type outcome struct {
	violations              []string
	merged, comments, made  int
	heapFirst, heapLast     float64
	rssFirst, rssLast       float64
	procsFirst, procsLast   float64
	kills, killedAnswers    int
	requests, unavailable   int
	injectedDDB, injectedS3 int
	jobs                    jobsOutcome
}

// soakRig runs the soak on a new rig for d and checks its outcome; it
// logs the figures.
func soakRig(tb testing.TB, mk func(testing.TB) *rig, d time.Duration) outcome {
	tb.Helper()
	s := newSoak(tb, mk(tb), 4)
	var mem memory
	start := time.Now()
	s.run(tb, d, &mem)
	if dir := os.Getenv("SOAK_HEAPPROFILE"); dir != "" {
		heapProfile(tb, filepath.Join(dir, s.r.name+".heap"))
	}
	o := outcome{violations: s.check(tb), made: len(s.spacesMade), requests: s.requests, unavailable: s.statuses[503]}
	for _, m := range s.merged {
		o.merged += len(m)
	}
	for _, c := range s.comments {
		o.comments += len(c)
	}
	o.heapFirst, o.heapLast = thirds(mem.heap)
	o.rssFirst, o.rssLast = thirds(mem.rss)
	o.procsFirst, o.procsLast = thirds(mem.procs)
	if s.r.report != nil {
		tb.Logf("%s rig: %s", s.r.name, s.r.report(tb))
	}
	tb.Logf("%s rig: %v", s.r.name, s.jobs)
	o.jobs = s.jobs
	o.kills, o.killedAnswers = s.r.kills, s.killed
	if p := s.r.proxy; p != nil {
		o.injectedDDB, o.injectedS3 = p.Injected(faultproxy.DynamoDB, ""), p.Injected(faultproxy.S3, "")
		tb.Logf("faults injected: %d of %d DynamoDB calls, %d of %d S3 calls", o.injectedDDB, p.Calls(faultproxy.DynamoDB, ""), o.injectedS3, p.Calls(faultproxy.S3, ""))
	}
	var statuses []string
	for st, n := range s.statuses {
		statuses = append(statuses, fmt.Sprintf("%d×%d", st, n))
	}
	slices.Sort(statuses)
	if s.killed > 0 {
		statuses = append(statuses, fmt.Sprintf("500×%d of a killed process", s.killed))
	}
	tb.Logf("%s rig, %v of load (%v with the checks): %d requests (%s); acknowledged: %d pages merged, %d comments, %d spaces; Git jobs %v (%d imports); %d violations",
		s.r.name, d, time.Since(start).Round(time.Second), s.requests, strings.Join(statuses, " "), o.merged, o.comments, o.made, s.gitJobs, s.imports, len(o.violations))
	tb.Logf("memory (mean of the first vs the last third of %d samples): live heap %.1f -> %.1f MiB, RSS %.1f -> %.1f MiB",
		len(mem.heap), o.heapFirst, o.heapLast, o.rssFirst, o.rssLast)
	if len(mem.procs) > 0 {
		tb.Logf("the functions' processes (those running at each sample): RSS %.1f -> %.1f MiB", o.procsFirst, o.procsLast)
	}
	for i, v := range o.violations {
		if i == 20 {
			tb.Logf("... %d more", len(o.violations)-20)
			break
		}
		tb.Logf("violation: %s", v)
	}
	return o
}

// The soak, short (6 s of load a rig; make soak runs it for minutes):
// local mode fault-free, then the families on DynamoDB Local and moto's
// S3 with faults injected, then the functions' processes (Lambda's way,
// behind a loopback API Gateway, SQS delivering the jobs) with the same
// faults and processes SIGKILLed; each under 4 clients reading, authoring,
// merging and commenting, and Git jobs (export, import) one after
// another. Every acknowledged write is found afterwards, no invariant is
// broken (no 500, revisions one per merge and import, comment counters,
// no job stuck or dead-lettered), and the live heap does not grow past
// 1.5× (plus 32 MiB) from the first third of the run to the last.
func TestSoak(t *testing.T) {
	for _, r := range rigs {
		t.Run(r.name, func(t *testing.T) {
			o := soakRig(t, r.make, 6*time.Second)
			if len(o.violations) != 0 {
				t.Errorf("%d violations (logged above)", len(o.violations))
			}
			if o.merged == 0 || o.comments == 0 {
				t.Errorf("the load acknowledged %d merges and %d comments: it did not run", o.merged, o.comments)
			}
			if o.heapLast > 1.5*o.heapFirst+32 {
				t.Errorf("live heap grew from %.1f to %.1f MiB", o.heapFirst, o.heapLast)
			}
		})
	}
}

// BenchmarkSoak is the soak for SOAK_DURATION a rig (default 3m; run it
// with -benchtime=1x, as make soak does), reporting its figures; any
// violation fails it.
func BenchmarkSoak(b *testing.B) {
	for _, r := range rigs {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
				o := soakRig(b, r.make, duration(b, 3*time.Minute))
				if len(o.violations) != 0 {
					b.Fatalf("%d violations (logged above)", len(o.violations))
				}
				b.ReportMetric(float64(o.requests), "requests")
				b.ReportMetric(float64(o.unavailable), "503s")
				b.ReportMetric(float64(o.merged+o.comments+o.made), "acked-writes")
				b.ReportMetric(o.heapFirst, "heap-first-MiB")
				b.ReportMetric(o.heapLast, "heap-last-MiB")
				b.ReportMetric(o.rssFirst, "rss-first-MiB")
				b.ReportMetric(o.rssLast, "rss-last-MiB")
				if o.procsFirst > 0 {
					b.ReportMetric(o.procsFirst, "procs-rss-first-MiB")
					b.ReportMetric(o.procsLast, "procs-rss-last-MiB")
					b.ReportMetric(float64(o.kills), "kills")
				}
			}
		})
	}
}

// heapProfile writes the heap's profile to path (SOAK_HEAPPROFILE: a
// folder; one file a rig, taken after the load, before the checks), for
// go tool pprof -sample_index=inuse_space.
func heapProfile(tb testing.TB, path string) {
	tb.Helper()
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		tb.Fatal(err)
	}
}
