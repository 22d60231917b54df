package changerequests

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
)

// linkContext is a change request's content for link reads.
func (s *Service) linkContext(ctx context.Context, spaceID, ref string) (content.LinkContext, error) {
	sp, role, err := s.content.Space(ctx, spaceID, access.ReadContent)
	if err != nil {
		return content.LinkContext{}, err
	}
	cr, _, err := s.read(ctx, spaceID, ref)
	if err != nil {
		return content.LinkContext{}, err
	}
	return content.LinkContext{Source: sourceOf(ctx, cr, sp), Role: role, ChangeRequest: &cr}, nil
}

type linksIn struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
	PageID          string `path:"pageId" maxLength:"64"`
	httpapi.ListParams
}

type backlinksIn struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
	FileID          string `path:"fileId" maxLength:"64"`
	httpapi.ListParams
}

// registerLinks adds the links and backlinks of a change request's content.
func registerLinks(api *httpapi.API, s *Service) {
	const tag = "Change request content"
	base := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content"
	httpapi.Register(api, httpapi.Op{ID: "listPageLinksInChangeRequest", Method: http.MethodGet, Path: base + "/page/{pageId}/links", Tag: tag,
		Summary: "List the links of a page of a change request, with their status and those the request broke"},
		func(ctx context.Context, in *linksIn) (*content.LinksOut, error) {
			lc, err := s.linkContext(ctx, in.SpaceID, in.ChangeRequestID)
			if err != nil {
				return nil, err
			}
			l, err := s.content.PageLinks(ctx, lc, in.PageID, "", in.ListParams)
			if err != nil {
				return nil, err
			}
			return &content.LinksOut{Body: l}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "listChangeRequestFileBacklinks", Method: http.MethodGet, Path: base + "/files/{fileId}/backlinks", Tag: tag,
		Summary: "List the pages of a change request that reference a file"},
		func(ctx context.Context, in *backlinksIn) (*content.BacklinksOut, error) {
			lc, err := s.linkContext(ctx, in.SpaceID, in.ChangeRequestID)
			if err != nil {
				return nil, err
			}
			p, err := s.content.FileBacklinks(ctx, lc, in.FileID, in.ListParams)
			if err != nil {
				return nil, err
			}
			return content.BacklinksOutOf(p), nil
		})
}
