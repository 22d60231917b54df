// Package reader serves published sites as HTML, for people, and as
// markdown, for AI agents (docs/reader.md). It owns no records: it asks
// the sites family what a URL names and what a visitor may see
// (sites.ResolveURL, sites.Published), and the content family for the
// pages, as that visitor (the site token sites issues).
package reader

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/sites"
)

// renderVersion changes every ETag when the reader's output changes.
const renderVersion = "reader-10"

// navCacheSize is how many revisions' navigation a process keeps.
const navCacheSize = 64

// editorsCacheFiles bounds the synced files (page id and path, about 60
// bytes each) whose edit links a process keeps: 200,000, four spaces of
// 50,000 pages, about 12 MB.
const editorsCacheFiles = 200_000

// Service renders published sites.
type Service struct {
	d       *deps.Deps
	sites   Sites
	content *content.Service
	users   Users
	// insights records the events the pages post (insights.go); nil:
	// posts fail.
	insights Insights
	hl       *highlighter
	pages    *template.Template
	css      map[string]string // by theme: light, dark, system
	navs     *navCache
	// editors make the edit links (page.go), keeping the synced files
	// of the spaces read lately.
	editors *gitstate.Editors
	scripts string // the CSP sources of the pages' scripts (security.go)
	styles  *styleHasher
	assets  *assets // mermaid (mermaid.go)
	// darkCSS is the dark theme's rules, the page's second style element
	// when the visitor chooses the theme (theme.go).
	darkCSS    string
	darkStyles *styleHasher
	// diagramScript is the CSP source of the script drawing diagrams;
	// playgroundScript the API playgrounds'.
	diagramScript, playgroundScript string
}

// Sites is what the reader asks of the sites family (sites.Service): what
// a published URL names, a site's published view and its redirects.
type Sites interface {
	ResolveURL(ctx context.Context, raw, appURL string, vis sites.Visitor) (sites.Resolved, error)
	Published(ctx context.Context, orgID, siteID, shareKey string) (sites.View, error)
	RedirectBySource(ctx context.Context, orgID, siteID, source, shareKey string) (sites.FoundRedirect, error)
}

// Users is what the reader asks of the users family (users.Service): the
// caller a published site's token stands for.
type Users interface {
	Authenticate(ctx context.Context, token string) (access.Caller, error)
}

// Needs are the other families' services the reader uses. Content reads
// with the organization's OpenAPI specs (the reader function links them):
// computed API pages and OpenAPI blocks read as in the API.
type Needs struct {
	Sites    Sites
	Content  *content.Service
	Users    Users
	Insights Insights
}

// New returns the reader. Templates and styles are made here; no I/O (the
// browser assets' directory, d.ReaderAssets, is read on first use).
func New(d *deps.Deps, n Needs) (*Service, error) {
	hl, err := newHighlighter()
	if err != nil {
		return nil, fmt.Errorf("reader: highlighter: %w", err)
	}
	t, err := template.New("page").Funcs(template.FuncMap{"css": func(s string) template.CSS { return template.CSS(s) }}).Parse(pageTemplate)
	if err != nil {
		return nil, fmt.Errorf("reader: templates: %w", err)
	}
	s := &Service{d: d, sites: n.Sites, content: n.Content, users: n.Users, insights: n.Insights, hl: hl, pages: t, navs: newNavCache(navCacheSize),
		editors: gitstate.NewEditors(d.Store, d.Blobs, editorsCacheFiles),
		scripts: scriptSources(), assets: newAssets(d.ReaderAssets, d.Logger), diagramScript: hashSource(mermaidScript),
		playgroundScript: hashSource(playgroundScript)}
	s.css = map[string]string{
		"light":  baseCSS + searchCSS + insightsCSS + hl.light,
		"dark":   baseCSS + searchCSS + insightsCSS + darkVars + hl.dark,
		"system": baseCSS + searchCSS + insightsCSS + hl.light + "@media (prefers-color-scheme: dark){" + darkVars + hl.dark + "}",
		// The visitor chooses (themes.toggeable): the light sheet, and
		// the dark one in an element of its own (theme.go).
		"toggle": baseCSS + searchCSS + insightsCSS + hl.light + themeChoiceCSS,
	}
	s.darkCSS = darkVars + hl.dark
	s.darkStyles = newStyleHasher(map[string]string{"dark": s.darkCSS})
	s.styles = newStyleHasher(s.css)
	return s, nil
}

