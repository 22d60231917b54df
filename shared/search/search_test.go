package search_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// titles returns the titles of a space search's pages.
func titles(body map[string]any) []string {
	var out []string
	for _, it := range body["items"].([]any) {
		out = append(out, it.(map[string]any)["title"].(string))
	}
	return out
}

func q(s string) string { return url.QueryEscape(s) }

func TestSpaceSearchFindsPagesWithTheirSectionsAndExcerpts(t *testing.T) {
	f := setup(t)
	f.seed(t, f.docs, []page{
		{ID: "intro", Title: "Introduction", Body: "Welcome to the handbook.\n\nRead **this** first.\n"},
		{ID: "setup", Title: "Setup", Body: "Before you start.\n\n## Installing the agent\n\nRun the [installer](https://x.test) twice.\n\n" +
			"## Uninstall\n\nRemove the agent with `agent --remove`.\n"},
		{ID: "faq", Parent: "intro", Title: "Questions", Body: "Does the agent install itself? No, it never installs anything.\n"},
	})
	body := f.search(t, "read", "/v1/spaces/"+f.docs+"/search?query=INSTALLS")
	if got := titles(body); strings.Join(got, ",") != "Setup,Questions" {
		t.Fatalf("pages %q, want Setup then Questions", got)
	}
	setup := body["items"].([]any)[0].(map[string]any)
	if setup["id"] != "setup" || !strings.HasPrefix(setup["path"].(string), "setup") ||
		setup["urls"].(map[string]any)["app"] != "https://app.test/s/"+f.docs+"/"+setup["path"].(string) {
		t.Errorf("page result %v", setup)
	}
	sec := setup["sections"].([]any)[0].(map[string]any)
	if sec["id"] != "installing-the-agent" || sec["title"] != "Installing the agent" || sec["body"] != "Run the installer twice." ||
		sec["path"] != setup["path"].(string)+"#installing-the-agent" || !strings.HasSuffix(sec["urls"].(map[string]any)["app"].(string), "#installing-the-agent") {
		t.Errorf("section %v", sec)
	}
	faq := body["items"].([]any)[1].(map[string]any)
	if p := faq["path"].(string); !strings.Contains(p, "/questions") {
		t.Errorf("a child page's path %q", p)
	}
	// Ranks count from one in score order; a child names its ancestors.
	if setup["rank"] != 1.0 || faq["rank"] != 2.0 || !(setup["score"].(float64) >= faq["score"].(float64)) || faq["score"].(float64) <= 0 {
		t.Errorf("ranks and scores: %v %v / %v %v", setup["rank"], setup["score"], faq["rank"], faq["score"])
	}
	if a := faq["ancestors"].([]any); len(a) != 1 || a[0].(map[string]any)["title"] != "Introduction" {
		t.Errorf("a child page's ancestors: %v", a)
	}
	if a := setup["ancestors"].([]any); len(a) != 0 {
		t.Errorf("a top page's ancestors: %v", a)
	}
	if s := faq["sections"].([]any)[0].(map[string]any); s["id"] != "faq" || s["title"] != "Questions" || !strings.Contains(s["body"].(string), "install itself") {
		t.Errorf("the section above every heading: %v", s)
	}
	// A page found by its title alone lists its first section.
	intro := f.search(t, "read", "/v1/spaces/"+f.docs+"/search?query=introduction")["items"].([]any)[0].(map[string]any)
	if s := intro["sections"].([]any); len(s) != 1 || s[0].(map[string]any)["body"] != "Welcome to the handbook. Read this first." {
		t.Errorf("title match sections %v", s)
	}
	if got := f.search(t, "read", "/v1/spaces/"+f.docs+"/search?query=zebra"); got["count"] != 0.0 || len(got["items"].([]any)) != 0 {
		t.Errorf("no match: %v", got)
	}
}

func TestLongSectionsGetAnExcerptAroundTheMatch(t *testing.T) {
	f := setup(t)
	long := strings.Repeat("filler words go here ", 40) + "the needle is here " + strings.Repeat("more filler text ", 40)
	f.seed(t, f.docs, []page{{ID: "p", Title: "Haystack", Body: long}})
	sec := f.search(t, "read", "/v1/spaces/"+f.docs+"/search?query=needle")["items"].([]any)[0].(map[string]any)["sections"].([]any)[0].(map[string]any)
	b := sec["body"].(string)
	if !strings.Contains(b, "needle") || len(b) > 260 || !strings.HasPrefix(b, "…") || !strings.HasSuffix(b, "…") {
		t.Errorf("excerpt %q", b)
	}
}

// qualityVocabulary is the common words of the generated fixtures.
const qualityVocabulary = "account access admin alert backup branch build cache change check client cloud cluster code config " +
	"connect data debug deploy device disk domain email error event export feature file filter folder group guide host image " +
	"import index input invoice issue job key label limit log member memory message metric monitor network node note order " +
	"owner package page panel password path payment plan policy port project proxy query queue record region release report " +
	"request role rule schedule schema script search secret server service session setting share space storage stream task " +
	"team template test theme ticket token topic update upload user value version view volume webhook widget workflow zone"

