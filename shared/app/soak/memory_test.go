package soak_test

import (
	"bufio"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// memory samples the process's live heap (runtime/metrics, as of the
// last collection) and resident set (/proc/self/status) during a run.
type memory struct {
	heap, rss []float64 // MiB
	// procs is the rig's own processes' resident set (the lambda rig's
	// functions), when it has some.
	procs []float64
}

const mib = 1 << 20

// sample takes a sample every 250 ms until until; procs, when not nil,
// is the resident set of the rig's processes.
func (m *memory) sample(until time.Time, procs func() float64) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	for time.Now().Before(until) {
		metrics.Read(s)
		m.heap = append(m.heap, float64(s[0].Value.Uint64())/mib)
		m.rss = append(m.rss, rssOf("/proc/self/status"))
		if procs != nil {
			m.procs = append(m.procs, procs())
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// rssOf is the resident set in MiB of the process whose /proc status
// file is path (0 where it is missing: an ended process, no /proc).
func rssOf(path string) float64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}

// thirds is the mean of the first and of the last third of v.
func thirds(v []float64) (first, last float64) {
	n := len(v) / 3
	if n == 0 {
		return 0, 0
	}
	mean := func(w []float64) float64 {
		sum := 0.0
		for _, x := range w {
			sum += x
		}
		return sum / float64(len(w))
	}
	return mean(v[:n]), mean(v[len(v)-n:])
}
