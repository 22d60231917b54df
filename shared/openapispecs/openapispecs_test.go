package openapispecs_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/testkit"
)

const petstore = `openapi: 3.0.3
info:
  title: Petstore
  version: "1.0"
paths:
  /pets:
    get:
      responses:
        200:
          description: The pets
`

const petstoreV2 = `{"openapi": "3.0.3", "info": {"title": "Petstore", "version": "2.0"},
 "paths": {"/pets": {"get": {"responses": {"200": {"description": "The pets"}}}},
           "/pets/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                                  "responses": {"200": {"description": "A pet"}}}}}}`

// docServer serves a document that the test may change, counting fetches.
type docServer struct {
	*httptest.Server
	mu   sync.Mutex
	doc  string
	hits atomic.Int32
}

func newDocServer(t *testing.T, doc string) *docServer {
	ds := &docServer{doc: doc}
	ds.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ds.hits.Add(1)
		ds.mu.Lock()
		defer ds.mu.Unlock()
		w.Write([]byte(ds.doc))
	}))
	t.Cleanup(ds.Close)
	return ds
}

func (ds *docServer) set(doc string) {
	ds.mu.Lock()
	ds.doc = doc
	ds.mu.Unlock()
}

func TestCreateIsPendingThenCompleteWithAVersion(t *testing.T) {
	f := setup(t)
	ds := newDocServer(t, petstore)
	sp := f.As(t, "create").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": "petstore", "source": map[string]any{"url": ds.URL + "/petstore.yaml"}}).Map(t)
	if sp["object"] != "openapi-spec" || sp["slug"] != "petstore" || sp["processingState"] != "pending" || sp["sourceURL"] != ds.URL+"/petstore.yaml" {
		t.Fatalf("created spec: %v", sp)
	}
	if sp["lastVersion"] != nil || sp["lastProcessedAt"] != nil {
		t.Errorf("a pending spec has a version or a processing date: %v", sp)
	}
	if p := sp["permissions"].(map[string]any); p["view"] != true || p["edit"] != true {
		t.Errorf("creator's permissions %v", p)
	}
	if loc := sp["urls"].(map[string]any)["location"].(string); !strings.HasSuffix(loc, f.base()+"/petstore") {
		t.Errorf("urls.location %s", loc)
	}
	if len(f.queue.Take()) != 1 {
		t.Fatal("creating a spec enqueued no single job")
	}
	// Run the job the creation enqueued.
	f.As(t, "create").Expect(http.StatusOK, "PUT", f.base()+"/petstore", map[string]any{"source": map[string]any{"url": ds.URL + "/petstore.yaml"}})
	f.work(t)
	got := f.As(t, "read").Expect(http.StatusOK, "GET", f.base()+"/petstore", nil).Map(t)
	if got["processingState"] != "complete" || got["lastProcessErrorCode"] != nil || got["lastVersion"] == nil || got["lastProcessedAt"] == nil {
		t.Fatalf("processed spec: %v", got)
	}
	if p := got["permissions"].(map[string]any); p["view"] != true || p["edit"] != false {
		t.Errorf("reader's permissions %v", p)
	}
	latest := f.As(t, "read").Expect(http.StatusOK, "GET", f.base()+"/petstore/versions/latest", nil).Map(t)
	if latest["object"] != "openapi-spec-version" || latest["id"] != got["lastVersion"] || latest["url"] != ds.URL+"/petstore.yaml" {
		t.Errorf("latest version %v", latest)
	}
	byID := f.As(t, "read").Expect(http.StatusOK, "GET", f.base()+"/petstore/versions/"+latest["id"].(string), nil).Map(t)
	if byID["id"] != latest["id"] {
		t.Errorf("version by id %v", byID)
	}
	for _, path := range []string{"/petstore/versions/latest/content", "/petstore/versions/" + latest["id"].(string) + "/content"} {
		c := f.As(t, "read").Expect(http.StatusOK, "GET", f.base()+path, nil).Map(t)
		doc, _ := c["filesystem"].(map[string]any)["petstore.yaml"].(map[string]any)
		if doc["openapi"] != "3.0.3" || doc["info"].(map[string]any)["title"] != "Petstore" || c["urls"].(map[string]any)["source"] != ds.URL+"/petstore.yaml" {
			t.Errorf("%s: %v", path, c)
		}
		// YAML's integer response codes become JSON object keys.
		if _, ok := doc["paths"].(map[string]any)["/pets"].(map[string]any)["get"].(map[string]any)["responses"].(map[string]any)["200"]; !ok {
			t.Errorf("%s: response 200 lost: %v", path, doc["paths"])
		}
	}
}

