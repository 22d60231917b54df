package events_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	lambdaevents "github.com/aws/aws-lambda-go/events"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/deps"
	gkeys "github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// workerExpectation is what an SQS sample answers: the records reported
// failed, and a check of the store afterwards.
type workerExpectation struct {
	failed []string
	// seed prepares the installation before the replay.
	seed  func(t *testing.T, d *deps.Deps)
	check func(t *testing.T, d *deps.Deps)
}

// expectedWorkers lists every worker sample (<worker>-<case>.json).
var expectedWorkers = map[string]workerExpectation{
	// A Git job of a space that does not exist is dropped (nothing is
	// fetched); a record that is not a job fails, for the dead-letter queue.
	"gitworker-import-into-unknown-space-and-a-bad-job.json": {
		failed: []string{"9c4f4d2a-3e9d-4f89-a081-4c5d6e7f8091"},
		check: func(t *testing.T, d *deps.Deps) {
			if _, err := d.Store.Get(context.Background(), "SPACE#0s00000000000000000s", "GITSYNC"); err == nil {
				t.Error("a job of an unknown space left a Git Sync state")
			}
		}},
	"openapiworker-fetch-of-unknown-spec-and-a-bad-record.json": {
		failed: []string{"7a2d2b0f-1c7b-4d67-8e6f-2a3b4c5d6e7f"},
		seed: func(t *testing.T, d *deps.Deps) {
			// The first record's spec exists, with its source as a text.
			ctx := context.Background()
			now := time.Date(2026, 11, 22, 8, 30, 0, 0, time.UTC)
			org := map[string]any{"id": "0f00000000000000000o", "title": "Acme", "createdAt": now}
			if err := d.Blobs.Put(ctx, "openapi/0f00000000000000000o/0f00000000000000000s/source-1",
				[]byte("openapi: 3.0.3\ninfo: {title: Pets, version: '1'}\npaths: {}\n"), "text/plain"); err != nil {
				t.Fatal(err)
			}
			spec := map[string]any{"id": "0f00000000000000000s", "orgId": "0f00000000000000000o", "slug": "petstore",
				"createdAt": now, "updatedAt": now, "processingState": "pending", "generation": 1,
				"sourceText": "openapi/0f00000000000000000o/0f00000000000000000s/source-1"}
			if err := d.Store.Write(ctx, store.Put(records.Item(gkeys.Org("0f00000000000000000o"), org, 1), store.IfNotExists),
				store.Put(records.Item(gkeys.OpenAPISpec("0f00000000000000000o", "petstore"), spec, 1), store.IfNotExists)); err != nil {
				t.Fatal(err)
			}
		},
		check: func(t *testing.T, d *deps.Deps) {
			spec, _, err := records.Get[map[string]any](context.Background(), d.Store, gkeys.OpenAPISpec("0f00000000000000000o", "petstore"))
			if err != nil {
				t.Fatal(err)
			}
			if spec["processingState"] != "complete" || spec["lastVersion"] == nil || spec["lastProcessErrorCode"] != nil {
				t.Errorf("spec after the job: %v", spec)
			}
		}},
	// A delivery attempt of a webhook that no longer exists is dropped
	// (nothing is posted, no delivery is recorded); a job without its
	// delivery fails, for the dead-letter queue.
	"webhookworker-attempt-of-deleted-webhook-and-a-bad-job.json": {
		failed: []string{"6f2b8d4c-5e3f-4071-9ba2-1c2d3e4f5061"},
		check: func(t *testing.T, d *deps.Deps) {
			k := gkeys.WebhookDelivery("06dnpacc0000000000wh", "06dnpacc0000000000dl")
			if _, err := d.Store.Get(context.Background(), k.PK, k.SK); err == nil {
				t.Errorf("a delivery of a deleted webhook was recorded")
			}
		}},
	// The insights worker counts a page view; a record that is not a job
	// fails, for the dead-letter queue.
	"insightsworker-count-a-page-view-and-a-bad-record.json": {
		failed: []string{"7a2d2b0f-1c7b-4d67-8e6f-2a3b4c5d6e7f"},
		check: func(t *testing.T, d *deps.Deps) {
			if views := pageViews(t, d); views["p1"] != 1 {
				t.Errorf("page views counted %v, want p1 once", views)
			}
		}},
	// A delivery's jobs are counted together (insights.ApplyAll), a job
	// delivered twice in it once.
	"insightsworker-count-a-delivery-with-a-job-twice.json": {
		check: func(t *testing.T, d *deps.Deps) {
			if views := pageViews(t, d); len(views) != 2 || views["p1"] != 1 || views["p2"] != 1 {
				t.Errorf("page views counted %v, want p1 and p2 once each", views)
			}
		}},
}

