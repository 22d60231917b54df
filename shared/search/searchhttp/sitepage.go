package searchhttp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/insights"
	"github.com/galleydocs/galley/shared/insights/insightshttp"
	"github.com/galleydocs/galley/shared/reader/words"
	"github.com/galleydocs/galley/shared/search"
	"github.com/galleydocs/galley/shared/sites"
)

// visitorCookie is the reader's cookie holding a visitor-auth site's
// visitor token (shared/reader/readerhttp sets it on the site's path).
const visitorCookie = "galley_visitor"

type sitePageIn struct {
	OrgID        string `path:"orgId" maxLength:"64"`
	Basename     string `path:"basename" maxLength:"128"`
	Query        string `query:"q" maxLength:"512" doc:"What to search for"`
	ShareKey     string `query:"shareKey" maxLength:"128"`
	VisitorToken string `cookie:"galley_visitor" maxLength:"8192"`
	Format       string `query:"format" enum:"html,json" doc:"json: the results as you type (also by Accept: application/json)"`
	Accept       string `header:"Accept" maxLength:"1024"`
	UserAgent    string `header:"User-Agent" maxLength:"1024"`
	DNT          string `header:"DNT" maxLength:"8"`
	GPC          string `header:"Sec-GPC" maxLength:"8"`
	addr         string
}

// Resolve reads the client's address (the search page's searches are
// counted in the site's insights, hashed: insights.Track).
func (in *sitePageIn) Resolve(ctx huma.Context) []error {
	in.addr = insightshttp.ClientAddr(ctx.Context(), ctx.RemoteAddr())
	return nil
}

// wantsJSON says whether the results as you type are asked: format=json,
// or an Accept naming application/json and not text/html.
func (in *sitePageIn) wantsJSON() bool {
	if in.Format != "" {
		return in.Format == "json"
	}
	return strings.Contains(in.Accept, "application/json") && !strings.Contains(in.Accept, "text/html")
}

// suggestJSON is the results as you type: the search page's, bounded
// (search.MaxSuggestResults pages, search.MaxSuggestSections sections each).
type suggestJSON struct {
	Query  string         `json:"query"`
	Groups []suggestGroup `json:"groups"`
}

type suggestGroup struct {
	Title string        `json:"title"`
	Pages []suggestPage `json:"pages"`
}

type suggestPage struct {
	ID          string           `json:"id"`
	SpaceID     string           `json:"spaceId"`
	Title       string           `json:"title"`
	URL         string           `json:"url"`
	Description string           `json:"description,omitempty"`
	Ancestors   []string         `json:"ancestors,omitempty"`
	Sections    []suggestSection `json:"sections,omitempty"`
}

type suggestSection struct {
	Heading string `json:"heading,omitempty"`
	URL     string `json:"url"`
	Excerpt string `json:"excerpt,omitempty"`
}

func suggestOf(res search.SiteResults) suggestJSON {
	out := suggestJSON{Query: res.Query, Groups: []suggestGroup{}}
	for _, g := range res.Groups {
		sg := suggestGroup{Title: g.Title}
		for _, p := range g.Pages {
			sp := suggestPage{ID: p.ID, SpaceID: p.SpaceID, Title: p.Title, URL: p.URL, Description: p.Description, Ancestors: p.Ancestors}
			for _, sec := range p.Sections {
				sp.Sections = append(sp.Sections, suggestSection(sec))
			}
			sg.Pages = append(sg.Pages, sp)
		}
		out.Groups = append(out.Groups, sg)
	}
	return out
}

type sitePageOut struct {
	Status       int
	ContentType  string `header:"Content-Type"`
	CacheControl string `header:"Cache-Control"`
	Vary         string `header:"Vary"`
	Robots       string `header:"X-Robots-Tag"`
	NoSniff      string `header:"X-Content-Type-Options"`
	CSP          string `header:"Content-Security-Policy"`
	Referrer     string `header:"Referrer-Policy"`
	Body         []byte
}

// The security headers of the search page and the results as you type,
// as the reader's (shared/reader/security.go; that package is not linked
// here: the search function links no chroma). docs/reader.md, "Security
// headers".
const (
	referrerPolicy = "strict-origin-when-cross-origin"
	dataPolicy     = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)