// A computed page names its spec by slug, id or source URL; a URL longer
// than a key can be is still found (among the specs, not by key).
func TestFindSpecBySlugIDOrLongSourceURL(t *testing.T) {
	f := setup(t)
	ds := newDocServer(t, petstore)
	long := ds.URL + "/petstore.yaml?pad=" + strings.Repeat("a", 1500)
	sp := f.As(t, "create").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": "petstore", "source": map[string]any{"url": long}}).Map(t)
	find := f.svc.ForContent()
	for _, ref := range []string{"petstore", sp["id"].(string), long} {
		got, ok, err := find.FindSpec(context.Background(), f.Org.ID, ref)
		if err != nil || !ok || got.Slug != "petstore" {
			t.Errorf("FindSpec(%.40q): %+v %v %v", ref, got, ok, err)
		}
	}
	if _, ok, err := find.FindSpec(context.Background(), f.Org.ID, long+"b"); ok || err != nil {
		t.Errorf("FindSpec of another long URL: %v %v", ok, err)
	}
}

func TestPutMakesANewVersionOnlyWhenTheDocumentChanged(t *testing.T) {
	f := setup(t)
	ds := newDocServer(t, petstore)
	c := f.As(t, "create")
	src := map[string]any{"source": map[string]any{"url": ds.URL + "/openapi.yaml"}}
	first := c.Expect(http.StatusCreated, "PUT", f.base()+"/petstore", src).Map(t)
	if first["processingState"] != "pending" {
		t.Fatalf("PUT of a new slug: %v", first)
	}
	f.work(t)
	v1 := c.Expect(http.StatusOK, "GET", f.base()+"/petstore", nil).Map(t)["lastVersion"]
	// Same document: processed again, no new version.
	again := c.Expect(http.StatusOK, "PUT", f.base()+"/petstore", src).Map(t)
	if again["processingState"] != "pending" || again["id"] != first["id"] {
		t.Fatalf("PUT of an existing slug: %v", again)
	}
	f.work(t)
	sp := c.Expect(http.StatusOK, "GET", f.base()+"/petstore", nil).Map(t)
	if sp["lastVersion"] != v1 || sp["processingState"] != "complete" {
		t.Fatalf("unchanged document: lastVersion %v (was %v), state %v", sp["lastVersion"], v1, sp["processingState"])
	}
	// Changed document: a second version, listed first.
	ds.set(petstoreV2)
	c.Expect(http.StatusOK, "PUT", f.base()+"/petstore", src)
	f.work(t)
	var list struct {
		Count int
		Items []struct {
			ID, Object string
		}
	}
	c.Expect(http.StatusOK, "GET", f.base()+"/petstore/versions", nil).JSON(t, &list)
	if list.Count != 2 || len(list.Items) != 2 || list.Items[1].ID != v1 {
		t.Fatalf("versions %+v, want 2, newest first, the first one last", list)
	}
	latest := c.Expect(http.StatusOK, "GET", f.base()+"/petstore/versions/latest", nil).Map(t)
	if latest["id"] != list.Items[0].ID {
		t.Errorf("latest %v, want %s", latest["id"], list.Items[0].ID)
	}
	content := c.Expect(http.StatusOK, "GET", f.base()+"/petstore/versions/latest/content", nil).Map(t)
	doc := content["filesystem"].(map[string]any)["openapi.yaml"].(map[string]any)
	if doc["info"].(map[string]any)["version"] != "2.0" {
		t.Errorf("latest content %v", doc)
	}
	old := c.Expect(http.StatusOK, "GET", f.base()+"/petstore/versions/"+v1.(string)+"/content", nil).Map(t)
	if old["filesystem"].(map[string]any)["openapi.yaml"].(map[string]any)["info"].(map[string]any)["version"] != "1.0" {
		t.Errorf("first version's content changed: %v", old)
	}
	// Paging through the versions.
	p1 := c.Expect(http.StatusOK, "GET", f.base()+"/petstore/versions?limit=1", nil).Map(t)
	next := p1["next"].(map[string]any)["page"].(string)
	p2 := c.Expect(http.StatusOK, "GET", f.base()+"/petstore/versions?limit=1&page="+next, nil).Map(t)
	if p1["items"].([]any)[0].(map[string]any)["id"] != list.Items[0].ID || p2["items"].([]any)[0].(map[string]any)["id"] != v1 || p2["next"] != nil {
		t.Errorf("paged versions: %v then %v", p1, p2)
	}
	c.Expect(http.StatusBadRequest, "GET", f.base()+"/petstore/versions?page="+next+"x", nil)
}

