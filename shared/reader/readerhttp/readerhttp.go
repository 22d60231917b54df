// Package readerhttp serves published sites (package reader) under the
// public URL: GET /sites/<orgId>/<basename>/... (and /sites/<siteId>/...
// for a site without a basename: the first part is either, as
// sites.ResolveURL reads it).
package readerhttp

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/reader"
)

// Routes adds the reader's operations.
func Routes(api *httpapi.API, d *deps.Deps) {
	s, err := reader.New(d)
	if err != nil {
		// Templates and styles are the code's own: a failure is a bug.
		panic(err)
	}
	Register(api, s)
}

// pageIn is a request of a published URL. Its path is read whole, as the
// visitor sent it (escaped), by Resolve: the route's parameters only
// route it (and the wildcard may be empty: the site's root with a slash).
type pageIn struct {
	ShareKey    string `query:"shareKey" maxLength:"128"`
	IfNoneMatch string `header:"If-None-Match" maxLength:"2048"`
	path        string
}

// Resolve reads the request's path.
func (in *pageIn) Resolve(ctx huma.Context) []error {
	u := ctx.URL()
	in.path = u.EscapedPath()
	if len(in.path) > 4096 {
		return []error{&huma.ErrorDetail{Location: "path", Message: "the path is too long"}}
	}
	return nil
}

type pageOut struct {
	Status       int
	ContentType  string `header:"Content-Type"`
	ETag         string `header:"ETag"`
	CacheControl string `header:"Cache-Control"`
	Robots       string `header:"X-Robots-Tag"`
	NoSniff      string `header:"X-Content-Type-Options"`
	Location     string `header:"Location"`
	Body         []byte
}

// Register adds the reader's operations on s.
func Register(api *httpapi.API, s *reader.Service) {
	const tag = "Reader"
	serve := func(ctx context.Context, path, shareKey, inm string) (*pageOut, error) {
		a, err := s.Serve(ctx, reader.Request{AppURL: httpapi.AppURL(ctx), Path: path, ShareKey: shareKey, IfNoneMatch: inm})
		return answer(ctx, a, err), nil
	}
	op := func(id, path, summary string) httpapi.Op {
		return httpapi.Op{ID: id, Method: http.MethodGet, Path: path, Tag: tag, Public: true, Hidden: true, Summary: summary}
	}
	handle := func(ctx context.Context, in *pageIn) (*pageOut, error) {
		return serve(ctx, in.path, in.ShareKey, in.IfNoneMatch)
	}
	httpapi.Register(api, op("readSiteById", "/sites/{orgId}", "A site without a basename, at its root"), handle)
	httpapi.Register(api, op("readSite", "/sites/{orgId}/{basename}", "A published site's root"), handle)
	httpapi.Register(api, op("readSitePage", "/sites/{orgId}/{basename}/{path...}",
		"A page of a published site (.md: as markdown), or its sitemap.xml, robots.txt or llms.txt"), handle)
}

// answer turns the reader's answer into the response: an error's kind
// decides the status (httpapi.Status, the one table), its body is the
// reader's HTML error page.
func answer(ctx context.Context, a reader.Answer, err error) *pageOut {
	out := &pageOut{Status: http.StatusOK, ContentType: a.ContentType, ETag: a.ETag, Body: a.Body, NoSniff: "nosniff"}
	if err != nil {
		out.Status = httpapi.Status(apperr.KindOf(err))
		if out.Status == http.StatusInternalServerError {
			httpapi.LoggerFrom(ctx).Error("reader", "err", err.Error())
		}
		out.ETag, out.CacheControl, out.Robots = "", "no-store", "noindex"
		return out
	}
	out.CacheControl = "public, max-age=60"
	if a.Private {
		out.CacheControl = "private, max-age=60"
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
