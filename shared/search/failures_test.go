package search_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/search"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// faultyBlobs is the real blob store with faults injected: the next
// failPuts writes of search indexes fail (-1: every one), and while
// failDocs is set, reads of page bodies fail.
type faultyBlobs struct {
	blob.Store
	failPuts  atomic.Int64
	failDocs  atomic.Bool
	indexPuts atomic.Int64
}

var errInjected = errors.New("injected: storage unavailable")

func (b *faultyBlobs) Put(ctx context.Context, key string, data []byte, ct string) error {
	if strings.Contains(key, "/search/") {
		b.indexPuts.Add(1)
		if n := b.failPuts.Load(); n != 0 {
			if n > 0 {
				b.failPuts.Add(-1)
			}
			return errInjected
		}
	}
	return b.Store.Put(ctx, key, data, ct)
}

func (b *faultyBlobs) Get(ctx context.Context, key string) ([]byte, error) {
	if strings.Contains(key, "/documents/") && b.failDocs.Load() {
		return nil, errInjected
	}
	return b.Store.Get(ctx, key)
}

// logSink is a JSON log (or metrics) sink safe for concurrent writers.
type logSink struct{ testenv.SyncBuffer }

// take returns the records written since the last take whose msg is msg.
func (r *logSink) take(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.Take()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

// faultyFixture is the search fixture on faulty blobs, its logs and its
// metrics recorded, and the space Docs holding one page about zebras.
func faultyFixture(t *testing.T) (*fixture, *faultyBlobs, *logSink, *logSink) {
	k := testkit.New(t)
	blobs := &faultyBlobs{Store: k.Deps.Blobs}
	logs, metrics := &logSink{}, &logSink{}
	k.Deps.Blobs = blobs
	k.Deps.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	k.Deps.Metrics = slog.New(slog.NewJSONHandler(metrics, nil))
	f := setupOn(t, k)
	f.seed(t, f.docs, []page{{ID: "z", Title: "Animals", Body: "Zebras have stripes.\n"}, {ID: "o", Title: "Other", Body: "Nothing.\n"}})
	return f, blobs, logs, metrics
}

func (f *fixture) findsZebras(t *testing.T) {
	t.Helper()
	if got := titles(f.search(t, "read", "/v1/spaces/"+f.docs+"/search?query=zebra")); strings.Join(got, ",") != "Animals" {
		t.Fatalf("zebra: %q, want Animals", got)
	}
}

// stored reports whether the index of the space's current revision is in
// the blob store.
func (f *fixture) stored(t *testing.T) bool {
	t.Helper()
	_, err := f.Kit.Deps.Blobs.Get(context.Background(), search.IndexKey(f.docs, f.Kit.Head(t, f.docs), search.AnalysisDefault))
	if err != nil && !errors.Is(err, blob.ErrNotFound) {
		t.Fatal(err)
	}
	return err == nil
}

// indexErrors checks the error records of failed indexing (one, of stage,
// naming the space and revision) and the metric that counts them.
func indexErrors(t *testing.T, f *fixture, logs, metrics *logSink, stage, revision string) {
	t.Helper()
	errs := logs.take(t, "search index")
	if len(errs) != 1 || errs[0]["level"] != "ERROR" || errs[0]["stage"] != stage || errs[0]["space"] != f.docs ||
		errs[0]["revision"] != revision || !strings.Contains(errs[0]["err"].(string), "injected") {
		t.Fatalf("error records %v, want one of stage %s naming space %s, revision %s and the cause", errs, stage, f.docs, revision)
	}
	ms := metrics.take(t, "metrics")
	if len(ms) != 1 || ms[0][search.IndexErrorsMetric] != 1.0 || ms[0]["Stage"] != stage {
		t.Fatalf("metric records %v, want one %s of stage %s", ms, search.IndexErrorsMetric, stage)
	}
	emf := ms[0]["_aws"].(map[string]any)["CloudWatchMetrics"].([]any)[0].(map[string]any)
	if emf["Namespace"] != "Galley" || emf["Metrics"].([]any)[0].(map[string]any)["Name"] != search.IndexErrorsMetric {
		t.Fatalf("not an EMF record of the metric: %v", ms[0])
	}
}

// A write of a made index that fails is tried again: the page is found and
// the index stored, with a warning per failed attempt and no error.
func TestAFailedIndexWriteIsTriedAgain(t *testing.T) {
	f, blobs, logs, metrics := faultyFixture(t)
	blobs.failPuts.Store(search.StoreAttempts - 1)
	f.findsZebras(t)
	if n := blobs.indexPuts.Load(); n != search.StoreAttempts {
		t.Errorf("%d writes of the index, want %d", n, search.StoreAttempts)
	}
	if !f.stored(t) {
		t.Fatal("the index is not stored after the last attempt succeeded")
	}
	if w := logs.take(t, "search index not stored, trying again"); len(w) != search.StoreAttempts-1 {
		t.Errorf("%d warnings, want one per failed attempt", len(w))
	}
	if errs := logs.take(t, "search index"); len(errs) != 0 {
		t.Errorf("error records %v after a write that succeeded in the end", errs)
	}
	if ms := metrics.take(t, "metrics"); len(ms) != 0 {
		t.Errorf("metric records %v after a write that succeeded in the end", ms)
	}
}

// An index that cannot be stored is still searched (the page is found),
// the failure is logged and counted, and the next process, finding no
// stored index, makes it again and stores it once the store answers.
func TestAnIndexThatCannotBeStoredIsSearchedReportedAndMadeAgainLater(t *testing.T) {
	f, blobs, logs, metrics := faultyFixture(t)
	blobs.failPuts.Store(-1)
	f.findsZebras(t)
	if n := blobs.indexPuts.Load(); n != search.StoreAttempts {
		t.Errorf("%d writes of the index, want %d", n, search.StoreAttempts)
	}
	indexErrors(t, f, logs, metrics, "store", f.Kit.Head(t, f.docs))
	if f.stored(t) {
		t.Fatal("an index is stored though every write failed")
	}
	f.findsZebras(t) // this process keeps the index it made
	blobs.failPuts.Store(0)
	f.restart(t) // another process
	f.findsZebras(t)
	if !f.stored(t) {
		t.Fatal("the next process did not store the index it made")
	}
	if errs := logs.take(t, "search index"); len(errs) != 0 {
		t.Errorf("error records %v once the store answers", errs)
	}
}

// A stored index whose archive is damaged is made again and stored over,
// instead of failing every search of its revision.
func TestADamagedStoredIndexIsMadeAgain(t *testing.T) {
	f, _, logs, metrics := faultyFixture(t)
	rev := f.Kit.Head(t, f.docs)
	key := search.IndexKey(f.docs, rev, search.AnalysisDefault)
	if err := f.Kit.Deps.Blobs.Put(context.Background(), key, []byte("injected: not a gzip archive"), "application/gzip"); err != nil {
		t.Fatal(err)
	}
	f.findsZebras(t)
	errs := logs.take(t, "search index")
	if len(errs) != 1 || errs[0]["stage"] != "read" || errs[0]["revision"] != rev {
		t.Fatalf("error records %v, want one of stage read", errs)
	}
	if ms := metrics.take(t, "metrics"); len(ms) != 1 || ms[0]["Stage"] != "read" {
		t.Fatalf("metric records %v", ms)
	}
	data, err := f.Kit.Deps.Blobs.Get(context.Background(), key)
	if err != nil || !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		t.Fatalf("the damaged archive was not replaced: %q..., %v", data[:min(len(data), 8)], err)
	}
}

// An index that cannot be made (a page body unreadable) fails the search
// with a 500, is logged and counted, and is not kept: the next search,
// once the store answers, makes it and finds the page.
func TestAnIndexThatCannotBeMadeFailsTheSearchUntilItCanBe(t *testing.T) {
	f, blobs, logs, metrics := faultyFixture(t)
	blobs.failDocs.Store(true)
	// Sent past the test client, which fails on any 5xx.
	req := httptest.NewRequest("GET", "/v1/spaces/"+f.docs+"/search?query=zebra", nil)
	req.Header.Set("Authorization", "Bearer "+f.Tokens["read"])
	rec := httptest.NewRecorder()
	f.API.API.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("search with a page body unreadable: %d %s, want 500", rec.Code, rec.Body)
	}
	indexErrors(t, f, logs, metrics, "build", f.Kit.Head(t, f.docs))
	if f.stored(t) {
		t.Fatal("an index was stored though it could not be made")
	}
	blobs.failDocs.Store(false)
	f.findsZebras(t)
	if !f.stored(t) {
		t.Fatal("the index made on the next search is not stored")
	}
}
