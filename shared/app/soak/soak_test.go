package soak_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testenv/lambdarun"
	"github.com/galleydocs/galley/shared/testkit"
)

// soak is one run: the load's clients, what they were told was done
// (acknowledged writes), and what went wrong on the way.
type soak struct {
	r   *rig
	h   http.Handler
	org string
	// active are the spaces the load authors and comments on; all, every
	// one it did (a space with pagesPerSpace merged pages is replaced by
	// a new one, so that no space grows without bound).
	active, all []string
	git         string // the space synced with repo
	repo        *testenv.PushableRepo
	workers     int

	mu sync.Mutex
	// Acknowledged writes: spaces made, pages merged (by space, the
	// marker in the page's title), comments (by space, and by change
	// request: space/number).
	spacesMade []string
	merged     map[string][]string
	comments   map[string][]string
	crs        []string // space/number of every request made
	imports    int      // Git imports concluded a success (one revision each)
	gitJobs    map[string]int
	statuses   map[int]int
	requests   int
	// killed counts the answers 500 of a process killed by the rig (not
	// the code's: the gateway says so, lambdarun.KilledHeader); like a
	// 503, not acknowledged.
	killed     int
	violations []string
	// fresh is the number of revisions of a new space; base, the synced
	// space's before the load.
	fresh, base int

	// Jobs besides Git's (jobs_test.go): the webhook endpoint (hook) and
	// its receiver; the acknowledged merges' space_content_updated
	// fields (spaceId, revisionId); the published site (site) whose
	// insights events the load sends (sent) and has acknowledged
	// (tracked), by type; visitors numbers the readers.
	hooks      *receiver
	hook       string
	mergedRevs []map[string]any
	site       string
	sent       map[string]int
	tracked    map[string]int
	visitors   int
	jobs       jobsOutcome
}

// pagesPerSpace bounds the pages the load merges into one space: a
// soak's memory must not grow with the size of a few spaces.
const pagesPerSpace = 100

func newSoak(tb testing.TB, r *rig, workers int) *soak {
	tb.Helper()
	h := r.h
	if h == nil {
		h = r.api.Handler()
	}
	s := &soak{r: r, h: h, workers: workers, merged: map[string][]string{}, comments: map[string][]string{},
		gitJobs: map[string]int{}, statuses: map[int]int{}, sent: map[string]int{}, tracked: map[string]int{}}
	c := s.client(tb)
	s.org = c.Expect(http.StatusCreated, "POST", "/v1/orgs", map[string]any{"title": "Soak"}).Map(tb)["id"].(string)
	for i := range 3 {
		s.active = append(s.active, c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+s.org+"/spaces", map[string]any{"title": fmt.Sprint("Docs ", i)}).Map(tb)["id"].(string))
	}
	s.all = slices.Clone(s.active)
	s.setupJobs(tb)
	s.fresh = s.revisions(tb, s.active[0])
	s.git = c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+s.org+"/spaces", map[string]any{"title": "Synced"}).Map(tb)["id"].(string)
	s.repo = testenv.NewPushableRepo(tb, "docs")
	c.Expect(http.StatusNoContent, "POST", "/v1/spaces/"+s.git+"/git/import", map[string]any{"url": s.repo.URL, "ref": "refs/heads/main"})
	if st := s.gitWait(); st != "success" {
		tb.Fatalf("the first import: %s", st)
	}
	s.base = s.revisions(tb, s.git)
	return s
}

// client is a client of the API for the setup (the test's goroutine):
// it validates every answer against the API's document.
func (s *soak) client(tb testing.TB) *apitest.Client {
	c := apitest.New(tb, s.r.api).Through(s.h)
	c.Token = adminToken
	return c
}

// serve sends a request to the API as the administrator, with the
// headers given as name and value pairs.
func (s *soak) serve(method, path string, body any, header ...string) *httptest.ResponseRecorder {
	var rd *bytes.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	} else {
		rd = bytes.NewReader(nil)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("Authorization", "Bearer "+adminToken)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	return rec
}

// statusKilled is do's status of a request whose process was killed.
const statusKilled = 0

// do sends a request of the load (any goroutine) and counts its answer:
// a 5xx other than 503, or a 503 without Retry-After, is a violation.
func (s *soak) do(method, path string, body any, header ...string) (int, map[string]any) {
	rec := s.serve(method, path, body, header...)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	if rec.Header().Get(lambdarun.KilledHeader) != "" {
		s.killed++
		return statusKilled, nil
	}
	s.statuses[rec.Code]++
	switch {
	case rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable:
		s.violations = append(s.violations, fmt.Sprintf("%s %s: %d %s", method, path, rec.Code, rec.Body.Bytes()))
	case rec.Code == http.StatusServiceUnavailable && rec.Header().Get("Retry-After") == "":
		s.violations = append(s.violations, fmt.Sprintf("%s %s: 503 without Retry-After", method, path))
	}
	return rec.Code, out
}

