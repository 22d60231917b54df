package contenthttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
)

// ReusableContentOut answers a reusable content read.
type ReusableContentOut = httpapi.Out[content.RevisionReusableContent]

// DocumentParams are GitBook's query parameters of a document read
// (getReusableContentDocumentInRevisionById): evaluated and dereferenced
// (content.DocumentOptions; docs/content.md, "Where content goes out").
type DocumentParams struct {
	Evaluated    string `query:"evaluated" enum:"true,false,deterministic-only" doc:"true: expressions and conditional blocks evaluated (the space's variables; no visitor, so claims read as missing); deterministic-only: only those that read no visitor claim; false (default): as stored"`
	Dereferenced string `query:"dereferenced" enum:"true,false,reusable-contents" doc:"true or reusable-contents: each reusable-content block replaced by the blocks of the reusable content it names (same revision, at most 3 levels); false (default): as stored"`
}

// Options are the content family's reading of the parameters.
func (p DocumentParams) Options() content.DocumentOptions {
	return content.DocumentOptions{Evaluated: p.Evaluated, Dereferenced: p.Dereferenced}
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
			return AsIs(s.ReusableContent(ctx, in.On(content.At{SpaceID: in.SpaceID, Bases: Bases(ctx)}), in.ReusableContentID, in.Metadata))
		})
	rev := func(ctx context.Context, spaceID, revisionID string) content.At {
		return content.At{SpaceID: spaceID, Revision: revisionID, Bases: Bases(ctx)}
	}
	base := "/v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}"
	httpapi.Register(api, httpapi.Op{ID: "getReusableContentInRevisionById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "Get a reusable content of a revision"},
		func(ctx context.Context, in *revisionReusableIn) (*ReusableContentOut, error) {
			return AsIs(s.ReusableContent(ctx, in.On(rev(ctx, in.SpaceID, in.RevisionID)), in.ReusableContentID, in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "getReusableContentDocumentInRevisionById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base + "/document", Tag: tag,
		Summary: "Get the document of a reusable content of a revision"},
		func(ctx context.Context, in *revisionReusableDocumentIn) (*DocumentOut, error) {
			return AsIs(s.ReusableContentDocument(ctx, rev(ctx, in.SpaceID, in.RevisionID), in.ReusableContentID, in.Options()))
		})
}
