package search

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
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
	ID, Title, Path string
	Score           float64
	Sections        []SectionHit
}

// SectionHit is a section of a page found, with an excerpt of its text.
type SectionHit struct {
	Anchor, Heading, Excerpt string
}

// Hits is one page of a query's pages.
type Hits struct {
	Pages []PageHit
	// Total is the number of pages found.
	Total int
}

func kind(k string) query.Query {
	q := query.NewTermQuery(k)
	q.SetField(fKind)
	q.SetBoost(0)
	return q
}

func match(field, text string, boost float64) query.Query {
	q := query.NewMatchQuery(text)
	q.SetField(field)
	q.SetBoost(boost)
	return q
}

func phrase(field, text string, boost float64) query.Query {
	q := query.NewMatchPhraseQuery(text)
	q.SetField(field)
	q.SetBoost(boost)
	return q
}

// Pages runs text on an index and returns the pages from offset to
// offset+size, best first (ties by path), without their sections.
func Pages(ctx context.Context, idx bleve.Index, text string, offset, size int) (Hits, error) {
	q := query.NewConjunctionQuery([]query.Query{kind(kindPage), query.NewDisjunctionQuery([]query.Query{
		match(fTitle, text, boostTitle), match(fHeadings, text, boostHeadings), match(fBody, text, 1),
		phrase(fBody, text, boostPhrase), phrase(fTitle, text, boostTitle),
	})})
	req := bleve.NewSearchRequestOptions(q, size, offset, false)
	req.Fields = []string{fPage, fTitle, fPath}
	req.SortByCustom(search.SortOrder{&search.SortScore{Desc: true}, &search.SortField{Field: fPage}})
	res, err := idx.SearchInContext(ctx, req)
	if err != nil {
		return Hits{}, fmt.Errorf("search: %w", err)
	}
	out := Hits{Total: int(res.Total), Pages: make([]PageHit, 0, len(res.Hits))}
	for _, h := range res.Hits {
		out.Pages = append(out.Pages, PageHit{ID: str(h.Fields[fPage]), Title: str(h.Fields[fTitle]), Path: str(h.Fields[fPath]), Score: h.Score})
	}
	return out, nil
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
	q := query.NewConjunctionQuery([]query.Query{kind(kindSection), query.NewDisjunctionQuery(ids), query.NewDisjunctionQuery([]query.Query{
		match(fHeading, text, boostHeadings), match(fBody, text, 1), phrase(fBody, text, boostPhrase),
	})})
	req := bleve.NewSearchRequestOptions(q, len(pages)*MaxSections*4, 0, false)
	req.Fields = []string{fPage, fHeading, fBody, fAnchor}
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
	req.Fields = []string{fPage, fHeading, fBody, fAnchor}
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
	body := str(h.Fields[fBody])
	first := -1
	for _, locs := range h.Locations[fBody] {
		for _, l := range locs {
			if first < 0 || int(l.Start) < first {
				first = int(l.Start)
			}
		}
	}
	return SectionHit{Anchor: str(h.Fields[fAnchor]), Heading: str(h.Fields[fHeading]), Excerpt: Excerpt(body, max(first, 0), ExcerptBytes)}
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

// ByScore orders pages found in several indexes: best first, ties by path.
func ByScore(pages []PageHit) {
	sort.SliceStable(pages, func(i, j int) bool {
		if pages[i].Score != pages[j].Score {
			return pages[i].Score > pages[j].Score
		}
		return pages[i].Path < pages[j].Path
	})
}