// sitePagePolicy is the search page's Content-Security-Policy: its one
// style element (by its hash: the page has no script), its form, framed
// by the site's own origins and those it names (frameAncestors).
func sitePagePolicy(styleHash, frameAncestors string) string {
	return "default-src 'none'; style-src " + styleHash + "; form-action 'self'; base-uri 'none'; frame-ancestors " + frameAncestors
}

// sitePageStyle is the text of the search page's style element (its
// Content-Security-Policy allows it by its hash).
const sitePageStyle = `body{margin:0 auto;max-width:760px;padding:24px 16px;font:16px/1.6 system-ui,sans-serif;color:#1d1d1f;background:#fff}
a{color:#1a56c4}h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}form{display:flex;gap:8px}
input[type=search]{flex:1;font:inherit;padding:6px 10px;border:1px solid #8a8f98;border-radius:6px}
button{font:inherit;padding:6px 14px;border:1px solid #1a56c4;background:#1a56c4;color:#fff;border-radius:6px}
ol{padding-inline-start:1.2rem}li{margin:12px 0}.crumbs,.excerpt{color:#5f6368;font-size:.9rem}.sections{list-style:none;padding-inline-start:0}
@media (prefers-color-scheme:dark){body{background:#111318;color:#e8eaed}a{color:#8ab4f8}.crumbs,.excerpt{color:#b3b8bf}input[type=search]{background:#1d2026;color:#e8eaed}}`

