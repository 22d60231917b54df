package search

import (
	"context"
	"net/url"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/sites"
)

// A published site's search page (the reader's search box leads there):
// the site's pages that match, grouped by site space (section › space)
// then page, each with its matching sections, linked to their published
// URLs; what the visitor may read only (the site as its URL resolves for
// them: published, share key, visitor token, conditions). It runs here,
// where the index is: the reader's function does not link the search
// engine (docs/functions.md).

// MaxSitePageResults bounds the pages one search page shows.
const MaxSitePageResults = 50

// MaxSuggestResults and MaxSuggestSections bound the results as you type
// (the search page's JSON): pages, and matching sections of each page.
const (
	MaxSuggestResults  = 8
	MaxSuggestSections = 3
)

// SitePageRequest is a search of a published site as a visitor asks it.
type SitePageRequest struct {
	// AppURL is the application's base; SitePath the site's root path
	// (/sites/<org>/<basename>).
	AppURL, SitePath string
	ShareKey         string
	Visitor          sites.Visitor
	Query            string
	// Limit bounds the pages found (at most MaxSitePageResults, the
	// default); Sections, when positive, the sections of each page.
	Limit, Sections int
}

// SiteResults are a search page's results.
type SiteResults struct {
	SiteTitle string
	// Home is the site's root URL (with its share key).
	Home   string
	Query  string
	Groups []SiteResultGroup
	// NoIndex: the site is not public.
	NoIndex bool
	// FrameAncestors is the source list of the origins that may frame the
	// search page: the site's own and those it names
	// (sites.FrameAncestors).
	FrameAncestors string
}

// SiteResultGroup is one site space's pages found.
type SiteResultGroup struct {
	Title string
	Pages []SiteResultPage
}

// SiteResultPage is a page found, with its matching sections.
type SiteResultPage struct {
	Title, URL, Description string
	Ancestors               []string
	Sections                []SiteResultSection
}

// SiteResultSection is a section of a page found.
type SiteResultSection struct {
	Heading, URL, Excerpt string
}

// SitePage searches a published site for a visitor.
func (s *Service) SitePage(ctx context.Context, req SitePageRequest) (SiteResults, error) {
	res, caller, err := s.openSite(ctx, req.AppURL, req.SitePath, req.ShareKey, req.Visitor)
	if err != nil {
		return SiteResults{}, err
	}
	out, err := s.siteResults(access.WithCaller(ctx, caller), res, req.Query, req.Limit, req.Sections)
	out.FrameAncestors = sites.FrameAncestors(res.View.Site, res.View.OrgBase, req.AppURL)
	return out, err
}

// openSite resolves a published site's root for a visitor (published,
// share key, visitor token, conditions: sites.ResolveURL) and
// authenticates the site token it issues them.
func (s *Service) openSite(ctx context.Context, appURL, sitePath, shareKey string, vis sites.Visitor) (sites.Resolved, access.Caller, error) {
	raw := strings.TrimRight(appURL, "/") + strings.TrimRight(sitePath, "/") + "/"
	if shareKey != "" {
		raw += "?shareKey=" + url.QueryEscape(shareKey)
	}
	res, err := s.sites.ResolveURL(ctx, raw, appURL, vis)
	if err != nil {
		return sites.Resolved{}, access.Caller{}, err
	}
	caller, err := s.users.Authenticate(ctx, res.APIToken)
	if err != nil {
		return sites.Resolved{}, access.Caller{}, err
	}
	return res, caller, nil
}

// siteResults searches a resolved site as its visitor (vctx carries the
// visitor's site token): results linked by their paths, at most maxPages
// pages and maxSections sections a page when above 0 (SitePageRequest).
func (s *Service) siteResults(vctx context.Context, res sites.Resolved, q string, maxPages, maxSections int) (SiteResults, error) {
	site := res.View.Site
	query := ""
	if res.View.ShareKey != "" {
		query = "?shareKey=" + url.QueryEscape(res.View.ShareKey)
	}
	out := SiteResults{SiteTitle: site.Title, Home: res.SiteBasePath + query, Query: strings.TrimSpace(q),
		NoIndex: site.Visibility != "public"}
	if out.Query == "" {
		return out, nil
	}
	if len(out.Query) > 512 {
		return SiteResults{}, apperr.Field("q", "at most 512 characters")
	}
	limit := MaxSitePageResults
	if maxPages > 0 && maxPages < limit {
		limit = maxPages
	}
	// Limit counts site spaces here: each brings at most PagesPerSpace
	// pages, of which the first limit in all are kept.
	found, err := s.Site(vctx, site.OrgID, site.ID, nil, out.Query, paging.Request{Limit: limit})
	if err != nil {
		return SiteResults{}, err
	}
	tree := sites.TreeOf(&site)
	shown := 0
	for _, hits := range found.Items {
		if shown == limit {
			break
		}
		// The first site space showing the space is where its pages are.
		var base, title string
		for _, ss := range tree.All() {
			if ss.SpaceID != hits.Space.ID {
				continue
			}
			base, title = res.SiteBasePath, hits.Space.Title
			if ss.Section != "" {
				if sec, err := tree.Section(ss.Section); err == nil {
					base += url.PathEscape(sec.Path) + "/"
					if sec.Title != title {
						title = sec.Title + " › " + title
					}
				}
			}
			if !ss.Default {
				base += url.PathEscape(ss.Path) + "/"
			}
			break
		}
		if base == "" {
			continue
		}
		// Pages whose condition hides them from the visitor (and their
		// children) are left out, as the reader leaves them out.
		pages, err := s.content.Pages(vctx, content.At{SpaceID: hits.Space.ID, Revision: hits.Space.Revision, NoCompute: true}, false)
		if err != nil {
			return SiteResults{}, err
		}
		hidden := content.HiddenFor(pages, res.Claims)
		g := SiteResultGroup{Title: title}
		for _, p := range hits.Pages {
			if hidden[p.ID] {
				continue
			}
			if shown == limit {
				break
			}
			shown++
			page := SiteResultPage{Title: p.Title, URL: base + content.EscapeSegments(p.Path) + query, Description: p.Description, Ancestors: p.Ancestors}
			for i, sec := range p.Sections {
				if maxSections > 0 && i == maxSections {
					break
				}
				u := page.URL
				if sec.Anchor != "" {
					u = base + content.EscapeSegments(p.Path) + query + "#" + url.PathEscape(sec.Anchor)
				}
				page.Sections = append(page.Sections, SiteResultSection{Heading: sec.Heading, URL: u, Excerpt: sec.Excerpt})
			}
			g.Pages = append(g.Pages, page)
		}
		if len(g.Pages) > 0 {
			out.Groups = append(out.Groups, g)
		}
	}
	return out, nil
}
