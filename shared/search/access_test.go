package search_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/searchroot"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/search"
	"github.com/galleydocs/galley/shared/testkit"
)

// spaceTitles returns "<space>: <page>,<page>" per item of an
// organization search.
func spaceTitles(body map[string]any) []string {
	var out []string
	for _, it := range body["items"].([]any) {
		sp := it.(map[string]any)
		var pages []string
		for _, p := range sp["pages"].([]any) {
			pages = append(pages, p.(map[string]any)["title"].(string))
		}
		out = append(out, sp["title"].(string)+": "+strings.Join(pages, ","))
	}
	return out
}

func (f *fixture) seedThree(t *testing.T) {
	f.seed(t, f.docs, []page{{ID: "d1", Title: "Public launch", Body: "The launch plan.\n"}, {ID: "d2", Title: "Other", Body: "Nothing.\n"}})
	f.seed(t, f.secret, []page{{ID: "s1", Title: "Secret launch", Body: "The launch codes are 1234.\n"}})
	f.seed(t, f.other, []page{{ID: "o1", Title: "Their launch", Body: "Another organization's launch.\n"}})
}

func TestOrganizationSearchCoversTheSpacesTheCallerMayReadAndOnlyThose(t *testing.T) {
	f := setup(t)
	f.seedThree(t)
	org := "/v1/orgs/" + f.Org.ID + "/search?query=launch"
	for _, tc := range []struct {
		name string
		user string
		want string
	}{
		{"AdminReadsBothSpaces", "admin", "Secret: Secret launch|Docs: Public launch"},
		{"ReaderReadsDocsOnly", "read", "Docs: Public launch"},
		{"GuestReadsNothing", "guest", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := spaceTitles(f.search(t, tc.user, org))
			if strings.Join(got, "|") != tc.want && !(tc.name == "AdminReadsBothSpaces" && strings.Join(got, "|") == "Docs: Public launch|Secret: Secret launch") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			for _, s := range got {
				if strings.Contains(s, "Their") {
					t.Errorf("another organization's content: %q", got)
				}
			}
		})
	}
	// The caller's own organization only: an outsider gets 404 on the
	// organization, and on its spaces.
	f.As(t, testkit.Outsider).Expect(http.StatusNotFound, "GET", org, nil)
	f.As(t, testkit.Outsider).Expect(http.StatusNotFound, "GET", "/v1/spaces/"+f.docs+"/search?query=launch", nil)
	f.As(t, "read").Expect(http.StatusNotFound, "GET", "/v1/spaces/"+f.secret+"/search?query=launch", nil)
	f.As(t, "read").Expect(http.StatusNotFound, "GET", "/v1/spaces/"+f.other+"/search?query=launch", nil)
	f.As(t, "guest").Expect(http.StatusNotFound, "GET", "/v1/spaces/"+f.docs+"/search?query=launch", nil)
	if got := titles(f.search(t, testkit.Outsider, "/v1/orgs/"+f.Other.ID+"/search?query=launch")); len(got) != 1 {
		t.Errorf("the other organization's own search: %q", got)
	}
	// A space's result has its pages, with sections and links.
	sp := f.search(t, "read", org)["items"].([]any)[0].(map[string]any)
	p := sp["pages"].([]any)[0].(map[string]any)
	if sp["id"] != f.docs || p["id"] != "d1" || len(p["sections"].([]any)) != 1 || !strings.HasPrefix(p["urls"].(map[string]any)["app"].(string), "https://app.test/s/"+f.docs+"/") {
		t.Errorf("space result %v", sp)
	}
}

func TestOrganizationSearchOnBothBackends(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		f.seedThree(t)
		org := "/v1/orgs/" + f.Org.ID + "/search?query=launch"
		if got := spaceTitles(f.search(t, "read", org)); strings.Join(got, "|") != "Docs: Public launch" {
			t.Errorf("reader: %q", got)
		}
		if got := spaceTitles(f.search(t, "admin", org)); len(got) != 2 {
			t.Errorf("admin: %q", got)
		}
		if got := titles(f.search(t, "read", "/v1/spaces/"+f.docs+"/search?query=launch")); strings.Join(got, ",") != "Public launch" {
			t.Errorf("space search: %q", got)
		}
	})
}

