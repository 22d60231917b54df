package content

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
)

// LinkListParams are the query parameters of a page's links.
type LinkListParams struct {
	httpapi.ListParams
	Status string `query:"status" enum:"ok,broken,in-app" doc:"Only links of this status"`
}

type linksIn struct {
	SpaceID string `path:"spaceId" maxLength:"64"`
	PageID  string `path:"pageId" maxLength:"64"`
	LinkListParams
}

type backlinksIn struct {
	SpaceID string `path:"spaceId" maxLength:"64"`
	FileID  string `path:"fileId" maxLength:"64"`
	httpapi.ListParams
}

// LinksOut answers a page's links.
type LinksOut struct {
	Body LinkList
}

// BacklinksOut answers a file's backlinks.
type BacklinksOut struct {
	Body httpapi.List[ContentLocation]
}

// BacklinksOutOf renders a page of backlinks.
func BacklinksOutOf(p BacklinksPage) *BacklinksOut {
	return &BacklinksOut{Body: httpapi.List[ContentLocation]{Items: p.Items, Count: len(p.Items), Next: p.Next}}
}

// registerLinks adds the links and backlinks of the space's head.
func registerLinks(api *httpapi.API, s *Service) {
	const tag = "Space content"
	head := func(ctx context.Context, spaceID string) (LinkContext, error) {
		sp, role, err := s.Space(ctx, spaceID, access.ReadContent)
		if err != nil {
			return LinkContext{}, err
		}
		return LinkContext{Source: HeadSource(ctx, sp), Role: role}, nil
	}
	httpapi.Register(api, httpapi.Op{ID: "listPageLinksInSpace", Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content/page/{pageId}/links", Tag: tag,
		Summary: "List the links of a page of the space's current revision, with their status"},
		func(ctx context.Context, in *linksIn) (*LinksOut, error) {
			lc, err := head(ctx, in.SpaceID)
			if err != nil {
				return nil, err
			}
			l, err := s.PageLinks(ctx, lc, in.PageID, in.Status, in.ListParams)
			if err != nil {
				return nil, err
			}
			return &LinksOut{Body: l}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "listSpaceFileBacklinks", Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content/files/{fileId}/backlinks", Tag: tag,
		Summary: "List the pages of the space's current revision that reference a file"},
		func(ctx context.Context, in *backlinksIn) (*BacklinksOut, error) {
			lc, err := head(ctx, in.SpaceID)
			if err != nil {
				return nil, err
			}
			p, err := s.FileBacklinks(ctx, lc, in.FileID, in.ListParams)
			if err != nil {
				return nil, err
			}
			return BacklinksOutOf(p), nil
		})
}
