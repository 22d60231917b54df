// Package faults_test is the fault suite of the API and the workers: the
// families' services on DynamoDB Local behind a fault proxy (package
// faultproxy), as the functions run them in AWS (docs/faults.md).
package faults_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/testenv/faultproxy"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// dynamoWrites are DynamoDB's write operations.
var dynamoWrites = []string{"PutItem", "DeleteItem", "UpdateItem", "TransactWriteItems", "BatchWriteItem"}

// apiOn returns the API fixture serving families on a fresh table of
// DynamoDB Local reached through a fault proxy, and the proxy.
func apiOn(t testing.TB, families ...string) (*testkit.API, *faultproxy.Proxy) {
	t.Helper()
	p := faultproxy.New(t, faultproxy.Upstreams{DynamoDB: testkit.DynamoDBLocal().Endpoint(t)})
	k := testkit.NewOn(t, testkit.DynamoStoreAt(t, p.URL))
	return testkit.NewAPI(t, k, families), p
}

// familyWrite is one write of a family's API: a request that makes a new
// record each time (n numbers it), and the list that shows it.
type familyWrite struct {
	family  []string
	method  string
	path    func(a *testkit.API, t *testing.T) string
	body    func(n int) any
	created int
	list    func(a *testkit.API, t *testing.T) string
	asUser  string
	// pathOf, when set, is the path of the write numbered n (a PUT to
	// the record's own path).
	pathOf func(a *testkit.API, n int) string
	// again is another status the write may answer when repeated after a
	// 503 (a PUT that made its record before failing updates it).
	again int
	// madeBefore503: a 503 may come after the record was made (a spec
	// made, its processing failed): listed once after the 503, and still
	// once after the repeat.
	madeBefore503 bool
}

const petsSpec = `{"openapi":"3.0.0","info":{"title":"Pets","version":"1"},"paths":{}}`

func orgPath(suffix string) func(a *testkit.API, t *testing.T) string {
	return func(a *testkit.API, _ *testing.T) string { return "/v1/orgs/" + a.Org.ID + suffix }
}

func spacePath(suffix string) func(a *testkit.API, t *testing.T) string {
	return func(a *testkit.API, t *testing.T) string { return "/v1/spaces/" + a.Space(t) + suffix }
}

// writes lists a write of each family that writes through the API.
var writes = map[string]familyWrite{
	"spaces": {family: []string{"spaces"}, method: "POST", path: orgPath("/spaces"), created: 201,
		body: func(n int) any { return map[string]any{"title": fmt.Sprint("Space ", n)} }},
	"collections": {family: []string{"collections"}, method: "POST", path: orgPath("/collections"), created: 201,
		body: func(n int) any { return map[string]any{"title": fmt.Sprint("Guides ", n)} }},
	"sites": {family: []string{"sites"}, method: "POST", path: orgPath("/sites"), created: 201,
		body: func(n int) any { return map[string]any{"title": fmt.Sprint("Site ", n)} }},
	"orgs (teams)": {family: []string{"orgs"}, method: "PUT", path: orgPath("/teams"), created: 201,
		body: func(n int) any { return map[string]any{"title": fmt.Sprint("Team ", n)} }},
	"customfields": {family: []string{"customfields"}, method: "POST", path: orgPath("/custom-fields"), created: 201,
		body: func(n int) any {
			return map[string]any{"name": fmt.Sprint("field-", n), "type": "text", "title": fmt.Sprint("Field ", n)}
		}},
	// PUT; a POST repeated after such a 503 answers 201 too
	// (openapispecs TestPostAgainAfterEnqueueFailed, docs/faults.md).
	"openapi": {family: []string{"openapi"}, method: "PUT", created: 201, again: http.StatusOK, asUser: "create",
		path:          func(*testkit.API, *testing.T) string { return "" },
		body:          func(n int) any { return map[string]any{"source": map[string]any{"text": petsSpec}} },
		list:          orgPath("/openapi"),
		pathOf:        func(a *testkit.API, n int) string { return fmt.Sprint("/v1/orgs/", a.Org.ID, "/openapi/pets-", n) },
		madeBefore503: true},
	"changerequests": {family: []string{"changerequests"}, method: "POST", path: spacePath("/change-requests"), created: 201,
		body: func(n int) any { return map[string]any{"subject": fmt.Sprint("Change ", n)} },
		list: spacePath("/change-requests?status=draft")},
	"comments": {family: []string{"comments"}, method: "POST", path: spacePath("/comments"), created: 200,
		body: func(n int) any { return map[string]any{"body": map[string]any{"markdown": fmt.Sprint("Comment ", n)}} }},
	"users (tokens)": {family: []string{"users"}, method: "POST", path: func(*testkit.API, *testing.T) string { return "/v1/user/tokens" },
		created: 201, body: func(n int) any { return map[string]any{"name": fmt.Sprint("token ", n)} }},
}

