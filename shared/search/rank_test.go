package search

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// Random queries, in three analyses (English, French with its elisions
// and stop words, CJK bigrams), answer as bleve answers pageQuery: words
// of the pages' vocabulary, misspelled, cut short, repeated, with stop
// words between them and words no page has, one to four of them, at
// random offsets, on an index updated once (two segments, pages deleted
// from the first); every page, rank, total and score (within 1e-9).
func TestRankAnswersAsThePageQueryOnRandomQueries(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		analysis string
		words    []string
		stop     []string
	}{
		{AnalysisDefault, strings.Fields("deploy invoice payment webhook configure token secret cluster node backup policy " +
			"release schedule monitor alert index shard replica query cache build branch merge commit review"), []string{"the", "of", "and"}},
		{"fr", strings.Fields("déploiement facture paiement jeton secret grappe nœud sauvegarde politique publication " +
			"calendrier surveillance alerte index fragment réplique requête cache branche fusion révision"), []string{"le", "la", "de", "l'"}},
		{AnalysisCJK, strings.Fields("索引 検索 配置 支払 秘密 集群 節点 備份 策略 発行 監視 警報 分片 副本 查詢 緩存 分支 合併 提交 審査"), []string{"の", "と"}},
	} {
		t.Run(tc.analysis, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(tc.words))))
			pick := func() string { return tc.words[rng.IntN(len(tc.words))] }
			var ps []Page
			for i := 0; i < 600; i++ {
				var b strings.Builder
				for s := 0; s < 1+i%3; s++ {
					if i%4 != 0 {
						fmt.Fprintf(&b, "## %s %s\n\n", pick(), pick())
					}
					for w := 0; w < 10+rng.IntN(40); w++ {
						b.WriteString(pick() + " ")
						if rng.IntN(5) == 0 {
							b.WriteString(tc.stop[rng.IntN(len(tc.stop))] + " ")
						}
					}
					b.WriteString("\n\n")
				}
				ps = append(ps, Page{ID: fmt.Sprintf("p%04d", i), Title: pick() + " " + pick(), Path: fmt.Sprintf("p%04d", i), Body: b.String()})
			}
			dir := filepath.Join(t.TempDir(), "index")
			if err := Build(ctx, dir, tc.analysis, ps[:500]); err != nil {
				t.Fatal(err)
			}
			// Updated: a second segment, pages deleted from the first
			// (removed, or changed and indexed again).
			for i := 0; i < 100; i++ {
				ps[i*3].Body = pick() + " " + pick() + " " + ps[i*3].Body
			}
			changed := []Page{}
			for i := 0; i < 100; i++ {
				changed = append(changed, ps[i*3])
			}
			if err := Update(ctx, dir, []string{"p0001", "p0004", "p0007"}, append(changed, ps[500:]...)); err != nil {
				t.Fatal(err)
			}
			idx, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer idx.Close()
			compared := 0
			for q := 0; q < 150; q++ {
				var words []string
				for n := 1 + rng.IntN(4); len(words) < n; {
					w := []rune(pick())
					switch rng.IntN(8) {
					case 0: // misspelled: a letter doubled
						i := rng.IntN(len(w))
						w = append(w[:i+1], w[i:]...)
					case 1: // cut short
						w = w[:max(1, len(w)-1-rng.IntN(3))]
					case 2: // a stop word
						w = []rune(tc.stop[rng.IntN(len(tc.stop))])
					case 3: // no page has it
						w = []rune("zzyzx")
					}
					words = append(words, string(w))
				}
				text := strings.Join(words, " ")
				if rng.IntN(6) == 0 {
					text = `"` + text + `"`
				}
				offset := []int{0, 0, 10, 50}[rng.IntN(4)]
				got, err := Pages(ctx, idx, text, offset, 10)
				if err != nil {
					t.Fatalf("%q: %v", text, err)
				}
				ws, err := plan(ctx, idx, text)
				if err != nil {
					t.Fatal(err)
				}
				want := Hits{Pages: []PageHit{}}
				if len(ws) > 0 {
					if want, err = queryPages(ctx, idx, pageQuery(ws, text), offset, 10); err != nil {
						t.Fatal(err)
					}
				}
				if got.Total != want.Total || len(got.Pages) != len(want.Pages) {
					t.Fatalf("%q at %d: total %d, %d pages; bleve: %d, %d", text, offset, got.Total, len(got.Pages), want.Total, len(want.Pages))
				}
				for i := range got.Pages {
					g, w := got.Pages[i], want.Pages[i]
					if g.ID != w.ID || math.Abs(g.Score-w.Score) > 1e-9*w.Score || g.Rank != w.Rank {
						t.Fatalf("%q at %d, hit %d: %s %v; bleve: %s %v", text, offset, i, g.ID, g.Score, w.ID, w.Score)
					}
				}
				compared += len(got.Pages)
			}
			if compared < 500 {
				t.Fatalf("%d pages compared", compared)
			}
			t.Logf("%d pages compared", compared)
		})
	}
}