// hashSource is the CSP source allowing an inline element whose text is s.
func hashSource(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

type sitePageData struct {
	search.SiteResults
	ShareKey string
}

// sitePage is the search page: a form (it works without JavaScript) and
// the results by site space and page. It is written out rather than
// executed as an html/template, whose field look-ups by name turn off the
// linker's dead-code elimination of methods for the whole function
// (shared/httpapi/html.go); sitepage_test.go holds the template it
// answers as.
//
// Its words are those of the site's language (d.Lang, as the reader's
// pages: shared/reader/words), right to left for ar, he, fa and ur.
func sitePage(d sitePageData) []byte {
	var b strings.Builder
	w, text, href := b.WriteString, func(s string) { b.WriteString(httpapi.HTMLText(s)) }, func(s string) { b.WriteString(httpapi.HTMLURL(s)) }
	lang := d.Lang
	if lang == "" {
		lang = "en"
	}
	txt := words.For(lang)
	w("<!doctype html>\n<html lang=\"")
	text(lang)
	w("\"")
	if words.Direction(lang) == "rtl" {
		w(" dir=\"rtl\"")
	}
	w(">\n<head>\n<meta charset=\"utf-8\">\n" +
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	if d.Query != "" {
		text(d.Query)
		w(" – ")
	}
	text(txt.Search)
	w(" – ")
	text(d.SiteTitle)
	w("</title>")
	if d.NoIndex {
		w("\n<meta name=\"robots\" content=\"noindex\">")
	}
	w("\n<style>" + sitePageStyle + "</style>\n</head>\n<body>\n<header><a href=\"")
	href(d.Home)
	w("\">")
	text(d.SiteTitle)
	w("</a></header>\n<main>\n<h1>")
	text(txt.Search)
	w("</h1>\n<form role=\"search\" method=\"get\"><input type=\"search\" name=\"q\" value=\"")
	text(d.Query)
	w("\" aria-label=\"")
	text(fmt.Sprintf(txt.SearchPage.BoxLabel, d.SiteTitle))
	w("\" required>")
	if d.ShareKey != "" {
		w("<input type=\"hidden\" name=\"shareKey\" value=\"")
		text(d.ShareKey)
		w("\">")
	}
	w("<button type=\"submit\">")
	text(txt.Search)
	w("</button></form>")
	if d.Query != "" {
		sitePageResults(&b, d.Query, d.Groups, txt.SearchPage.NoMatch)
	}
	w("\n</main>\n</body>\n</html>\n")
	return []byte(b.String())
}

// sitePageResults writes the pages found for query, by site space.
// noMatch says none matches (%s: the query).
func sitePageResults(b *strings.Builder, query string, groups []search.SiteResultGroup, noMatch string) {
	w, text, href := b.WriteString, func(s string) { b.WriteString(httpapi.HTMLText(s)) }, func(s string) { b.WriteString(httpapi.HTMLURL(s)) }
	if len(groups) == 0 {
		w("\n<p>")
		text(fmt.Sprintf(noMatch, query))
		w("</p>")
	}
	for _, g := range groups {
		w("\n<h2>")
		text(g.Title)
		w("</h2>\n<ol>")
		for _, p := range g.Pages {
			w("\n<li><a href=\"")
			href(p.URL)
			w("\">")
			text(p.Title)
			w("</a>")
			if len(p.Ancestors) > 0 {
				w("<div class=\"crumbs\">")
				for i, a := range p.Ancestors {
					if i > 0 {
						w(" › ")
					}
					text(a)
				}
				w("</div>")
			}
			if p.Description != "" {
				w("<div class=\"excerpt\">")
				text(p.Description)
				w("</div>")
			}
			if len(p.Sections) > 0 {
				w("<ul class=\"sections\">")
				for _, sec := range p.Sections {
					w("<li>")
					if sec.Heading != "" {
						w("<a href=\"")
						href(sec.URL)
						w("\">")
						text(sec.Heading)
						w("</a>")
					}
					if sec.Excerpt != "" {
						w("<div class=\"excerpt\">")
						text(sec.Excerpt)
						w("</div>")
					}
					w("</li>")
				}
				w("</ul>")
			}
			w("</li>")
		}
		w("\n</ol>")
	}
}

// registerSitePage adds the search page of published sites (hidden from
// the API's document: it answers HTML to visitors).
func registerSitePage(api *httpapi.API, s *search.Service) {
	styleHash := hashSource(sitePageStyle)
	handle := func(ctx context.Context, in *sitePageIn) (*sitePageOut, error) {
		path := "/sites/" + in.OrgID
		if in.Basename != "" {
			path += "/" + in.Basename
		}
		req := search.SitePageRequest{AppURL: httpapi.AppURL(ctx), SitePath: path, ShareKey: in.ShareKey,
			Visitor: sites.Visitor{Token: in.VisitorToken}, Query: in.Query}
		asJSON := in.wantsJSON()
		req.Language = !asJSON
		if asJSON {
			req.Limit, req.Sections = search.MaxSuggestResults, search.MaxSuggestSections
		} else {
			// The page's own searches (without JavaScript) are counted;
			// the results as you type are the page script's to count.
			req.Track = true
			req.Client = insights.Visitor{Addr: in.addr, UserAgent: in.UserAgent, NoTrack: insightshttp.NoTrack(in.DNT, in.GPC)}
		}
		res, err := s.SitePage(ctx, req)
		out := &sitePageOut{Status: http.StatusOK, ContentType: "text/html; charset=utf-8", CacheControl: "private, no-store", Vary: "Accept",
			NoSniff: "nosniff", CSP: dataPolicy, Referrer: referrerPolicy}
		if err != nil {
			out.Status, out.Robots = httpapi.StatusOf(err), "noindex"
			if out.Status == http.StatusInternalServerError {
				return nil, err
			}
			if asJSON {
				out.ContentType = "application/json"
				out.Body, _ = json.Marshal(map[string]any{"status": out.Status, "message": http.StatusText(out.Status)})
				return out, nil
			}
			why := "This site is not published."
			switch out.Status {
			case http.StatusUnauthorized:
				why = "Sign in to the site to search it."
			case http.StatusBadRequest:
				why = err.Error()
			}
			out.Body = []byte("<!doctype html><html lang=\"en\"><title>Search</title><h1>Search unavailable</h1><p>" +
				httpapi.HTMLText(why) + "</p></html>")
			return out, nil
		}
		if res.NoIndex {
			out.Robots = "noindex"
		}
		if asJSON {
			out.ContentType = "application/json"
			out.Body, err = json.Marshal(suggestOf(res))
			return out, err
		}
		out.CSP = sitePagePolicy(styleHash, res.FrameAncestors)
		out.Body = sitePage(sitePageData{SiteResults: res, ShareKey: in.ShareKey})
		return out, nil
	}
	for _, p := range []struct{ id, path string }{
		{"readSiteSearchById", "/sites/{orgId}/~search"},
		{"readSiteSearch", "/sites/{orgId}/{basename}/~search"},
	} {
		httpapi.Register(api, httpapi.Op{ID: p.id, Needs: access.Anyone, Method: http.MethodGet, Path: p.path, Tag: "Reader", Hidden: true,
			Summary: "A published site's search page (HTML; works without JavaScript), or its results as you type (JSON)"}, handle)
	}
}