// count is how many items the list of w's records shows.
func (w familyWrite) count(t *testing.T, c *apitest.Client, path string) int {
	t.Helper()
	var page struct {
		Items []any `json:"items"`
		Next  any   `json:"next"`
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	c.Expect(http.StatusOK, "GET", path+sep+"limit=100", nil).JSON(t, &page)
	if page.Next != nil {
		t.Fatalf("%s: more than one page", path)
	}
	return len(page.Items)
}

// Each family's write under DynamoDB faults:
//   - a tenth of the calls throttled: every write answers its success, and
//     is listed afterwards;
//   - every write call throttled, from the first, second or third of the
//     request on: 503 with Retry-After and the usual error shape (never
//     500); afterwards the same write (same names and slugs) succeeds
//     once, so nothing half-written blocks it or shows twice;
//   - the answer of a write call lost after DynamoDB applied it: the
//     request answers its success and its record is there once.
func TestFaultsFamilyWrites(t *testing.T) {
	for name, w := range writes {
		t.Run(name, func(t *testing.T) {
			a, p := apiOn(t, w.family...)
			user := w.asUser
			if user == "" {
				user = "admin"
			}
			c := a.As(t, user)
			path, list := w.path(a, t), w.path(a, t)
			if w.list != nil {
				list = w.list(a, t)
			}
			before := w.count(t, c, list)
			n := 0
			write := func() apitest.Response {
				t.Helper()
				p := path
				if w.pathOf != nil {
					p = w.pathOf(a, n)
				}
				res := c.Do(w.method, p, w.body(n))
				if res.Status == http.StatusInternalServerError {
					t.Fatalf("write %d: 500 %s", n, res.Body)
				}
				return res
			}

			// At least 8 writes, and on until 3 calls were throttled.
			p.Set(faultproxy.Rule{Service: faultproxy.DynamoDB, Share: 0.1, Fault: faultproxy.ProvisionedThroughputExceeded})
			for n < 8 || p.Injected(faultproxy.DynamoDB, "") < 3 {
				if n == 100 {
					t.Fatalf("3 faults not injected in %d calls", p.Calls(faultproxy.DynamoDB, ""))
				}
				if res := write(); res.Status != w.created {
					t.Errorf("write %d under 10%% throttling: %d %s", n, res.Status, res.Body)
				}
				n++
			}
			p.Set()
			if got := w.count(t, c, list); got != before+n {
				t.Errorf("%d listed after %d writes under throttling, want %d", got, n, before+n)
			}

			for skip := range 3 {
				p.Set(faultproxy.Rule{Service: faultproxy.DynamoDB, Ops: dynamoWrites, Skip: skip, Fault: faultproxy.ProvisionedThroughputExceeded})
				res := write()
				p.Set()
				switch res.Status {
				case w.created: // the request made fewer writes than skip
					if skip == 0 {
						t.Fatalf("every write throttled: %d %s, want 503", res.Status, res.Body)
					}
					n++
					continue
				case http.StatusServiceUnavailable:
				default:
					t.Fatalf("writes throttled after %d: %d %s, want 503", skip, res.Status, res.Body)
				}
				var body httpapi.ErrorBody
				res.JSON(t, &body)
				if res.Header.Get("Retry-After") != httpapi.RetryAfterUnavailable || body.Err.Code != 503 || body.Err.Message != httpapi.UnavailableMessage {
					t.Errorf("503 without Retry-After or the error shape: %v %s", res.Header, res.Body)
				}
				if got := w.count(t, c, list); got != before+n && (!w.madeBefore503 || got != before+n+1) {
					t.Errorf("after a 503 (writes throttled after %d): %d listed, want %d", skip, got, before+n)
				}
				if again := write(); again.Status != w.created && (w.again == 0 || again.Status != w.again) {
					t.Errorf("the same write after the 503 (writes throttled after %d): %d %s", skip, again.Status, again.Body)
				}
				n++
				if got := w.count(t, c, list); got != before+n {
					t.Errorf("after the write again: %d listed, want %d", got, before+n)
				}
			}

			p.Set(faultproxy.Rule{Service: faultproxy.DynamoDB, Ops: dynamoWrites, Count: 1, Fault: faultproxy.DropAnswer})
			if res := write(); res.Status != w.created {
				t.Errorf("write whose store answer was lost: %d %s, want %d", res.Status, res.Body, w.created)
			}
			n++
			p.Set()
			if got := w.count(t, c, list); got != before+n {
				t.Errorf("after a lost answer: %d listed, want %d", got, before+n)
			}
		})
	}
}
