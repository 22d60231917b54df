package search

import (
	"context"
	"net/url"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/insights"
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
	// Track, on the search page itself (not the results as you type,
	// which the page's script tracks), records the search in the site's
	// insights as Client's (search_type_query with its result count).
	Track  bool
	Client insights.Visitor
	// Limit bounds the pages found (at most MaxSitePageResults, the
	// default); Sections, when positive, the sections of each page.
	Limit, Sections int
	// Language asks for the page's language (SiteResults.Lang): the
	// results page's, not the results as you type's (one read more).
	Language bool
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
	// Lang is the language of the site's root site space, as the reader
	// shows its pages: its space's language, else its customization's
	// locale, else "en" (asked by SitePageRequest.Language).
	Lang string
}

// SiteResultGroup is one site space's pages found.
type SiteResultGroup struct {
	Title string
	Pages []SiteResultPage
}

// SiteResultPage is a page found, with its matching sections.
type SiteResultPage struct {
	// ID and SpaceID name the page (the insights of a result opened).
	ID, SpaceID             string
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
	vctx := access.WithCaller(ctx, caller)
	out, err := s.siteResults(vctx, res, req.Query, req.Limit, req.Sections)
	if err != nil {
		return out, err
	}
	out.FrameAncestors = sites.FrameAncestors(res.View.Site, res.View.OrgBase, req.AppURL)
	if req.Track && out.Query != "" {
		s.track(vctx, res, req, out)
	}
	if req.Language {
		out.Lang, err = s.language(vctx, res)
	}
	return out, err
}

// language is the language the reader shows a resolved site space in
// (docs/reader.md, "Interface language"): its space's language, else the
// effective customization's locale (the site space's, else the site's),
// else English.
func (s *Service) language(vctx context.Context, res sites.Resolved) (string, error) {
	if res.Space.Language != "" {
		return res.Space.Language, nil
	}
	site := res.View.Site
	pv, err := s.sites.Published(vctx, site.OrgID, site.ID, res.View.ShareKey)
	if err != nil {
		return "", err
	}
	custom := pv.Customizations.Site.Settings
	if res.SiteSpace != nil {
		if c, ok := pv.Customizations.SiteSpaces[res.SiteSpace.ID]; ok {
			custom = c.Settings
		}
	}
	i18n, _ := custom["internationalization"].(map[string]any)
	if l, _ := i18n["locale"].(string); l != "" {
		return l, nil
	}
	return "en", nil
}