// pageViews are the page views counted on the insights samples' site and
// day, by page.
func pageViews(t *testing.T, d *deps.Deps) map[string]float64 {
	page, err := d.Store.Query(context.Background(), store.Query{PK: gkeys.InsightsPartition("0f00000000000000000t"),
		SKPrefix: gkeys.InsightsCounterPrefix("2026-11-28"), Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	views := map[string]float64{}
	for _, it := range page.Items {
		c, err := records.Decode[map[string]any](it)
		if err != nil {
			t.Fatal(err)
		}
		if c["type"] == "page_view" {
			views[c["page"].(string)] += c["events"].(float64)
		}
	}
	return views
}

// isWorkerSample tells a worker's SQS sample from an API Gateway one.
func isWorkerSample(name string) bool {
	prefix, _, _ := strings.Cut(name, "-")
	_, err := app.WorkerByName(prefix)
	return err == nil
}

func TestEveryWorkerHasASample(t *testing.T) {
	files, err := filepath.Glob("*.json")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range files {
		if !isWorkerSample(f) {
			continue
		}
		if _, ok := expectedWorkers[f]; !ok {
			t.Errorf("%s: no expectation in workers_test.go", f)
		}
		prefix, _, _ := strings.Cut(f, "-")
		have[prefix] = true
	}
	for _, w := range app.Workers() {
		if !have[w.Name] {
			t.Errorf("worker %s (%s) has no sample event %s-<case>.json", w.Function, w.Name, w.Name)
		}
	}
}

// Each SQS sample goes through its worker's handler as sqsworker.StartWorker
// (StartBatchingWorker) builds it, on a temporary local store.
func TestWorkerSampleEvents(t *testing.T) {
	for name, want := range expectedWorkers {
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			var ev lambdaevents.SQSEvent
			if err := json.Unmarshal(raw, &ev); err != nil || len(ev.Records) == 0 {
				t.Fatalf("%s is not an SQS event: %v", name, err)
			}
			for _, r := range ev.Records {
				if r.EventSource != "aws:sqs" || r.MessageId == "" || r.EventSourceARN == "" {
					t.Errorf("record %q lacks eventSource, messageId or eventSourceARN", r.MessageId)
				}
			}
			prefix, _, _ := strings.Cut(name, "-")
			w, err := app.WorkerByName(prefix)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			d := localDeps(t, app.Config{})
			if want.seed != nil {
				want.seed(t, d)
			}
			r := app.NewRoot(d)
			var batches map[string]queue.BatchHandler
			if b := families.WorkerBatches()[w.Name]; b != nil {
				batches = b(r)
			}
			resp, err := sqsqueue.BatchingHandler(families.WorkerHandlers()[w.Name](r), batches)(ctx, ev)
			if err != nil {
				t.Fatal(err)
			}
			var failed []string
			for _, f := range resp.BatchItemFailures {
				failed = append(failed, f.ItemIdentifier)
			}
			if !slices.Equal(failed, want.failed) {
				t.Errorf("failed records %v, want %v", failed, want.failed)
			}
			if want.check != nil {
				want.check(t, d)
			}
		})
	}
}