func (s *soak) violate(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.violations = append(s.violations, fmt.Sprintf(format, args...))
}

// author makes a change request adding a page titled with a new marker
// and merges it; a merge answered 200 is acknowledged. It answers the
// marker when merged.
func (s *soak) author(rng *rand.Rand, space string) (string, bool) {
	marker := fmt.Sprintf("m%016x", rng.Uint64())
	crs := "/v1/spaces/" + space + "/change-requests"
	st, cr := s.do("POST", crs, map[string]any{"subject": "Add " + marker})
	if st != http.StatusCreated {
		return "", false
	}
	path := fmt.Sprintf("%s/%d", crs, int(cr["number"].(float64)))
	s.mu.Lock()
	s.crs = append(s.crs, path)
	s.mu.Unlock()
	if st, _ := s.do("POST", path+"/content?compat=false", map[string]any{"changes": []map[string]any{
		{"operation": "insert_page", "ref": "p", "document": map[string]any{"markdown": "# Page " + marker + "\n\n" + marker + "\n"}}}}); st != http.StatusOK {
		return "", false
	}
	st, res := s.do("POST", path+"/merge", nil)
	if st != http.StatusOK {
		return "", false
	}
	s.mu.Lock()
	s.mergedRevs = append(s.mergedRevs, map[string]any{"spaceId": space, "revisionId": res["revision"]})
	s.merged[space] = append(s.merged[space], marker)
	s.mu.Unlock()
	return marker, true
}

// step is one request (or, authoring, three) of a load client, chosen
// at random: readers' insights events (page views, votes) 5% of the
// time, reads 45%, then authoring and merges, comments
// on spaces and on change requests, a new space now and then.
func (s *soak) step(rng *rand.Rand) {
	s.mu.Lock()
	i := rng.IntN(len(s.active))
	sp, full := s.active[i], len(s.merged[s.active[i]]) >= pagesPerSpace
	s.mu.Unlock()
	if full {
		s.replace(i, sp)
		return
	}
	switch n := rng.IntN(100); {
	case n < 5:
		s.track(rng)
	case n < 50:
		reads := []string{"/v1/spaces/" + sp, "/v1/spaces/" + sp + "/content", "/v1/orgs/" + s.org + "/spaces",
			"/v1/spaces/" + sp + "/change-requests?status=merged", "/v1/spaces/" + sp + "/comments", "/v1/spaces/" + s.git + "/git/info"}
		s.do("GET", reads[rng.IntN(len(reads))], nil)
	case n < 65:
		s.author(rng, sp)
	case n < 78:
		if st, c := s.do("POST", "/v1/spaces/"+sp+"/comments", map[string]any{"body": map[string]any{"markdown": "Comment"}}); st == http.StatusOK {
			s.mu.Lock()
			s.comments[sp] = append(s.comments[sp], c["id"].(string))
			s.mu.Unlock()
		}
	case n < 97:
		s.mu.Lock()
		var cr string
		if len(s.crs) > 0 {
			cr = s.crs[rng.IntN(len(s.crs))]
		}
		s.mu.Unlock()
		if cr == "" {
			return
		}
		if st, c := s.do("POST", cr+"/comments", map[string]any{"body": map[string]any{"markdown": "Review"}}); st == http.StatusOK {
			s.mu.Lock()
			s.comments[cr] = append(s.comments[cr], c["id"].(string))
			s.mu.Unlock()
		}
	default:
		if st, made := s.do("POST", "/v1/orgs/"+s.org+"/spaces", map[string]any{"title": "More"}); st == http.StatusCreated {
			s.mu.Lock()
			s.spacesMade = append(s.spacesMade, made["id"].(string))
			s.mu.Unlock()
		}
	}
}

