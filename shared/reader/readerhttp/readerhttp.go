// Package readerhttp serves published sites (package reader) under the
// public URL: GET /sites/<orgId>/<basename>/... (and /sites/<siteId>/...
// for a site without a basename: the first part is either, as
// sites.ResolveURL reads it).
package readerhttp

import (
	"context"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/reader"
)

// pageIn is a request of a published URL. Its path is read whole, as the
// visitor sent it (escaped), by Resolve: the route's parameters only
// route it (and the wildcard may be empty: the site's root with a slash).
type pageIn struct {
	ShareKey     string `query:"shareKey" maxLength:"128"`
	KeptShareKey string `cookie:"galley_share" maxLength:"128" doc:"A share-link site's key, kept in a cookie once accepted"`
	JWTToken     string `query:"jwt_token" maxLength:"8192" doc:"A visitor token of a visitor-auth site (kept in a cookie once accepted)"`
	VisitorToken string `cookie:"galley_visitor" maxLength:"8192"`
	Preview      string `query:"preview" maxLength:"8192" doc:"A member's preview token (getSitePublishingPreviewById), kept in a cookie once accepted"`
	KeptPreview  string `cookie:"galley_preview" maxLength:"8192"`
	IfNoneMatch  string `header:"If-None-Match" maxLength:"2048"`
	path         string
	origin       string // a proxy origin's https://<host>
	unsigned     map[string]string
}

// maxUnsigned bounds the unsigned claims a URL may carry.
const maxUnsigned = 32

// Resolve reads the request's path and its unsigned claims
// (visitor.<name>=<value>).
func (in *pageIn) Resolve(ctx huma.Context) []error {
	u := ctx.URL()
	in.path = u.EscapedPath()
	if rest, ok := strings.CutPrefix(in.path, proxyPrefix); ok {
		// A reverse proxy forwards https://<host>/<path> as
		// <APP_URL>/~proxy/<path> with X-Forwarded-Host: <host>.
		host := strings.ToLower(ctx.Header("X-Forwarded-Host"))
		if !validHost(host) {
			return []error{&huma.ErrorDetail{Location: "header.X-Forwarded-Host",
				Message: "a proxied request names the host the visitor asked (a DNS name, optionally with a port)"}}
		}
		in.path, in.origin = "/"+rest, "https://"+host
	}
	if len(in.path) > 4096 {
		return []error{&huma.ErrorDetail{Location: "path", Message: "the path is too long"}}
	}
	for k, v := range u.Query() {
		if name, ok := strings.CutPrefix(k, "visitor."); ok && name != "" && len(v) > 0 {
			if in.unsigned == nil {
				in.unsigned = map[string]string{}
			}
			if len(in.unsigned) >= maxUnsigned {
				return []error{&huma.ErrorDetail{Location: "query", Message: "too many visitor.<name> parameters"}}
			}
			in.unsigned[name] = v[0]
		}
	}
	return nil
}

// visitorCookie is the cookie keeping a visitor-auth site's visitor token.
const visitorCookie = "galley_visitor"

// shareCookie is the cookie keeping a share-link site's key.
const shareCookie = "galley_share"

// previewCookie is the cookie keeping a member's preview token.
const previewCookie = "galley_preview"

type pageOut struct {
	Status       int
	ContentType  string `header:"Content-Type"`
	ETag         string `header:"ETag"`
	CacheControl string `header:"Cache-Control"`
	Robots       string `header:"X-Robots-Tag"`
	NoSniff      string `header:"X-Content-Type-Options"`
	CSP          string `header:"Content-Security-Policy"`
	Referrer     string `header:"Referrer-Policy"`
	Location     string `header:"Location"`
	SetCookie    string `header:"Set-Cookie"` // a cookie's String(); "" sets none
	Body         []byte
}

