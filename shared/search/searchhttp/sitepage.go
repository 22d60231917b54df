package searchhttp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"net/http"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
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
			sp := suggestPage{Title: p.Title, URL: p.URL, Description: p.Description, Ancestors: p.Ancestors}
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

// sitePageStyle is the text of the search page's style element.
func sitePageStyle() string {
	_, rest, _ := strings.Cut(sitePageHTML, "<style>")
	style, _, _ := strings.Cut(rest, "</style>")
	return style
}

// hashSource is the CSP source allowing an inline element whose text is s.
func hashSource(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// sitePageHTML is the search page: a form (it works without JavaScript)
// and the results by site space and page.
const sitePageHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{if .Query}}{{.Query}} – {{end}}Search – {{.SiteTitle}}</title>
{{- if .NoIndex}}
<meta name="robots" content="noindex">{{end}}
<style>body{margin:0 auto;max-width:760px;padding:24px 16px;font:16px/1.6 system-ui,sans-serif;color:#1d1d1f;background:#fff}
a{color:#1a56c4}h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}form{display:flex;gap:8px}
input[type=search]{flex:1;font:inherit;padding:6px 10px;border:1px solid #8a8f98;border-radius:6px}
button{font:inherit;padding:6px 14px;border:1px solid #1a56c4;background:#1a56c4;color:#fff;border-radius:6px}
ol{padding-left:1.2rem}li{margin:12px 0}.crumbs,.excerpt{color:#5f6368;font-size:.9rem}.sections{list-style:none;padding-left:0}
@media (prefers-color-scheme:dark){body{background:#111318;color:#e8eaed}a{color:#8ab4f8}.crumbs,.excerpt{color:#b3b8bf}input[type=search]{background:#1d2026;color:#e8eaed}}</style>
</head>
<body>
<header><a href="{{.Home}}">{{.SiteTitle}}</a></header>
<main>
<h1>Search</h1>
<form role="search" method="get"><input type="search" name="q" value="{{.Query}}" aria-label="Search {{.SiteTitle}}" required>{{with .ShareKey}}<input type="hidden" name="shareKey" value="{{.}}">{{end}}<button type="submit">Search</button></form>
{{- if .Query}}
{{- if .Groups}}
{{- range .Groups}}
<h2>{{.Title}}</h2>
<ol>
{{- range .Pages}}
<li><a href="{{.URL}}">{{.Title}}</a>{{with .Ancestors}}<div class="crumbs">{{range $i, $a := .}}{{if $i}} › {{end}}{{$a}}{{end}}</div>{{end}}
{{- with .Description}}<div class="excerpt">{{.}}</div>{{end}}
{{- with .Sections}}<ul class="sections">{{range .}}<li>{{if .Heading}}<a href="{{.URL}}">{{.Heading}}</a>{{end}}{{with .Excerpt}}<div class="excerpt">{{.}}</div>{{end}}</li>{{end}}</ul>{{end}}</li>
{{- end}}
</ol>
{{- end}}
{{- else}}
<p>No page matches “{{.Query}}”.</p>
{{- end}}
{{- end}}
</main>
</body>
</html>
`

type sitePageData struct {
	search.SiteResults
	ShareKey string
}

// registerSitePage adds the search page of published sites (hidden from
// the API's document: it answers HTML to visitors).
func registerSitePage(api *httpapi.API, s *search.Service) {
	page := template.Must(template.New("search").Parse(sitePageHTML))
	styleHash := hashSource(sitePageStyle())
	handle := func(ctx context.Context, in *sitePageIn) (*sitePageOut, error) {
		path := "/sites/" + in.OrgID
		if in.Basename != "" {
			path += "/" + in.Basename
		}
		req := search.SitePageRequest{AppURL: httpapi.AppURL(ctx), SitePath: path, ShareKey: in.ShareKey,
			Visitor: sites.Visitor{Token: in.VisitorToken}, Query: in.Query}
		asJSON := in.wantsJSON()
		if asJSON {
			req.Limit, req.Sections = search.MaxSuggestResults, search.MaxSuggestSections
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
				template.HTMLEscapeString(why) + "</p></html>")
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
		var b bytes.Buffer
		if err := page.Execute(&b, sitePageData{SiteResults: res, ShareKey: in.ShareKey}); err != nil {
			return nil, err
		}
		out.CSP = sitePagePolicy(styleHash, res.FrameAncestors)
		out.Body = b.Bytes()
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
