package siteshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/sites"
)

// SiteSpaceParams are the path parameters of a site space.
type SiteSpaceParams struct {
	SiteParams
	SiteSpaceID string `path:"siteSpaceId" maxLength:"64"`
}

// SiteSpaceCreateBody is the body of POST .../site-spaces.
type SiteSpaceCreateBody struct {
	SpaceID   ids.ID `json:"spaceId" minLength:"1"`
	SectionID ids.ID `json:"sectionId,omitempty" doc:"Absent: the default section, or the root of a site without sections"`
}

// SiteSpacePatchBody is the body of PATCH .../site-spaces/{siteSpaceId}.
type SiteSpacePatchBody struct {
	Path      *ids.ID       `json:"path,omitempty" minLength:"1" maxLength:"100"`
	Condition *string       `json:"condition,omitempty" minLength:"1" maxLength:"1024" nullable:"true" doc:"null removes it"`
	Hidden    *bool         `json:"hidden,omitempty" doc:"true leaves the site space out of the site's navigation; false shows it again"`
	Nulls     httpapi.Nulls `json:"-"`
}

// SiteSpacePointer points at a site space.
type SiteSpacePointer struct {
	Type      string `json:"type" enum:"site-space"`
	SiteSpace ids.ID `json:"siteSpace" minLength:"1"`
}

// SiteSpaceMovePosition is where a site space moves.
type SiteSpaceMovePosition struct {
	Before *SiteSpacePointer `json:"before,omitempty"`
	After  *SiteSpacePointer `json:"after,omitempty"`
}

// SiteSpaceMoveBody is the body of POST .../site-spaces/{siteSpaceId}/move.
type SiteSpaceMoveBody struct {
	Position *SiteSpaceMovePosition `json:"position,omitempty" doc:"Absent: to the end of its level"`
}

func (p SiteSpacePointer) ref() (string, ids.ID) { return p.Type, p.SiteSpace }

func (b *SiteSpaceMoveBody) position() sites.Position {
	if b == nil || b.Position == nil {
		return sites.Position{}
	}
	return moveTo(b.Position.Before, b.Position.After)
}

func (w *viewer) siteSpaceByID(id string) (SiteSpace, error) {
	ss, err := w.tree.SiteSpace(id)
	if err != nil {
		return SiteSpace{}, err
	}
	v, ok := w.siteSpace(ss)
	if !ok {
		return SiteSpace{}, apperr.NotFoundf("space %s of site space %s not found", ss.SpaceID, id)
	}
	return v, nil
}

