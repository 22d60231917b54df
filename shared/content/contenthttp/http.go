// Package contenthttp is the content family's HTTP layer: the reads of a
// space's current content (revision, pages, files, links and backlinks),
// file downloads and the PDF export, their parameters and answers, on the
// service of package content (which knows no HTTP). Package changerequests' handlers
// reuse its parameters and answers for a change request's content.
package contenthttp

import (
	"context"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/contentpdf"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
)

// ReadParams are the query parameters of every content read.
type ReadParams struct {
	Metadata bool `query:"metadata" default:"true" doc:"false omits the mutable git metadata"`
	Computed bool `query:"computed" default:"true" doc:"false skips computed content: computed pages are answered as stored (type computed, without generated pages) and OpenAPI blocks as written"`
}

// On is at read with these parameters (computed=false: NoCompute).
func (p ReadParams) On(at content.At) content.At {
	at.NoCompute = !p.Computed
	return at
}

// PageParams are the query parameters of a page read.
type PageParams struct {
	ReadParams
	Format string `query:"format" enum:"document,markdown" doc:"The page body's form (default document)"`
	DocumentParams
}

// On is at read with these parameters: ReadParams', and the document's
// evaluation and dereferencing (format=document; markdown keeps GitBook's
// source syntax).
func (p PageParams) On(at content.At) content.At {
	at = p.ReadParams.On(at)
	at.Document = p.Options()
	return at
}

// FileListParams are the query parameters of a file list.
type FileListParams struct {
	httpapi.ListParams
	ReadParams
}

// SpacePath names a space in an operation's path.
type SpacePath struct {
	SpaceID string `path:"spaceId" maxLength:"64"`
}

// at is the space's head, for the content service's reads.
func (p SpacePath) at(ctx context.Context) content.At {
	return content.At{SpaceID: p.SpaceID, Bases: Bases(ctx)}
}

type spaceIn struct {
	SpacePath
	ReadParams
}

type pageIn struct {
	SpacePath
	PageID string `path:"pageId" maxLength:"64"`
	PageParams
}

type filesIn struct {
	SpacePath
	FileListParams
}

type fileIn struct {
	SpacePath
	FileID string `path:"fileId" maxLength:"64"`
	ReadParams
}

type downloadIn struct {
	SpaceID string `path:"spaceId" maxLength:"64"`
	FileID  string `path:"fileId" maxLength:"64"`
	Token   string `query:"token" maxLength:"2048" doc:"The signature of the link"`
}

// RevisionOut answers a revision read.
type RevisionOut = httpapi.Out[content.Revision]

// PagesList is the body of a pages read.
type PagesList struct {
	Pages []content.RevisionPage `json:"pages"`
	tree  content.PageTree
}

// ListTree is the body of a pages read: the tree's pages, nested, whose
// JSON is written as encoded once for the tree (httpapi.PreEncoded).
func ListTree(t content.PageTree) PagesList { return PagesList{Pages: t.Pages, tree: t} }

// WriteJSON writes the list with its tree's kept JSON (PreEncoded): the
// bytes encoding/json writes for the list.
func (l PagesList) WriteJSON(w io.Writer) (bool, error) {
	pages, err := l.tree.JSON()
	if pages == nil || err != nil {
		return false, err
	}
	for _, b := range [][]byte{[]byte(`{"pages":`), pages, []byte("}\n")} {
		if _, err := w.Write(b); err != nil {
			return true, err
		}
	}
	return true, nil
}

// PagesOut answers a pages read.
type PagesOut = httpapi.Out[PagesList]

// PageOut answers a page read.
type PageOut = httpapi.Out[content.RevisionPage]

// FilesOut answers a file list.
type FilesOut = httpapi.Out[httpapi.List[content.RevisionFile]]

// FileOut answers a file read.
type FileOut = httpapi.Out[content.RevisionFile]

type downloadOut struct {
	ContentType        string `header:"Content-Type"`
	ContentDisposition string `header:"Content-Disposition"`
	CacheControl       string `header:"Cache-Control"`
	// Files are the users' bytes served from the API's origin: they must
	// never run as a page of it.
	ContentSecurityPolicy string `header:"Content-Security-Policy"`
	NoSniff               string `header:"X-Content-Type-Options"`
	// The link's token is in its query: other origins learn the origin only.
	Referrer string `header:"Referrer-Policy"`
	Body     []byte
}