// replace makes a new space to take the place of the active space i
// (sp) once it is full; another client may have done it already.
func (s *soak) replace(i int, sp string) {
	st, made := s.do("POST", "/v1/orgs/"+s.org+"/spaces", map[string]any{"title": "Docs"})
	if st != http.StatusCreated {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := made["id"].(string)
	s.spacesMade = append(s.spacesMade, id)
	if s.active[i] == sp {
		s.active[i] = id
		s.all = append(s.all, id)
	}
}

// gitWait waits for the synced space's Git jobs to conclude (none
// pending, the operation not running) and answers the last one's state;
// "stuck" after two minutes. Reads answered 503 are read again.
func (s *soak) gitWait() string {
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		st, info := s.do("GET", "/v1/spaces/"+s.git+"/git/info", nil)
		if st != http.StatusOK {
			continue
		}
		op, _ := info["operation"].(map[string]any)
		sync, _ := info["galleySync"].(map[string]any)
		pending, _ := sync["pending"].([]any)
		if op != nil && op["state"] != "running" && len(pending) == 0 {
			return op["state"].(string)
		}
	}
	return "stuck"
}

// gitRound is one Git job asked for and waited for: even rounds an
// export of a page merged just before (one commit holding it), odd
// rounds an import of a commit pushed to the branch (one revision
// holding it). A job's request answered 503, or cut by a killed process,
// is asked again.
func (s *soak) gitRound(tb testing.TB, rng *rand.Rand, i int) {
	var kind, marker string
	var body map[string]any
	tip := s.repo.Head(tb)
	if i%2 == 0 {
		kind = "export"
		var ok bool
		if marker, ok = s.author(rng, s.git); !ok {
			return
		}
		body = map[string]any{"url": s.repo.URL, "ref": "refs/heads/main", "commitMessage": "Export " + marker}
	} else {
		kind, marker = "import", fmt.Sprintf("g%016x", rng.Uint64())
		s.repo.Commit(tb, marker+".md", "# "+marker+"\n\n"+marker+"\n")
		body = map[string]any{"url": s.repo.URL, "ref": "refs/heads/main"}
	}
	for attempt := 0; ; attempt++ {
		st, _ := s.do("POST", "/v1/spaces/"+s.git+"/git/"+kind, body)
		if st == http.StatusNoContent {
			break
		}
		if (st != http.StatusServiceUnavailable && st != statusKilled) || attempt == 10 {
			s.violate("git %s %s: %d", kind, marker, st)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	state := s.gitWait()
	s.mu.Lock()
	s.gitJobs[kind+" "+state]++
	s.mu.Unlock()
	switch {
	case state == "stuck":
		s.violate("git %s %s: still running or pending after 2 minutes", kind, marker)
	case state != "success":
		// A visible failure (the job gave up on a store that kept
		// failing): allowed, counted; nothing of it may show.
		if s.repo.Head(tb) != tip && kind == "export" {
			s.violate("git export %s failed but the branch moved", marker)
		}
	case kind == "export":
		if n := strings.TrimSpace(testenv.Git(tb, s.repo.Bare, "rev-list", "--count", tip+"..refs/heads/main")); n != "1" {
			s.violate("git export %s: %s commits, want 1", marker, n)
		}
		if !strings.Contains(testenv.Git(tb, s.repo.Bare, "grep", "-l", marker, "refs/heads/main"), ".md") {
			s.violate("git export %s: the page is not in the branch", marker)
		}
	default:
		s.mu.Lock()
		s.imports++
		s.merged[s.git] = append(s.merged[s.git], marker)
		s.mu.Unlock()
	}
}

// run loads the rig for d with the faults set, then stops, clears them,
// and waits for the Git jobs to conclude.
func (s *soak) run(tb testing.TB, d time.Duration, mem *memory) {
	tb.Helper()
	if s.r.proxy != nil {
		s.r.proxy.Set(s.r.faults...)
	}
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for w := range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
			for time.Now().Before(stop) {
				s.step(rng)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(99, uint64(time.Now().UnixNano())))
		for i := 0; time.Now().Before(stop); i++ {
			s.gitRound(tb, rng, i)
		}
	}()
	if s.r.during != nil {
		wg.Add(1)
		go func() { defer wg.Done(); s.r.during(stop) }()
	}
	mem.sample(stop, s.r.procRSS)
	wg.Wait()
	if s.r.proxy != nil {
		s.r.proxy.Set()
	}
}

// check looks for every acknowledged write and checks the invariants, on
// the API without faults (read without the document's validation: tens
// of thousands of answers); it answers the violations (with those of the
// load).
func (s *soak) check(tb testing.TB) []string {
	tb.Helper()
	if st := s.gitWait(); st == "stuck" {
		s.violate("Git jobs still running or pending after the load")
	}
	// Jobs: none left in the queue, none dead-lettered.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		queued, dead := s.r.jobsLeft(tb)
		if dead != 0 {
			s.violate("%d jobs dead-lettered", dead)
		}
		if queued == 0 || dead != 0 {
			break
		}
		if time.Now().After(deadline) {
			s.violate("%d jobs still queued a minute after the load", queued)
			break
		}
	}
	s.jobs = s.checkJobs(tb)
	ids := func(path string) []string {
		return testkit.Field(s.items(tb, path), "id")
	}
	lacks := func(what string, have, acked []string) {
		for _, id := range acked {
			if !slices.Contains(have, id) {
				s.violate("%s: acknowledged %s missing", what, id)
			}
		}
	}
	lacks("spaces", ids("/v1/orgs/"+s.org+"/spaces"), s.spacesMade)
	for key, acked := range s.comments {
		if strings.Contains(key, "/change-requests/") {
			lacks(key+" comments", ids(key+"/comments"), acked)
		} else {
			lacks(key+" comments", ids("/v1/spaces/"+key+"/comments"), acked)
		}
	}
	// Counters: each request's comment count is its comments listed.
	for _, cr := range s.crs {
		var got struct {
			Comments int `json:"comments"`
		}
		s.get(tb, cr, &got)
		if n := len(s.items(tb, cr+"/comments")); n != got.Comments {
			s.violate("%s: counts %d comments, lists %d", cr, got.Comments, n)
		}
	}
	// Content and revisions: every acknowledged page in its space's head;
	// the head's line of revisions is the revisions before, one per
	// merged request and one per import (none lost, none twice); each
	// merged request names its own revision.
	for _, sp := range append(slices.Clone(s.all), s.git) {
		head := s.serve("GET", "/v1/spaces/"+sp+"/content", nil).Body.Bytes()
		for _, m := range s.merged[sp] {
			if !bytes.Contains(head, []byte(m)) {
				s.violate("space %s: acknowledged page %s not in the head", sp, m)
			}
		}
		merged := s.items(tb, "/v1/spaces/"+sp+"/change-requests?status=merged")
		revs := testkit.Field(merged, "revisionMerged")
		slices.Sort(revs)
		if len(slices.Compact(revs)) != len(merged) || slices.Contains(revs, "") {
			s.violate("space %s: merged requests share or lack their revision: %v", sp, revs)
		}
		before, imports := s.fresh, 0
		if sp == s.git {
			before, imports = s.base, s.imports
		}
		if got := s.revisions(tb, sp); got != before+len(merged)+imports {
			s.violate("space %s: %d revisions from the head, want %d (%d before, %d merged, %d imports)", sp, got, before+len(merged)+imports, before, len(merged), imports)
		}
	}
	return s.violations
}

