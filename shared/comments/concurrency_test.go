package comments_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// TestCountersStayExactUnderConcurrentWriters posts 50 comments at once on
// the space and 50 in a change request, then deletes 25 of each at once
// while 25 more are posted and 10 resolved: the space's and the request's
// open comment counts match what is stored, on each storage backend.
func TestCountersStayExactUnderConcurrentWriters(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		cr := f.request(t, "Review")
		bases := map[string]string{"space": f.comments(), "request": f.crComments(cr["number"])}
		counter := map[string]func() int{
			"space": func() int { return count(f.spaceOf(t), "comments") },
			"request": func() int {
				return count(f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(cr["id"]), nil).Map(t), "comments")
			},
		}
		const n = 50
		made := map[string][]string{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		post := func(where string, token string) {
			defer wg.Done()
			res := f.as(t, token).Do("POST", bases[where], say("concurrent"))
			if res.Status != http.StatusOK {
				t.Errorf("post: %d %s", res.Status, res.Body)
				return
			}
			mu.Lock()
			made[where] = append(made[where], id(res.Map(t)))
			mu.Unlock()
		}
		for i := 0; i < n; i++ {
			for where := range bases {
				wg.Add(1)
				go post(where, []string{f.commenter, f.commenter2}[i%2])
			}
		}
		wg.Wait()
		for where := range bases {
			if got := counter[where](); got != n || len(made[where]) != n {
				t.Fatalf("%s: count %d with %d comments posted, want %d", where, got, len(made[where]), n)
			}
		}

		// Deletions, creations and resolutions at once.
		first := map[string][]string{}
		for where := range bases {
			first[where] = append([]string(nil), made[where]...)
		}
		for where, ids := range first {
			for i, c := range ids {
				switch {
				case i < 25:
					wg.Add(1)
					go func(path string) {
						defer wg.Done()
						if res := f.as(t, f.admin).Do("DELETE", path, nil); res.Status != http.StatusResetContent {
							t.Errorf("delete: %d %s", res.Status, res.Body)
						}
					}(bases[where] + "/" + c)
				case i < 35:
					wg.Add(1)
					go func(path string) {
						defer wg.Done()
						if res := f.as(t, f.editor).Do("PUT", path, map[string]any{"resolved": true}); res.Status != http.StatusOK {
							t.Errorf("resolve: %d %s", res.Status, res.Body)
						}
					}(bases[where] + "/" + c)
				}
			}
			for i := 0; i < 25; i++ {
				wg.Add(1)
				go post(where, f.commenter)
			}
		}
		wg.Wait()
		for where := range bases {
			// 50 - 25 deleted - 10 resolved + 25 posted.
			if got := counter[where](); got != 40 {
				t.Fatalf("%s: open count %d after the mixed writes, want 40", where, got)
			}
			stored := f.as(t, f.reader).Expect(http.StatusOK, "GET", bases[where]+"?status=open&limit=1000", nil).Map(t)
			if stored["count"] != 40.0 {
				t.Fatalf("%s: %v open comments listed, want 40", where, stored["count"])
			}
			all := f.as(t, f.reader).Expect(http.StatusOK, "GET", bases[where]+"?limit=1000", nil).Map(t)
			if all["count"] != 50.0 {
				t.Fatalf("%s: %v comments listed, want 50", where, all["count"])
			}
		}
	})
}
