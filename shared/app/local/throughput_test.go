package local_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/local"
	"github.com/galleydocs/galley/shared/httpapi"
)

// loadClients is how many keep-alive clients the load generator runs at once.
const loadClients = 16

// turn is how many requests each server answers before the other's turn:
// short turns spread the noise of other processes evenly over both.
const turn = 500

// BenchmarkLocalGetSpaceVsStatic serves GET /v1/spaces/{id} from the local
// server (the whole middleware stack on bbolt, logging at its default level
// to a file) and the same bytes from a static net/http handler, each on
// loopback, and drives both with the same load generator: loadClients
// goroutines over keep-alive connections, b.N requests per server, the two
// servers taking turns of 500 requests so that noise from other processes
// falls on both alike. It reports each server's requests per second and
// their ratio (galley/static), and the ratio of CPU time per request.
func BenchmarkLocalGetSpaceVsStatic(b *testing.B) {
	dir := b.TempDir()
	// The local server logs to stderr; point it at a file for the run.
	logFile, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		b.Fatal(err)
	}
	defer logFile.Close()
	c, err := app.ConfigFromEnv()
	if err != nil {
		b.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = logFile
	c.DataDir, c.BootstrapToken, c.APIURL, c.AppURL = filepath.Join(dir, "data"), "bench-token", "", ""
	c.RateLimit = httpapi.RateLimit{} // measures the service, not the limiter
	l, err := local.Open(context.Background(), c)
	os.Stderr = stderr
	if err != nil {
		b.Fatal(err)
	}
	galley := serve(b, func(ctx context.Context, ln net.Listener) error { return l.Serve(ctx, ln) })
	b.Cleanup(func() { l.Close() })

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: loadClients, MaxConnsPerHost: loadClients}}
	do := func(method, url string, body string) []byte {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, _ := http.NewRequest(method, url, rd)
		req.Header.Set("Authorization", "Bearer bench-token")
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 300 {
			b.Fatalf("%s %s: %d %s", method, url, res.StatusCode, data)
		}
		return data
	}
	org := jsonField(b, do("POST", galley+"/v1/orgs", `{"title":"Bench"}`), "id")
	space := jsonField(b, do("POST", galley+"/v1/orgs/"+org+"/spaces", `{"title":"Handbook"}`), "id")
	spaceURL := galley + "/v1/spaces/" + space
	body := do("GET", spaceURL, "")

	static := serve(b, func(ctx context.Context, ln net.Listener) error {
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
		}), ReadHeaderTimeout: 10 * time.Second}
		go func() { <-ctx.Done(); srv.Close() }()
		if err := srv.Serve(ln); err != http.ErrServerClosed {
			return err
		}
		return nil
	})

	var galleyWall, staticWall, galleyCPU, staticCPU time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := min(turn, b.N-done)
		w, c := load(b, client, static+"/v1/spaces/"+space, n, len(body))
		staticWall, staticCPU = staticWall+w, staticCPU+c
		w, c = load(b, client, spaceURL, n, len(body))
		galleyWall, galleyCPU = galleyWall+w, galleyCPU+c
		done += n
	}
	b.StopTimer()
	galleyRPS, staticRPS := float64(b.N)/galleyWall.Seconds(), float64(b.N)/staticWall.Seconds()
	b.ReportMetric(galleyRPS, "galley-req/s")
	b.ReportMetric(staticRPS, "static-req/s")
	b.ReportMetric(galleyRPS/staticRPS, "ratio")
	// The same ratio from the CPU time this process spent (servers and load
	// generator), which other processes on the machine disturb less.
	b.ReportMetric(staticCPU.Seconds()/galleyCPU.Seconds(), "cpu-ratio")
	b.ReportMetric(float64(galleyCPU.Microseconds())/float64(b.N), "galley-cpu-µs/req")
	b.ReportMetric(float64(staticCPU.Microseconds())/float64(b.N), "static-cpu-µs/req")
	b.ReportMetric(float64(len(body)), "body-bytes")
}

// load sends n GETs of url from loadClients goroutines and returns how long
// they took and the CPU time the process spent meanwhile; every answer must
// be a 200 of size bytes.
func load(b *testing.B, client *http.Client, url string, n, size int) (time.Duration, time.Duration) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Value
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer bench-token")
	cpu0, start := cpuTime(b), time.Now()
	for g := 0; g < loadClients; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, size+512)
			for next.Add(1) <= int64(n) {
				res, err := client.Do(req)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				got, _ := io.ReadFull(res.Body, buf)
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK || got != size {
					failed.Store(res.Status)
					return
				}
			}
		}()
	}
	wg.Wait()
	d, cpu := time.Since(start), cpuTime(b)-cpu0
	if f := failed.Load(); f != nil {
		b.Fatalf("GET %s: %v", url, f)
	}
	return d, cpu
}

// cpuTime is the user and system time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// serve runs a server on a loopback port until the benchmark ends and
// returns its base URL.
func serve(b *testing.B, run func(context.Context, net.Listener) error) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, ln) }()
	b.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			b.Errorf("serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

func jsonField(b *testing.B, data []byte, name string) string {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		b.Fatalf("%s: %v", data, err)
	}
	v, _ := m[name].(string)
	if v == "" {
		b.Fatalf("no %s in %s", name, data)
	}
	return v
}
