package local_test

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/local"
	"github.com/galleydocs/galley/shared/httpapi"
)

// server runs the whole local program on a loopback port until the test ends
// or stop is called.
type server struct {
	url  string
	stop func()
}

func start(t *testing.T, c app.Config) *server {
	t.Helper()
	l, err := local.Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Serve(ctx, ln) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		l.Close()
	}
	t.Cleanup(stop)
	return &server{url: "http://" + ln.Addr().String(), stop: stop}
}

func call(t *testing.T, method, url, token string, body any) (int, map[string]any) {
	t.Helper()
	a := send(t, http.DefaultClient, method, url, token, body)
	if len(a.raw) > 0 && a.body == nil {
		t.Fatalf("%s %s: body is not JSON: %s", method, url, a.raw)
	}
	return a.code, a.body
}

func config(dir, token string) app.Config {
	c, err := app.ConfigFromEnv()
	if err != nil {
		panic(err) // the test process's environment
	}
	c.DataDir, c.BootstrapToken, c.APIURL, c.AppURL = dir, token, "", ""
	c.LogLevel = 8                    // quiet
	c.RateLimit = httpapi.RateLimit{} // ratelimit_test.go tests the default limits
	return c
}

func TestLocalServerKeepsDataAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	s := start(t, config(dir, "t"))
	if code, info := call(t, "GET", s.url+"/v1/", "t", nil); code != 200 || info["version"] != app.Version {
		t.Fatalf("GET /v1/ = %d %v", code, info)
	}
	if code, me := call(t, "GET", s.url+"/v1/user", "t", nil); code != 200 || me["email"] != "admin@localhost" {
		t.Fatalf("GET /v1/user = %d %v", code, me)
	}
	code, org := call(t, "POST", s.url+"/v1/orgs", "t", map[string]any{"title": "Acme"})
	if code != 201 {
		t.Fatalf("POST /v1/orgs = %d %v", code, org)
	}
	orgID := org["id"].(string)
	code, sp := call(t, "POST", s.url+"/v1/orgs/"+orgID+"/spaces", "t", map[string]any{"title": "Handbook"})
	if code != 201 {
		t.Fatalf("POST spaces = %d %v", code, sp)
	}
	if loc := sp["urls"].(map[string]any)["location"]; loc != s.url+"/v1/spaces/"+sp["id"].(string) {
		t.Fatalf("urls.location = %v, want an absolute URL on %s", loc, s.url)
	}
	s.stop()

	// A restart (with another BOOTSTRAP_TOKEN, ignored now) finds everything.
	s = start(t, config(dir, "other"))
	if code, _ := call(t, "GET", s.url+"/v1/user", "other", nil); code != 401 {
		t.Fatalf("a second bootstrap token works: %d", code)
	}
	if code, got := call(t, "GET", s.url+"/v1/orgs/"+orgID, "t", nil); code != 200 || got["title"] != "Acme" {
		t.Fatalf("org after restart = %d %v", code, got)
	}
	if code, got := call(t, "GET", s.url+"/v1/spaces/"+sp["id"].(string), "t", nil); code != 200 || got["title"] != "Handbook" {
		t.Fatalf("space after restart = %d %v", code, got)
	}
}

func TestFirstStartWithoutTokenWritesOne(t *testing.T) {
	dir := t.TempDir()
	s := start(t, config(dir, ""))
	raw, err := os.ReadFile(filepath.Join(dir, "admin-token"))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(raw))
	if code, me := call(t, "GET", s.url+"/v1/user", token, nil); code != 200 || me["email"] != "admin@localhost" {
		t.Fatalf("generated token: %d %v", code, me)
	}
}

func TestOpenAPIDocumentIsServed(t *testing.T) {
	s := start(t, config(t.TempDir(), "t"))
	code, doc := call(t, "GET", s.url+"/v1/openapi.json", "", nil)
	if code != 200 {
		t.Fatalf("GET /v1/openapi.json = %d", code)
	}
	paths := doc["paths"].(map[string]any)
	for _, p := range []string{"/v1/user", "/v1/orgs/{organizationId}/spaces", "/v1/spaces/{spaceId}", "/v1/orgs/{organizationId}/members"} {
		if paths[p] == nil {
			t.Errorf("document lacks %s", p)
		}
	}
	if !strings.HasPrefix(doc["openapi"].(string), "3.") {
		t.Errorf("openapi = %v", doc["openapi"])
	}
}

// In local mode the workers run in-process: an OpenAPI spec created over
// HTTP is processed by the local queue's runner.
func TestLocalModeRunsTheWorkers(t *testing.T) {
	s := start(t, config(t.TempDir(), "t"))
	code, org := call(t, "POST", s.url+"/v1/orgs", "t", map[string]any{"title": "Acme"})
	if code != 201 {
		t.Fatalf("POST /v1/orgs = %d %v", code, org)
	}
	base := s.url + "/v1/orgs/" + org["id"].(string) + "/openapi"
	doc := "openapi: 3.0.3\ninfo: {title: Pets, version: '1'}\npaths:\n  /pets:\n    get:\n      responses:\n        200: {description: ok}\n"
	if code, sp := call(t, "POST", base, "t", map[string]any{"slug": "pets", "source": map[string]any{"text": doc}}); code != 201 {
		t.Fatalf("POST openapi = %d %v", code, sp)
	}
	// The runner works beside the server: wait for it (a generous bound,
	// not a timing assertion).
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, sp := call(t, "GET", base+"/pets", "t", nil)
		if sp["processingState"] == "complete" {
			if sp["lastVersion"] == nil || sp["lastProcessErrorCode"] != nil {
				t.Fatalf("processed spec %v", sp)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the spec was not processed: %v", sp)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
