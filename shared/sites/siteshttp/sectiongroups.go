package siteshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/sites"
)

// GroupParams are the path parameters of a section group.
type GroupParams struct {
	SiteParams
	SiteSectionGroupID string `path:"siteSectionGroupId" maxLength:"64"`
}

// SiteSectionGroupCreateBody is the body of POST .../section-groups.
type SiteSectionGroupCreateBody struct {
	Title    string   `json:"title" minLength:"1" maxLength:"100"`
	Icon     *string  `json:"icon,omitempty" maxLength:"50" nullable:"true"`
	Sections []ids.ID `json:"sections,omitempty" nullable:"false" maxItems:"100" doc:"IDs of sections to put in the group, in order"`
}

// SiteSectionGroupPatchBody is the body of PATCH .../section-groups/{id}.
type SiteSectionGroupPatchBody struct {
	Title *string       `json:"title,omitempty" minLength:"1" maxLength:"100"`
	Icon  *string       `json:"icon,omitempty" maxLength:"50" nullable:"true" doc:"null removes it"`
	Nulls httpapi.Nulls `json:"-"`
}

// SiteSectionGroupAddBody is the body of POST .../section-groups/{id}/sections.
type SiteSectionGroupAddBody struct {
	SectionID ids.ID `json:"sectionId" minLength:"1"`
}

// SiteSectionGroupPointer points at a top-level item: a section or a group.
type SiteSectionGroupPointer struct {
	Type string `json:"type" enum:"site-section,site-section-group"`
	ID   ids.ID `json:"id" minLength:"1"`
}

// SiteSectionGroupMovePosition is where a group moves.
type SiteSectionGroupMovePosition struct {
	Before *SiteSectionGroupPointer `json:"before,omitempty"`
	After  *SiteSectionGroupPointer `json:"after,omitempty"`
}

// SiteSectionGroupMoveBody is the body of POST .../section-groups/{id}/move.
type SiteSectionGroupMoveBody struct {
	Position *SiteSectionGroupMovePosition `json:"position,omitempty" doc:"Absent: to the end of the site's top level"`
}

func (p SiteSectionGroupPointer) ref() (string, ids.ID) { return p.Type, p.ID }

func (b *SiteSectionGroupMoveBody) position() sites.Position {
	if b == nil || b.Position == nil {
		return sites.Position{}
	}
	return moveTo(b.Position.Before, b.Position.After)
}

func (w *viewer) groupByID(id string) (SiteSectionGroup, error) {
	g, err := w.tree.Group(id)
	if err != nil {
		return SiteSectionGroup{}, err
	}
	return w.group(g), nil
}

func registerGroups(api *httpapi.API, s *sites.Service) {
	const path = site1 + "/section-groups"
	type listOut struct {
		Body httpapi.List[SiteSectionGroup]
	}
	type listIn struct {
		SiteParams
		httpapi.ListParams
	}
	httpapi.Register(api, httpapi.Op{ID: "listSiteSectionGroups", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: path, Tag: tag, Summary: "List a site's section groups in order"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			p, v, err := s.Groups(ctx, in.OrganizationID, in.SiteID, in.Request())
			if err != nil {
				return nil, err
			}
			return &listOut{Body: httpapi.ListPage(p, newViewer(ctx, v).group)}, nil
		})
	type createIn struct {
		SiteParams
		Body SiteSectionGroupCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "addSectionGroupToSite", Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: path, Tag: tag, Status: http.StatusCreated, Summary: "Add a section group"},
		func(ctx context.Context, in *createIn) (*httpapi.Out[SiteSectionGroup], error) {
			return added(ctx, s, (*viewer).groupByID)(s.AddGroup(ctx, in.OrganizationID, in.SiteID, in.Body.Title, orEmpty(in.Body.Icon), ids.Strings(in.Body.Sections)))
		})
	type patchIn struct {
		GroupParams
		Body SiteSectionGroupPatchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteSectionGroupById", Needs: access.Role(access.CreateContent), Method: http.MethodPatch, Path: path + "/{siteSectionGroupId}", Tag: tag, Summary: "Update a section group"},
		func(ctx context.Context, in *patchIn) (*httpapi.Out[SiteSectionGroup], error) {
			return written(ctx, s, (*viewer).groupByID, in.SiteSectionGroupID)(s.UpdateGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID,
				sites.GroupChange{Title: in.Body.Title, Icon: in.Body.Icon, ClearIcon: in.Body.Nulls.Has("icon")}))
		})
	httpapi.RegisterDelete(api, httpapi.Op{ID: "deleteSiteSectionGroupById", Needs: access.Role(access.CreateContent), Path: path + "/{siteSectionGroupId}", Tag: tag,
		Summary: "Delete a section group (its sections stay, at its place)"}, "section group",
		func(ctx context.Context, in *GroupParams) (bool, error) {
			return s.DeleteGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID)
		})
	type addIn struct {
		GroupParams
		Body SiteSectionGroupAddBody
	}
	httpapi.Register(api, httpapi.Op{ID: "addSectionToGroup", Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: path + "/{siteSectionGroupId}/sections", Tag: tag,
		Status: http.StatusCreated, Summary: "Put a section at the end of a group"},
		func(ctx context.Context, in *addIn) (*httpapi.Out[SiteSectionGroup], error) {
			return written(ctx, s, (*viewer).groupByID, in.SiteSectionGroupID)(s.AddToGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID, string(in.Body.SectionID)))
		})
	type removeIn struct {
		GroupParams
		SiteSectionID string `path:"siteSectionId" maxLength:"64"`
	}
	httpapi.Register(api, httpapi.Op{ID: "removeSectionFromGroup", Needs: access.Role(access.CreateContent), Method: http.MethodDelete, Path: path + "/{siteSectionGroupId}/sections/{siteSectionId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Take a section out of a group (it follows the group)"},
		func(ctx context.Context, in *removeIn) (*struct{}, error) {
			return nil, s.RemoveFromGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID, in.SiteSectionID)
		})
	type moveIn struct {
		GroupParams
		Body *SiteSectionGroupMoveBody
	}
	httpapi.Register(api, httpapi.Op{ID: "moveSiteSectionGroup", Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: path + "/{siteSectionGroupId}/move", Tag: tag,
		Summary: "Move a section group before or after a top-level section or group"},
		func(ctx context.Context, in *moveIn) (*httpapi.Out[SiteSectionGroup], error) {
			return written(ctx, s, (*viewer).groupByID, in.SiteSectionGroupID)(s.MoveGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID, in.Body.position()))
		})
}
