package search

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// Weights of the fields in relevance.
const (
	boostTitle    = 4
	boostHeadings = 2
	boostPhrase   = 2
)

// MaxSections is the most sections a page result lists.
const MaxSections = 5

// ExcerptBytes is the length of a section's excerpt.
const ExcerptBytes = 240

// PageHit is a page found, with its sections.
type PageHit struct {
	ID, Title, Path, Description string
	// Ancestors are the titles of the pages above, top first.
	Ancestors []string
	Score     float64
	// Rank is the page's one-based place among all the pages found.
	Rank     int
	Sections []SectionHit
}

// SectionHit is a section of a page found, with an excerpt of its text.
type SectionHit struct {
	Anchor, Heading, Excerpt string
	Score                    float64
}

// Hits is one page of a query's pages.
type Hits struct {
	Pages []PageHit
	// Total is the number of pages found.
	Total int
}

// Typos is the edit distance a word of a query may be from a word of the
// text, by the word's length in characters as typed (DocSearch's and
// Algolia's defaults): none up to 3, one from 4 to 7, two from 8.
func Typos(word string) int {
	switch n := utf8.RuneCountInString(word); {
	case n >= 8:
		return 2
	case n >= 4:
		return 1
	}
	return 0
}

// Prefixes: the last word of a query, unless the query ends with a space,
// also finds the words it begins (as you type) once it has MinPrefix
// characters; boostPrefix weighs such matches (a whole word, exact, weighs
// 1, and one within edit distance d 1/(d+1), bleve's fuzzy scoring).
const (
	MinPrefix   = 3
	boostPrefix = 0.5
)

// word is a word of a query as the index's analyzer makes it (lower case,
// stemmed, a CJK bigram...), and how it matches.
type word struct {
	term string
	// typos is the edit distance forgiven: 0 when the term is in the
	// index (a word spelled as some text spells it is taken as meant),
	// else Typos of the word as typed.
	typos int
	// prefixes are the beginnings it stands for when it is the last word,
	// still being typed: the term itself, and, when the index lacks it,
	// the terms a few characters shorter that the typed word begins with.
	prefixes []string
	// whole are the fields where the term begins no other term, in a
	// query of this one word: there its prefix finds what the term
	// finds, and match folds the two clauses into one (the same
	// ranking, one searcher less).
	whole map[string]bool
}

// plan analyses a query's text as the index's text is analysed (the
// analyzer kept in the index's mapping) and says how each word matches.
// A word found in the index (its title, headings or text) matches
// exactly: typos are forgiven only for the words no page has, as Typesense
// does by default (typo_tokens_threshold 1), which keeps a query spelled
// right as precise, and as fast, as without typo tolerance.
func plan(ctx context.Context, idx bleve.Index, text string) ([]word, error) {
	tokens, err := analyze(idx, fBody, text)
	if err != nil || len(tokens) == 0 {
		return nil, err
	}
	adv, err := idx.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []word
	seen := make(map[string]bool, len(tokens))
	for i, t := range tokens {
		typed := text[t.Start:t.End]
		w := word{term: string(t.Term)}
		last := i == len(tokens)-1 && t.End == len(text) && utf8.RuneCountInString(typed) >= MinPrefix
		if seen[w.term] && !last {
			continue
		}
		seen[w.term] = true
		found := true
		if Typos(typed) > 0 || last {
			if found, err = inIndex(ctx, r, t.Term); err != nil {
				return nil, err
			}
		}
		if !found {
			w.typos = Typos(typed)
		}
		if last {
			w.prefixes = []string{w.term}
			// Folding keeps the answer of a one-word query only: with
			// other words the field's clauses are more, and a page's
			// share of them (bleve's coord) would change.
			if found && len(tokens) == 1 {
				if w.whole, err = wholeIn(r, w.term); err != nil {
					return nil, err
				}
			}
		}
		if last && !found {
			// A word cut short is not stemmed as the whole word was
			// ("authenticati", while "authentication" is "authent"): the
			// terms it begins with, a few characters shorter, stand for
			// it too. A word the index has is whole.
			lower := []rune(strings.ToLower(typed))
			for n := max(MinPrefix+1, len(lower)-5); n < len(lower); n++ {
				if p := string(lower[:n]); p != w.term && unicode.IsLetter(lower[n-1]) {
					w.prefixes = append(w.prefixes, p)
				}
			}
		}
		out = append(out, w)
	}
	return out, nil
}

