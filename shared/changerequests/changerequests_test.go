package changerequests_test

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

func TestCreateAnswers201WithANumberedDraft(t *testing.T) {
	f := setup(t)
	head := f.spaceOf(t)["revision"]
	res := f.as(t, f.editor).Expect(http.StatusCreated, "POST", f.crs(), map[string]any{"subject": "Fix typos", "agentTaskId": "task-1"})
	cr := res.Map(t)
	for field, want := range map[string]any{"object": "change-request", "number": 1.0, "status": "draft", "subject": "Fix typos",
		"revision": head, "revisionInitial": head, "outdated": false, "comments": 0.0} {
		if cr[field] != want {
			t.Errorf("%s = %v, want %v", field, cr[field], want)
		}
	}
	if cr["createdBy"].(map[string]any)["id"] != f.editorID {
		t.Errorf("createdBy %v", cr["createdBy"])
	}
	if loc := res.Header.Get("Location"); loc != "https://api.test"+f.cr(cr["id"]) || cr["urls"].(map[string]any)["location"] != loc {
		t.Errorf("Location %q, urls %v", loc, cr["urls"])
	}
	if app := cr["urls"].(map[string]any)["app"]; app != "https://app.test/s/"+f.space+"/~/changes/1" {
		t.Errorf("urls.app %v", app)
	}
	second := f.as(t, f.editor).Expect(http.StatusCreated, "POST", f.crs(), nil).Map(t)
	if second["number"] != 2.0 || second["subject"] != "" {
		t.Errorf("second request %v", second)
	}
	sp := f.spaceOf(t)
	if sp["changeRequests"] != 2.0 || sp["changeRequestsDraft"] != 2.0 || sp["changeRequestsOpen"] != 0.0 {
		t.Errorf("space counters %v %v %v", sp["changeRequests"], sp["changeRequestsDraft"], sp["changeRequestsOpen"])
	}
}

func TestCreateRejects(t *testing.T) {
	f := setup(t)
	cases := []testkit.Case{
		{"400SubjectTooLong", f.editor, "POST", f.crs(), map[string]any{"subject": strings.Repeat("x", 101)}, 400, "subject"},
		{"400AgentTaskTooLong", f.editor, "POST", f.crs(), map[string]any{"agentTaskId": strings.Repeat("x", 101)}, 400, "agentTaskId"},
		{"400MalformedJSON", f.editor, "POST", f.crs(), `{"subject":`, 400, ""},
		{"401NoToken", "", "POST", f.crs(), nil, 401, ""},
		{"403Reader", f.reader, "POST", f.crs(), nil, 403, ""},
		{"404Guest", f.guest, "POST", f.crs(), nil, 404, ""},
		{"404Outsider", f.outsider, "POST", f.crs(), nil, 404, ""},
		{"404UnknownSpace", f.editor, "POST", "/v1/spaces/unknown/change-requests", nil, 404, ""},
	}
	testkit.Check(t, f.api, cases)
	if sp := f.spaceOf(t); sp["changeRequests"] != 0.0 {
		t.Errorf("refused creations counted: %v", sp["changeRequests"])
	}
}

func TestConcurrentCreationsGetDistinctNumbers(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) { concurrentCreations(t, setupOn(t, k)) })
}

func concurrentCreations(t *testing.T, f *fixture) {
	const n = 12
	var wg sync.WaitGroup
	numbers := make([]int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := f.as(t, f.editor).Do("POST", f.crs(), nil)
			if res.Status != http.StatusCreated {
				t.Errorf("create: %d %s", res.Status, res.Body)
				return
			}
			numbers[i] = int(res.Map(t)["number"].(float64))
		}(i)
	}
	wg.Wait()
	sort.Ints(numbers)
	for i, got := range numbers {
		if got != i+1 {
			t.Fatalf("numbers %v, want 1..%d without duplicates", numbers, n)
		}
	}
	if sp := f.spaceOf(t); sp["changeRequests"] != float64(n) || sp["changeRequestsDraft"] != float64(n) {
		t.Fatalf("counters %v/%v after %d creations", sp["changeRequests"], sp["changeRequestsDraft"], n)
	}
}

func TestGetByIdOrNumber(t *testing.T) {
	f := setup(t)
	cr := f.create(t, f.editor, "One")
	byID := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(cr["id"]), nil).Map(t)
	byNumber := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1), nil).Map(t)
	if byID["id"] != cr["id"] || byNumber["id"] != cr["id"] {
		t.Fatalf("by id %v, by number %v", byID["id"], byNumber["id"])
	}
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", f.cr(2), nil)
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", f.cr("nope"), nil)
	f.as(t, "").Expect(http.StatusUnauthorized, "GET", f.cr(1), nil)
	f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", f.cr(1), nil)
	f.as(t, f.guest).Expect(http.StatusNotFound, "GET", f.cr(1), nil)
}