func registerSiteSpaces(api *httpapi.API, s *sites.Service) {
	const path = site1 + "/site-spaces"
	type listIn struct {
		SiteParams
		httpapi.ListParams
		ShareKey string               `query:"shareKey" maxLength:"128" doc:"Key of an active share link: published URLs of a share-link site carry it"`
		Default  httpapi.OptionalBool `query:"default" doc:"true: only default site spaces; false: only the others; absent: all"`
	}
	type listOut struct{ Body httpapi.List[SiteSpace] }
	httpapi.Register(api, httpapi.Op{ID: "listSiteSpaces", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: path, Tag: tag, Summary: "List a site's site spaces in order"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			p, v, err := s.SiteSpaces(ctx, in.OrganizationID, in.SiteID, in.ShareKey, in.Default.Ptr(), in.Request())
			if err != nil {
				return nil, err
			}
			w := newViewer(ctx, v)
			var next *httpapi.NextPage
			if p.Next != "" {
				next = &httpapi.NextPage{Page: p.Next}
			}
			// A site space whose space is not shown is left out of its page.
			out := &listOut{Body: httpapi.List[SiteSpace]{Items: make([]SiteSpace, 0, len(p.Items)), Next: next}}
			for _, ss := range p.Items {
				if v, ok := w.siteSpace(ss); ok {
					out.Body.Items = append(out.Body.Items, v)
				}
			}
			out.Body.Count = len(out.Body.Items)
			return out, nil
		})
	type createIn struct {
		SiteParams
		Body SiteSpaceCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "addSpaceToSite", Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: path, Tag: tag, Status: http.StatusCreated, Summary: "Add a space to a site"},
		func(ctx context.Context, in *createIn) (*httpapi.Out[SiteSpace], error) {
			return added(ctx, s, (*viewer).siteSpaceByID)(s.AddSiteSpace(ctx, in.OrganizationID, in.SiteID, string(in.Body.SpaceID), string(in.Body.SectionID)))
		})
	type patchIn struct {
		SiteSpaceParams
		Body SiteSpacePatchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteSpaceById", Needs: access.Role(access.CreateContent), Method: http.MethodPatch, Path: path + "/{siteSpaceId}", Tag: tag, Summary: "Update a site space"},
		func(ctx context.Context, in *patchIn) (*httpapi.Out[SiteSpace], error) {
			return written(ctx, s, (*viewer).siteSpaceByID, in.SiteSpaceID)(s.UpdateSiteSpace(ctx, in.OrganizationID, in.SiteID, in.SiteSpaceID,
				sites.SiteSpaceChange{Path: (*string)(in.Body.Path), Condition: in.Body.Condition, ClearCondition: in.Body.Nulls.Has("condition"),
					Hidden: in.Body.Hidden}))
		})
	httpapi.RegisterDelete(api, httpapi.Op{ID: "deleteSiteSpaceById", Needs: access.Role(access.CreateContent), Path: path + "/{siteSpaceId}", Tag: tag, Summary: "Remove a space from a site"}, "site space",
		func(ctx context.Context, in *SiteSpaceParams) (bool, error) {
			return s.DeleteSiteSpace(ctx, in.OrganizationID, in.SiteID, in.SiteSpaceID)
		})
	type moveIn struct {
		SiteSpaceParams
		Body *SiteSpaceMoveBody
	}
	httpapi.Register(api, httpapi.Op{ID: "moveSiteSpace", Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: path + "/{siteSpaceId}/move", Tag: tag,
		Summary: "Move a site space before or after another"},
		func(ctx context.Context, in *moveIn) (*httpapi.Out[SiteSpace], error) {
			return written(ctx, s, (*viewer).siteSpaceByID, in.SiteSpaceID)(s.MoveSiteSpace(ctx, in.OrganizationID, in.SiteID, in.SiteSpaceID, in.Body.position()))
		})
}

// SiteSpaceDuplicateBody is the body of POST .../site-spaces/{id}/duplicate.
type SiteSpaceDuplicateBody struct {
	Draft bool `json:"draft,omitempty" doc:"Galley has no draft site spaces or sections: true is refused"`
}

// RegisterDuplicate adds duplicateSiteSpace, which copies a site space's
// space through dup (the content family's duplicate): the function that
// serves it links content (docs/functions.md), the sites function does
// not.
func RegisterDuplicate(api *httpapi.API, s *sites.Service, dup sites.Duplicator) {
	type dupIn struct {
		SiteSpaceParams
		Body *SiteSpaceDuplicateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "duplicateSiteSpace", Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: site1 + "/site-spaces/{siteSpaceId}/duplicate", Tag: tag,
		Status: http.StatusCreated, Summary: "Copy a site space's space into the site: in a new section after its own when it is its section's only one, else after it"},
		func(ctx context.Context, in *dupIn) (*httpapi.Created[SiteSpace], error) {
			draft := in.Body != nil && in.Body.Draft
			out, err := added(ctx, s, (*viewer).siteSpaceByID)(s.DuplicateSiteSpace(ctx, in.OrganizationID, in.SiteID, in.SiteSpaceID, draft, dup))
			if err != nil {
				return nil, err
			}
			return &httpapi.Created[SiteSpace]{Location: in.location(ctx, "/site-spaces/"+out.Body.ID), Body: out.Body}, nil
		})
}