// analyze analyses text as the index analyses field (the analyzer kept
// in its mapping).
func analyze(idx bleve.Index, field, text string) (analysis.TokenStream, error) {
	m := idx.Mapping()
	a := m.AnalyzerNamed(m.AnalyzerNameForPath(field))
	if a == nil {
		return nil, fmt.Errorf("search: the index has no analyzer for %s", field)
	}
	return a.Analyze([]byte(text)), nil
}

// inIndex tells whether a page's title, headings or text has term.
func inIndex(ctx context.Context, r bleveindex.IndexReader, term []byte) (bool, error) {
	for _, f := range []string{fTitle, fHeadings, fBody} {
		tfr, err := r.TermFieldReader(ctx, term, f, false, false, false)
		if err != nil {
			return false, err
		}
		n := tfr.Count()
		if err := tfr.Close(); err != nil {
			return false, err
		}
		if n > 0 {
			return true, nil
		}
	}
	return false, nil
}

// wholeIn is the fields (title, headings, body) in which no term but term
// itself begins with term.
func wholeIn(r bleveindex.IndexReader, term string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, f := range []string{fTitle, fHeadings, fBody} {
		d, err := r.FieldDictPrefix(f, []byte(term))
		if err != nil {
			return nil, err
		}
		whole := true
		for {
			e, err := d.Next()
			if err != nil {
				d.Close()
				return nil, err
			}
			if e == nil {
				break
			}
			if e.Term != term {
				whole = false
				break
			}
		}
		if err := d.Close(); err != nil {
			return nil, err
		}
		out[f] = whole
	}
	return out, nil
}

// match is the query of a query's words on field, any of them: each
// within its typos of a term of the field, the last one also by its
// prefixes.
func match(words []word, field string, boost float64) query.Query {
	var qs []query.Query
	for _, w := range words {
		fq := query.NewFuzzyQuery(w.term)
		fq.SetFuzziness(w.typos)
		fq.SetField(field)
		fq.SetBoost(boost)
		qs = append(qs, fq)
		folded := len(w.prefixes) > 0 && w.whole[field] && w.typos == 0
		if folded {
			// The prefix finds the term's pages only, each as the
			// term does: one clause, the two boosts.
			fq.SetBoost(boost * (1 + boostPrefix))
		}
		for i, p := range w.prefixes {
			if i == 0 && folded {
				continue
			}
			var q interface {
				query.Query
				SetField(string)
				SetBoost(float64)
			} = query.NewTermQuery(p)
			if i == 0 {
				q = query.NewPrefixQuery(p)
			}
			q.SetField(field)
			q.SetBoost(boost * boostPrefix)
			qs = append(qs, q)
		}
	}
	if len(qs) == 0 {
		return query.NewMatchNoneQuery()
	}
	return query.NewDisjunctionQuery(qs)
}

func phrase(field, text string, boost float64) query.Query {
	q := query.NewMatchPhraseQuery(text)
	q.SetField(field)
	q.SetBoost(boost)
	return q
}

// phraseIn is the phrase of text on field (phrase) for the documents
// within finds, at most size of them, scored as phrase scores them.
//
// bleve's phrase searcher, asked for a document, checks the positions of
// the words in every document from there on that has them all until one
// has the phrase: with words on a tenth of the pages, most of a search's
// time at 50,000 pages (docs/search.md, "Figures"). Here the documents
// within finds that have every word are read once with the words'
// positions, those that have the phrase (each word right after the one
// before, the gaps of stop words kept, as bleve's phrase with no slop)
// are kept by id, and the phrase's clause is the conjunction of its words
// on those documents: the score of a phrase match is that conjunction's
// (the sum of its words' scores, boosted), and its norm the same words'
// weights, so the answer is the phrase query's. A phrase whose analysis
// gives several terms at one position is left to bleve.
func phraseIn(ctx context.Context, idx bleve.Index, field, text string, boost float64, within query.Query, size int) (query.Query, error) {
	tokens, err := analyze(idx, field, text)
	if err != nil || len(tokens) == 0 {
		return query.NewMatchNoneQuery(), err
	}
	slots, err := phraseSlots(tokens)
	if errors.Is(err, errPhraseForBleve) {
		return phrase(field, text, boost), nil
	}
	var terms []query.Query
	all := []query.Query{within}
	seen := map[string]bool{}
	for _, t := range slots {
		if t == "" {
			continue
		}
		tq := query.NewTermQuery(t)
		tq.SetField(field)
		tq.SetBoost(boost)
		terms = append(terms, tq)
		if !seen[t] {
			seen[t] = true
			all = append(all, tq)
		}
	}
	req := bleve.NewSearchRequestOptions(query.NewConjunctionQuery(all), size, 0, false)
	req.IncludeLocations = true
	req.Score = "none"
	res, err := idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search phrase: %w", err)
	}
	var ids []string
	for _, h := range res.Hits {
		if hasPhrase(slots, h.Locations[field]) {
			ids = append(ids, h.ID)
		}
	}
	in := query.NewDocIDQuery(ids)
	in.SetBoost(0)
	return query.NewConjunctionQuery(append([]query.Query{in}, terms...)), nil
}

