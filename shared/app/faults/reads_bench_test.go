package faults_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/testenv/faultproxy"
)

// BenchmarkReadsUnderThrottling reads through the API (a space, the
// organization's spaces, a collection) on DynamoDB Local, fault-free and
// with 10% of DynamoDB calls throttled (ProvisionedThroughputExceeded),
// side by side in one run: each round makes every read once in each mode,
// alternately, so that the machine's load falls on both alike. It reports
// the p95 of each mode and their ratio (issue 30's acceptance: within 3x),
// and the share of 503s; any other answer than 200 or 503, or a 503
// without Retry-After, fails it.
func BenchmarkReadsUnderThrottling(b *testing.B) {
	a, p := apiOn(b, "spaces", "collections")
	c := a.As(b, "admin")
	space := a.Space(b)
	coll := c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+a.Org.ID+"/collections", map[string]any{"title": "Guides"}).Map(b)["id"].(string)
	reads := []string{"/v1/spaces/" + space, "/v1/orgs/" + a.Org.ID + "/spaces", "/v1/collections/" + coll}
	throttle := faultproxy.Rule{Service: faultproxy.DynamoDB, Share: 0.1, Fault: faultproxy.ProvisionedThroughputExceeded}
	var clean, faulted []time.Duration
	unavailable := 0
	read := func(path string) time.Duration {
		start := time.Now()
		res := c.Do("GET", path, nil)
		took := time.Since(start)
		switch {
		case res.Status == http.StatusServiceUnavailable && res.Header.Get("Retry-After") != "":
			unavailable++
		case res.Status != http.StatusOK:
			b.Fatalf("GET %s: %d %s", path, res.Status, res.Body)
		}
		return took
	}
	for b.Loop() {
		for _, path := range reads {
			p.Set()
			clean = append(clean, read(path))
			p.Set(throttle)
			faulted = append(faulted, read(path))
		}
	}
	p.Set()
	p95 := func(d []time.Duration) time.Duration {
		slices.Sort(d)
		return d[(len(d)*95+99)/100-1]
	}
	cp, fp := p95(clean), p95(faulted)
	b.ReportMetric(float64(cp.Microseconds()), "p95-clean-µs")
	b.ReportMetric(float64(fp.Microseconds()), "p95-throttled-µs")
	b.ReportMetric(float64(fp)/float64(cp), "p95-ratio")
	b.ReportMetric(float64(unavailable)/float64(len(faulted)), "503-share")
	b.Logf("%d reads each: p95 %v fault-free, %v under 10%% throttling (%d DynamoDB calls throttled); %d answered 503",
		len(clean), cp, fp, p.Injected(faultproxy.DynamoDB, ""), unavailable)
}
