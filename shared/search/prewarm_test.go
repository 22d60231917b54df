package search_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/search"
	"github.com/galleydocs/galley/shared/testkit"
)

// TestPrewarmSiteSearch: prewarming makes (and stores) the indexes of the
// site's spaces the caller may read, and holds them open in the process,
// so the first search reads none; callers who may not search the site
// are refused as the search refuses them.
func TestPrewarmSiteSearch(t *testing.T) {
	f := setup(t)
	f.seedThree(t)
	a := f.As(t, "admin")
	s := a.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/sites", map[string]any{"title": "Docs", "spaces": []string{f.docs, f.secret}}).Map(t)
	site := "/v1/orgs/" + f.Org.ID + "/sites/" + s["id"].(string)
	stored := func(spaceID string) bool {
		t.Helper()
		_, err := f.Kit.Deps.Blobs.Get(context.Background(), search.IndexKey(spaceID, f.Kit.Head(t, spaceID), search.AnalysisDefault))
		if err != nil && !errors.Is(err, blob.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	if stored(f.docs) || stored(f.secret) || f.svc.OpenIndexes() != 0 {
		t.Fatal("an index exists before any search")
	}
	// The reader cannot read Secret: only Docs's index is made.
	f.As(t, "read").Expect(http.StatusNoContent, "POST", site+"/search/prewarm", nil)
	if !stored(f.docs) || stored(f.secret) || f.svc.OpenIndexes() != 1 {
		t.Fatalf("after the reader's prewarm: docs %v, secret %v, open %d", stored(f.docs), stored(f.secret), f.svc.OpenIndexes())
	}
	a.Expect(http.StatusNoContent, "POST", site+"/search/prewarm", nil)
	if !stored(f.secret) || f.svc.OpenIndexes() != 2 {
		t.Fatalf("after the admin's prewarm: secret %v, open %d", stored(f.secret), f.svc.OpenIndexes())
	}

	a.Expect(http.StatusOK, "POST", site+"/publish", nil)
	tok := f.As(t, "").Expect(http.StatusOK, "GET", "/v1/urls/published?url="+url.QueryEscape("https://app.test/sites/"+s["id"].(string)), nil).Map(t)["apiToken"].(string)
	prewarm := site + "/search/prewarm"
	f.Check(t, []testkit.Case{
		{"a visitor of the site", tok, "POST", prewarm, nil, http.StatusNoContent, ""},
		{"no token", "", "POST", prewarm, nil, http.StatusUnauthorized, ""},
		{"outsider", f.Tokens[testkit.Outsider], "POST", prewarm, nil, http.StatusNotFound, ""},
		{"guest", f.Tokens["guest"], "POST", prewarm, nil, http.StatusNotFound, ""},
		{"unknown site", f.Tokens["admin"], "POST", "/v1/orgs/" + f.Org.ID + "/sites/nope/search/prewarm", nil, http.StatusNotFound, ""},
	})
}