func TestOrganizationSearchPagesThroughSpaces(t *testing.T) {
	f := setup(t)
	f.seedThree(t)
	var seen []string
	path := "/v1/orgs/" + f.Org.ID + "/search?limit=1&query=launch"
	for i := 0; path != "" && i < 5; i++ {
		body := f.search(t, "admin", path)
		if body["count"] != 1.0 {
			t.Fatalf("page %d: %v", i, body)
		}
		seen = append(seen, spaceTitles(body)...)
		path = ""
		if next, ok := body["next"].(map[string]any); ok {
			path = "/v1/orgs/" + f.Org.ID + "/search?limit=1&query=launch&page=" + q(next["page"].(string))
		}
	}
	if len(seen) != 2 || seen[0] == seen[1] {
		t.Errorf("paged through %q", seen)
	}
}

func TestSearchAuthAndValidation(t *testing.T) {
	f := setup(t)
	f.seedThree(t)
	long := strings.Repeat("a", 513)
	for _, base := range []string{"/v1/spaces/" + f.docs + "/search", "/v1/orgs/" + f.Org.ID + "/search"} {
		for _, tc := range []struct {
			name   string
			token  string
			query  string
			status int
			field  string
		}{
			{"200Reader", f.Tokens["read"], "?query=launch", 200, ""},
			{"200LongestQuery", f.Tokens["read"], "?query=" + long[:512], 200, ""},
			{"401NoToken", "", "?query=launch", 401, ""},
			{"401BadToken", "gly_nope", "?query=launch", 401, ""},
			{"404Outsider", f.Tokens[testkit.Outsider], "?query=launch", 404, ""},
			{"400NoQuery", f.Tokens["read"], "", 400, "query"},
			{"400EmptyQuery", f.Tokens["read"], "?query=", 400, "query"},
			{"400QueryTooLong", f.Tokens["read"], "?query=" + long, 400, "query"},
			{"400LimitZero", f.Tokens["read"], "?query=launch&limit=0", 400, "limit"},
			{"400LimitTooLarge", f.Tokens["read"], "?query=launch&limit=1001", 400, "limit"},
			{"400ForgedPage", f.Tokens["read"], "?query=launch&page=forged", 400, "page"},
		} {
			t.Run(strings.Split(base, "/")[2]+"/"+tc.name, func(t *testing.T) {
				res := f.WithToken(t, tc.token).Expect(tc.status, "GET", base+tc.query, nil)
				if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
					t.Errorf("error does not name %s: %s", tc.field, res.Body)
				}
			})
		}
	}
	f.As(t, "read").Expect(http.StatusNotFound, "GET", "/v1/spaces/nope/search?query=x", nil)
	f.As(t, "read").Expect(http.StatusNotFound, "GET", "/v1/orgs/nope/search?query=x", nil)
}

// countingBlobs counts blob reads and writes by key prefix.
type countingBlobs struct {
	blob.Store
	indexGets, indexPuts, documentGets atomic.Int64
}

func (c *countingBlobs) Get(ctx context.Context, key string) ([]byte, error) {
	switch {
	case strings.Contains(key, "/search/"):
		c.indexGets.Add(1)
	case strings.Contains(key, "/documents/"):
		c.documentGets.Add(1)
	}
	return c.Store.Get(ctx, key)
}

func (c *countingBlobs) Put(ctx context.Context, key string, data []byte, ct string) error {
	if strings.Contains(key, "/search/") {
		c.indexPuts.Add(1)
	}
	return c.Store.Put(ctx, key, data, ct)
}

