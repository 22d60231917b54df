package infra_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/testenv/lambdarun"
)

// BenchmarkFunctionBinaries reports the size of each function's binary as
// `sam build` builds it (the Makefile's flags, linux/arm64), beside the
// hello-world aws-lambda-go function built the same way, and their median
// and largest (docs/functions.md: median <= 15 MB, none > 25 MB).
func BenchmarkFunctionBinaries(b *testing.B) {
	dir := b.TempDir()
	pkgs := []string{"../infra/hellolambda"}
	for _, n := range lambdarun.FunctionNames() {
		pkgs = append(pkgs, "../functions/"+n)
	}
	buildFunctions(b, dir, "linux", "arm64", pkgs...)
	size := func(name string) float64 {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		return float64(fi.Size()) / 1e6
	}
	var sizes []float64
	for _, n := range append([]string{"hellolambda"}, lambdarun.FunctionNames()...) {
		mb := size(n)
		if n != "hellolambda" {
			sizes = append(sizes, mb)
		}
		b.Run(n, func(b *testing.B) {
			for b.Loop() {
			}
			b.ReportMetric(mb, "MB")
		})
	}
	slices.Sort(sizes)
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
		}
		b.ReportMetric(median(sizes), "median-MB")
		b.ReportMetric(sizes[len(sizes)-1], "max-MB")
	})
}

// BenchmarkFunctionInit measures each function's init as Lambda sees it:
// from process start to its first call of the Runtime API's
// invocation/next, over DynamoDB Local, with the hello-world function
// started alternately in the same loop as the baseline. It reports the
// medians and their ratio (docs/functions.md: <= 3x hello world for the
// API functions).
func BenchmarkFunctionInit(b *testing.B) {
	dir := binaries(b)
	endpoint, table := functionTable(b)
	start := func(b *testing.B, name string) time.Duration {
		rt := newRuntimeAPI(b, nil)
		began := time.Now()
		stop, logs := startFunction(b, filepath.Join(dir, name), rt, endpoint, table)
		defer stop()
		select {
		case at := <-rt.firstNext:
			return at.Sub(began)
		case <-time.After(30 * time.Second):
			b.Fatalf("%s did not ask for an invocation within 30 s; logs:\n%s", name, logs)
		}
		return 0
	}
	// The 3x budget is the API functions' (a request waits for their
	// init); a worker's cold start delays a queued job, which nobody waits
	// on (docs/dependencies.md), so workers are reported apart.
	var worstAPI, worstWorker float64
	for _, n := range lambdarun.FunctionNames() {
		b.Run(n, func(b *testing.B) {
			var fn, hello []float64
			for b.Loop() {
				hello = append(hello, float64(start(b, "hellolambda"))/1e6)
				fn = append(fn, float64(start(b, n))/1e6)
			}
			ratio := median(fn) / median(hello)
			if _, worker := families.WorkerHandlers()[n]; worker {
				worstWorker = max(worstWorker, ratio)
			} else {
				worstAPI = max(worstAPI, ratio)
			}
			b.ReportMetric(median(fn), "ms-init")
			b.ReportMetric(median(hello), "ms-hello")
			b.ReportMetric(ratio, "x-hello")
		})
	}
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
		}
		b.ReportMetric(worstAPI, "worst-api-x-hello")
		b.ReportMetric(worstWorker, "worst-worker-x-hello")
	})
}

// median of xs (sorted or not).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