// get reads path (200, or the test fails) into v, without the
// document's validation.
func (s *soak) get(tb testing.TB, path string, v any) {
	tb.Helper()
	rec := s.serve("GET", path, nil)
	if rec.Code != http.StatusOK {
		tb.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body.Bytes())
	}
	if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
		tb.Fatalf("GET %s: %v", path, err)
	}
}

// items reads every page of the list at path (which may have a query).
func (s *soak) items(tb testing.TB, path string) []map[string]any {
	tb.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var all []map[string]any
	page := ""
	for {
		var body struct {
			Next *struct {
				Page string `json:"page"`
			} `json:"next"`
			Items []map[string]any `json:"items"`
		}
		p := path + sep + "limit=100"
		if page != "" {
			p += "&page=" + url.QueryEscape(page)
		}
		s.get(tb, p, &body)
		all = append(all, body.Items...)
		if body.Next == nil {
			return all
		}
		page = body.Next.Page
	}
}

// revisions counts the revisions of a space's head line (first parents).
func (s *soak) revisions(tb testing.TB, space string) int {
	tb.Helper()
	var rev struct {
		ID      string   `json:"id"`
		Parents []string `json:"parents"`
	}
	if s.serve("GET", "/v1/spaces/"+space+"/content", nil).Code == http.StatusNotFound {
		return 0
	}
	s.get(tb, "/v1/spaces/"+space+"/content", &rev)
	n := 1
	for len(rev.Parents) > 0 {
		s.get(tb, "/v1/spaces/"+space+"/revisions/"+rev.Parents[0], &rev)
		n++
	}
	return n
}

// duration is SOAK_DURATION (a Go duration), or def.
func duration(tb testing.TB, def time.Duration) time.Duration {
	v := os.Getenv("SOAK_DURATION")
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		tb.Fatalf("SOAK_DURATION: %v", err)
	}
	return d
}
