package search_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app/wire/gitsyncwire"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// gitbookDocs imports the gitbook-docs fixture (GitBook's own
// documentation: 186 pages) by Git Sync from a Git server on loopback into
// a new space, and returns the API and the space.
func gitbookDocs(t *testing.T) (*testkit.API, string) {
	repo := testenv.ServeBundle(t, "gitbook-docs")
	k := testkit.New(t)
	q := &queuetest.Memory{}
	k.Deps.Queue = q
	k.Deps.FetchAllowPrivate = true
	a := testkit.NewAPI(t, k, []string{"spaces", "sites", "changerequests", "search", "git"})
	c := a.As(t, "admin")
	space := c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+a.Org.ID+"/spaces", map[string]any{"title": "GitBook"}).Map(t)["id"].(string)
	c.Expect(http.StatusNoContent, "POST", "/v1/spaces/"+space+"/git/import", map[string]any{"url": repo, "ref": "refs/heads/main"})
	svc := gitsyncwire.Service(a.Root)
	if err := q.Drain(context.Background(), map[string]queue.Handler{gitsync.ImportKind: svc.Handle}); err != nil {
		t.Fatal(err)
	}
	return a, space
}

// relevanceQueries are questions a reader of GitBook's documentation
// might type, each with the path of the page that answers it. Typos are
// the common kinds: a letter left out, doubled, added or replaced (a
// transposition is two edits to Levenshtein, so only words of 8
// characters or more forgive one). Queries cut short are typed as you
// type them.
var relevanceQueries = []struct {
	query, want string
	typo        bool
}{
	{"quickstart", "getting-started/quickstart", false},
	{"migrate to gitbook", "getting-started/import", false},
	{"llm ready docs", "getting-started/llm-ready-docs", false},
	{"hint block", "create-content/blocks/hint", false},
	{"code block syntax highlighting", "create-content/blocks/code-block", false},
	{"mermaid diagram", "create-content/blocks/mermaid-blocks", false},
	{"math tex formula", "create-content/blocks/math-and-tex", false},
	{"stepper", "create-content/blocks/stepper", false},
	{"reusable content", "create-content/reusable-content", false},
	{"add an openapi specification", "create-content/openapi/add-an-openapi-specification", false},
	{"test it button", "create-content/openapi/guides/configuring-the-test-it-button", false},
	{"openapi proxy", "create-content/openapi/guides/using-openapi-proxy", false},
	{"enums", "create-content/openapi/guides/describing-enums", false},
	{"enabling github sync", "docs-as-code/git-sync/enabling-github-sync", false},
	{"gitlab", "docs-as-code/git-sync/enabling-gitlab-sync", false},
	{"monorepo", "docs-as-code/git-sync/monorepos", false},
	{"merge rules", "collaborate/merge-rules", false},
	{"share links", "publish/site-audience/share-links", false},
	{"auth0", "publish/site-audience/authenticated-access/setting-up-auth0", false},
	{"okta", "publish/site-audience/authenticated-access/setting-up-okta", false},
	{"azure ad", "publish/site-audience/authenticated-access/setting-up-azure-ad", false},
	{"feature flags", "publish/adaptive-content/enabling-adaptive-content/feature-flags", false},
	{"multilingual sections", "manage-your-site/site-structure/multilingual-sections", false},
	{"custom backend", "publish/site-audience/authenticated-access/setting-up-a-custom-backend", false},
	{"task list", "create-content/blocks/task-list", false},
	{"custom domain", "publish/custom-domain", false},
	// As you type: the last word cut short.
	{"openapi lay", "create-content/openapi/guides/openapi-layouts", false},
	{"feature fla", "publish/adaptive-content/enabling-adaptive-content/feature-flags", false},
	{"expandab", "create-content/blocks/expandable", false},

	{"quikstart", "getting-started/quickstart", true},
	{"enabling authentcated access", "publish/site-audience/authenticated-access/enabling-authenticated-access", true},
	{"reuseable content", "create-content/reusable-content", true},
	{"mermaid diagam", "create-content/blocks/mermaid-blocks", true},
	{"steper", "create-content/blocks/stepper", true},
	{"cognitto", "publish/site-audience/authenticated-access/setting-up-aws-cognito", true},
	{"monrepos", "docs-as-code/git-sync/monorepos", true},
	{"permisions and inheritance", "collaborate/member-management/permissions-and-inheritance", true},
	{"notifcations", "collaborate/notifications", true},
	{"varibles and expressions", "create-content/variables-and-expressions", true},
	{"translatons", "gitbook-agent/translations", true},
	{"install an intergration", "manage-your-site/install-an-integration", true},
	{"troubleshoting git sync", "docs-as-code/git-sync/troubleshooting", true},
	{"conditonal content", "create-content/blocks/conditional-content", true},
	{"embeded url", "create-content/blocks/embed-a-url", true},
}