// Register adds the reader's operations on s.
func Register(api *httpapi.API, s *reader.Service) {
	const tag = "Reader"
	serve := func(ctx context.Context, in *pageIn) (*pageOut, error) {
		app := httpapi.AppURL(ctx)
		a, err := s.Serve(ctx, reader.Request{AppURL: app, APIURL: httpapi.APIURL(ctx), Origin: in.origin, Path: in.path, ShareKey: in.ShareKey, KeptShareKey: in.KeptShareKey, IfNoneMatch: in.IfNoneMatch,
			VisitorToken: in.JWTToken, KeptVisitorToken: in.VisitorToken, Unsigned: in.unsigned, Preview: in.Preview, KeptPreview: in.KeptPreview})
		out := answer(ctx, a, err)
		// Cookies are out of scripts' reach and sent on top-level
		// navigations from other sites but not on their subrequests.
		keep := func(name, value, path string) string {
			return (&http.Cookie{Name: name, Value: value, Path: path, HttpOnly: true,
				Secure: strings.HasPrefix(app, "https://"), SameSite: http.SameSiteLaxMode}).String()
		}
		switch {
		case a.KeepPreview != "":
			// A member's preview: the site opens as previewed until the
			// token expires (an hour), following links included.
			out.SetCookie = keep(previewCookie, a.KeepPreview, a.PreviewPath)
		case a.KeepVisitorToken != "":
			// Kept for the site's URLs so that following links works
			// (the sign-in's redirect back is a top-level navigation).
			out.SetCookie = keep(visitorCookie, a.KeepVisitorToken, a.VisitorTokenPath)
		case a.KeepShareKey != "":
			// The same for a share link's key: the link opens the site once
			// given in a URL; deactivating it closes the site at once (the
			// key is checked on every request).
			out.SetCookie = keep(shareCookie, a.KeepShareKey, a.KeepPath)
		}
		return out, nil
	}
	op := func(id, path, summary string) httpapi.Op {
		return httpapi.Op{ID: id, Needs: access.Anyone, Method: http.MethodGet, Path: path, Tag: tag, Hidden: true, Summary: summary}
	}
	handle := func(ctx context.Context, in *pageIn) (*pageOut, error) {
		return serve(ctx, in)
	}
	httpapi.Register(api, op("readSiteById", "/sites/{orgId}", "A site without a basename, at its root"), handle)
	httpapi.Register(api, op("readSite", "/sites/{orgId}/{basename}", "A published site's root"), handle)
	httpapi.Register(api, op("readSitePage", "/sites/{orgId}/{basename}/{path...}",
		"A page of a published site (.md: as markdown), or its sitemap.xml, robots.txt or llms.txt"), handle)
	httpapi.Register(api, op("readProxiedSite", proxyPrefix+"{path...}",
		"A URL of a site's proxy origin, forwarded by the reverse proxy serving it (X-Forwarded-Host)"), handle)
	registerEvents(api, s)
}

// proxyPrefix is where a reverse proxy forwards the URLs of a site's
// proxy origin (docs/reader.md, "Proxy origins").
const proxyPrefix = "/~proxy/"

// validHost reports whether h is a DNS name, optionally with a port: what
// a proxy origin's host may be.
func validHost(h string) bool {
	name, port, hasPort := strings.Cut(h, ":")
	if hasPort && (port == "" || len(port) > 5 || strings.Trim(port, "0123456789") != "") {
		return false
	}
	if name == "" || len(name) > 253 || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") ||
			strings.Trim(label, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	return true
}

// answer turns the reader's answer into the response: an error's kind
// decides the status (httpapi.StatusOf, the one table), its body is the
// reader's HTML error page.
func answer(ctx context.Context, a reader.Answer, err error) *pageOut {
	out := &pageOut{Status: http.StatusOK, ContentType: a.ContentType, ETag: a.ETag, Body: a.Body, NoSniff: "nosniff",
		CSP: a.CSP, Referrer: reader.ReferrerPolicy}
	if err != nil {
		out.Status = httpapi.StatusOf(err)
		if out.Status == http.StatusInternalServerError {
			httpapi.LoggerFrom(ctx).Error("reader", "err", err.Error())
		}
		out.ETag, out.CacheControl, out.Robots = "", "no-store", "noindex"
		return out
	}
	out.CacheControl = "public, max-age=60"
	if a.Private {
		// A share link's key or a visitor's token decides each answer:
		// browsers keep the page but ask again (a 304 when unchanged), so a
		// deactivated link or an expired token closes the site at once.
		out.CacheControl = "private, no-cache"
	}
	if a.NoStore {
		out.CacheControl = "no-store"
	}
	if a.Immutable {
		// A browser asset: its URL names its version.
		out.CacheControl = "public, max-age=31536000, immutable"
	}
	if a.NoIndex {
		out.Robots = "noindex"
	}
	if a.NotModified {
		out.Status, out.Body, out.ContentType = http.StatusNotModified, nil, ""
	}
	if a.Location != "" {
		out.Status, out.Location, out.Body, out.ContentType = http.StatusFound, a.Location, nil, ""
		if a.Permanent {
			out.Status = http.StatusMovedPermanently
		}
	}
	return out
}