// qualityPages is a 220-page fixture: pages of common words, with a
// title word, a heading word and a phrase planted in one page each, and
// the same words scattered alone in the text of many others.
func qualityPages() []page {
	words := strings.Fields(qualityVocabulary)
	var pages []page
	for i := 0; i < 220; i++ {
		var b strings.Builder
		for s := 0; s < 3; s++ {
			fmt.Fprintf(&b, "## %s %s\n\n", strings.Title(words[(i*7+s*13)%len(words)]), words[(i*11+s*5)%len(words)])
			for w := 0; w < 40; w++ {
				b.WriteString(words[(i*31+s*17+w*w*3+w)%len(words)])
				b.WriteString(" ")
			}
			b.WriteString("\n\n")
		}
		pages = append(pages, page{ID: fmt.Sprintf("p%03d", i), Title: fmt.Sprintf("%s %s", strings.Title(words[i%len(words)]), strings.Title(words[(i*3+1)%len(words)])), Body: b.String()})
	}
	for i := 0; i < 30; i++ {
		// Distractors: each planted word, alone, in the text of 30 pages.
		p := &pages[10+i*7]
		p.Body += "\nA kubernetes mention. Credentials rotate. Quarterly numbers. Billing is monthly. Reconciliation later.\n"
	}
	pages[17].Title = "Kubernetes Deployment"
	pages[42].Body += "\n## Rotating credentials\n\nKeep them short-lived.\n"
	pages[99].Body += "\nWe run the quarterly billing reconciliation every spring.\n"
	return pages
}

func TestSearchQualityTitleHeadingAndPhraseComeFirst(t *testing.T) {
	f := setup(t)
	f.seed(t, f.docs, qualityPages())
	for _, tc := range []struct {
		name, query, want string
	}{
		{"TitleWord", "kubernetes", "p017"},
		{"TitleWordAnyCase", "KUBERNETES", "p017"},
		{"HeadingWordInflected", "credential", "p042"},
		{"HeadingWord", "rotating", "p042"},
		{"BodyPhrase", "quarterly billing reconciliation", "p099"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := f.search(t, "read", "/v1/spaces/"+f.docs+"/search?limit=5&query="+q(tc.query))
			items := body["items"].([]any)
			if len(items) < 2 {
				t.Fatalf("%d results; the distractors should be found too", len(items))
			}
			if first := items[0].(map[string]any)["id"]; first != tc.want {
				t.Errorf("first result %v (%v), want %s", first, titles(body), tc.want)
			}
		})
	}
}

func TestSearchPagesThroughResultsOfOneRevision(t *testing.T) {
	f := setup(t)
	var pages []page
	for i := 0; i < 7; i++ {
		pages = append(pages, page{ID: fmt.Sprintf("p%d", i), Title: fmt.Sprintf("Page %d", i), Body: "The common word.\n"})
	}
	f.seed(t, f.docs, pages)
	seen := map[string]bool{}
	path := "/v1/spaces/" + f.docs + "/search?limit=3&query=common"
	for i := 0; path != ""; i++ {
		if i > 5 {
			t.Fatal("too many pages")
		}
		body := f.search(t, "read", path)
		for j, it := range body["items"].([]any) {
			if rank := it.(map[string]any)["rank"]; rank != float64(3*i+j+1) {
				t.Errorf("result %d of page %d has rank %v", j, i, rank)
			}
			id := it.(map[string]any)["id"].(string)
			if seen[id] {
				t.Errorf("%s listed twice", id)
			}
			seen[id] = true
		}
		path = ""
		if next, ok := body["next"].(map[string]any); ok {
			path = "/v1/spaces/" + f.docs + "/search?limit=3&query=common&page=" + q(next["page"].(string))
			if i == 0 {
				f.seed(t, f.docs, pages[:1]) // the head moves: the list goes on in its revision
			}
		}
	}
	if len(seen) != 7 {
		t.Errorf("paged through %d pages, want 7", len(seen))
	}
	first := f.search(t, "read", "/v1/spaces/"+f.docs+"/search?limit=1&query=common")
	if first["count"] != 1.0 || first["next"] != nil {
		t.Errorf("the new head has one page: %v", first)
	}
	// A token of one query does not read another's list.
	f.seed(t, f.docs, pages)
	token := f.search(t, "read", "/v1/spaces/"+f.docs+"/search?limit=1&query=common")["next"].(map[string]any)["page"].(string)
	res := f.As(t, "read").Expect(http.StatusBadRequest, "GET", "/v1/spaces/"+f.docs+"/search?limit=1&query=word&page="+q(token), nil)
	if !strings.Contains(string(res.Body), "page") {
		t.Errorf("error does not name page: %s", res.Body)
	}
}
