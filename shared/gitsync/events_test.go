package gitsync_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/webhooks"
)

// A Git import's outcome reaches a webhook endpoint on loopback as
// GitBook's space_gitsync_completed, signed: success with the commit and
// the revision made, failure with the error and no commit.
func TestImportOutcomeIsDeliveredToWebhooks(t *testing.T) {
	const whSecret = "whsec-events-0123456789"
	f := setupOn(t, testkit.New(t), "git", "orgs")
	var mu sync.Mutex
	var got []map[string]any
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		if err := webhooks.Verify(whSecret, r.Header.Get(webhooks.SignatureHeader), raw, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), time.Hour); err != nil {
			t.Errorf("signature: %v", err)
		}
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		mu.Lock()
		got = append(got, body)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rcv.Close)
	f.As(t, "admin").Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/webhooks",
		map[string]any{"url": rcv.URL, "secret": whSecret, "events": []string{webhooks.SpaceGitSyncCompleted}})
	f.git.repo(t, "docs", syncRepo)
	sp := f.space(t)
	run := func(ref string) map[string]any {
		t.Helper()
		f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/import", map[string]any{"url": f.git.url("docs"), "ref": ref})
		if err := f.queue.Drain(t.Context(), families.JobHandlers(f.Root)); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(got) != 1 {
			t.Fatalf("%d deliveries, want one: %v", len(got), got)
		}
		e := got[0]
		got = nil
		if e["type"] != webhooks.SpaceGitSyncCompleted || e["spaceId"] != sp || e["direction"] != "import" {
			t.Errorf("event %v", e)
		}
		return e
	}
	ok := run("refs/heads/main")
	if commit, _ := ok["commitId"].(string); ok["state"] != "success" || len(commit) != 40 || ok["revisionId"] == "" || ok["error"] != nil {
		t.Errorf("success: %v", ok)
	}
	if rev := f.spaceRecord(t, sp).Revision; ok["revisionId"] != rev {
		t.Errorf("success names revision %v, the space is at %s", ok["revisionId"], rev)
	}
	bad := run("refs/heads/gone")
	if msg, _ := bad["error"].(string); bad["state"] != "failure" || msg == "" || bad["commitId"] != "" {
		t.Errorf("failure: %v", bad)
	}
}