// track records a search of the search page (a search without
// JavaScript) as the reader's script records one of its header's box: a
// search_type_query with the number of pages found, as the visitor
// (insights.Track: hashed with the day's salt; nothing when the request
// asks not to be tracked). Its failure is logged: the results are
// answered.
func (s *Service) track(vctx context.Context, res sites.Resolved, req SitePageRequest, out SiteResults) {
	if s.insights == nil {
		return
	}
	n := 0
	for _, g := range out.Groups {
		n += len(g.Pages)
	}
	site := res.View.Site
	e := insights.Event{Type: insights.SearchTypeQuery, URL: strings.TrimRight(req.SitePath, "/") + "/~search", Query: out.Query, ResultsCount: &n}
	if err := s.insights.Track(vctx, site.OrgID, site.ID, []insights.Event{e}, req.Client); err != nil {
		s.d.Logger.WarnContext(vctx, "search page not tracked", "site", site.ID, "err", err.Error())
	}
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
			page := SiteResultPage{ID: p.ID, SpaceID: hits.Space.ID, Title: p.Title, URL: base + content.EscapeSegments(p.Path) + query, Description: p.Description, Ancestors: p.Ancestors}
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

// A published site as AI agents reach it through its MCP endpoint
// (searchhttp: <site>/~gitbook/mcp): search it and read a page's markdown,
// as the visitor the request names (share key, visitor token, claims) and
// only what that visitor sees, like the reader's .md and llms.txt. The
// sites family decides the audience (sites.ResolveURL); pages are read as
// the visitor with the site token it issues, by the content family. It
// runs here, where the index is.

// SiteAgentRequest opens a published site for an agent.
type SiteAgentRequest struct {
	// AppURL is the application's base; SitePath the site's root path
	// (/sites/<org>/<basename>).
	AppURL, SitePath string
	ShareKey         string
	Visitor          sites.Visitor
}

// SiteAgent is a published site opened for an agent: the visitor's view.
type SiteAgent struct {
	s      *Service
	req    SiteAgentRequest
	res    sites.Resolved
	caller access.Caller
	origin string
}

// SiteAgent opens a published site for an agent: NotFound when the
// visitor may not see it (unpublished, share-link without an active key)
// or when its agentsContext is excluded; Unauthorized (a
// *sites.VisitorAuthError) on a visitor-auth site without a valid token.
func (s *Service) SiteAgent(ctx context.Context, req SiteAgentRequest) (*SiteAgent, error) {
	res, caller, err := s.openSite(ctx, req.AppURL, req.SitePath, req.ShareKey, req.Visitor)
	if err != nil {
		return nil, err
	}
	if res.View.Site.AgentsContext == "excluded" {
		return nil, apperr.NotFoundf("this site is not published for AI agents (agentsContext: excluded)")
	}
	a := &SiteAgent{s: s, req: req, res: res, caller: caller}
	if u, err := url.Parse(res.SiteBase); err == nil {
		a.origin = u.Scheme + "://" + u.Host
	}
	return a, nil
}

// Title is the site's title.
func (a *SiteAgent) Title() string { return a.res.View.Site.Title }

// Origin is the scheme and host of the site's published URLs.
func (a *SiteAgent) Origin() string { return a.origin }

// Search searches the site as the visitor; results' URLs are absolute.
func (a *SiteAgent) Search(ctx context.Context, query string) (SiteResults, error) {
	if strings.TrimSpace(query) == "" {
		return SiteResults{}, apperr.Field("query", "must not be empty")
	}
	if len(query) > 512 {
		return SiteResults{}, apperr.Field("query", "at most 512 characters")
	}
	out, err := a.s.siteResults(access.WithCaller(ctx, a.caller), a.res, query, 0, 0)
	if err != nil {
		return SiteResults{}, err
	}
	out.Home = a.origin + out.Home
	for i := range out.Groups {
		for j := range out.Groups[i].Pages {
			p := &out.Groups[i].Pages[j]
			p.URL = a.origin + p.URL
			for k := range p.Sections {
				p.Sections[k].URL = a.origin + p.Sections[k].URL
			}
		}
	}
	return out, nil
}

// AgentPage is a page as an agent reads it.
type AgentPage struct {
	Title string
	// URL is the page's published URL.
	URL string
	// Markdown is the page's text, as its .md URL serves it
	// (content.AgentMarkdown).
	Markdown string
}

// Page reads a page of the site as the visitor: ref is its published URL
// (absolute, with or without .md, a query or a fragment) or its path, from
// the site's root ("guides/setup", "/guides/setup") or from the server's
// ("/sites/<org>/docs/guides/setup"). A site space's root names its first
// page. NotFound when ref names no page the visitor sees (another site, a
// hidden section or site space, a group).
func (a *SiteAgent) Page(ctx context.Context, ref string) (AgentPage, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return AgentPage{}, apperr.Field("url", "must not be empty")
	}
	if len(ref) > 4096 {
		return AgentPage{}, apperr.Field("url", "at most 4096 characters")
	}
	u, err := url.Parse(ref)
	if err != nil {
		return AgentPage{}, apperr.Field("url", "must be a page's URL or path")
	}
	path := u.EscapedPath()
	base := a.res.SiteBasePath // with a trailing slash
	notHere := apperr.NotFoundf("%s is not a page of this site", ref)
	var rest string
	switch {
	case u.Scheme != "" || u.Host != "":
		if !strings.EqualFold(u.Scheme+"://"+u.Host, a.origin) {
			return AgentPage{}, notHere
		}
		fallthrough
	case strings.HasPrefix(path+"/", base):
		r, ok := strings.CutPrefix(path+"/", base)
		if !ok {
			return AgentPage{}, notHere
		}
		rest = r
	default:
		rest = path
	}
	rest = strings.Trim(rest, "/")
	if p, ok := strings.CutSuffix(rest, ".md"); ok {
		rest = p
	}
	raw := strings.TrimRight(a.res.SiteBase, "/") + "/" + rest
	if a.req.ShareKey != "" {
		raw += "?shareKey=" + url.QueryEscape(a.req.ShareKey)
	}
	res, err := a.s.sites.ResolveURL(ctx, raw, a.req.AppURL, a.req.Visitor)
	if err != nil {
		return AgentPage{}, err
	}
	if res.View.Site.ID != a.res.View.Site.ID {
		return AgentPage{}, notHere
	}
	caller, err := a.s.users.Authenticate(ctx, res.APIToken)
	if err != nil {
		return AgentPage{}, err
	}
	vctx := access.WithCaller(ctx, caller)
	at := content.At{SpaceID: res.Space.ID, Revision: res.Space.Revision}
	var rp content.RevisionPage
	if strings.Trim(res.Pathname, "/") == "" {
		pages, err := a.s.content.Pages(vctx, at, false)
		if err != nil {
			return AgentPage{}, err
		}
		first := content.FirstDocument(pages)
		if first == nil {
			return AgentPage{}, notHere
		}
		rp, err = a.s.content.ShownPage(vctx, at, first.ID, content.FormatMarkdown, content.Audience{Claims: res.Claims})
		if err != nil {
			return AgentPage{}, err
		}
	} else {
		rp, err = a.s.content.ShownPageByPath(vctx, at, res.Pathname, content.FormatMarkdown, content.Audience{Claims: res.Claims})
		if apperr.Is(err, apperr.NotFound) || (err == nil && rp.Type != content.TypeDocument) {
			return AgentPage{}, notHere
		}
		if err != nil {
			return AgentPage{}, err
		}
	}
	query := ""
	if res.View.ShareKey != "" {
		query = "?shareKey=" + url.QueryEscape(res.View.ShareKey)
	}
	return AgentPage{Title: rp.Title, URL: a.origin + res.BasePath + content.EscapeSegments(rp.Path) + query,
		Markdown: content.AgentMarkdown(rp)}, nil
}
