package changerequests

import (
	"context"
	"net/http"
	"strconv"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
)

// source is a change request's content for reads.
func (s *Service) source(ctx context.Context, spaceID, ref string) (content.Source, error) {
	cr, sp, err := s.Get(ctx, spaceID, ref)
	if err != nil {
		return content.Source{}, err
	}
	return sourceOf(ctx, cr, sp), nil
}

// sourceOf is the content of request cr of space sp.
func sourceOf(ctx context.Context, cr model.ChangeRequest, sp model.Space) content.Source {
	return content.Source{Space: sp, Revision: cr.Revision,
		AppBase: httpapi.AppURL(ctx) + "/s/" + sp.ID + "/~/changes/" + strconv.Itoa(cr.Number),
		Scope:   "change-request:" + sp.ID + ":" + cr.ID}
}

type contentIn struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
	content.ReadParams
}

type pageIn struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
	PageID          string `path:"pageId" maxLength:"64"`
	content.PageParams
}

type filesIn struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
	content.FileListParams
}

type fileIn struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
	FileID          string `path:"fileId" maxLength:"64"`
	content.ReadParams
}

// registerContent adds the reads of a change request's content.
func registerContent(api *httpapi.API, s *Service) {
	const tag = "Change request content"
	base := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content"
	httpapi.Register(api, httpapi.Op{ID: "getRevisionOfChangeRequestById", Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "Get a change request's current revision"},
		func(ctx context.Context, in *contentIn) (*content.RevisionOut, error) {
			src, err := s.source(ctx, in.SpaceID, in.ChangeRequestID)
			if err != nil {
				return nil, err
			}
			rev, err := s.content.RevisionOf(ctx, src, in.Metadata)
			if err != nil {
				return nil, err
			}
			return &content.RevisionOut{Body: rev}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "listPagesInChangeRequest", Method: http.MethodGet, Path: base + "/pages", Tag: tag,
		Summary: "List the pages of a change request (nested)"},
		func(ctx context.Context, in *contentIn) (*content.PagesOut, error) {
			src, err := s.source(ctx, in.SpaceID, in.ChangeRequestID)
			if err != nil {
				return nil, err
			}
			pages, err := s.content.Pages(ctx, src, in.Metadata)
			if err != nil {
				return nil, err
			}
			return &content.PagesOut{Body: content.PagesList{Pages: pages}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getPageInChangeRequestById", Method: http.MethodGet, Path: base + "/page/{pageId}", Tag: tag,
		Summary: "Get a page of a change request"},
		func(ctx context.Context, in *pageIn) (*content.PageOut, error) {
			src, err := s.source(ctx, in.SpaceID, in.ChangeRequestID)
			if err != nil {
				return nil, err
			}
			p, err := s.content.Page(ctx, src, in.PageID, in.Format, in.Metadata)
			if err != nil {
				return nil, err
			}
			return &content.PageOut{Body: p}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "listFilesInChangeRequestById", Method: http.MethodGet, Path: base + "/files", Tag: tag,
		Summary: "List the files of a change request"},
		func(ctx context.Context, in *filesIn) (*content.FilesOut, error) {
			src, err := s.source(ctx, in.SpaceID, in.ChangeRequestID)
			if err != nil {
				return nil, err
			}
			p, err := s.content.Files(ctx, src, in.ListParams, in.Metadata)
			if err != nil {
				return nil, err
			}
			return content.FilesOutOf(p), nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getFileInChangeRequestById", Method: http.MethodGet, Path: base + "/files/{fileId}", Tag: tag,
		Summary: "Get a file of a change request"},
		func(ctx context.Context, in *fileIn) (*content.FileOut, error) {
			src, err := s.source(ctx, in.SpaceID, in.ChangeRequestID)
			if err != nil {
				return nil, err
			}
			f, err := s.content.File(ctx, src, in.FileID, in.Metadata)
			if err != nil {
				return nil, err
			}
			return &content.FileOut{Body: f}, nil
		})
}
