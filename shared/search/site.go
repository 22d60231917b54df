package search

import (
	"context"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/spaces"
)

// Site searches a docs site's current content: the live spaces its site
// spaces show (all of them, or those of siteSpaceIDs), those the caller may
// read (a member's level on each space; a visitor's site token, the spaces
// it names). The sites family decides who may read the site and which site
// spaces it has (sites.SearchScope); the search runs here, where the index
// is (docs/search.md). Spaces without a match are left out; the page's
// cursor carries the offset of the next page.
func (s *Service) Site(ctx context.Context, orgID, siteID string, siteSpaceIDs []string, text string, r paging.Request) (paging.Page[SpaceHits], error) {
	scope := "search:site:" + siteID + ":" + strings.Join(siteSpaceIDs, ",") + ":" + text
	offset, _, err := s.offsetAfter(scope, r.Cursor)
	if err != nil {
		return paging.Page[SpaceHits]{}, err
	}
	sps, err := s.siteSpaces(ctx, orgID, siteID, siteSpaceIDs)
	if err != nil {
		return paging.Page[SpaceHits]{}, err
	}
	return s.spaces(ctx, scope, orgID, sps, text, offset, r)
}

// Prewarm readies the search indexes of a site's current content (every
// space its site spaces show that the caller may read, as Site searches
// them) in this process, ahead of the visitor's first search: each is
// read from the blob store, or made and stored, as the first search would
// (Index). In AWS it readies the instance that answers, which is likely,
// not sure, to answer the searches that follow.
func (s *Service) Prewarm(ctx context.Context, orgID, siteID string) error {
	sps, err := s.siteSpaces(ctx, orgID, siteID, nil)
	if err != nil {
		return err
	}
	return s.withIndexes(ctx, orgID, sps, func(int, model.Space, *Handle) error { return nil })
}

// siteSpaces are the spaces a site search covers (all of the site's site
// spaces, or those of siteSpaceIDs) that the caller may read: a member's
// level on each space, a visitor's site token's spaces. Each is searched
// in the analysis of its site space's locale (Analysis); a space that
// several site spaces show, in that of the first in display order.
func (s *Service) siteSpaces(ctx context.Context, orgID, siteID string, siteSpaceIDs []string) ([]target, error) {
	in, err := s.sites.SearchScope(ctx, orgID, siteID, siteSpaceIDs, "siteSpaceIds")
	if err != nil {
		return nil, err
	}
	var sps []model.Space
	analysis := map[string]string{}
	for _, x := range in {
		if _, ok := analysis[x.Space.ID]; !ok {
			analysis[x.Space.ID] = Analysis(x.Locale)
			sps = append(sps, x.Space)
		}
	}
	with := func(sps []model.Space) []target {
		out := make([]target, len(sps))
		for i, sp := range sps {
			out[i] = target{Space: sp, analysis: analysis[sp.ID]}
		}
		return out
	}
	if vis, ok := access.VisitorFrom(ctx); ok {
		readable := sps[:0]
		for _, sp := range sps {
			if vis.MayReadSpace(sp) {
				readable = append(readable, sp)
			}
		}
		return with(readable), nil
	}
	v, err := s.d.Authz.ViewerIn(ctx, orgID)
	if err != nil {
		return nil, err
	}
	readable, err := spaces.Readable(ctx, v, sps)
	if err != nil {
		return nil, err
	}
	return with(readable.Spaces), nil
}
