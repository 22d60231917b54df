package sites_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/galleydocs/galley/shared/testkit"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/store"
)

// contended is a store on which every write touching a site's partition
// fails its condition while on is set: contention beyond any retry budget.
type contended struct {
	store.Store
	on     atomic.Bool
	writes atomic.Int64 // writes refused
}

func (c *contended) Write(ctx context.Context, ops ...store.Op) error {
	if c.on.Load() {
		for _, op := range ops {
			if strings.HasPrefix(op.Item.PK, "SITE#") {
				c.writes.Add(1)
				return store.ErrConflict
			}
		}
	}
	return c.Store.Write(ctx, ops...)
}

// A site change that loses every race answers 409 in the error shape, not
// 500: the request was valid, others kept changing the site.
func TestSiteChangesBeyondTheRetryBudgetAnswerConflict(t *testing.T) {
	st := &contended{Store: testkit.BoltStore(t)}
	f := newFixture(t, testkit.NewOn(t, st))
	site, _ := f.site(t, map[string]any{"title": "Docs"})
	sp := f.space(t, "Guides")
	ss := f.as(t, f.admin).Expect(http.StatusCreated, "POST", site+"/site-spaces", map[string]any{"spaceId": sp}).Map(t)["id"].(string)
	other := f.space(t, "API")

	st.on.Store(true)
	for _, c := range []struct {
		name, method, path string
		body               map[string]any
	}{
		{"update the site", "PATCH", site, map[string]any{"title": "Handbook"}},
		{"add a site space", "POST", site + "/site-spaces", map[string]any{"spaceId": other}},
		{"update a site space", "PATCH", site + "/site-spaces/" + ss, map[string]any{"path": "guides"}},
		{"add a section", "POST", site + "/sections", map[string]any{"spaceId": other, "title": "API"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := st.writes.Load()
			res := f.as(t, f.admin).Expect(http.StatusConflict, c.method, c.path, c.body)
			var body struct {
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			res.JSON(t, &body)
			if body.Error.Code != http.StatusConflict || body.Error.Message != httpapi.ContentionMessage {
				t.Errorf("body %s, want code 409 and message %q", res.Body, httpapi.ContentionMessage)
			}
			if n := st.writes.Load() - before; n != store.MaxAttempts {
				t.Errorf("%d writes tried, want the retry budget (%d): one retry loop, not nested ones", n, store.MaxAttempts)
			}
		})
	}
	st.on.Store(false)
	if got := f.as(t, f.reader).Expect(http.StatusOK, "GET", site, nil).Map(t)["title"]; got != "Docs" {
		t.Errorf("title %v after refused changes", got)
	}
}

// Many concurrent changes of one site, its site spaces and its sections
// never answer a server error: each lands or, beyond the retry budget,
// answers 409.
func TestConcurrentSiteChangesNeverAnswerServerErrors(t *testing.T) {
	backends(t, func(t *testing.T, f *fixture) {
		site, _ := f.site(t, map[string]any{"title": "Docs"})
		const n = 6
		var spaceIDs []string
		for i := 0; i < 2*n; i++ {
			spaceIDs = append(spaceIDs, f.space(t, fmt.Sprintf("Space %d", i)))
		}
		type call struct {
			method, path string
			body         map[string]any
		}
		var calls []call
		for i := 0; i < n; i++ {
			calls = append(calls,
				call{"PATCH", site, map[string]any{"title": fmt.Sprintf("Docs %d", i)}},
				call{"POST", site + "/site-spaces", map[string]any{"spaceId": spaceIDs[i]}},
				call{"POST", site + "/sections", map[string]any{"spaceId": spaceIDs[n+i], "title": fmt.Sprintf("Section %d", i)}})
		}
		h := f.api.Handler()
		statuses := make([]int, len(calls))
		bodies := make([]string, len(calls))
		var wg sync.WaitGroup
		for i, c := range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				data, _ := json.Marshal(c.body)
				req := httptest.NewRequest(c.method, c.path, strings.NewReader(string(data)))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+f.admin)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				statuses[i], bodies[i] = rec.Code, rec.Body.String()
			}()
		}
		wg.Wait()
		for i, c := range calls {
			switch statuses[i] {
			case http.StatusOK, http.StatusCreated:
			case http.StatusConflict:
				if !strings.Contains(bodies[i], `"code":409`) {
					t.Errorf("%s %s: 409 without the error shape: %s", c.method, c.path, bodies[i])
				}
			default:
				t.Errorf("%s %s: status %d: %s", c.method, c.path, statuses[i], bodies[i])
			}
		}
	})
}
