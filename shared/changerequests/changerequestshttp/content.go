package changerequestshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/httpapi"
)

// at is a change request's content, for the content service's reads
// (which check the caller may read the space).
func at(ctx context.Context, spaceID, ref string) content.At {
	return content.At{SpaceID: spaceID, ChangeRequest: ref, Bases: contenthttp.Bases(ctx)}
}

// at is the change request's content.
func (p ChangeRequestPath) at(ctx context.Context) content.At {
	return at(ctx, p.SpaceID, p.ChangeRequestID)
}

type contentIn struct {
	ChangeRequestPath
	contenthttp.ReadParams
}

type pageIn struct {
	ChangeRequestPath
	PageID string `path:"pageId" maxLength:"64"`
	contenthttp.PageParams
}

type filesIn struct {
	ChangeRequestPath
	contenthttp.FileListParams
}

type fileIn struct {
	ChangeRequestPath
	FileID string `path:"fileId" maxLength:"64"`
	contenthttp.ReadParams
}

type pathIn struct {
	ChangeRequestPath
	contenthttp.PagePathParam
	contenthttp.PageParams
}

type pageRefIn struct {
	ChangeRequestPath
	PageID string `path:"pageId" maxLength:"64"`
}

// registerContent adds the reads of a change request's content.
func registerContent(api *httpapi.API, s *changerequests.Service) {
	c := s.Content()
	const tag = "Change request content"
	base := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content"
	httpapi.Register(api, httpapi.Op{ID: "getPageInChangeRequestByPath", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/path/{pagePath...}", Tag: tag,
		Summary: "Get a page of a change request by its path"},
		func(ctx context.Context, in *pathIn) (*contenthttp.PageOut, error) {
			return contenthttp.AsIs(c.PageByPath(ctx, in.On(in.at(ctx)), in.PagePath, in.Format, in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "listChangeRequestPageMetaLinks", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/page/{pageId}/meta-links", Tag: tag,
		Summary: "Get the meta links of a page of a change request"},
		func(ctx context.Context, in *pageRefIn) (*contenthttp.MetaLinksOut, error) {
			return contenthttp.AsIs(c.PageMetaLinks(ctx, in.at(ctx), in.PageID))
		})
	httpapi.Register(api, httpapi.Op{ID: "getRevisionOfChangeRequestById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "Get a change request's current revision"},
		func(ctx context.Context, in *contentIn) (*contenthttp.RevisionOut, error) {
			return contenthttp.AsIs(c.RevisionOf(ctx, in.On(in.at(ctx)), in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "listPagesInChangeRequest", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/pages", Tag: tag,
		Summary: "List the pages of a change request (nested)"},
		func(ctx context.Context, in *contentIn) (*contenthttp.PagesOut, error) {
			return httpapi.Answer(contenthttp.ListTree)(c.PageTree(ctx, in.On(in.at(ctx)), in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "getPageInChangeRequestById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/page/{pageId}", Tag: tag,
		Summary: "Get a page of a change request"},
		func(ctx context.Context, in *pageIn) (*contenthttp.PageOut, error) {
			return contenthttp.AsIs(c.Page(ctx, in.On(in.at(ctx)), in.PageID, in.Format, in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "listFilesInChangeRequestById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/files", Tag: tag,
		Summary: "List the files of a change request"},
		func(ctx context.Context, in *filesIn) (*contenthttp.FilesOut, error) {
			return contenthttp.ListAsIs(c.Files(ctx, in.at(ctx), in.Request(), in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "getFileInChangeRequestById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/files/{fileId}", Tag: tag,
		Summary: "Get a file of a change request"},
		func(ctx context.Context, in *fileIn) (*contenthttp.FileOut, error) {
			return contenthttp.AsIs(c.File(ctx, in.at(ctx), in.FileID, in.Metadata))
		})
}

type linksIn struct {
	ChangeRequestPath
	PageID string `path:"pageId" maxLength:"64"`
	httpapi.ListParams
}

type backlinksIn struct {
	ChangeRequestPath
	FileID string `path:"fileId" maxLength:"64"`
	httpapi.ListParams
}

// registerLinks adds the links and backlinks of a change request's content.
func registerLinks(api *httpapi.API, s *changerequests.Service) {
	c := s.Content()
	const tag = "Change request content"
	base := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content"
	httpapi.Register(api, httpapi.Op{ID: "listPageLinksInChangeRequest", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/page/{pageId}/links", Tag: tag,
		Summary: "List the links of a page of a change request, with their status and those the request broke"},
		func(ctx context.Context, in *linksIn) (*contenthttp.LinksOut, error) {
			return httpapi.Answer(contenthttp.ViewLinks)(c.PageLinks(ctx, in.at(ctx), in.PageID, "", in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "listChangeRequestFileBacklinks", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/files/{fileId}/backlinks", Tag: tag,
		Summary: "List the pages of a change request that reference a file"},
		func(ctx context.Context, in *backlinksIn) (*contenthttp.BacklinksOut, error) {
			return contenthttp.ListAsIs(c.FileBacklinks(ctx, in.at(ctx), in.FileID, in.Request()))
		})
}

type reusableIn struct {
	SpaceID           string `path:"spaceId" maxLength:"64"`
	ChangeRequestID   string `path:"changeRequestId" maxLength:"64"`
	ReusableContentID string `path:"reusableContentId" maxLength:"64"`
	contenthttp.ReadParams
}

// registerReusable adds the read of a reusable content of a change
// request's content.
func registerReusable(api *httpapi.API, s *changerequests.Service) {
	c := s.Content()
	httpapi.Register(api, httpapi.Op{ID: "getReusableContentInChangeRequestById", Needs: access.Role(access.ReadContent), Method: http.MethodGet,
		Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}", Tag: "Change request content",
		Summary: "Get a reusable content of a change request"},
		func(ctx context.Context, in *reusableIn) (*contenthttp.ReusableContentOut, error) {
			return contenthttp.AsIs(c.ReusableContent(ctx, in.On(at(ctx, in.SpaceID, in.ChangeRequestID)), in.ReusableContentID, in.Metadata))
		})
}
