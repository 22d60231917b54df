package sso_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/galleydocs/galley/shared/sso"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// A response posted many times at once signs in once: the used ids are
// written with "put if not exists", whose condition only one write meets,
// on both backends. Providers and translation settings work on both too.
func TestSignInOnceUnderConcurrentReplaysOnEveryBackend(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		p := newIdP(t, f)
		pr := p.provider(t, f, nil)
		response, acs := p.signIn(t, f, startURL(pr))
		const n = 8
		codes := make([]int, n)
		var wg sync.WaitGroup
		h := f.API.API.Handler()
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req := httptest.NewRequest("POST", u(acs), strings.NewReader("SAMLResponse="+url.QueryEscape(response)))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.AddCookie(&http.Cookie{Name: sso.SAMLSignInCookie, Value: f.browser})
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				codes[i] = rec.Code
			}()
		}
		wg.Wait()
		ok, refused := 0, 0
		for _, c := range codes {
			switch c {
			case http.StatusOK:
				ok++
			case http.StatusUnauthorized:
				refused++
			}
		}
		if ok != 1 || refused != n-1 {
			t.Errorf("%d concurrent posts of one response: %v; want one 200 and 401 for the others", n, codes)
		}
		members := f.With(t, f.admin).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/members?limit=100", nil).Map(t)["items"].([]any)
		sso := 0
		for _, m := range members {
			if m.(map[string]any)["sso"] == true {
				sso++
			}
		}
		if sso != 1 {
			t.Errorf("%d SSO members after one sign-in", sso)
		}

		// A second sign-in works, and the provider can be changed and removed.
		response, acs = p.signIn(t, f, startURL(pr))
		post(t, f, acs, response, http.StatusOK)
		one := f.base() + "/" + pr["id"].(string)
		f.With(t, f.admin).Expect(http.StatusOK, "PATCH", one, map[string]any{"label": "Renamed", "defaultTeam": nil})
		f.With(t, f.admin).Expect(http.StatusNoContent, "DELETE", one, nil)

		tr := "/v1/orgs/" + f.Org.ID + "/translations"
		id := f.With(t, f.admin).Expect(http.StatusCreated, "POST", tr, map[string]any{"title": "T", "languages": []string{"fr"}}).Map(t)["id"].(string)
		f.With(t, f.admin).Expect(http.StatusOK, "PUT", tr+"/"+id, map[string]any{"title": "U"})
		if n := f.With(t, f.reader).Expect(http.StatusOK, "GET", tr, nil).Map(t)["count"]; n != 1.0 {
			t.Errorf("%v translation settings listed, want 1", n)
		}
		f.With(t, f.admin).Expect(http.StatusResetContent, "DELETE", tr+"/"+id, nil)
	})
}
