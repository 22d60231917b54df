package search

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Pages ranks from the posting lists what bleve would answer to
// pageQuery: on pages where the words are everywhere (2,000 pages, words
// from 60; a seventh with the queries' phrases, another seventh with
// their words apart, titles and headings from the same words), every
// page, rank and total is bleve's, and every score within rounding, at
// the start and further on, for phrases (stop words in them, a word
// twice), single words, words cut short (prefixes), misspelled words
// (typos) and a word no page has.
func TestRankAnswersAsThePageQuery(t *testing.T) {
	ctx := context.Background()
	vocabulary := strings.Fields("deploy invoice payment webhook configure token secret cluster node backup policy " +
		"release schedule monitor alert index shard replica query cache build test branch merge commit review " +
		"space page site search reader editor import export sync theme layout header footer link image table " +
		"code block hint tab step card embed file folder user team role access grant audit event log metric")
	var ps []Page
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for w := 0; w < 20+i%50; w++ {
			b.WriteString(vocabulary[(i*7+w*w*3+w)%len(vocabulary)] + " ")
		}
		switch i % 7 {
		case 0: // the phrases, in a seventh of the pages
			b.WriteString("invoice payment, configure the webhook: the backup policy, release schedule, cluster node and secret token. ")
		case 3: // their words, apart
			b.WriteString("payment invoice, webhook configure: policy backup, schedule release, node cluster and token secret. ")
		}
		heading := ""
		if i%3 != 0 {
			heading = "## " + vocabulary[(i*5)%len(vocabulary)] + " " + vocabulary[(i*11)%len(vocabulary)] + "\n\n"
		}
		ps = append(ps, Page{ID: fmt.Sprintf("p%04d", i), Title: vocabulary[i%len(vocabulary)] + " " + vocabulary[(i*3)%len(vocabulary)],
			Path: fmt.Sprintf("p%04d", i), Body: heading + b.String() + "\n"})
	}
	idx := openIndex(t, ps)
	checked, withPhrase := 0, 0
	for _, text := range []string{"invoice payment", "configure the webhook", "backup policy", "release schedule", "cluster node",
		"\"secret token\"", "deploy", "dep", "token secre", "webhok", "configuer webhook", "clustr nodes", "node node",
		"the node", "zebra", "zebra deploy", "backup polic", "invoice payment deploy"} {
		ws, err := plan(ctx, idx, text)
		if err != nil {
			t.Fatal(err)
		}
		for _, offset := range []int{0, 20, 180} {
			got, err := Pages(ctx, idx, text, offset, 20)
			if err != nil {
				t.Fatal(err)
			}
			want, err := queryPages(ctx, idx, pageQuery(ws, text), offset, 20)
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != want.Total || len(got.Pages) != len(want.Pages) {
				t.Fatalf("%q at %d: total %d, %d pages; bleve: %d, %d", text, offset, got.Total, len(got.Pages), want.Total, len(want.Pages))
			}
			for i := range got.Pages {
				g, w := got.Pages[i], want.Pages[i]
				if g.ID != w.ID || math.Abs(g.Score-w.Score) > 1e-9*w.Score || g.Rank != w.Rank || g.Title != w.Title || g.Path != w.Path {
					t.Fatalf("%q at %d, hit %d: %s %v (rank %d); bleve: %s %v (rank %d)", text, offset, i, g.ID, g.Score, g.Rank, w.ID, w.Score, w.Rank)
				}
			}
			checked += len(got.Pages)
			if words(text) > 1 && offset == 0 {
				n, err := idx.SearchInContext(ctx, bleve.NewSearchRequest(phrase(fBody, text, 1)))
				if err != nil {
					t.Fatal(err)
				}
				withPhrase += int(n.Total)
			}
		}
	}
	// No page asked: the pages found are counted all the same.
	none, err := Pages(ctx, idx, "configure the webhook", 0, 0)
	if err != nil || len(none.Pages) != 0 || none.Total < 1000 {
		t.Fatalf("no page asked: %d pages, total %d, %v", len(none.Pages), none.Total, err)
	}
	if checked < 1000 || withPhrase == 0 {
		t.Fatalf("%d pages compared, %d with a query's phrase", checked, withPhrase)
	}
	t.Logf("%d pages compared; %d pages have a query's phrase", checked, withPhrase)
}

// The last word's prefix, where no other term begins with the word,
// finds what the word finds: in a one-word query match folds the two
// clauses into one, and ranks the pages as the two clauses did, every
// score scaled by one factor (the query's norm, which has one weight
// less).
func TestPrefixOfAWholeWordFoldsIntoItsTermWithTheSameRanking(t *testing.T) {
	ctx := context.Background()
	vocabulary := strings.Fields("deploy back token secret webhook cluster node backup policy release")
	var ps []Page
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for w := 0; w < 20+i%13; w++ {
			b.WriteString(vocabulary[(i*7+w*w*3+w)%len(vocabulary)] + " ")
		}
		// Titles from the first seven words: "back" without "backup".
		ps = append(ps, Page{ID: fmt.Sprintf("p%04d", i), Title: vocabulary[i%7] + " " + vocabulary[(i*3)%7],
			Path: fmt.Sprintf("p%04d", i), Body: "## " + vocabulary[(i*5)%len(vocabulary)] + "\n\n" + b.String() + "\n"})
	}
	idx := openIndex(t, ps)
	run := func(ws []word) []*search.DocumentMatch {
		q := query.NewDisjunctionQuery([]query.Query{match(ws, fTitle, boostTitle), match(ws, fHeadings, boostHeadings), match(ws, fBody, 1)})
		res, err := idx.SearchInContext(ctx, bleve.NewSearchRequestOptions(q, 1000, 0, false))
		if err != nil {
			t.Fatal(err)
		}
		return res.Hits
	}
	// With other words a field has more clauses, and a page's share of
	// them would change: nothing folds.
	ws, err := plan(ctx, idx, "secret token")
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 2 || ws[1].whole != nil {
		t.Fatalf("secret token: %+v", ws)
	}
	for _, text := range []string{"token", "webhook", "back"} {
		ws, err := plan(ctx, idx, text)
		if err != nil {
			t.Fatal(err)
		}
		// The bodies have "backup", which begins with "back": there
		// the two clauses stay apart, and fold in the titles.
		if ws[0].whole[fBody] == (text == "back") || !ws[0].whole[fTitle] {
			t.Fatalf("%q: folded in %v", text, ws[0].whole)
		}
		folded := run(ws)
		ws[0].whole = nil
		apart := run(ws)
		if len(folded) != len(apart) || len(folded) == 0 {
			t.Fatalf("%q: %d pages folded, %d apart", text, len(folded), len(apart))
		}
		ratio := folded[0].Score / apart[0].Score
		for i := range folded {
			if folded[i].ID != apart[i].ID || math.Abs(folded[i].Score/apart[i].Score-ratio) > 1e-9 {
				t.Fatalf("%q, page %d: %s %v folded, %s %v apart (ratio %v)", text, i, folded[i].ID, folded[i].Score, apart[i].ID, apart[i].Score, ratio)
			}
		}
	}
}

// openIndex builds an index of ps and opens it for the test.
func openIndex(t *testing.T, ps []Page) bleve.Index {
	dir := filepath.Join(t.TempDir(), "index")
	if err := Build(context.Background(), dir, AnalysisDefault, ps); err != nil {
		t.Fatal(err)
	}
	idx, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return idx
}
