package search

import (
	"container/heap"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// rank is how Pages ranks a query's pages: the answer of the page query
// (pageQuery: the words on the title, headings and body, and the phrase
// on the body), page for page and score for score, read from the index's
// posting lists directly instead of through bleve's searchers.
//
// bleve's searchers cost about 150 ns a posting at 50,000 pages (a
// disjunction of term searchers in a disjunction of fields, every page
// found scored and collected, then the phrase's positions checked by a
// searcher of their own), and a query of two common words reads every
// page that has one of them: most of a search's time (docs/search.md,
// "Figures"). Here each (field, term) posting list is read once even when
// several clauses read it (the last word's term and its prefix, the
// phrase's words in the body), the lists are merged document by
// document, and a document's score is computed as bleve computes it:
//   - a term's BM25 score as bleve's TermQueryScorer (idf squared times
//     the saturated frequency), times its clause's boost (and 1/(d+1) for
//     a term d edits away);
//   - a clause of several terms (a prefix, a word within typos): the sum
//     times the share of its terms found;
//   - a field (match): the sum of its clauses times their share found;
//   - the phrase: the sum of its words' scores in the body (boosted), when
//     each comes right after the one before (bleve's phrase, no slop);
//   - the query: the sum of the fields and the phrase times their share
//     found, times the query's norm (1/sqrt of the sum of the squared
//     weights of every term searcher the query has).
//
// The best pages are kept in a heap as the documents come, in the
// index's order; the phrase's positions are read (lists of their own,
// only ever advanced) at a document that has every word of the phrase
// only when the phrase would put it among the best so far.
//
// TestRankAnswersAsThePageQuery compares every page, score and total with
// bleve's answer to pageQuery. A phrase whose analysis puts two terms at
// one position (an analyzer with synonyms would) is left to bleve.

// errPhraseForBleve says the phrase needs bleve's own searcher.
var errPhraseForBleve = errors.New("search: phrase with several terms at one position")

// clause is one clause of a field's disjunction (match), as bleve
// searches it: one term, or several (a prefix, a word within typos).
type clause struct {
	terms int // the terms it reads: its coord is matched/terms when > 1
}

// termList is one posting list, read once, and what its postings add to
// the clauses that read it.
type termList struct {
	tfr      bleveindex.TermFieldReader
	cur      *bleveindex.TermFieldDoc
	doc      uint64 // the current document; ended when math.MaxUint64
	idf      float64
	avgField float64
	adds     []termAdd
	// at marks the list as at the document being scored, and s is its
	// score there.
	at bool
	s  float64
}

type termAdd struct {
	clause int
	weight float64 // the clause's boost, times 1/(d+1) for a term d edits away
}

const ended = math.MaxUint64

func (l *termList) next() error {
	var err error
	l.cur, err = l.tfr.Next(l.cur)
	if err != nil {
		return err
	}
	if l.cur == nil {
		l.doc = ended
		return nil
	}
	if len(l.cur.ID) != 8 {
		return fmt.Errorf("search: unexpected internal id %q", l.cur.ID)
	}
	l.doc = binary.BigEndian.Uint64(l.cur.ID)
	return nil
}

// score is the posting's BM25 score as bleve's TermQueryScorer gives it,
// boost and query norm left out.
func (l *termList) score() float64 {
	tf := math.Sqrt(float64(l.cur.Freq))
	if l.avgField > 0 {
		length := 1 / (l.cur.Norm * l.cur.Norm)
		return l.idf * l.idf * (tf * search.BM25_k1) / (tf + search.BM25_k1*(1-search.BM25_b+search.BM25_b*length/l.avgField))
	}
	return l.idf * tf * l.cur.Norm * l.idf
}

// stats reads the term's statistics as bleve's term searcher does: the
// documents in the index, those with the term, and the field's average
// length (rounded up; 0: tf-idf instead of BM25).
func (l *termList) stats(r bleveindex.IndexReader, field string, count uint64) error {
	card := 0
	if br, ok := r.(bleveindex.BM25Reader); ok {
		var err error
		if card, err = br.FieldCardinality(field); err != nil {
			return err
		}
	}
	l.avgField = math.Ceil(float64(card) / float64(count))
	n := float64(l.tfr.Count())
	if l.avgField > 0 {
		l.idf = math.Log(1 + (float64(count)-n+0.5)/(n+0.5))
	} else {
		l.idf = 1 + math.Log(float64(count)/(n+1))
	}
	return nil
}

// ranked is a document found and its score.
type ranked struct {
	doc   uint64
	score float64
}

// worst keeps the best documents found so far, the worst on top (a lower
// score, or the same score later in the index: bleve keeps the first
// found of equal scores).
type worst []ranked

func (h worst) Len() int { return len(h) }
func (h worst) Less(i, j int) bool {
	return h[i].score < h[j].score || h[i].score == h[j].score && h[i].doc > h[j].doc
}
func (h worst) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *worst) Push(x any)   { *h = append(*h, x.(ranked)) }
func (h *worst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// ranking is a query's posting lists and clauses, ready to merge.
type ranking struct {
	r       bleveindex.IndexReader
	count   uint64
	fields  []fieldBoost
	clauses []clause
	lists   map[string]*termList
	order   []*termList
	// fieldEnd is where each field's clauses end (a field's clauses are
	// together, from the previous field's end).
	fieldEnd []int
	// phrase is the phrase's lists, a slot each (nil: a gap), when the
	// query has a phrase; phraseOff when some word of it is in no page.
	// positions are the same words' lists with their positions (a slot
	// each, nil: a gap), read only at the documents where the phrase
	// could change the best ones.
	phrase    []*termList
	positions []*termList
	hasPhrase bool
	phraseOff bool
	norm      float64
	id        [8]byte // phraseAt's internal id, reused
}

type fieldBoost struct {
	name  string
	boost float64
}

// pageFields are the fields of pageQuery's words, with their boosts.
func pageFields() []fieldBoost {
	return []fieldBoost{{fTitle, boostTitle}, {fHeadings, boostHeadings}, {fBody, 1}}
}

func (g *ranking) close() {
	for _, l := range g.order {
		l.tfr.Close()
	}
	seen := map[*termList]bool{}
	for _, l := range g.positions {
		if l != nil && !seen[l] {
			seen[l] = true
			l.tfr.Close()
		}
	}
}

// list opens the posting list of term in field f (once).
func (g *ranking) list(ctx context.Context, f int, term string) (*termList, error) {
	key := g.fields[f].name + "\x00" + term
	if l := g.lists[key]; l != nil {
		return l, nil
	}
	tfr, err := g.r.TermFieldReader(ctx, []byte(term), g.fields[f].name, true, true, false)
	if err != nil {
		return nil, err
	}
	l := &termList{tfr: tfr}
	g.lists[key], g.order = l, append(g.order, l)
	if err := l.stats(g.r, g.fields[f].name, g.count); err != nil {
		return nil, err
	}
	return l, l.next()
}

// addClause adds a clause of terms (each edits[i] away; nil: none) with a
// boost, as bleve searches it: a lone term (or none found) as one term
// searcher, more as a disjunction of them.
func (g *ranking) addClause(ctx context.Context, f int, term string, terms []string, edits []uint8, boost float64) error {
	c := len(g.clauses)
	if len(terms) == 0 || len(terms) == 1 && terms[0] == term {
		terms, edits = []string{term}, nil
	}
	g.clauses = append(g.clauses, clause{terms: len(terms)})
	for i, t := range terms {
		w := boost
		if edits != nil {
			w = boost / float64(edits[i]+1)
		}
		l, err := g.list(ctx, f, t)
		if err != nil {
			return err
		}
		l.adds = append(l.adds, termAdd{clause: c, weight: w})
		g.norm += (w * l.idf) * (w * l.idf)
	}
	return nil
}

// newRanking opens the lists of a query's words (plan) and, when the query
// has a phrase, of the phrase's slots in the body.
func newRanking(ctx context.Context, r bleveindex.IndexReader, ws []word, hasPhrase bool, slots []string) (_ *ranking, err error) {
	count, err := r.DocCount()
	if err != nil {
		return nil, err
	}
	g := &ranking{r: r, count: count, fields: pageFields(), lists: map[string]*termList{}, hasPhrase: hasPhrase}
	if count == 0 {
		return g, nil
	}
	defer func() {
		if err != nil {
			g.close() // the lists opened before the error
		}
	}()
	for f, fd := range g.fields {
		for _, w := range ws {
			folded := len(w.prefixes) > 0 && w.whole[fd.name] && w.typos == 0
			boost := fd.boost
			if folded {
				boost *= 1 + boostPrefix
			}
			var terms []string
			var edits []uint8
			if w.typos > 0 {
				if terms, edits, err = fuzzyTerms(r, fd.name, w.term, w.typos); err != nil {
					return nil, err
				}
			}
			if err := g.addClause(ctx, f, w.term, terms, edits, boost); err != nil {
				return nil, err
			}
			for i, p := range w.prefixes {
				if i == 0 && folded {
					continue
				}
				var terms []string
				if i == 0 {
					if terms, err = prefixTerms(r, fd.name, p); err != nil {
						return nil, err
					}
				}
				if err := g.addClause(ctx, f, p, terms, nil, fd.boost*boostPrefix); err != nil {
					return nil, err
				}
			}
		}
		g.fieldEnd = append(g.fieldEnd, len(g.clauses))
	}
	if slots != nil {
		body := len(g.fields) - 1
		g.phrase = make([]*termList, len(slots))
		g.positions = make([]*termList, len(slots))
		withPositions := map[string]*termList{}
		for i, t := range slots {
			if t == "" {
				continue
			}
			l := g.lists[fBody+"\x00"+t]
			if l == nil {
				// A word the clauses do not read in the body (one
				// within typos: no page has it): the phrase finds
				// nothing, its weight counts in the norm.
				if l, err = g.list(ctx, body, t); err != nil {
					return nil, err
				}
				g.phraseOff = true
			}
			g.phrase[i] = l
			g.norm += (boostPhrase * l.idf) * (boostPhrase * l.idf)
			if withPositions[t] == nil {
				tfr, err := r.TermFieldReader(ctx, []byte(t), fBody, false, false, true)
				if err != nil {
					return nil, err
				}
				withPositions[t] = &termList{tfr: tfr}
			}
			g.positions[i] = withPositions[t]
		}
	}
	if g.norm > 0 {
		g.norm = 1 / math.Sqrt(g.norm)
	}
	return g, nil
}

// best merges the lists and returns the best k documents found, best
// first (ties in the index's order), and how many were found.
//
// The phrase's positions are read only where the phrase could put a
// document among the best k: where it has every word of the phrase and
// its score with the phrase would beat the k-th best so far (documents
// come in the index's order, and a later one loses a tie).
func (g *ranking) best(ctx context.Context, k int) ([]ranked, int, error) {
	sums := make([]float64, len(g.clauses))
	matched := make([]int, len(g.clauses))
	top := float64(len(g.fields))
	if g.hasPhrase {
		top++
	}
	best := make(worst, 0, min(k, 1024)+1)
	total := 0
	for {
		doc := uint64(ended)
		for _, l := range g.order {
			doc = min(doc, l.doc)
		}
		if doc == ended {
			break
		}
		if total%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, err
			}
		}
		clear(sums)
		clear(matched)
		for _, l := range g.order {
			if l.at = l.doc == doc; !l.at {
				continue
			}
			l.s = l.score()
			for _, a := range l.adds {
				sums[a.clause] += l.s * a.weight
				matched[a.clause]++
			}
		}
		score, found, from := 0.0, 0, 0
		for _, end := range g.fieldEnd {
			fs, n := 0.0, 0
			for c := from; c < end; c++ {
				if matched[c] == 0 {
					continue
				}
				s := sums[c]
				if t := g.clauses[c].terms; t > 1 {
					s *= float64(matched[c]) / float64(t)
				}
				fs += s
				n++
			}
			if n > 0 {
				score += fs * float64(n) / float64(end-from)
				found++
			}
			from = end
		}
		if found > 0 {
			total++
			full := len(best) == k
			if p, ok := g.phraseWords(); ok {
				// As the score below is computed, so that the two agree
				// to the last bit.
				with := (score + p) * (g.norm * float64(found+1) / top)
				if !full || k > 0 && with > best[0].score {
					has, err := g.phraseAt(doc)
					if err != nil {
						return nil, 0, err
					}
					if has {
						score, found = score+p, found+1
					}
				}
			}
			score *= (g.norm * float64(found) / top)
			if !full {
				heap.Push(&best, ranked{doc, score})
			} else if k > 0 && score > best[0].score {
				best[0] = ranked{doc, score}
				heap.Fix(&best, 0)
			}
		}
		for _, l := range g.order {
			if l.at {
				if err := l.next(); err != nil {
					return nil, 0, err
				}
			}
		}
	}
	sort.Slice(best, func(i, j int) bool { return best.Less(j, i) })
	return best, total, nil
}

