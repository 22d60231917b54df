package changerequestshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/httpapi"
)

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
			l, err := c.PageLinks(ctx, in.at(ctx), in.PageID, "", in.Request())
			if err != nil {
				return nil, err
			}
			return contenthttp.LinksOutOf(l), nil
		})
	httpapi.Register(api, httpapi.Op{ID: "listChangeRequestFileBacklinks", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/files/{fileId}/backlinks", Tag: tag,
		Summary: "List the pages of a change request that reference a file"},
		func(ctx context.Context, in *backlinksIn) (*contenthttp.BacklinksOut, error) {
			p, err := c.FileBacklinks(ctx, in.at(ctx), in.FileID, in.Request())
			if err != nil {
				return nil, err
			}
			return contenthttp.BacklinksOutOf(p), nil
		})
}