// TestSearchRelevanceOnGitBookDocs: on GitBook's documentation, the page
// that answers each query of relevanceQueries (a third of them misspelled)
// is among the first three results for at least 90% of the queries.
func TestSearchRelevanceOnGitBookDocs(t *testing.T) {
	if len(relevanceQueries) < 40 {
		t.Fatalf("%d queries, want at least 40", len(relevanceQueries))
	}
	a, space := gitbookDocs(t)
	c := a.As(t, "admin")
	top3, typos, typoTop3 := 0, 0, 0
	for _, rq := range relevanceQueries {
		body := c.Expect(http.StatusOK, "GET", "/v1/spaces/"+space+"/search?limit=3&query="+q(rq.query), nil).Map(t)
		var got []string
		hit := false
		for _, it := range body["items"].([]any) {
			p := it.(map[string]any)["path"].(string)
			got = append(got, p)
			hit = hit || p == rq.want
		}
		if rq.typo {
			typos++
		}
		if hit {
			top3++
			if rq.typo {
				typoTop3++
			}
		} else {
			t.Logf("miss: %q found %s, want %s", rq.query, strings.Join(got, ", "), rq.want)
		}
	}
	if typos*3 < len(relevanceQueries) {
		t.Errorf("%d misspelled queries of %d, want a third", typos, len(relevanceQueries))
	}
	acc := float64(top3) / float64(len(relevanceQueries))
	t.Logf("top-3 accuracy: %d of %d queries (%.1f%%); misspelled: %d of %d", top3, len(relevanceQueries), 100*acc, typoTop3, typos)
	if acc < 0.9 {
		t.Errorf("top-3 accuracy %.1f%%, want at least 90%%", 100*acc)
	}
}

