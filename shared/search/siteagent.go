package search

import (
	"context"
	"net/url"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/sites"
)

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
