package contenthttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
)

// ComputeBody is the body of the computed content operations: the source
// (Galley computes builtin:openapi) and the seed the generated ids derive
// from.
type ComputeBody struct {
	Source ComputeSource `json:"source"`
	Seed   string        `json:"seed" minLength:"1" maxLength:"256" doc:"Stands for the computed page's id: the generated pages' ids derive from it (the same seed, the same ids)"`
}

// ComputeSource is what to compute: an OpenAPI spec's reference.
type ComputeSource struct {
	Type         string                `json:"type" enum:"builtin:openapi" doc:"Galley computes builtin:openapi only"`
	Dependencies ComputeDependencies   `json:"dependencies"`
	Props        content.ComputedProps `json:"props"`
}

// ComputeDependencies name the spec computed from.
type ComputeDependencies struct {
	Spec ComputeSpec `json:"spec"`
}

// ComputeSpec names the spec by its ref.
type ComputeSpec struct {
	Ref ComputeSpecRef `json:"ref"`
}

// ComputeSpecRef is an OpenAPI spec of the space's organization.
type ComputeSpecRef struct {
	Kind string `json:"kind" enum:"openapi"`
	Spec ids.ID `json:"spec" minLength:"1" maxLength:"2048" doc:"Slug of the OpenAPI spec (Galley also accepts its id or the URL it is fetched from)"`
}

// source is the content family's form of s.
func (s ComputeSource) source() content.ComputedSource {
	out := content.ComputedSource{Type: s.Type, Props: s.Props}
	out.Dependencies.Spec.Ref = content.OpenAPIRef{Kind: s.Dependencies.Spec.Ref.Kind, Spec: string(s.Dependencies.Spec.Ref.Spec)}
	return out
}

// ComputedRevision answers POST .../content/computed/revision.
type ComputedRevision struct {
	Pages            []content.RevisionPage            `json:"pages"`
	Files            []content.RevisionFile            `json:"files" doc:"Always empty: Galley's computed content has no files"`
	ReusableContents []content.RevisionReusableContent `json:"reusableContents" doc:"Always empty"`
}

func registerComputed(api *httpapi.API, s *content.Service) {
	const tag = "Space content"
	httpapi.Register(api, httpapi.Op{ID: "getComputedRevision", Needs: access.Role(access.ReadContent), Method: http.MethodPost, Path: "/v1/spaces/{spaceId}/content/computed/revision", Tag: tag,
		Summary: "Compute the pages a computed source generates (an OpenAPI spec's reference pages), without a page"},
		func(ctx context.Context, in *struct {
			SpacePath
			Body ComputeBody
		}) (*httpapi.Out[ComputedRevision], error) {
			pages, err := s.ComputeRevision(ctx, in.at(ctx), in.Body.Source.source(), in.Body.Seed)
			if err != nil {
				return nil, err
			}
			return &httpapi.Out[ComputedRevision]{Body: ComputedRevision{Pages: pages, Files: []content.RevisionFile{},
				ReusableContents: []content.RevisionReusableContent{}}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getComputedDocument", Needs: access.Role(access.ReadContent), Method: http.MethodPost, Path: "/v1/spaces/{spaceId}/content/computed/document", Tag: tag,
		Summary: "Compute the document of one generated page of a computed source (props.doc tag, operation or operations), without a page"},
		func(ctx context.Context, in *struct {
			SpacePath
			Schema string `query:"schema" enum:"current,next" doc:"Ignored: Galley has one document schema"`
			Body   ComputeBody
		}) (*DocumentOut, error) {
			return AsIs(s.ComputeDocument(ctx, in.at(ctx), in.Body.Source.source(), in.Body.Seed))
		})
}
