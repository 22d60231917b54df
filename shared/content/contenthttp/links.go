package contenthttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
)

// LinkListParams are the query parameters of a page's links.
type LinkListParams struct {
	httpapi.ListParams
	Status string `query:"status" enum:"ok,broken,in-app" doc:"Only links of this status"`
}

type linksIn struct {
	SpacePath
	PageID string `path:"pageId" maxLength:"64"`
	LinkListParams
}

type backlinksIn struct {
	SpacePath
	FileID string `path:"fileId" maxLength:"64"`
	httpapi.ListParams
}

// LinkList is a page of a page's links.
type LinkList struct {
	Next  *httpapi.NextPage  `json:"next,omitempty"`
	Count int                `json:"count" doc:"Number of items in this page"`
	Items []content.LinkItem `json:"items"`
	Stats content.LinkStats  `json:"stats"`
	// BrokenExpressions is Galley's: GitBook's ContentLocation has no
	// kind for an expression (docs/content.md).
	BrokenExpressions []content.BrokenExpression `json:"brokenExpressions" doc:"Galley's: the page's inline expressions and conditional blocks that show nothing to any reader (a syntax error, a variable that is not set, a block never closed), on every page of the list; empty when status asks for other links than broken ones"`
}

// LinksOut answers a page's links.
type LinksOut = httpapi.Out[LinkList]

// ViewLinks renders a page of links.
func ViewLinks(l content.Links) LinkList {
	list := httpapi.ListPage(l.Page, same[content.LinkItem])
	return LinkList{Next: list.Next, Count: list.Count, Items: list.Items, Stats: l.Stats, BrokenExpressions: l.BrokenExpressions}
}

// BacklinksOut answers a file's backlinks.
type BacklinksOut = httpapi.Out[httpapi.List[content.ContentLocation]]

// registerLinks adds the links and backlinks of the space's head.
func registerLinks(api *httpapi.API, s *content.Service) {
	const tag = "Space content"
	httpapi.Register(api, httpapi.Op{ID: "listPageLinksInSpace", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content/page/{pageId}/links", Tag: tag,
		Summary: "List the links of a page of the space's current revision, with their status"},
		func(ctx context.Context, in *linksIn) (*LinksOut, error) {
			return httpapi.Answer(ViewLinks)(s.PageLinks(ctx, in.at(ctx), in.PageID, in.Status, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "listSpaceFileBacklinks", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content/files/{fileId}/backlinks", Tag: tag,
		Summary: "List the pages of the space's current revision that reference a file"},
		func(ctx context.Context, in *backlinksIn) (*BacklinksOut, error) {
			return ListAsIs(s.FileBacklinks(ctx, in.at(ctx), in.FileID, in.Request()))
		})
}
