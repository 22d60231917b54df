package readerhttp_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/testkit"
)

// BenchmarkCDNReplay replays a month of page views of one 1,000-page
// public site against the CDN's rules (docs/reader.md, "CDN") and reports
// what reaches the reader function: its invocations and DynamoDB requests
// per 1,000,000 page views, with and without the CDN.
//
// The CDN is modelled as CloudFront applies the cache policy of
// template.yaml to the reader's own answers: the cache key is the path
// (these views carry no query, cookie or proxy host); an answer is stored
// for its s-maxage and served a further stale-while-revalidate while one
// background request revalidates it (If-None-Match: a 304 keeps it); an
// expired copy is revalidated by the viewer's request; private and
// no-store answers are never stored. Each distinct answer is asked of the
// real reader once (its headers, its DynamoDB requests, and those of its
// 304); the replay then counts, so a month replays in seconds.
//
// The traffic is a model, stated: page popularity is Zipf with exponent 1
// (documentation traffic is concentrated on a few pages), views arrive as
// a Poisson process at the month's rate, spread evenly over 3 independent
// regional edge caches (CloudFront's caches are per region; Origin Shield
// off), and 10 publications a day each invalidate the whole site. Browser
// caches are left out on both sides (they save as much with and without).
func BenchmarkCDNReplay(b *testing.B) {
	cs := &testkit.CountingStore{Store: testkit.BoltStore(b)}
	f, _ := bigSiteOn(b, newFixtureOn(b, testkit.NewOn(b, cs)), 1000)
	var paths []string
	for s := 0; s < 10; s++ {
		if s == 0 {
			paths = append(paths, f.base+"/")
		} else {
			paths = append(paths, fmt.Sprintf("%s/section-%d", f.base, s))
		}
		for i := 1; i < 100; i++ {
			paths = append(paths, fmt.Sprintf("%s/section-%d/page-%d", f.base, s, i))
		}
	}
	origin := measureOrigin(b, f, cs, paths)
	if v := os.Getenv("CDN_REPLAY_SMAXAGE"); v != "" {
		// Another lifetime than the reader's, to compare (docs/reader.md).
		n, _ := strconv.Atoi(v)
		origin.sMaxAge = time.Duration(n) * time.Second
	}
	for _, monthly := range []int{100_000, 1_000_000, 10_000_000} {
		b.Run(fmt.Sprintf("views=%d", monthly), func(b *testing.B) {
			var r replayResult
			for range b.N {
				r = replay(paths, origin, monthly, 3, 10)
			}
			per := 1e6 / float64(r.views)
			b.ReportMetric(100*float64(r.hits)/float64(r.views), "hit-%")
			b.ReportMetric(per*float64(r.misses+r.revalidations), "invocations/1M")
			b.ReportMetric(per*(float64(r.misses)*origin.reads200+float64(r.revalidations)*origin.reads304), "dynamodb/1M")
			b.ReportMetric(origin.reads200*1e6, "dynamodb/1M-nocdn")
			b.ReportMetric(per*float64(r.revalidations), "revalidations/1M")
			b.ReportMetric(origin.reads200, "dynamodb/render")
			b.ReportMetric(origin.reads304, "dynamodb/304")
		})
	}
}

// originFigures are the reader's answers to the replay's paths.
type originFigures struct {
	sMaxAge, swr time.Duration
	stored       bool
	// reads200 and reads304 are the DynamoDB requests of a page's render
	// and of its revalidation (304), averaged over the paths.
	reads200, reads304 float64
}

// measureOrigin asks the reader each path, then each again with its ETag,
// counting the store's read requests; the answers' Cache-Control must be
// the same for all (they are the replay's rules).
func measureOrigin(b *testing.B, f *fixture, cs *testkit.CountingStore, paths []string) originFigures {
	var o originFigures
	cc := ""
	for _, p := range paths {
		cs.Reset()
		res := f.get(b, p)
		_, _ = io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d", p, res.StatusCode)
		}
		o.reads200 += float64(cs.Reads())
		if cc == "" {
			cc = res.Header.Get("Cache-Control")
		} else if cc != res.Header.Get("Cache-Control") {
			b.Fatalf("%s: Cache-Control %q, others %q", p, res.Header.Get("Cache-Control"), cc)
		}
		cs.Reset()
		if again := f.get(b, p, "If-None-Match", res.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
			b.Fatalf("revalidating %s: %d", p, again.StatusCode)
		}
		o.reads304 += float64(cs.Reads())
	}
	o.reads200 /= float64(len(paths))
	o.reads304 /= float64(len(paths))
	o.sMaxAge, o.swr, o.stored = cacheRules(cc)
	if !o.stored || o.sMaxAge == 0 {
		b.Fatalf("public pages are not stored by a CDN: %q", cc)
	}
	return o
}

