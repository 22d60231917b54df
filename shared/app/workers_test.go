package app_test

import (
	"slices"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/deps"
)

// Every job kind has one worker, and local mode runs them all.
func TestEveryJobKindHasOneWorker(t *testing.T) {
	seen := map[string]string{}
	for _, w := range app.Workers() {
		for _, k := range w.Kinds {
			if other, dup := seen[k]; dup {
				t.Errorf("job kind %s is run by %s and %s", k, other, w.Name)
			}
			seen[k] = w.Name
		}
		if got := w.Handlers(&deps.Deps{}); len(got) != len(w.Kinds) {
			t.Errorf("%s: %d handlers for %d kinds", w.Name, len(got), len(w.Kinds))
		}
	}
	all := app.JobHandlers(&deps.Deps{})
	for k := range seen {
		if all[k] == nil {
			t.Errorf("local mode has no handler for %s", k)
		}
	}
	for _, want := range []string{"openapi-fetch", "git-import", "git-export"} {
		if seen[want] == "" {
			t.Errorf("no worker runs %s", want)
		}
	}
	kinds := make([]string, 0, len(all))
	for k := range all {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	t.Logf("job kinds: %v", kinds)
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