func TestTextSourceBecomesAVersion(t *testing.T) {
	f := setup(t)
	c := f.As(t, "create")
	c.Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": "inline", "source": map[string]any{"text": petstoreV2}})
	f.work(t)
	sp := c.Expect(http.StatusOK, "GET", f.base()+"/inline", nil).Map(t)
	if sp["processingState"] != "complete" || sp["lastVersion"] == nil || sp["sourceURL"] != nil {
		t.Fatalf("text spec: %v", sp)
	}
	v := c.Expect(http.StatusOK, "GET", f.base()+"/inline/versions/latest", nil).Map(t)
	if !strings.HasSuffix(v["url"].(string), "/inline/versions/"+v["id"].(string)+"/content") {
		t.Errorf("a text's version url %v", v["url"])
	}
	content := c.Expect(http.StatusOK, "GET", f.base()+"/inline/versions/latest/content", nil).Map(t)
	if _, ok := content["filesystem"].(map[string]any)["openapi.json"]; !ok {
		t.Errorf("content %v", content)
	}
	// Swagger 2.0 is accepted too.
	c.Expect(http.StatusOK, "PUT", f.base()+"/inline", map[string]any{"source": map[string]any{"text": `swagger: "2.0"
info: {title: Old, version: "1"}
paths:
  /pets:
    get:
      responses:
        200: {description: The pets}
`}})
	f.work(t)
	if sp := c.Expect(http.StatusOK, "GET", f.base()+"/inline", nil).Map(t); sp["lastProcessErrorCode"] != nil || sp["lastVersion"] == v["id"] {
		t.Errorf("swagger 2.0 text: %v", sp)
	}
}