func TestPatchSubjectAndStatusWithCounters(t *testing.T) {
	f := setup(t)
	cr := f.create(t, f.editor, "One")
	path := f.cr(cr["id"])
	ed := f.as(t, f.editor)
	got := ed.Expect(http.StatusOK, "PATCH", path, map[string]any{"status": "open"}).Map(t)
	if got["status"] != "open" || got["subject"] != "One" {
		t.Fatalf("after opening %v", got)
	}
	sp := f.spaceOf(t)
	if sp["changeRequestsOpen"] != 1.0 || sp["changeRequestsDraft"] != 0.0 {
		t.Fatalf("counters after opening: open %v draft %v", sp["changeRequestsOpen"], sp["changeRequestsDraft"])
	}
	got = ed.Expect(http.StatusOK, "PATCH", f.cr(1), map[string]any{"subject": "Renamed"}).Map(t)
	if got["status"] != "open" || got["subject"] != "Renamed" {
		t.Fatalf("after renaming %v", got)
	}
	ed.Expect(http.StatusOK, "PATCH", path, map[string]any{"status": "archived"})
	sp = f.spaceOf(t)
	if sp["changeRequestsOpen"] != 0.0 || sp["changeRequestsDraft"] != 0.0 || sp["changeRequests"] != 1.0 {
		t.Fatalf("counters after archiving %v", sp)
	}
	// An archived request can be reopened.
	ed.Expect(http.StatusOK, "PATCH", path, map[string]any{"status": "open"})
	testkit.Check(t, f.api, []testkit.Case{
		{"400SubjectTooLong", f.editor, "PATCH", path, map[string]any{"subject": strings.Repeat("x", 101)}, 400, "subject"},
		{"400StatusMerged", f.editor, "PATCH", path, map[string]any{"status": "merged"}, 400, "status"},
		{"400UnknownStatus", f.editor, "PATCH", path, map[string]any{"status": "closed"}, 400, "status"},
		{"401NoToken", "", "PATCH", path, map[string]any{"subject": "x"}, 401, ""},
		{"403Reader", f.reader, "PATCH", path, map[string]any{"subject": "x"}, 403, ""},
		{"404Outsider", f.outsider, "PATCH", path, map[string]any{"subject": "x"}, 404, ""},
	})
	f.as(t, f.editor).Expect(http.StatusNotFound, "PATCH", f.cr(9), map[string]any{"subject": "x"})
}

func TestListFiltersByStatusAndContributorAndPages(t *testing.T) {
	f := setup(t)
	for i := 1; i <= 5; i++ {
		token := f.editor
		if i%2 == 0 {
			token = f.admin
		}
		f.create(t, token, fmt.Sprintf("CR %d", i))
	}
	for _, n := range []int{2, 3, 5} {
		f.as(t, f.admin).Expect(http.StatusOK, "PATCH", f.cr(n), map[string]any{"status": "open"})
	}
	list := func(query string) []float64 {
		t.Helper()
		var numbers []float64
		page := ""
		for i := 0; i < 10; i++ {
			path := f.crs() + "?limit=2" + query
			if page != "" {
				path += "&page=" + url.QueryEscape(page)
			}
			body := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t)
			for _, it := range body["items"].([]any) {
				numbers = append(numbers, it.(map[string]any)["number"].(float64))
			}
			next, _ := body["next"].(map[string]any)
			if next == nil {
				break
			}
			page = next["page"].(string)
		}
		return numbers
	}
	for query, want := range map[string]string{
		"":                                       "[5 3 2]",
		"&status=open":                           "[5 3 2]",
		"&status=draft":                          "[4 1]",
		"&status=open&contributor=" + f.editorID: "[5 3]",
		"&status=draft&contributor=" + f.editorID: "[1]",
		"&status=merged": "[]",
	} {
		if got := fmt.Sprint(list(query)); got != want {
			t.Errorf("list%s = %s, want %s", query, got, want)
		}
	}
	// Page tokens are bound to their list.
	first := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.crs()+"?limit=1", nil).Map(t)
	token := first["next"].(map[string]any)["page"].(string)
	f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", f.crs()+"?status=draft&page="+url.QueryEscape(token), nil)
	for _, q := range []string{"?limit=0", "?limit=1001", "?status=closed"} {
		f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", f.crs()+q, nil)
	}
	f.as(t, "").Expect(http.StatusUnauthorized, "GET", f.crs(), nil)
	f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", f.crs(), nil)
	f.as(t, f.guest).Expect(http.StatusNotFound, "GET", f.crs(), nil)
}