func TestARevisionsIndexIsBuiltOnceAndReused(t *testing.T) {
	k := testkit.New(t)
	blobs := &countingBlobs{Store: k.Deps.Blobs}
	k.Deps.Blobs = blobs
	f := setupOn(t, k)
	f.seedThree(t)
	path := "/v1/spaces/" + f.docs + "/search?query=launch"
	check := func(what string, gets, puts, docs int64) {
		t.Helper()
		if got := titles(f.search(t, "read", path)); len(got) != 1 {
			t.Fatalf("%s: results %q", what, got)
		}
		if g, p, d := blobs.indexGets.Swap(0), blobs.indexPuts.Swap(0), blobs.documentGets.Swap(0); g != gets || p != puts || d != docs {
			t.Errorf("%s: %d index reads, %d index writes, %d page reads; want %d, %d, %d", what, g, p, d, gets, puts, docs)
		}
	}
	check("first query: built from the pages (no index of the parent either) and stored", 2, 1, 2)
	check("second query: from the process", 0, 0, 0)
	check("another query: from the process", 0, 0, 0)
	// A new process (a cold Lambda) reads the stored index, builds nothing.
	svc := searchroot.Service(app.NewRoot(k.Deps))
	t.Cleanup(svc.Close)
	h, err := svc.Index(context.Background(), f.docs, f.Kit.Head(t, f.docs), search.AnalysisDefault)
	if err != nil {
		t.Fatal(err)
	}
	h.Release()
	if g, p, d := blobs.indexGets.Swap(0), blobs.indexPuts.Swap(0), blobs.documentGets.Swap(0); g != 1 || p != 0 || d != 0 {
		t.Errorf("cold process: %d index reads, %d index writes, %d page reads; want 1, 0, 0", g, p, d)
	}
	// A new revision gets its own index, made afresh when most pages
	// changed.
	f.seed(t, f.docs, []page{{ID: "d1", Title: "Public launch", Body: "Changed.\n"}})
	check("after a change of most pages: a new index", 2, 1, 1)
}

func TestARevisionsIndexIsItsParentsUpdatedWithTheChangedPages(t *testing.T) {
	k := testkit.New(t)
	blobs := &countingBlobs{Store: k.Deps.Blobs}
	k.Deps.Blobs = blobs
	f := setupOn(t, k)
	var pages []page
	for i := 0; i < 10; i++ {
		pages = append(pages, page{ID: fmt.Sprintf("p%d", i), Title: fmt.Sprintf("Page %d", i), Body: fmt.Sprintf("Common text of page %d.\n", i)})
	}
	f.seed(t, f.docs, pages)
	found := func(query string) []string {
		return titles(f.search(t, "read", "/v1/spaces/"+f.docs+"/search?query="+q(query)))
	}
	if got := found("common"); len(got) != 10 {
		t.Fatalf("found %q", got)
	}
	blobs.indexGets.Store(0)
	blobs.indexPuts.Store(0)
	blobs.documentGets.Store(0)
	// Page 3 changes, page 5 goes, page 10 comes, page 7 is renamed.
	next := append([]page(nil), pages[:5]...)
	next = append(next, pages[6:]...)
	next[3].Body = "Rewritten with zebras.\n"
	next[6].Title = "Seventh heaven"
	next = append(next, page{ID: "p10", Title: "Page 10", Body: "Common text of the new page.\n"})
	f.seed(t, f.docs, next)
	if got := found("common"); len(got) != 9 || strings.Contains(strings.Join(got, ","), "Page 5") || strings.Contains(strings.Join(got, ","), "Page 3") {
		t.Errorf("common after the change: %q", got)
	}
	if g, p, d := blobs.indexGets.Load(), blobs.indexPuts.Load(), blobs.documentGets.Load(); g != 2 || p != 1 || d != 3 {
		t.Errorf("%d index reads, %d index writes, %d page reads; want 2 (its own, missing, and its parent's), 1, 3 (the pages that changed)", g, p, d)
	}
	for query, want := range map[string]string{"zebra": "Page 3", "heaven": "Seventh heaven", "new page": "Page 10"} {
		if got := found(query); len(got) == 0 || got[0] != want {
			t.Errorf("%s: %q, want %s first", query, got, want)
		}
	}
	// Sections of a changed page are the new ones only.
	p3 := f.search(t, "read", "/v1/spaces/"+f.docs+"/search?query=zebras")["items"].([]any)[0].(map[string]any)
	if s := p3["sections"].([]any); len(s) != 1 || s[0].(map[string]any)["body"] != "Rewritten with zebras." {
		t.Errorf("sections of the changed page: %v", s)
	}
}