// fileOut answers a user's file: its bytes, with headers that keep it
// from running as a page of the API's origin.
func fileOut(dl content.Download, data []byte, cacheControl string) *downloadOut {
	return &downloadOut{ContentType: dl.ContentType, Body: data, CacheControl: cacheControl,
		ContentDisposition:    disposition(dl.ContentType, dl.Name),
		ContentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; sandbox", NoSniff: "nosniff",
		Referrer: "strict-origin-when-cross-origin"}
}

// disposition shows images inline and has every other file downloaded.
func disposition(contentType, name string) string {
	kind := "attachment"
	if strings.HasPrefix(contentType, "image/") {
		kind = "inline"
	}
	return mime.FormatMediaType(kind, map[string]string{"filename": name})
}

// AsIs answers a read with the service's result as it is (the content
// service returns its API shapes), or with the service's error: it is
// httpapi.Answer without a view.
func AsIs[T any](v T, err error) (*httpapi.Out[T], error) { return httpapi.Answer(same[T])(v, err) }

// ListAsIs is AsIs for a page of a list.
func ListAsIs[T any](p paging.Page[T], err error) (*httpapi.Out[httpapi.List[T]], error) {
	return httpapi.AnswerPage(same[T])(p, err)
}

func same[T any](v T) T { return v }

// Bases are the request's API and application URLs, under which the
// content's views link.
func Bases(ctx context.Context) content.Bases {
	return content.Bases{API: httpapi.APIURL(ctx), App: httpapi.AppURL(ctx)}
}

// Register adds the space content operations (the space's head), file
// downloads and the space's PDF export (made by pdfs).
func Register(api *httpapi.API, s *content.Service, pdfs *contentpdf.Service) {
	const tag = "Space content"
	httpapi.Register(api, httpapi.Op{ID: "duplicateSpace", Idempotent: true, Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: "/v1/spaces/{spaceId}/duplicate", Tag: "Spaces",
		Status: http.StatusCreated, Summary: "Duplicate a space: a copy of its current content beside it"},
		func(ctx context.Context, in *struct {
			SpaceID string `path:"spaceId" maxLength:"64"`
		}) (*struct {
			Location string `header:"Location"`
			Body     spaceshttp.Space
		}, error) {
			sp, level, err := s.Duplicate(ctx, in.SpaceID)
			if err != nil {
				return nil, err
			}
			v := spaceshttp.View(ctx, sp, level)
			return &struct {
				Location string `header:"Location"`
				Body     spaceshttp.Space
			}{Location: v.URLs.Location, Body: v}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getCurrentRevision", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content", Tag: tag,
		Summary: "Get the space's current revision"},
		func(ctx context.Context, in *spaceIn) (*RevisionOut, error) {
			return AsIs(s.RevisionOf(ctx, in.On(in.at(ctx)), in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "listPages", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content/pages", Tag: tag,
		Summary: "List the pages of the space's current revision (nested)"},
		func(ctx context.Context, in *spaceIn) (*PagesOut, error) {
			return httpapi.Answer(ListTree)(s.PageTree(ctx, in.On(in.at(ctx)), in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "getPageById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content/page/{pageId}", Tag: tag,
		Summary: "Get a page of the space's current revision"},
		func(ctx context.Context, in *pageIn) (*PageOut, error) {
			return AsIs(s.Page(ctx, in.On(in.at(ctx)), in.PageID, in.Format, in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "listFiles", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content/files", Tag: tag,
		Summary: "List the files of the space's current revision"},
		func(ctx context.Context, in *filesIn) (*FilesOut, error) {
			return ListAsIs(s.Files(ctx, in.at(ctx), in.Request(), in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "getFileById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content/files/{fileId}", Tag: tag,
		Summary: "Get a file of the space's current revision"},
		func(ctx context.Context, in *fileIn) (*FileOut, error) {
			return AsIs(s.File(ctx, in.at(ctx), in.FileID, in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "downloadFile", Needs: access.SignedLink, Visitor: true, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/files/{fileId}/download", Tag: tag,
		Summary: "Download a file through a signed link (a file's downloadURL)"},
		func(ctx context.Context, in *downloadIn) (*downloadOut, error) {
			dl, data, err := s.Download(ctx, in.SpaceID, in.FileID, in.Token)
			if err != nil {
				return nil, err
			}
			return fileOut(dl, data, "private, max-age=3600"), nil
		})
	registerLinks(api, s)
	registerStorage(api, s)
	registerRevisions(api, s)
	registerReusable(api, s)
	registerComputed(api, s)
	registerPDF(api, pdfs)
}