// maxPhraseSections is the most sections of a search's pages AddSections
// checks the phrase in (those with all its words).
const maxPhraseSections = 10000

// hasPhrase tells whether the locations of a document's terms have the
// phrase slots: each term at its slot's distance from the first.
func hasPhrase(slots []string, locs search.TermLocationMap) bool {
	at := make([]map[uint64]bool, len(slots))
	for i, t := range slots {
		if t == "" || i == 0 {
			continue
		}
		at[i] = make(map[uint64]bool, len(locs[t]))
		for _, l := range locs[t] {
			at[i][l.Pos] = true
		}
	}
next:
	for _, l := range locs[slots[0]] {
		for i := 1; i < len(slots); i++ {
			if slots[i] != "" && !at[i][l.Pos+uint64(i)] {
				continue next
			}
		}
		return true
	}
	return false
}

// words is the number of words of text (a phrase needs two).
func words(text string) int { return len(strings.Fields(text)) }

// Pages runs text on an index and returns the pages from offset to
// offset+size, best first (ties in the index's order, which a revision's
// index never changes), without their sections: the answer of pageQuery,
// ranked from the index's posting lists (rank.go).
func Pages(ctx context.Context, idx bleve.Index, text string, offset, size int) (Hits, error) {
	ws, err := plan(ctx, idx, text)
	if err != nil || len(ws) == 0 {
		return Hits{Pages: []PageHit{}}, err
	}
	several := words(text) > 1
	var slots []string
	if several {
		tokens, err := analyze(idx, fBody, text)
		if err != nil {
			return Hits{}, err
		}
		if slots, err = phraseSlots(tokens); errors.Is(err, errPhraseForBleve) {
			return queryPages(ctx, idx, pageQuery(ws, text), offset, size)
		}
	}
	adv, err := idx.Advanced()
	if err != nil {
		return Hits{}, err
	}
	r, err := adv.Reader()
	if err != nil {
		return Hits{}, err
	}
	defer r.Close()
	g, err := newRanking(ctx, r, ws, several, slots)
	if err != nil {
		return Hits{}, err
	}
	defer g.close()
	best, total, err := g.best(ctx, offset+size)
	if err != nil {
		return Hits{}, err
	}
	out := Hits{Total: total, Pages: make([]PageHit, 0, max(0, len(best)-offset))}
	if len(best) <= offset {
		return out, nil
	}
	ids := make([]string, 0, len(best)-offset)
	internal := make(bleveindex.IndexInternalID, 8)
	for _, b := range best[offset:] {
		binary.BigEndian.PutUint64(internal, b.doc)
		id, err := r.ExternalID(internal)
		if err != nil {
			return Hits{}, err
		}
		ids = append(ids, id)
	}
	req := bleve.NewSearchRequestOptions(query.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = pageHitFields()
	res, err := idx.SearchInContext(ctx, req)
	if err != nil {
		return Hits{}, fmt.Errorf("search: %w", err)
	}
	byID := make(map[string]*search.DocumentMatch, len(res.Hits))
	for _, h := range res.Hits {
		byID[h.ID] = h
	}
	for i, id := range ids {
		h := byID[id]
		if h == nil {
			return Hits{}, fmt.Errorf("search: page %s not found in its index", id)
		}
		out.Pages = append(out.Pages, pageHit(h, best[offset+i].score, offset+i+1))
	}
	return out, nil
}

// pageQuery is the query of a text's pages: its words (plan) on the
// title, headings and body, and when it has several words, the text as a
// phrase in the body. Pages answers it from the posting lists; bleve
// answers it for a phrase Pages leaves to bleve.
func pageQuery(ws []word, text string) query.Query {
	qs := []query.Query{match(ws, fTitle, boostTitle), match(ws, fHeadings, boostHeadings), match(ws, fBody, 1)}
	if words(text) > 1 {
		qs = append(qs, phrase(fBody, text, boostPhrase))
	}
	return query.NewDisjunctionQuery(qs)
}

// pageHitFields are the stored fields a page hit shows.
func pageHitFields() []string { return []string{fPage, fTitle, fPath, fDescription, fAncestors} }

// queryPages runs q with bleve and returns its pages from offset to
// offset+size.
func queryPages(ctx context.Context, idx bleve.Index, q query.Query, offset, size int) (Hits, error) {
	req := bleve.NewSearchRequestOptions(q, size, offset, false)
	req.Fields = pageHitFields()
	res, err := idx.SearchInContext(ctx, req)
	if err != nil {
		return Hits{}, fmt.Errorf("search: %w", err)
	}
	out := Hits{Total: int(res.Total), Pages: make([]PageHit, 0, len(res.Hits))}
	for i, h := range res.Hits {
		out.Pages = append(out.Pages, pageHit(h, h.Score, offset+i+1))
	}
	return out, nil
}

func pageHit(h *search.DocumentMatch, score float64, rank int) PageHit {
	p := PageHit{ID: str(h.Fields[fPage]), Title: str(h.Fields[fTitle]), Path: str(h.Fields[fPath]),
		Description: str(h.Fields[fDescription]), Ancestors: []string{}, Score: score, Rank: rank}
	if a := str(h.Fields[fAncestors]); a != "" {
		p.Ancestors = strings.Split(a, "\n")
	}
	return p
}

// AddSections finds the sections of pages that match text, best first, at
// most MaxSections a page; a page found by its title alone gets its first
// section.
func AddSections(ctx context.Context, idx bleve.Index, text string, pages []PageHit) error {
	if len(pages) == 0 {
		return nil
	}
	ids := make([]query.Query, 0, len(pages))
	for _, p := range pages {
		t := query.NewTermQuery(p.ID)
		t.SetField(fPage)
		t.SetBoost(0)
		ids = append(ids, t)
	}
	ws, err := plan(ctx, idx, text)
	if err != nil {
		return err
	}
	qs := []query.Query{match(ws, fHeading, boostHeadings), match(ws, fText, 1)}
	if words(text) > 1 {
		ph, err := phraseIn(ctx, idx, fText, text, boostPhrase, query.NewDisjunctionQuery(ids), maxPhraseSections)
		if err != nil {
			return err
		}
		qs = append(qs, ph)
	}
	q := query.NewConjunctionQuery([]query.Query{query.NewDisjunctionQuery(ids), query.NewDisjunctionQuery(qs)})
	req := bleve.NewSearchRequestOptions(q, len(pages)*MaxSections*4, 0, false)
	req.Fields = []string{fPage, fHeading, fText, fAnchor}
	req.IncludeLocations = true
	res, err := idx.SearchInContext(ctx, req)
	if err != nil {
		return fmt.Errorf("search sections: %w", err)
	}
	at := make(map[string]int, len(pages))
	for i, p := range pages {
		at[p.ID] = i
	}
	for _, h := range res.Hits {
		i, ok := at[str(h.Fields[fPage])]
		if !ok || len(pages[i].Sections) >= MaxSections {
			continue
		}
		pages[i].Sections = append(pages[i].Sections, sectionOf(h))
	}
	var missing []string
	for _, p := range pages {
		if len(p.Sections) == 0 {
			missing = append(missing, "s:"+p.ID+":0")
		}
	}
	if len(missing) == 0 {
		return nil
	}
	req = bleve.NewSearchRequestOptions(query.NewDocIDQuery(missing), len(missing), 0, false)
	req.Fields = []string{fPage, fHeading, fText, fAnchor}
	res, err = idx.SearchInContext(ctx, req)
	if err != nil {
		return fmt.Errorf("search sections: %w", err)
	}
	for _, h := range res.Hits {
		if i, ok := at[str(h.Fields[fPage])]; ok {
			pages[i].Sections = append(pages[i].Sections, sectionOf(h))
		}
	}
	return nil
}

// sectionOf renders a section hit, its excerpt around the first match in
// its text (its start when only the heading matched).
func sectionOf(h *search.DocumentMatch) SectionHit {
	body := str(h.Fields[fText])
	first := -1
	for _, locs := range h.Locations[fText] {
		for _, l := range locs {
			if first < 0 || int(l.Start) < first {
				first = int(l.Start)
			}
		}
	}
	return SectionHit{Anchor: str(h.Fields[fAnchor]), Heading: str(h.Fields[fHeading]), Excerpt: Excerpt(body, max(first, 0), ExcerptBytes), Score: h.Score}
}

func str(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case []any:
		parts := make([]string, 0, len(s))
		for _, p := range s {
			parts = append(parts, str(p))
		}
		return strings.Join(parts, " ")
	}
	return ""
}
