package changerequests

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
)

// CreateChangeRequestBody is the (optional) body of POST .../change-requests.
type CreateChangeRequestBody struct {
	Subject     string `json:"subject,omitempty" maxLength:"100" doc:"Subject of the change request"`
	AgentTaskID string `json:"agentTaskId,omitempty" maxLength:"100" doc:"ID of the agent task to implement"`
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
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
	Body            UpdateChangeRequestBody
}

// view renders one request for the space's current head.
func (s *Service) view(ctx context.Context, cr model.ChangeRequest, sp model.Space) (content.ChangeRequest, error) {
	by, err := s.content.User(ctx, cr.CreatedBy)
	if err != nil {
		return content.ChangeRequest{}, err
	}
	return content.ChangeRequestView(ctx, contenthttp.Bases(ctx), cr, sp.Revision, by), nil
}

// views renders requests, reading each creator once.
func (s *Service) views(ctx context.Context, crs []model.ChangeRequest, sp model.Space) ([]content.ChangeRequest, error) {
	byID := map[string]model.User{}
	out := make([]content.ChangeRequest, 0, len(crs))
	for _, cr := range crs {
		u, ok := byID[cr.CreatedBy]
		if !ok {
			var err error
			if u, err = s.content.User(ctx, cr.CreatedBy); err != nil {
				return nil, err
			}
			byID[cr.CreatedBy] = u
		}
		out = append(out, content.ChangeRequestView(ctx, contenthttp.Bases(ctx), cr, sp.Revision, u))
	}
	return out, nil
}

// Routes adds the changerequests family's operations, on the service built from d.
func Routes(api *httpapi.API, d *deps.Deps) { Register(api, New(d)) }

// Register adds the change requests family's operations.
func Register(api *httpapi.API, s *Service) {
	const tag = "Change requests"
	base := "/v1/spaces/{spaceId}/change-requests"
	httpapi.Register(api, httpapi.Op{ID: "listChangeRequestsForSpace", Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "List a space's change requests (newest first)"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			f := Filter{Status: in.Status, Contributor: in.Contributor}
			if f.Status == "" {
				f.Status = model.CROpen
			}
			scope := "change-requests:" + in.SpaceID + ":" + f.Status + ":" + f.Contributor
			after, err := s.d.Pager.Key(scope, in.Page)
			if err != nil {
				return nil, err
			}
			p, sp, err := s.List(ctx, in.SpaceID, f, in.Size(), after)
			if err != nil {
				return nil, err
			}
			items, err := s.views(ctx, p.ChangeRequests, sp)
			if err != nil {
				return nil, err
			}
			return &listOut{Body: httpapi.List[content.ChangeRequest]{Items: items, Count: len(items), Next: s.d.Pager.Next(scope, p.Next)}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "createChangeRequest", Method: http.MethodPost, Path: base, Tag: tag,
		Status: http.StatusCreated, Summary: "Create a change request on the space's current content"},
		func(ctx context.Context, in *createIn) (*createOut, error) {
			var b CreateChangeRequestBody
			if in.Body != nil {
				b = *in.Body
			}
			cr, sp, err := s.Create(ctx, in.SpaceID, Create{Subject: b.Subject, AgentTaskID: b.AgentTaskID})
			if err != nil {
				return nil, err
			}
			v, err := s.view(ctx, cr, sp)
			if err != nil {
				return nil, err
			}
			return &createOut{Location: v.URLs.Location, Body: v}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getChangeRequestById", Method: http.MethodGet, Path: base + "/{changeRequestId}", Tag: tag,
		Summary: "Get a change request by its id or number"},
		func(ctx context.Context, in *crIn) (*crOut, error) {
			cr, sp, err := s.Get(ctx, in.SpaceID, in.ChangeRequestID)
			if err != nil {
				return nil, err
			}
			v, err := s.view(ctx, cr, sp)
			if err != nil {
				return nil, err
			}
			return &crOut{Body: v}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "updateChangeRequestById", Method: http.MethodPatch, Path: base + "/{changeRequestId}", Tag: tag,
		Summary: "Update a change request's subject or status"},
		func(ctx context.Context, in *patchIn) (*crOut, error) {
			cr, sp, err := s.Update(ctx, in.SpaceID, in.ChangeRequestID, Change{Subject: in.Body.Subject, Status: in.Body.Status})
			if err != nil {
				return nil, err
			}
			v, err := s.view(ctx, cr, sp)
			if err != nil {
				return nil, err
			}
			return &crOut{Body: v}, nil
		})
	registerMerge(api, s)
	registerAuthoring(api, s)
	registerContent(api, s)
	registerLinks(api, s)
	registerPDF(api, s)
}
