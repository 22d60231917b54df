// Package changerequestshttp is the change requests family's HTTP layer:
// its operations (requests, authoring, merge and update, the request's
// content and links, the PDF export), request bodies and answers, on the
// service of package changerequests (which knows no HTTP). The content
// reads reuse package contenthttp's parameters and answers.
package changerequestshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/comments"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
)

// CreateChangeRequestBody is the (optional) body of POST .../change-requests.
type CreateChangeRequestBody struct {
	Subject     string `json:"subject,omitempty" maxLength:"100" doc:"Subject of the change request"`
	AgentTaskID ids.ID `json:"agentTaskId,omitempty" maxLength:"100" doc:"ID of the agent task to implement"`
}

type createIn struct {
	SpaceID string `path:"spaceId" maxLength:"64"`
	Body    *CreateChangeRequestBody
}

type createOut struct {
	Location string `header:"Location"`
	Body     content.ChangeRequest
}

type listIn struct {
	SpaceID     string `path:"spaceId" maxLength:"64"`
	Status      string `query:"status" enum:"draft,open,archived,merged" doc:"Only requests of this status (default open)"`
	Contributor string `query:"contributor" maxLength:"64" doc:"Only requests this user contributed to"`
	httpapi.ListParams
}

type listOut struct {
	Body httpapi.List[content.ChangeRequest]
}

// ChangeRequestPath names a change request in an operation's path.
type ChangeRequestPath struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
}

type crIn struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64" doc:"The change request's id or its number in the space"`
}

type crOut struct {
	Body content.ChangeRequest
}

// UpdateChangeRequestBody is the body of PATCH .../change-requests/{changeRequestId}.
type UpdateChangeRequestBody struct {
	Subject *string `json:"subject,omitempty" maxLength:"100"`
	Status  *string `json:"status,omitempty" enum:"draft,open,archived" doc:"merged is reached only by merging"`
}

type patchIn struct {
	ChangeRequestPath
	Body UpdateChangeRequestBody
}

// view renders one request for the space's current head.
func view(ctx context.Context, s *changerequests.Service, cr model.ChangeRequest, sp model.Space) (content.ChangeRequest, error) {
	vs, err := views(ctx, s, []model.ChangeRequest{cr}, sp)
	if err != nil {
		return content.ChangeRequest{}, err
	}
	return vs[0], nil
}

// answer answers with the request the service read or changed, rendered
// by view.
func answer(ctx context.Context, s *changerequests.Service) func(model.ChangeRequest, model.Space, error) (*crOut, error) {
	return func(cr model.ChangeRequest, sp model.Space, err error) (*crOut, error) {
		if err != nil {
			return nil, err
		}
		v, err := view(ctx, s, cr, sp)
		if err != nil {
			return nil, err
		}
		return &crOut{Body: v}, nil
	}
}

// views renders requests, reading each creator once.
func views(ctx context.Context, s *changerequests.Service, crs []model.ChangeRequest, sp model.Space) ([]content.ChangeRequest, error) {
	by, err := s.Creators(ctx, crs)
	if err != nil {
		return nil, err
	}
	b := contenthttp.Bases(ctx)
	out := make([]content.ChangeRequest, 0, len(crs))
	for _, cr := range crs {
		out = append(out, content.ChangeRequestView(ctx, b, cr, sp.Revision, by[cr.CreatedBy]))
	}
	return out, nil
}

// Register adds the change requests family's operations; cs renders the
// comments posted with reviews.
func Register(api *httpapi.API, s *changerequests.Service, cs *comments.Service) {
	const tag = "Change requests"
	base := "/v1/spaces/{spaceId}/change-requests"
	httpapi.Register(api, httpapi.Op{ID: "listChangeRequestsForSpace", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "List a space's change requests (newest first)"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			p, sp, err := s.List(ctx, in.SpaceID, changerequests.Filter{Status: in.Status, Contributor: in.Contributor}, in.Request())
			if err != nil {
				return nil, err
			}
			items, err := views(ctx, s, p.Items, sp)
			if err != nil {
				return nil, err
			}
			list := httpapi.ListPage(paging.Page[content.ChangeRequest]{Items: items, Next: p.Next}, same)
			return &listOut{Body: list}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "createChangeRequest", Idempotent: true, Needs: access.Role(access.EditContent), Method: http.MethodPost, Path: base, Tag: tag,
		Status: http.StatusCreated, Summary: "Create a change request on the space's current content"},
		func(ctx context.Context, in *createIn) (*createOut, error) {
			var b CreateChangeRequestBody
			if in.Body != nil {
				b = *in.Body
			}
			cr, sp, err := s.Create(ctx, in.SpaceID, changerequests.Create{Subject: b.Subject, AgentTaskID: string(b.AgentTaskID)})
			if err != nil {
				return nil, err
			}
			v, err := view(ctx, s, cr, sp)
			if err != nil {
				return nil, err
			}
			return &createOut{Location: v.URLs.Location, Body: v}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getChangeRequestById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/{changeRequestId}", Tag: tag,
		Summary: "Get a change request by its id or number"},
		func(ctx context.Context, in *crIn) (*crOut, error) {
			return answer(ctx, s)(s.Get(ctx, in.SpaceID, in.ChangeRequestID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateChangeRequestById", Needs: access.Role(access.EditContent), Method: http.MethodPatch, Path: base + "/{changeRequestId}", Tag: tag,
		Summary: "Update a change request's subject or status"},
		func(ctx context.Context, in *patchIn) (*crOut, error) {
			return answer(ctx, s)(s.Update(ctx, in.SpaceID, in.ChangeRequestID, changerequests.Change{Subject: in.Body.Subject, Status: in.Body.Status}))
		})
	registerMerge(api, s)
	registerAuthoring(api, s)
	registerContent(api, s)
	registerReusable(api, s)
	registerLinks(api, s)
	registerPDF(api, s)
	registerReviews(api, s, cs)
	registerActivity(api, s)
}

// MergeResult is the answer of merge and update.
type MergeResult struct {
	Revision  string             `json:"revision" doc:"The revision made; on conflicts, the unchanged one"`
	Result    string             `json:"result" enum:"merge,update,conflicts"`
	Conflicts []content.Conflict `json:"conflicts,omitempty" doc:"Why the changes could not be merged (result conflicts)"`
}

type mergeOut struct {
	Body MergeResult
}

// registerMerge adds merge and update.
func registerMerge(api *httpapi.API, s *changerequests.Service) {
	const tag = "Change requests"
	base := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"
	answer := func(r changerequests.Result, err error) (*mergeOut, error) {
		if err != nil {
			return nil, err
		}
		return &mergeOut{Body: MergeResult{Revision: r.Revision, Result: r.Result, Conflicts: r.Conflicts}}, nil
	}
	httpapi.Register(api, httpapi.Op{ID: "mergeChangeRequest", Needs: access.Role(access.MergeContent), Method: http.MethodPost, Path: base + "/merge", Tag: tag,
		Summary: "Merge a change request into the space's content"},
		func(ctx context.Context, in *crIn) (*mergeOut, error) {
			return answer(s.Merge(ctx, in.SpaceID, in.ChangeRequestID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateChangeRequest", Needs: access.Role(access.EditContent), Method: http.MethodPost, Path: base + "/update", Tag: tag,
		Summary: "Bring the space's changes into a change request"},
		func(ctx context.Context, in *crIn) (*mergeOut, error) {
			return answer(s.UpdateFromSpace(ctx, in.SpaceID, in.ChangeRequestID))
		})
}