// Request is a visitor's request of a published URL under the public URL.
type Request struct {
	// AppURL is the public URL published URLs are under (APP_URL);
	// APIURL the API's (API_URL: file links are under it).
	AppURL, APIURL string
	// Path is the URL's escaped path, from /sites/ on (or, with Origin,
	// the path at that origin).
	Path string
	// Origin is the scheme and host the visitor asked when a reverse proxy
	// forwards a site's proxy origin (X-Forwarded-Host, docs/reader.md,
	// "Proxy origins"); empty: the public URL (AppURL).
	Origin string
	// ShareKey is a share-link site's key given in the URL (shareKey): once
	// it opens an active link, the answer asks to keep it
	// (Answer.KeepShareKey). KeptShareKey is the one kept (used when the
	// URL gives none).
	ShareKey, KeptShareKey string
	// VisitorToken is a visitor-auth site's visitor token given in the URL
	// (jwt_token): once accepted, the answer asks to keep it
	// (Answer.KeepVisitorToken). KeptVisitorToken is the one kept (used
	// when the URL gives none).
	VisitorToken, KeptVisitorToken string
	// Preview is a member's preview token given in the URL (preview, from
	// getSitePublishingPreviewById): once it opens the site, the answer
	// asks to keep it (Answer.KeepPreview). KeptPreview is the one kept.
	Preview, KeptPreview string
	// Unsigned are the URL's unsigned claims (visitor.<name>=<value>).
	Unsigned map[string]string
	// IfNoneMatch is the validators the visitor holds.
	IfNoneMatch string
}

// Answer is what the reader serves.
type Answer struct {
	ContentType string
	Body        []byte
	// ETag validates the answer (quoted); NotModified is set, and Body
	// empty, when the visitor holds it.
	ETag        string
	NotModified bool
	// Private answers (share-link sites) are cached by the visitor only.
	Private bool
	// Immutable answers (the browser assets, whose URLs name their
	// version) are cached for a year by anyone.
	Immutable bool
	// NoIndex asks search engines not to index the answer.
	NoIndex bool
	// CSP is the answer's Content-Security-Policy: a page's allows its own
	// script and style elements (by their hashes) and frames by the
	// site's own origins and those it names; other answers' is DataPolicy.
	// Empty on a page's 304 (its hashes are known only once rendered):
	// the cached answer's header holds, as a 304 updates only the
	// header fields it carries.
	CSP string
	// Location, when set, redirects there (301 when Permanent, else 302).
	Location  string
	Permanent bool
	// NoStore answers are not cached at all.
	NoStore bool
	// KeepVisitorToken, when set, is the visitor token to keep for the
	// site's URLs (those under VisitorTokenPath): the visitor gave it in
	// the URL and it opened the site.
	KeepVisitorToken, VisitorTokenPath string
	// KeepShareKey, when set, is the share-link key to keep for the site's
	// URLs (those under KeepPath): the visitor gave it in the URL and it
	// opens an active link.
	KeepShareKey, KeepPath string
	// KeepPreview, when set, is the preview token to keep for the site's
	// URLs (those under PreviewPath).
	KeepPreview, PreviewPath string
}

// Content types of answers.
const (
	TypeHTML     = "text/html; charset=utf-8"
	TypeMarkdown = "text/markdown; charset=utf-8"
	TypeText     = "text/plain; charset=utf-8"
	TypeXML      = "application/xml; charset=utf-8"
)

// site is a resolved request: the visitor's context and what they see.
type site struct {
	res sites.Resolved
	// revision is the revision of res.Space shown: its head, or a pull
	// request preview's.
	revision string
	vctx     context.Context // as the site's visitor
	custom   map[string]any  // the site space's effective customization
	tree     sites.Tree
	nav      *nav
	origin   string // scheme and host of published URLs
	query    string // "?shareKey=..." on share-link sites
	appURL   string
	apiURL   string
	// searchBase is the site's root the search form leads under (the
	// published site's, in a pull request's preview: search runs in its
	// own function, on the published content).
	searchBase string
	// specs are the versions of the specs asked during the request, by
	// ref (specs.go).
	specs map[string]string
}

