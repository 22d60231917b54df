package search_test

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// TestSiteSearch: a site's search covers its site spaces' spaces that the
// caller may read, and a visitor's site token reads them all.
func TestSiteSearch(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		f.seedThree(t)
		a := f.As(t, "admin")
		extra := a.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/spaces", map[string]any{"title": "Extra"}).Map(t)["id"].(string)
		f.seed(t, extra, []page{{ID: "e1", Title: "Extra launch", Body: "Not on the site.\n"}})
		s := a.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/sites", map[string]any{"title": "Docs", "spaces": []string{f.docs, f.secret}}).Map(t)
		site := "/v1/orgs/" + f.Org.ID + "/sites/" + s["id"].(string)
		ss := a.Expect(http.StatusOK, "GET", site+"/site-spaces", nil).Map(t)["items"].([]any)
		docsSS := ss[0].(map[string]any)["id"].(string)
		search := func(token string, body map[string]any) string {
			t.Helper()
			got := spaceTitles(f.WithToken(t, token).Expect(http.StatusOK, "POST", site+"/search", body).Map(t))
			sort.Strings(got) // by score, which ties here
			return strings.Join(got, "|")
		}
		if got := search(f.Tokens["admin"], map[string]any{"query": "launch"}); got != "Docs: Public launch|Secret: Secret launch" {
			t.Errorf("admin: %q", got)
		}
		if got := search(f.Tokens["read"], map[string]any{"query": "launch"}); got != "Docs: Public launch" {
			t.Errorf("reader (who cannot read Secret): %q", got)
		}
		for _, body := range []map[string]any{{"query": "launch", "scope": map[string]any{"mode": "specific", "siteSpaceIds": []string{docsSS}}},
			{"query": "launch", "mode": "specific", "siteSpaceIds": []string{docsSS}},
			{"query": "launch", "scope": map[string]any{"mode": "default", "currentSiteSpace": docsSS, "restrictTo": "currentSiteSpace"}}} {
			if got := search(f.Tokens["admin"], body); got != "Docs: Public launch" {
				t.Errorf("%v: %q", body, got)
			}
		}
		// A visitor of the published site reads what it publishes.
		a.Expect(http.StatusOK, "POST", site+"/publish", nil)
		tok := f.As(t, "").Expect(http.StatusOK, "GET", "/v1/urls/published?url="+url.QueryEscape("https://app.test/sites/"+s["id"].(string)), nil).Map(t)["apiToken"].(string)
		if got := search(tok, map[string]any{"query": "launch"}); got != "Docs: Public launch|Secret: Secret launch" {
			t.Errorf("visitor: %q", got)
		}
		f.WithToken(t, tok).Expect(http.StatusUnauthorized, "GET", "/v1/orgs/"+f.Org.ID+"/search?query=launch", nil)
	})
}

func TestSiteSearchRejects(t *testing.T) {
	f := setup(t)
	s := f.As(t, "admin").Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/sites", map[string]any{"title": "Docs", "spaces": []string{f.docs}}).Map(t)
	site := "/v1/orgs/" + f.Org.ID + "/sites/" + s["id"].(string) + "/search"
	q := map[string]any{"query": "launch"}
	for _, c := range []struct {
		name, token string
		body        any
		status      int
		field       string
	}{
		{"no token", "", q, 401, ""},
		{"outsider", f.Tokens[testkit.Outsider], q, 404, ""},
		{"guest", f.Tokens["guest"], q, 404, ""},
		{"no query", f.Tokens["admin"], map[string]any{}, 400, "query"},
		{"long query", f.Tokens["admin"], map[string]any{"query": strings.Repeat("a", 513)}, 400, "query"},
		{"unknown site space", f.Tokens["admin"], map[string]any{"query": "x", "mode": "specific", "siteSpaceIds": []string{"nope"}}, 400, "siteSpaceIds"},
		{"bad mode", f.Tokens["admin"], map[string]any{"query": "x", "scope": map[string]any{"mode": "everything"}}, 400, "scope.mode"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := f.WithToken(t, c.token).Expect(c.status, "POST", site, c.body)
			if c.field != "" && !strings.Contains(string(res.Body), c.field) {
				t.Errorf("error does not name %s: %s", c.field, res.Body)
			}
		})
	}
	f.As(t, "admin").Expect(http.StatusNotFound, "POST", "/v1/orgs/"+f.Org.ID+"/sites/nope/search", q)
}