// Failures end the processing with their error code; they are outcomes,
// not failed jobs.
func TestProcessingFailuresSetTheErrorCode(t *testing.T) {
	f := setup(t)
	f.svc.FetchTimeout = 300 * time.Millisecond
	release := make(chan struct{})
	defer close(release)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	missing := newDocServer(t, "")
	missing.Config.Handler = http.NotFoundHandler()
	ref := newDocServer(t, `{"components": {}}`)
	cases := []struct {
		name, url, text, code string
	}{
		{"Timeout", slow.URL + "/spec.json", "", model.OpenAPIFetchTimeout},
		{"Unreachable", closedURL + "/spec.json", "", model.OpenAPIFetchError},
		{"NotFound", missing.URL + "/spec.json", "", model.OpenAPIFetchError},
		{"NotADocument", "", "just: [some, yaml", model.OpenAPIParseError},
		{"NotOpenAPI", "", `{"hello": "world"}`, model.OpenAPIParseError},
		{"HTML", "", "<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>", model.OpenAPIParseError},
		{"RandomBytes", "", "\x00\x01\xff\xfe\x9c garbage \x07", model.OpenAPIParseError},
		{"Swagger12", "", `{"swaggerVersion": "1.2", "apis": []}`, model.OpenAPIParseError},
		{"OpenAPI4", "", `{"openapi": "4.0.0", "info": {"title": "x", "version": "1"}}`, model.OpenAPIParseError},
		{"ExternalRef", "", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"$ref": "` + ref.URL + `/paths.json#/a"}}}`, model.OpenAPIParseError},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			slug := "spec-" + string(rune('a'+i))
			src := map[string]any{"url": tc.url}
			if tc.text != "" {
				src = map[string]any{"text": tc.text}
			}
			f.As(t, "create").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": slug, "source": src})
			f.work(t)
			sp := f.As(t, "read").Expect(http.StatusOK, "GET", f.base()+"/"+slug, nil).Map(t)
			if sp["processingState"] != "complete" || sp["lastProcessErrorCode"] != tc.code || sp["lastVersion"] != nil || sp["lastProcessedAt"] == nil {
				t.Errorf("spec %v, want complete with %s and no version", sp, tc.code)
			}
			// The reason is in the answer, not only in the log.
			errs, _ := sp["lastProcessedErrors"].([]any)
			if len(errs) != 1 || sp["lastProcessedErrorCount"] != 1.0 {
				t.Fatalf("lastProcessedErrors %v (count %v), want the one failure", sp["lastProcessedErrors"], sp["lastProcessedErrorCount"])
			}
			if e := errs[0].(map[string]any); e["code"] != tc.code || e["message"] == "" {
				t.Errorf("failure reason %v", e)
			}
			f.As(t, "read").Expect(http.StatusNotFound, "GET", f.base()+"/"+slug+"/versions/latest", nil)
			f.As(t, "read").Expect(http.StatusNotFound, "GET", f.base()+"/"+slug+"/versions/latest/content", nil)
		})
	}
	if ref.hits.Load() != 0 {
		t.Error("an external $ref was fetched")
	}
	// A failure after a success keeps the last version.
	good := newDocServer(t, petstore)
	c := f.As(t, "create")
	c.Expect(http.StatusCreated, "PUT", f.base()+"/flaky", map[string]any{"source": map[string]any{"url": good.URL + "/a.yaml"}})
	f.work(t)
	v1 := c.Expect(http.StatusOK, "GET", f.base()+"/flaky", nil).Map(t)["lastVersion"]
	good.set("{not json")
	c.Expect(http.StatusOK, "PUT", f.base()+"/flaky", map[string]any{"source": map[string]any{"url": good.URL + "/a.yaml"}})
	f.work(t)
	sp := c.Expect(http.StatusOK, "GET", f.base()+"/flaky", nil).Map(t)
	if sp["lastProcessErrorCode"] != model.OpenAPIParseError || sp["lastVersion"] != v1 {
		t.Errorf("failed update: %v (last version was %v)", sp, v1)
	}
}

// Without FETCH_ALLOW_PRIVATE, a spec whose URL is on loopback fails to
// fetch, and the server is never reached.
func TestLoopbackURLIsRefusedByDefault(t *testing.T) {
	f := setup(t)
	f.Kit.Deps.FetchAllowPrivate = false
	ds := newDocServer(t, petstore)
	for i, u := range []string{ds.URL + "/spec.yaml", strings.Replace(ds.URL, "127.0.0.1", "localhost", 1) + "/spec.yaml",
		"http://169.254.169.254/latest/meta-data/"} {
		slug := "internal-" + string(rune('a'+i))
		f.As(t, "create").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": slug, "source": map[string]any{"url": u}})
		f.work(t)
		sp := f.As(t, "create").Expect(http.StatusOK, "GET", f.base()+"/"+slug, nil).Map(t)
		if sp["lastProcessErrorCode"] != model.OpenAPIFetchError {
			t.Errorf("%s: %v, want FETCH_ERROR", u, sp)
		}
	}
	if ds.hits.Load() != 0 {
		t.Error("the loopback server was reached")
	}
}

// A message delivered twice, a job of an older source, and a job of a
// deleted spec change nothing.
func TestJobsAreIdempotentAndOrdered(t *testing.T) {
	f := setup(t)
	ds := newDocServer(t, petstore)
	c := f.As(t, "create")
	src := map[string]any{"source": map[string]any{"url": ds.URL + "/s.yaml"}}
	c.Expect(http.StatusCreated, "PUT", f.base()+"/dup", src)
	jobs := f.queue.Take()
	if len(jobs) != 1 {
		t.Fatalf("%d jobs", len(jobs))
	}
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if err := f.svc.Handle(ctx, jobs[0]); err != nil {
			t.Fatal(err)
		}
	}
	var list struct{ Count int }
	c.Expect(http.StatusOK, "GET", f.base()+"/dup/versions", nil).JSON(t, &list)
	if list.Count != 1 || ds.hits.Load() != 1 {
		t.Errorf("a job delivered three times made %d versions with %d fetches, want 1 and 1", list.Count, ds.hits.Load())
	}
	// Two updates before the worker runs: the older job is dropped.
	ds.set(petstoreV2)
	c.Expect(http.StatusOK, "PUT", f.base()+"/dup", src)
	c.Expect(http.StatusOK, "PUT", f.base()+"/dup", map[string]any{"source": map[string]any{"text": petstore}})
	jobs = f.queue.Take()
	if len(jobs) != 2 {
		t.Fatalf("%d jobs", len(jobs))
	}
	before := ds.hits.Load()
	if err := f.svc.Handle(ctx, jobs[0]); err != nil {
		t.Fatal(err)
	}
	if sp := c.Expect(http.StatusOK, "GET", f.base()+"/dup", nil).Map(t); sp["processingState"] != "pending" || ds.hits.Load() != before {
		t.Errorf("a stale job ran: %v", sp)
	}
	if err := f.svc.Handle(ctx, jobs[1]); err != nil {
		t.Fatal(err)
	}
	if sp := c.Expect(http.StatusOK, "GET", f.base()+"/dup", nil).Map(t); sp["processingState"] != "complete" || sp["sourceURL"] != nil {
		t.Errorf("latest job: %v", sp)
	}
	// Concurrent deliveries of one job land one version.
	c.Expect(http.StatusOK, "PUT", f.base()+"/dup", map[string]any{"source": map[string]any{"text": petstoreV2}})
	jobs = f.queue.Take()
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f.svc.Handle(ctx, jobs[0]); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	c.Expect(http.StatusOK, "GET", f.base()+"/dup/versions", nil).JSON(t, &list)
	if list.Count != 2 {
		t.Errorf("%d versions after concurrent deliveries, want 2 (the text equals the first document, so %d distinct)", list.Count, 2)
	}
	// A job of a deleted spec, or of a spec made again under its slug.
	c.Expect(http.StatusOK, "PUT", f.base()+"/dup", src)
	stale := f.queue.Take()
	c.Expect(http.StatusResetContent, "DELETE", f.base()+"/dup", nil)
	if err := f.svc.Handle(ctx, stale[0]); err != nil {
		t.Fatal(err)
	}
	c.Expect(http.StatusNotFound, "GET", f.base()+"/dup", nil)
	c.Expect(http.StatusCreated, "PUT", f.base()+"/dup", src)
	f.queue.Take()
	if err := f.svc.Handle(ctx, stale[0]); err != nil {
		t.Fatal(err)
	}
	if sp := c.Expect(http.StatusOK, "GET", f.base()+"/dup", nil).Map(t); sp["processingState"] != "pending" {
		t.Errorf("the old spec's job ran on the new one: %v", sp)
	}
}

func TestDeleteAnswers205Then204AndRemovesVersions(t *testing.T) {
	f := setup(t)
	c := f.As(t, "create")
	c.Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": "gone", "source": map[string]any{"text": petstore}})
	f.work(t)
	v := c.Expect(http.StatusOK, "GET", f.base()+"/gone/versions/latest", nil).Map(t)["id"].(string)
	c.Expect(http.StatusResetContent, "DELETE", f.base()+"/gone", nil)
	c.Expect(http.StatusNoContent, "DELETE", f.base()+"/gone", nil)
	c.Expect(http.StatusNotFound, "GET", f.base()+"/gone", nil)
	c.Expect(http.StatusNotFound, "GET", f.base()+"/gone/versions", nil)
	// Made again under the same slug, it starts without versions.
	c.Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": "gone", "source": map[string]any{"text": petstore}})
	c.Expect(http.StatusNotFound, "GET", f.base()+"/gone/versions/"+v, nil)
	var list struct{ Count int }
	c.Expect(http.StatusOK, "GET", f.base()+"/gone/versions", nil).JSON(t, &list)
	if list.Count != 0 {
		t.Errorf("%d versions of a new spec", list.Count)
	}
}

func TestListPagesInSlugOrder(t *testing.T) {
	f := setup(t)
	for _, slug := range []string{"delta", "alpha", "echo", "charlie", "bravo"} {
		f.As(t, "create").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": slug, "source": map[string]any{"text": petstore}})
	}
	f.As(t, testkit.Outsider).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Other.ID+"/openapi", map[string]any{"slug": "zulu", "source": map[string]any{"text": petstore}})
	seen := testkit.Field(testkit.Items(t, f.As(t, "read"), f.base(), 2), "slug")
	if strings.Join(seen, ",") != "alpha,bravo,charlie,delta,echo" {
		t.Errorf("listed %v", seen)
	}
	// A page token of another organization's list is refused.
	first := f.As(t, "read").Expect(http.StatusOK, "GET", f.base()+"?limit=1", nil).Map(t)
	tok := first["next"].(map[string]any)["page"].(string)
	f.As(t, testkit.Outsider).Expect(http.StatusBadRequest, "GET", "/v1/orgs/"+f.Other.ID+"/openapi?page="+tok, nil)
	for _, limit := range []string{"0", "1001"} {
		res := f.As(t, "read").Expect(http.StatusBadRequest, "GET", f.base()+"?limit="+limit, nil)
		if !strings.Contains(string(res.Body), "limit") {
			t.Errorf("limit=%s: %s", limit, res.Body)
		}
	}
}

func TestRejects(t *testing.T) {
	f := setup(t)
	f.As(t, "create").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": "taken", "source": map[string]any{"text": petstore}})
	f.work(t)
	base, tok := f.base(), f.Tokens
	src := map[string]any{"text": petstore}
	long := "https://example.com/" + strings.Repeat("a", 2030)
	cases := []struct {
		name, token, method, path string
		body                      any
		status                    int
		field                     string
	}{
		{"400SlugPattern", tok["create"], "POST", base, map[string]any{"slug": "Not_A-Slug", "source": src}, 400, "slug"},
		{"400SlugDoubleDash", tok["create"], "POST", base, map[string]any{"slug": "a--b", "source": src}, 400, "slug"},
		{"400SlugTooLong", tok["create"], "POST", base, map[string]any{"slug": strings.Repeat("a", 101), "source": src}, 400, "slug"},
		{"400SlugEmpty", tok["create"], "POST", base, map[string]any{"slug": "", "source": src}, 400, "slug"},
		{"400NoSource", tok["create"], "POST", base, map[string]any{"slug": "x"}, 400, "source"},
		{"400EmptySource", tok["create"], "POST", base, map[string]any{"slug": "x", "source": map[string]any{}}, 400, "source"},
		{"400BothSources", tok["create"], "POST", base, map[string]any{"slug": "x", "source": map[string]any{"url": "https://example.com/a.json", "text": petstore}}, 400, "source"},
		{"400URLNotHTTP", tok["create"], "POST", base, map[string]any{"slug": "x", "source": map[string]any{"url": "ftp://example.com/a.json"}}, 400, "source.url"},
		{"400URLWithCredentials", tok["create"], "POST", base, map[string]any{"slug": "x", "source": map[string]any{"url": "https://u:p@example.com/a.json"}}, 400, "source.url"},
		{"400URLTooLong", tok["create"], "POST", base, map[string]any{"slug": "x", "source": map[string]any{"url": long}}, 400, "source.url"},
		{"400EmptyText", tok["create"], "POST", base, map[string]any{"slug": "x", "source": map[string]any{"text": ""}}, 400, "source"},
		{"400PutSlugPattern", tok["create"], "PUT", base + "/Bad_Slug", map[string]any{"source": src}, 400, "specSlug"},
		{"400PutNoSource", tok["create"], "PUT", base + "/x", map[string]any{}, 400, "source"},
		{"400MalformedJSON", tok["create"], "POST", base, `{"slug":`, 400, ""},
		{"409SlugTaken", tok["create"], "POST", base, map[string]any{"slug": "taken", "source": src}, 409, ""},
		{"401NoToken", "", "GET", base, nil, 401, ""},
		{"401BadToken", "gly_nope", "GET", base + "/taken", nil, 401, ""},
		{"403ReaderCreates", tok["read"], "POST", base, map[string]any{"slug": "x", "source": src}, 403, ""},
		{"403ReaderPuts", tok["read"], "PUT", base + "/taken", map[string]any{"source": src}, 403, ""},
		{"403ReaderDeletes", tok["read"], "DELETE", base + "/taken", nil, 403, ""},
		{"403GuestLists", tok["guest"], "GET", base, nil, 403, ""},
		{"403GuestGets", tok["guest"], "GET", base + "/taken", nil, 403, ""},
		{"403GuestReadsVersions", tok["guest"], "GET", base + "/taken/versions", nil, 403, ""},
		{"404OutsiderLists", tok[testkit.Outsider], "GET", base, nil, 404, ""},
		{"404OutsiderGets", tok[testkit.Outsider], "GET", base + "/taken", nil, 404, ""},
		{"404OutsiderPuts", tok[testkit.Outsider], "PUT", base + "/taken", map[string]any{"source": src}, 404, ""},
		{"404OutsiderDeletes", tok[testkit.Outsider], "DELETE", base + "/taken", nil, 404, ""},
		{"404OutsiderReadsLatest", tok[testkit.Outsider], "GET", base + "/taken/versions/latest", nil, 404, ""},
		{"404OutsiderReadsContent", tok[testkit.Outsider], "GET", base + "/taken/versions/latest/content", nil, 404, ""},
		{"404NonMember", tok["stranger"], "GET", base + "/taken/versions", nil, 404, ""},
		{"404UnknownSpec", tok["read"], "GET", base + "/nope", nil, 404, ""},
		{"404UnknownVersion", tok["read"], "GET", base + "/taken/versions/nope", nil, 404, ""},
		{"404UnknownVersionContent", tok["read"], "GET", base + "/taken/versions/nope/content", nil, 404, ""},
		{"404UnknownOrg", tok["admin"], "POST", "/v1/orgs/nope/openapi", map[string]any{"slug": "x", "source": src}, 404, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := f.As(t, "")
			c.Token = tc.token
			res := c.Expect(tc.status, tc.method, tc.path, tc.body)
			if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
}

// The queue carries the job; a failing queue fails the request.
func TestCreateEnqueuesOneJobPerSource(t *testing.T) {
	f := setup(t)
	f.As(t, "admin").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": "q", "source": map[string]any{"text": petstore}})
	f.As(t, "admin").Expect(http.StatusOK, "PUT", f.base()+"/q", map[string]any{"source": map[string]any{"text": petstoreV2}})
	jobs := f.queue.Take()
	if len(jobs) != 2 || jobs[0].Kind != openapispecs.JobKind || jobs[0].ID == jobs[1].ID || jobs[0].Group != jobs[1].Group {
		t.Fatalf("jobs %+v", jobs)
	}
	var p map[string]any
	if err := json.Unmarshal(jobs[1].Payload, &p); err != nil || p["slug"] != "q" || p["generation"] != 2.0 {
		t.Errorf("payload %s", jobs[1].Payload)
	}
	// Without a queue the job runs within the request.
	f.Kit.Deps.Queue = nil
	sp := f.As(t, "admin").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": "inline", "source": map[string]any{"text": petstore}}).Map(t)
	if sp["processingState"] != "complete" || sp["lastVersion"] == nil {
		t.Errorf("processed without a queue: %v", sp)
	}
}

// A spec's life on both storage backends: created, processed, updated
// with a changed document, listed, versions newest first, deleted.
func TestSpecLifecycleOnBothBackends(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		ds := newDocServer(t, petstore)
		c := f.As(t, "create")
		src := map[string]any{"source": map[string]any{"url": ds.URL + "/openapi.yaml"}}
		c.Expect(http.StatusCreated, "PUT", f.base()+"/pets", src)
		f.work(t)
		ds.set(petstoreV2)
		c.Expect(http.StatusOK, "PUT", f.base()+"/pets", src)
		f.work(t)
		var versions struct {
			Count int
			Items []struct{ ID string }
		}
		c.Expect(http.StatusOK, "GET", f.base()+"/pets/versions", nil).JSON(t, &versions)
		sp := c.Expect(http.StatusOK, "GET", f.base()+"/pets", nil).Map(t)
		if versions.Count != 2 || sp["lastVersion"] != versions.Items[0].ID || sp["processingState"] != "complete" {
			t.Fatalf("versions %+v, spec %v", versions, sp)
		}
		var list struct{ Count int }
		c.Expect(http.StatusOK, "GET", f.base(), nil).JSON(t, &list)
		if list.Count != 1 {
			t.Errorf("%d specs listed", list.Count)
		}
		c.Expect(http.StatusResetContent, "DELETE", f.base()+"/pets", nil)
		c.Expect(http.StatusNotFound, "GET", f.base()+"/pets/versions/"+versions.Items[1].ID, nil)
	})
}