// phraseWords is the phrase's score in the document the lists are at
// (the sum of its words' scores there, boosted), when it has every word.
func (g *ranking) phraseWords() (float64, bool) {
	if !g.hasPhrase || g.phraseOff {
		return 0, false
	}
	p, any := 0.0, false
	for _, l := range g.phrase {
		if l == nil {
			continue
		}
		if !l.at {
			return 0, false
		}
		p += boostPhrase * l.s
		any = true
	}
	return p, any
}

// phraseAt tells whether doc, which has every word of the phrase, has
// the phrase: each word right after the one before, the gaps kept.
func (g *ranking) phraseAt(doc uint64) (bool, error) {
	id := g.id[:]
	binary.BigEndian.PutUint64(id, doc)
	first := -1
	for i, l := range g.positions {
		if l == nil {
			continue
		}
		if first < 0 {
			first = i
		}
		if l.cur != nil && l.doc == doc {
			continue
		}
		var err error
		if l.cur, err = l.tfr.Advance(id, l.cur); err != nil {
			return false, err
		}
		if l.cur == nil || len(l.cur.ID) != 8 || binary.BigEndian.Uint64(l.cur.ID) != doc {
			return false, fmt.Errorf("search: positions of document %d not found", doc)
		}
		l.doc = doc
	}
next:
	for _, v := range g.positions[first].cur.Vectors {
		for i, l := range g.positions {
			if l != nil && i != first && !hasPos(l.cur.Vectors, v.Pos+uint64(i-first)) {
				continue next
			}
		}
		return true, nil
	}
	return false, nil
}

