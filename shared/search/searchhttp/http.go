// Package searchhttp is the search family's HTTP layer: its operations,
// query parameters and result shapes (with their app URLs), on the service
// of package search (which knows no HTTP).
package searchhttp

import (
	"context"
	"net/http"
	"net/url"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/search"
)

// SectionResult is a section of a page found (the reference's
// SearchSectionResult).
type SectionResult struct {
	ID    string     `json:"id" doc:"The heading's anchor; the page's id for the text above the first heading"`
	Title string     `json:"title" doc:"The heading (the page's title for the text above the first heading)"`
	Path  string     `json:"path" doc:"The page's path, with #anchor for a heading"`
	Score float64    `json:"score" minimum:"0" doc:"Relevance (BM25): higher is better, unbounded; 0 for a page found by its title alone"`
	Body  string     `json:"body" doc:"An excerpt of the section's text around the first match"`
	URLs  ResultURLs `json:"urls"`
}

// PageResult is a page found (the reference's SearchPageResult).
type PageResult struct {
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Description string          `json:"description" doc:"The page's description (empty when none)"`
	Path        string          `json:"path"`
	Score       float64         `json:"score" minimum:"0" doc:"Relevance (BM25): higher is better, unbounded"`
	Rank        int             `json:"rank" minimum:"1" doc:"One-based place among all the pages found, kept across pages of results"`
	Ancestors   []Ancestor      `json:"ancestors" nullable:"false" doc:"The pages above, top first"`
	Sections    []SectionResult `json:"sections"`
	URLs        ResultURLs      `json:"urls"`
}

// Ancestor is a page above a page found.
type Ancestor struct {
	Title string `json:"title"`
}

// SpaceResult is a space found by an organization search (the reference's
// SearchSpaceResult).
type SpaceResult struct {
	Type  string       `json:"type" enum:"space"`
	ID    string       `json:"id"`
	Title string       `json:"title"`
	Score float64      `json:"score" minimum:"0" doc:"The score of its best page"`
	Pages []PageResult `json:"pages"`
}

// ResultURLs are a result's links.
type ResultURLs struct {
	App string `json:"app" format:"uri"`
}

// QueryParams are the parameters of a search.
type QueryParams struct {
	Query string `query:"query" required:"true" minLength:"1" maxLength:"512" doc:"The words to look for"`
	httpapi.ListParams
}

type spaceIn struct {
	SpaceID string `path:"spaceId" maxLength:"64"`
	QueryParams
}

type orgIn struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	QueryParams
}

type pagesOut struct {
	Body httpapi.List[PageResult]
}

type spacesOut struct {
	Body httpapi.List[SpaceResult]
}

// pageResults renders the pages found in a space.
func pageResults(ctx context.Context, spaceID string, pages []search.PageHit) []PageResult {
	base := spaceBase(ctx, spaceID)
	out := make([]PageResult, 0, len(pages))
	for _, p := range pages {
		out = append(out, pageResult(base, p))
	}
	return out
}

// spaceBase is the app URL under which a space's pages are.
func spaceBase(ctx context.Context, spaceID string) string {
	return httpapi.AppURL(ctx) + "/s/" + spaceID + "/"
}

// pageResult renders a page found in the space whose pages are under base.
func pageResult(base string, p search.PageHit) PageResult {
	app := base + (&url.URL{Path: p.Path}).EscapedPath()
	r := PageResult{ID: p.ID, Title: p.Title, Description: p.Description, Path: p.Path, Score: p.Score, Rank: p.Rank,
		Ancestors: make([]Ancestor, 0, len(p.Ancestors)), URLs: ResultURLs{App: app}, Sections: make([]SectionResult, 0, len(p.Sections))}
	for _, a := range p.Ancestors {
		r.Ancestors = append(r.Ancestors, Ancestor{Title: a})
	}
	for _, s := range p.Sections {
		sec := SectionResult{ID: p.ID, Title: p.Title, Path: p.Path, Score: s.Score, Body: s.Excerpt, URLs: ResultURLs{App: app}}
		if s.Heading != "" {
			sec.Title = s.Heading
		}
		if s.Anchor != "" {
			sec.ID, sec.Path, sec.URLs.App = s.Anchor, p.Path+"#"+s.Anchor, app+"#"+s.Anchor
		}
		r.Sections = append(r.Sections, sec)
	}
	return r
}

// Register adds the search family's operations.
func Register(api *httpapi.API, s *search.Service) {
	const tag = "Search"
	httpapi.Register(api, httpapi.Op{ID: "searchSpaceContent", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/search", Tag: tag,
		Summary: "Search the space's current content"},
		func(ctx context.Context, in *spaceIn) (*pagesOut, error) {
			sp, found, err := s.Space(ctx, in.SpaceID, in.Query, in.Request())
			if err != nil {
				return nil, err
			}
			base := spaceBase(ctx, sp.ID)
			view := func(p search.PageHit) PageResult { return pageResult(base, p) }
			return &pagesOut{Body: httpapi.ListPage(found, view)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "searchOrganizationContent", Needs: access.Role(access.ViewOrg), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/search", Tag: tag,
		Summary: "Search every space of the organization the caller may read"},
		func(ctx context.Context, in *orgIn) (*spacesOut, error) {
			found, err := s.Org(ctx, in.OrganizationID, in.Query, in.Request())
			if err != nil {
				return nil, err
			}
			view := func(f search.SpaceHits) SpaceResult { return spaceResult(ctx, f.Space, f.Pages) }
			return &spacesOut{Body: httpapi.ListPage(found, view)}, nil
		})
	registerSite(api, s, tag)
	registerSitePage(api, s)
	registerMCP(api, s)
}

func spaceResult(ctx context.Context, sp model.Space, pages []search.PageHit) SpaceResult {
	r := SpaceResult{Type: "space", ID: sp.ID, Title: sp.Title, Pages: pageResults(ctx, sp.ID, pages)}
	for _, p := range pages {
		r.Score = max(r.Score, p.Score)
	}
	return r
}
