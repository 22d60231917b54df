package contenthttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
)

// ReusableContentOut answers a reusable content read.
type ReusableContentOut struct {
	Body content.RevisionReusableContent
}

// DocumentParams are the query parameters of a document read GitBook's
// document lists (getReusableContentDocumentInRevisionById): accepted;
// the document is answered as stored (docs/content.md, "Reusable contents
// and variables").
type DocumentParams struct {
	Evaluated    string `query:"evaluated" enum:"true,false,deterministic-only" doc:"Accepted: the document is answered as stored, expressions not evaluated"`
	Dereferenced string `query:"dereferenced" enum:"true,false,reusable-contents" doc:"Accepted: the document is answered as stored, references not expanded"`
}

type reusableIn struct {
	SpaceID           string `path:"spaceId" maxLength:"64"`
	ReusableContentID string `path:"reusableContentId" maxLength:"64"`
	ReadParams
}

type revisionReusableIn struct {
	SpaceID           string `path:"spaceId" maxLength:"64"`
	RevisionID        string `path:"revisionId" maxLength:"64"`
	ReusableContentID string `path:"reusableContentId" maxLength:"64"`
	ReadParams
}

type revisionReusableDocumentIn struct {
	SpaceID           string `path:"spaceId" maxLength:"64"`
	RevisionID        string `path:"revisionId" maxLength:"64"`
	ReusableContentID string `path:"reusableContentId" maxLength:"64"`
	DocumentParams
}

// registerReusable adds the reads of a reusable content of the space's
// current revision and of a revision by id (the change request's is
// changerequestshttp's).
func registerReusable(api *httpapi.API, s *content.Service) {
	const tag = "Space content"
	httpapi.Register(api, httpapi.Op{ID: "getReusableContentById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content/reusable-contents/{reusableContentId}", Tag: tag,
		Summary: "Get a reusable content of the space's current revision"},
		func(ctx context.Context, in *reusableIn) (*ReusableContentOut, error) {
			r, err := s.ReusableContent(ctx, in.On(content.At{SpaceID: in.SpaceID, Bases: Bases(ctx)}), in.ReusableContentID, in.Metadata)
			if err != nil {
				return nil, err
			}
			return &ReusableContentOut{Body: r}, nil
		})
	rev := func(ctx context.Context, spaceID, revisionID string) content.At {
		return content.At{SpaceID: spaceID, Revision: revisionID, Bases: Bases(ctx)}
	}
	base := "/v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}"
	httpapi.Register(api, httpapi.Op{ID: "getReusableContentInRevisionById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "Get a reusable content of a revision"},
		func(ctx context.Context, in *revisionReusableIn) (*ReusableContentOut, error) {
			r, err := s.ReusableContent(ctx, in.On(rev(ctx, in.SpaceID, in.RevisionID)), in.ReusableContentID, in.Metadata)
			if err != nil {
				return nil, err
			}
			return &ReusableContentOut{Body: r}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getReusableContentDocumentInRevisionById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base + "/document", Tag: tag,
		Summary: "Get the document of a reusable content of a revision"},
		func(ctx context.Context, in *revisionReusableDocumentIn) (*DocumentOut, error) {
			d, err := s.ReusableContentDocument(ctx, rev(ctx, in.SpaceID, in.RevisionID), in.ReusableContentID)
			if err != nil {
				return nil, err
			}
			return &DocumentOut{Body: d}, nil
		})
}