// Serve answers a request of a published URL: a page as HTML (or as
// markdown with .md), or the site's sitemap.xml, robots.txt, llms.txt or
// llms-full.txt.
// An error comes with an HTML error page (Answer.Body) in the site's look
// when the site is known; its kind decides the status.
func (s *Service) Serve(ctx context.Context, req Request) (Answer, error) {
	path := req.Path
	if name, ok := assetName(path); ok {
		// The same public file under every site's root: no site is
		// resolved (docs/reader.md, "Diagrams").
		return s.asset(name, req.IfNoneMatch)
	}
	markdown := false
	if p, ok := strings.CutSuffix(path, ".md"); ok && !strings.HasSuffix(p, "/") {
		path, markdown = p, true
	}
	base := req.AppURL
	if req.Origin != "" {
		base = req.Origin
	}
	vis := sites.Visitor{Token: req.VisitorToken, Unsigned: req.Unsigned, Preview: req.KeptPreview}
	if vis.Token == "" {
		vis.Token = req.KeptVisitorToken
	}
	key := req.ShareKey
	if key == "" {
		key = req.KeptShareKey
	}
	// A pull request's preview (<site>/~preview/<number>/...): the URL
	// without those parts names the site space; the preview replaces its
	// revision (pullPreview).
	path, prefix, number := cutPullPreview(path)
	resolve := func(key string) (sites.Resolved, error) {
		raw := strings.TrimRight(base, "/") + path
		q := url.Values{}
		if key != "" {
			q.Set("shareKey", key)
		}
		if req.Preview != "" {
			q.Set(sites.PreviewParam, req.Preview)
		}
		if len(q) > 0 {
			raw += "?" + q.Encode()
		}
		return s.sites.ResolveURL(ctx, raw, req.AppURL, vis)
	}
	res, err := resolve(key)
	if apperr.Is(err, apperr.Forbidden) && req.ShareKey == "" && req.KeptShareKey != "" {
		// The kept key opens no active link (deactivated, or the site is
		// no longer a share-link site): as if there were none.
		res, err = resolve("")
	}
	var vae *sites.VisitorAuthError
	if errors.As(err, &vae) && vae.FallbackURL != "" {
		// A visitor-auth site sends visitors without a valid token to its
		// fallback URL (its sign-in).
		return Answer{Location: vae.FallbackURL, NoStore: true}, nil
	}
	if err != nil {
		a := s.errorPage(nil, err)
		a.NoStore = true
		return a, err
	}
	searchBase, revision := res.SiteBasePath, res.Space.Revision
	if number != 0 {
		if res, revision, err = s.pullPreview(ctx, res, prefix, number); err != nil {
			a := s.errorPage(nil, err)
			a.NoStore = true
			return a, err
		}
	}
	st, err := s.open(ctx, res, revision, req.AppURL, req.APIURL)
	if err != nil {
		return s.errorPage(nil, err), err
	}
	if number != 0 {
		st.searchBase = searchBase
	}
	ans, err := s.serveResolved(st, req, path, markdown)
	if req.ShareKey != "" && res.View.ShareKey == req.ShareKey {
		ans.KeepShareKey, ans.KeepPath = req.ShareKey, sitePath(res)
	}
	if req.Preview != "" && res.Preview == req.Preview {
		ans.KeepPreview, ans.PreviewPath = req.Preview, sitePath(res)
	}
	if req.VisitorToken != "" && res.VisitorToken == req.VisitorToken {
		ans.KeepVisitorToken, ans.VisitorTokenPath = res.VisitorToken, sitePath(res)
	}
	return ans, err
}

// serveResolved answers a request of a resolved site.
func (s *Service) serveResolved(st *site, req Request, path string, markdown bool) (Answer, error) {
	res := st.res
	atRoot := res.BasePath == res.SiteBasePath
	switch {
	case atRoot && !markdown && res.Pathname == "sitemap.xml":
		return s.sitemap(st, req)
	case atRoot && !markdown && res.Pathname == "robots.txt":
		return s.robots(st, req)
	case atRoot && !markdown && res.Pathname == "llms.txt":
		return s.llms(st, req)
	case atRoot && !markdown && res.Pathname == "llms-full.txt":
		return s.llmsFull(st, req)
	}
	if markdown {
		return s.markdown(st, req)
	}
	ans, err := s.page(st, req)
	if apperr.Is(err, apperr.NotFound) {
		// An unknown path: the site's redirect of it, if any.
		if to, permanent, ok, rerr := s.redirect(st, req.Path); rerr != nil {
			return s.errorPage(st, rerr), rerr
		} else if ok {
			return Answer{Location: to, Permanent: permanent, Private: st.private()}, nil
		}
	}
	return ans, err
}