func hasPos(vs []*bleveindex.TermFieldVector, pos uint64) bool {
	for _, v := range vs {
		if v.Pos == pos {
			return true
		}
	}
	return false
}

// phraseSlots is the terms of a phrase's analysis by position from the
// first ("": a gap, a stop word), as bleve's match phrase lays them out;
// errPhraseForBleve when two terms share a position.
func phraseSlots(tokens analysis.TokenStream) ([]string, error) {
	if len(tokens) == 0 {
		return nil, nil
	}
	first, last := tokens[0].Position, tokens[0].Position
	for _, t := range tokens {
		first, last = min(first, t.Position), max(last, t.Position)
	}
	slots := make([]string, last-first+1)
	for _, t := range tokens {
		if i := t.Position - first; slots[i] != "" && slots[i] != string(t.Term) {
			return nil, errPhraseForBleve
		}
		slots[t.Position-first] = string(t.Term)
	}
	return slots, nil
}

// prefixTerms is the terms of field that begin with prefix.
func prefixTerms(r bleveindex.IndexReader, field, prefix string) ([]string, error) {
	d, err := r.FieldDictPrefix(field, []byte(prefix))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var out []string
	for {
		e, err := d.Next()
		if err != nil || e == nil {
			return out, err
		}
		out = append(out, e.Term)
	}
}

// fuzzyTerms is the terms of field within typos edits of term, and each
// one's edit distance.
func fuzzyTerms(r bleveindex.IndexReader, field, term string, typos int) ([]string, []uint8, error) {
	fr, ok := r.(bleveindex.IndexReaderFuzzy)
	if !ok {
		return nil, nil, fmt.Errorf("search: the index has no fuzzy dictionary")
	}
	d, err := fr.FieldDictFuzzy(field, term, typos, "")
	if err != nil {
		return nil, nil, err
	}
	defer d.Close()
	var terms []string
	var edits []uint8
	seen := map[string]bool{}
	for {
		e, err := d.Next()
		if err != nil || e == nil {
			return terms, edits, err
		}
		if !seen[e.Term] {
			seen[e.Term] = true
			terms, edits = append(terms, e.Term), append(edits, e.EditDistance)
		}
	}
}