// cacheRules reads what a shared cache does with an answer of this
// Cache-Control: how long it is fresh (s-maxage, else max-age), how long
// it may be served stale while revalidated, and whether it is stored.
func cacheRules(cc string) (fresh, swr time.Duration, stored bool) {
	stored = true
	maxAge := time.Duration(-1)
	for _, d := range strings.Split(cc, ",") {
		name, val, _ := strings.Cut(strings.TrimSpace(d), "=")
		n, _ := strconv.Atoi(val)
		switch strings.ToLower(name) {
		case "private", "no-store":
			stored = false
		case "s-maxage":
			fresh = time.Duration(n) * time.Second
		case "max-age":
			maxAge = time.Duration(n) * time.Second
		case "stale-while-revalidate":
			swr = time.Duration(n) * time.Second
		}
	}
	if fresh == 0 && maxAge > 0 {
		fresh = maxAge
	}
	return fresh, swr, stored
}

// replayResult counts a replay's page views: answered from a copy (hits,
// fresh or within stale-while-revalidate), by the reader (misses, 200s),
// and the reader's revalidations (304s: an expired copy's, or in the
// background of a stale hit).
type replayResult struct {
	views, hits, misses, revalidations int
}

// revalidate counts a revalidation of a copy stored at stored: a 304,
// unless the page's ETag changed meanwhile. It changes every hour (it
// hashes the window of the page's signed file links, content.DownloadTTL):
// then the reader renders the page again (a 200, counted with the misses).
func (r *replayResult) revalidate(stored, now time.Time) {
	if stored.Truncate(content.DownloadTTL) != now.Truncate(content.DownloadTTL) {
		r.misses++
		return
	}
	r.revalidations++
}

// replay runs a month of monthly page views over paths at Zipf(1)
// popularity on caches independent edge caches, with publications a day
// invalidating every copy; deterministic (a fixed seed).
func replay(paths []string, o originFigures, monthly, caches, publications int) replayResult {
	rng := rand.New(rand.NewPCG(29, 5))
	cdf := make([]float64, len(paths))
	sum := 0.0
	for k := range paths {
		sum += 1 / float64(k+1)
		cdf[k] = sum
	}
	month := 30 * 24 * time.Hour
	rate := float64(monthly) / month.Seconds() // views a second
	every := 24 * time.Hour / time.Duration(publications)
	type copyOf struct{ stored time.Time }
	edges := make([]map[int]copyOf, caches)
	for i := range edges {
		edges[i] = map[int]copyOf{}
	}
	var r replayResult
	var now time.Time
	nextPublication := every
	for r.views < monthly {
		now = now.Add(time.Duration(rng.ExpFloat64() / rate * float64(time.Second)))
		for now.Sub(time.Time{}) >= nextPublication {
			for i := range edges {
				clear(edges[i])
			}
			nextPublication += every
		}
		page := sort.SearchFloat64s(cdf, rng.Float64()*sum)
		edge := edges[rng.IntN(caches)]
		r.views++
		c, ok := edge[page]
		age := now.Sub(c.stored)
		switch {
		case ok && age < o.sMaxAge:
			r.hits++
		case ok && age < o.sMaxAge+o.swr:
			// Served stale; one background request revalidates it.
			r.hits++
			r.revalidate(c.stored, now)
			edge[page] = copyOf{stored: now}
		case ok:
			// Expired: the viewer's request revalidates it.
			r.revalidate(c.stored, now)
			edge[page] = copyOf{stored: now}
		default:
			r.misses++
			edge[page] = copyOf{stored: now}
		}
	}
	return r
}