// TestSiteSearchInTheSiteSpaceLocale: a site space whose locale is Chinese
// or Japanese is searched with CJK bigrams, so a two-character word finds
// the page that has it and not those that only have its characters apart
// (which English analysis, one term a character, would find too).
func TestSiteSearchInTheSiteSpaceLocale(t *testing.T) {
	f := setup(t)
	a := f.As(t, "admin")
	ja := a.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/spaces", map[string]any{"title": "日本語"}).Map(t)["id"].(string)
	f.seed(t, f.docs, []page{
		{ID: "zh-target", Title: "配置", Body: "本页介绍如何建立索引。用户可以快速查找内容。\n"},
		{ID: "zh-apart", Title: "探索", Body: "我们引用了探索的结果。\n"},
	})
	f.seed(t, ja, []page{
		{ID: "ja-target", Title: "使い方", Body: "ドキュメントを検索する方法を説明します。\n"},
		{ID: "ja-apart", Title: "品質", Body: "検査の結果と探索の手順。\n"},
	})
	s := a.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/sites", map[string]any{"title": "Docs", "spaces": []string{f.docs, ja}}).Map(t)
	site := "/v1/orgs/" + f.Org.ID + "/sites/" + s["id"].(string)
	for _, it := range a.Expect(http.StatusOK, "GET", site+"/site-spaces", nil).Map(t)["items"].([]any) {
		ss := it.(map[string]any)
		locale := "zh"
		if ss["space"].(map[string]any)["id"] == ja {
			locale = "ja"
		}
		a.Expect(http.StatusOK, "PATCH", site+"/site-spaces/"+ss["id"].(string)+"/customization",
			map[string]any{"internationalization": map[string]any{"locale": locale}})
	}
	for _, c := range []struct{ query, want string }{
		{"索引", "Docs: 配置"},
		{"検索", "日本語: 使い方"},
	} {
		got := spaceTitles(a.Expect(http.StatusOK, "POST", site+"/search", map[string]any{"query": c.query}).Map(t))
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: %q, want %s alone", c.query, got, c.want)
		}
	}
	// The space's own search (no site, no locale) analyses in English: the
	// characters, one by one, find both pages.
	if got := titles(f.search(t, "read", "/v1/spaces/"+f.docs+"/search?query="+q("索引"))); len(got) != 2 {
		t.Errorf("English analysis of 索引: %q", got)
	}
	// Once the space names its language, its own search analyses in it;
	// so does the site search, even where the site space says otherwise.
	a.Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.docs, map[string]any{"language": "zh"})
	if got := titles(f.search(t, "read", "/v1/spaces/"+f.docs+"/search?query="+q("索引"))); len(got) != 1 || got[0] != "配置" {
		t.Errorf("the space's language (zh), 索引: %q", got)
	}
	a.Expect(http.StatusOK, "PATCH", "/v1/spaces/"+ja, map[string]any{"language": "ja"})
	for _, it := range a.Expect(http.StatusOK, "GET", site+"/site-spaces", nil).Map(t)["items"].([]any) {
		a.Expect(http.StatusOK, "PATCH", site+"/site-spaces/"+it.(map[string]any)["id"].(string)+"/customization",
			map[string]any{"internationalization": map[string]any{"locale": "en"}})
	}
	if got := spaceTitles(a.Expect(http.StatusOK, "POST", site+"/search", map[string]any{"query": "検索"}).Map(t)); strings.Join(got, "|") != "日本語: 使い方" {
		t.Errorf("site search in the spaces' languages, 検索: %q", got)
	}
}

// TestSearchForgivesTyposByWordLength: a word no page has, of 4 to 7
// characters, finds a word one edit away, of 8 or more two edits away, of
// 3 or fewer only itself; a word some page has is taken as spelled right;
// the last word finds the words it begins unless a space follows it.
func TestSearchForgivesTyposByWordLength(t *testing.T) {
	f := setup(t)
	f.seed(t, f.docs, []page{
		{ID: "token", Title: "Tokens", Body: "Rotate a token.\n"},
		{ID: "taken", Title: "Seats", Body: "Every seat is taken.\n"},
		{ID: "webhook", Title: "Webhooks", Body: "Deliveries are retried.\n"},
		{ID: "api", Title: "The API", Body: "Calls.\n"},
		{ID: "conf", Title: "Configuration", Body: "Settings.\n"},
	})
	for _, c := range []struct{ query, want string }{
		{"token", "Tokens"},        // a word some page has is taken as spelled right: "taken" is not found
		{"tokan", "Tokens"},        // one edit from token, two from taken
		{"tokn", "Tokens"},         // 4 characters: one edit
		{"tkn", ""},                // 3 characters: exact only
		{"apu", ""},                // 3 characters: exact only
		{"webhoks", "Webhooks"},    // 7 characters: one edit
		{"wbhoks", ""},             // 6 characters, two edits
		{"deliveiers", "Webhooks"}, // 10 characters: two edits
		{"conf", "Configuration"},  // as you type
		{"conf ", ""},              // a word ended by a space is whole
		{"con", "Configuration"},   // three characters begin words
		{"co", ""},                 // two do not
	} {
		got := strings.Join(titles(f.search(t, "read", "/v1/spaces/"+f.docs+"/search?query="+q(c.query))), ",")
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.query, got, c.want)
		}
	}
}
