package search

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Pages checks a phrase only in the best pages its words find: on pages
// where the words are everywhere (2,000 pages, words from 60), its
// answers are the single query's, page for page, score for score, and
// total for total, at the start and further on.
func TestPagesScoreThePhraseInTheWordsBestPagesAsOneQueryWould(t *testing.T) {
	ctx := context.Background()
	vocabulary := strings.Fields("deploy invoice payment webhook configure token secret cluster node backup policy " +
		"release schedule monitor alert index shard replica query cache build test branch merge commit review " +
		"space page site search reader editor import export sync theme layout header footer link image table " +
		"code block hint tab step card embed file folder user team role access grant audit event log metric")
	var ps []Page
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for w := 0; w < 60; w++ {
			b.WriteString(vocabulary[(i*7+w*w*3+w)%len(vocabulary)] + " ")
		}
		ps = append(ps, Page{ID: fmt.Sprintf("p%04d", i), Title: vocabulary[i%len(vocabulary)] + " " + vocabulary[(i*3)%len(vocabulary)],
			Path: fmt.Sprintf("p%04d", i), Body: "## " + vocabulary[(i*5)%len(vocabulary)] + "\n\n" + b.String() + "\n"})
	}
	dir := filepath.Join(t.TempDir(), "index")
	if err := Build(ctx, dir, AnalysisDefault, ps); err != nil {
		t.Fatal(err)
	}
	idx, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	checked := 0
	for _, text := range []string{"invoice payment", "configure the webhook", "backup policy", "release schedule", "cluster node", "\"secret token\"", "deploy"} {
		for _, offset := range []int{0, 20, 180} {
			got, err := Pages(ctx, idx, text, offset, 20)
			if err != nil {
				t.Fatal(err)
			}
			want, err := pages(ctx, idx, text, offset, 20, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != want.Total || len(got.Pages) != len(want.Pages) {
				t.Fatalf("%q at %d: total %d, %d pages; one query: %d, %d", text, offset, got.Total, len(got.Pages), want.Total, len(want.Pages))
			}
			for i := range got.Pages {
				if g, w := got.Pages[i], want.Pages[i]; g.ID != w.ID || g.Score != w.Score || g.Rank != w.Rank {
					t.Fatalf("%q at %d, hit %d: %s %v; one query: %s %v", text, offset, i, g.ID, g.Score, w.ID, w.Score)
				}
			}
			checked += len(got.Pages)
			if words(text) > 1 && want.Total < offset+20+phraseWindow {
				t.Fatalf("%q: %d pages found, too few to leave any out of the window", text, want.Total)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no page found")
	}
}