// open reads what every answer of a resolved site needs: the visitor's
// context (from the site token), the customization, the navigation of
// revision.
func (s *Service) open(ctx context.Context, res sites.Resolved, revision, appURL, apiURL string) (*site, error) {
	caller, err := s.users.Authenticate(ctx, res.APIToken)
	if err != nil {
		return nil, err
	}
	vctx := access.WithCaller(ctx, caller)
	ms := &res.View.Site
	pv, err := s.sites.Published(vctx, ms.OrgID, ms.ID, res.View.ShareKey)
	if err != nil {
		return nil, err
	}
	st := &site{res: res, revision: revision, vctx: vctx, tree: sites.TreeOf(ms), appURL: appURL, apiURL: apiURL, searchBase: res.SiteBasePath}
	st.custom = pv.Customizations.Site.Settings
	if c, ok := pv.Customizations.SiteSpaces[res.SiteSpace.ID]; ok {
		st.custom = c.Settings
	}
	if u, err := url.Parse(res.SiteBase); err == nil {
		st.origin = u.Scheme + "://" + u.Host
	}
	if res.View.ShareKey != "" {
		st.query = "?shareKey=" + url.QueryEscape(res.View.ShareKey)
	}
	st.nav, err = s.navOf(st, res.Space.ID, revision)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// navOf returns the navigation of a space's revision as the site's
// visitor sees it (pages' conditions), read as the visitor on a miss (the
// content family checks the visitor may read the space).
//
// A revision's computed pages were generated from their specs' versions
// of the time: when one has changed since, the tree is built again.
func (s *Service) navOf(st *site, spaceID, revision string) (*nav, error) {
	at := content.At{SpaceID: spaceID, Revision: revision}
	load := func(ctx context.Context) ([]content.RevisionPage, error) { return s.content.Pages(ctx, at, false) }
	n, err := s.navs.get(st.vctx, spaceID, revision, load)
	if err != nil {
		return nil, err
	}
	if len(n.specs) > 0 {
		now, err := s.specVersions(st, at, slices.Sorted(maps.Keys(n.specs)))
		if err != nil {
			return nil, err
		}
		if !maps.Equal(now, n.specs) {
			s.navs.drop(spaceID, revision)
			if n, err = s.navs.get(st.vctx, spaceID, revision, load); err != nil {
				return nil, err
			}
		}
	}
	return n.forVisitor(st.res.Claims), nil
}

// audience is who the site's pages are resolved for: the visitor, by their
// claims (as page conditions are evaluated, sites.ConditionHolds).
func (st *site) audience() content.Audience { return content.Audience{Claims: st.res.Claims} }

// pageURL is the published path of a page of the current site space.
// canonical is a page's URL under the site's published root (its proxy
// origin, hostname, or organization's hostname: sites.PublishedBase),
// whichever URL the visitor came by (the public URL under /sites/ serves
// the same pages).
func (st *site) canonical(p *navPage) string {
	path := strings.TrimSuffix(st.pageURL(p), st.query)
	root := sites.PublishedBase(st.res.View.Site, st.res.View.OrgBase, st.appURL)
	if strings.EqualFold(root, st.res.SiteBase) {
		return st.origin + path
	}
	return root + strings.TrimPrefix(path, strings.TrimSuffix(st.res.SiteBasePath, "/"))
}

func (st *site) pageURL(p *navPage) string {
	if p == nil {
		return ""
	}
	if p.Type == content.TypeLink {
		return p.Href
	}
	if first := st.nav.first(); first != nil && first.ID == p.ID {
		return st.res.BasePath + st.query
	}
	return st.res.BasePath + content.EscapeSegments(p.Path) + st.query
}

// etag is the validator of an answer: it changes with the revision, the
// site's structure, its spaces, its customization, the download links'
// window and what is asked.
func (s *Service) etag(st *site, what string) string {
	h := sha256.New()
	site, _ := json.Marshal(st.res.View.Site)
	custom, _ := json.Marshal(st.custom)
	// Whether diagrams are drawn (mermaid is there) changes pages that
	// have one.
	// The space's language is the interface's (docs/reader.md,
	// "Interface language").
	fmt.Fprintf(h, "%s\n%s\n%s\n%s\n%s\n%d\n%s\n%t\n%s\n", renderVersion, site, custom, st.revision, st.res.BasePath,
		s.d.Clock().Truncate(content.DownloadTTL).Unix(), what, s.assets.mermaid(), st.res.Space.Language)
	for _, ss := range st.tree.All() {
		sp := st.res.View.Spaces[ss.SpaceID]
		fmt.Fprintf(h, "%s %s %s\n", ss.ID, sp.Title, sp.Revision)
	}
	// The visitor's claims decide which conditional pages they see.
	claims, _ := json.Marshal(st.res.Claims)
	fmt.Fprintf(h, "%s\n%s\n", st.query, claims)
	return `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
}

// matches tells whether If-None-Match names etag.
func matches(ifNoneMatch, etag string) bool {
	for _, v := range strings.Split(ifNoneMatch, ",") {
		v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
		if v == etag || v == "*" {
			return true
		}
	}
	return false
}

// answer completes an answer for a resolved site that is not a page
// (markdown, text, XML): DataPolicy is its Content-Security-Policy.
func (s *Service) answer(st *site, req Request, what, contentType string, body func() ([]byte, error)) (Answer, error) {
	return s.respond(st, req, what, contentType, func() ([]byte, string, error) {
		b, err := body()
		return b, "", err
	})
}

// respond completes an answer for a resolved site. body gives the
// answer's bytes and, for a page, its Content-Security-Policy ("":
// DataPolicy).
func (s *Service) respond(st *site, req Request, what, contentType string, body func() ([]byte, string, error)) (Answer, error) {
	a := Answer{ContentType: contentType, ETag: s.etag(st, what), Private: st.private(),
		NoIndex: st.noIndex()}
	if contentType != TypeHTML {
		a.CSP = DataPolicy
	}
	if matches(req.IfNoneMatch, a.ETag) {
		a.NotModified = true
		return a, nil
	}
	b, csp, err := body()
	if err != nil {
		return s.errorPage(st, err), err
	}
	a.Body = b
	if csp != "" {
		a.CSP = csp
	}
	return a, nil
}

// frameAncestors is the source list of the origins that may frame the
// site's pages: its own and those it names (sites.FrameAncestors).
func (st *site) frameAncestors() string {
	return sites.FrameAncestors(st.res.View.Site, st.res.View.OrgBase, st.appURL)
}

// private tells whether the site's answers are the visitor's own (cached
// by the visitor only): share-link and visitor-auth sites.
func (st *site) private() bool {
	v := st.res.View.Site.Visibility
	return v == "share-link" || v == "visitor-auth" || st.res.Preview != ""
}

// noIndex tells answers search engines must not index: of a site not
// public, or a member's preview.
func (st *site) noIndex() bool {
	return st.res.View.Site.Visibility != "public" || st.res.Preview != ""
}

// pullPreviewSeg is the path part before a pull request's number in a
// preview URL.
const pullPreviewSeg = "/~preview/"

// cutPullPreview takes the first "/~preview/<number>" out of an escaped
// path: the path without it, what came before it and the number (0 when
// the path has none).
func cutPullPreview(path string) (rest, prefix string, number int) {
	i := strings.Index(path, pullPreviewSeg)
	if i < 0 {
		return path, "", 0
	}
	tail := path[i+len(pullPreviewSeg):]
	num, after, _ := strings.Cut(tail, "/")
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 || strconv.Itoa(n) != num {
		return path, "", 0
	}
	return path[:i] + "/" + after, path[:i+1], n
}

// pullPreview shows a resolved URL's site space at its space's preview of
// pull request number (docs/workers.md, "Pull-request previews"): only to
// a member, who opened the site with their preview token (sites.Preview,
// issued to members who may read the site, signed for it alone); to
// anyone else, and when "~preview" is not right under the site's root or
// the space has no such preview, the URL names nothing (NotFound). Its
// pages' links stay under the preview's root; the revision shown is the
// preview's.
func (s *Service) pullPreview(ctx context.Context, res sites.Resolved, prefix string, number int) (sites.Resolved, string, error) {
	nf := apperr.NotFoundf("no pull-request preview #%d here", number)
	if res.Preview == "" || prefix != res.SiteBasePath {
		return res, "", nf
	}
	p, ok, err := gitstate.PreviewOf(ctx, s.d.Store, res.Space.ID, number)
	if err != nil {
		return res, "", err
	}
	if !ok || p.Revision == "" {
		return res, "", nf
	}
	seg := strings.TrimPrefix(pullPreviewSeg, "/") + strconv.Itoa(number) + "/"
	res.BasePath = res.SiteBasePath + seg + strings.TrimPrefix(res.BasePath, res.SiteBasePath)
	res.SiteBasePath += seg
	return res, p.Revision, nil
}

// sitePath is the path of a resolved site's root, without the trailing
// slash ("/" for a root origin): where what the visitor keeps applies.
func sitePath(res sites.Resolved) string {
	if p := strings.TrimSuffix(res.SiteBasePath, "/"); p != "" {
		return p
	}
	return "/"
}

// notFound is the error of a path naming no page.
func notFound(path string) error {
	return apperr.NotFoundf("no page at %s", path)
}
