package siteshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/sites"
)

// SectionParams are the path parameters of a section.
type SectionParams struct {
	SiteParams
	SiteSectionID string `path:"siteSectionId" maxLength:"64"`
}

// SiteSectionCreateBody is the body of POST .../sections.
type SiteSectionCreateBody struct {
	SpaceID ids.ID  `json:"spaceId" minLength:"1" doc:"Space shown by the new section"`
	Title   *string `json:"title,omitempty" minLength:"2" maxLength:"64" nullable:"true" doc:"Default: the space's title"`
	Icon    *string `json:"icon,omitempty" maxLength:"50" nullable:"true"`
}

// SiteSectionPatchBody is the body of PATCH .../sections/{siteSectionId}.
type SiteSectionPatchBody struct {
	Title            *string       `json:"title,omitempty" minLength:"2" maxLength:"128"`
	Path             *ids.ID       `json:"path,omitempty" minLength:"1" maxLength:"100"`
	DefaultSiteSpace *ids.ID       `json:"defaultSiteSpace,omitempty"`
	Condition        *string       `json:"condition,omitempty" minLength:"1" maxLength:"1024" nullable:"true" doc:"null removes it"`
	Icon             *string       `json:"icon,omitempty" maxLength:"50" nullable:"true" doc:"null removes it"`
	Description      *string       `json:"description,omitempty" maxLength:"256" nullable:"true" doc:"null removes it"`
	Nulls            httpapi.Nulls `json:"-"`
}

// SiteSectionPointer points at a section.
type SiteSectionPointer struct {
	Type        string `json:"type" enum:"site-section"`
	SiteSection ids.ID `json:"siteSection" minLength:"1"`
}

// SiteSectionMovePosition is where a section moves.
type SiteSectionMovePosition struct {
	Before *SiteSectionPointer `json:"before,omitempty"`
	After  *SiteSectionPointer `json:"after,omitempty"`
}

// SiteSectionMoveBody is the body of POST .../sections/{siteSectionId}/move.
type SiteSectionMoveBody struct {
	Position *SiteSectionMovePosition `json:"position,omitempty" doc:"Absent: to the end of the site's top level"`
}

func (p SiteSectionPointer) ref() (string, ids.ID) { return p.Type, p.SiteSection }

func (b *SiteSectionMoveBody) position() sites.Position {
	if b == nil || b.Position == nil {
		return sites.Position{}
	}
	return moveTo(b.Position.Before, b.Position.After)
}

func (w *viewer) sectionByID(id string) (SiteSection, error) {
	sec, err := w.tree.Section(id)
	if err != nil {
		return SiteSection{}, err
	}
	return w.section(sec), nil
}

func registerSections(api *httpapi.API, s *sites.Service) {
	const path = site1 + "/sections"
	type listIn struct {
		SiteParams
		httpapi.ListParams
		ShareKey string `query:"shareKey" maxLength:"128" doc:"Key of an active share link: published URLs of a share-link site carry it"`
	}
	type listOut struct{ Body httpapi.List[SiteSection] }
	httpapi.Register(api, httpapi.Op{ID: "listSiteSections", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: path, Tag: tag, Summary: "List a site's sections in order"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			p, v, err := s.Sections(ctx, in.OrganizationID, in.SiteID, in.ShareKey, in.Request())
			if err != nil {
				return nil, err
			}
			return &listOut{Body: httpapi.ListPage(p, newViewer(ctx, v).section)}, nil
		})
	type createIn struct {
		SiteParams
		Body SiteSectionCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "addSectionToSite", Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: path, Tag: tag, Status: http.StatusCreated,
		Summary: "Add a section showing a space (the first section takes the site spaces of the root)"},
		func(ctx context.Context, in *createIn) (*httpapi.Out[SiteSection], error) {
			return added(ctx, s, (*viewer).sectionByID)(s.AddSection(ctx, in.OrganizationID, in.SiteID, string(in.Body.SpaceID),
				orEmpty(in.Body.Title), orEmpty(in.Body.Icon)))
		})
	type patchIn struct {
		SectionParams
		Body SiteSectionPatchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteSectionById", Needs: access.Role(access.CreateContent), Method: http.MethodPatch, Path: path + "/{siteSectionId}", Tag: tag, Summary: "Update a section"},
		func(ctx context.Context, in *patchIn) (*httpapi.Out[SiteSection], error) {
			b := in.Body
			return written(ctx, s, (*viewer).sectionByID, in.SiteSectionID)(s.UpdateSection(ctx, in.OrganizationID, in.SiteID, in.SiteSectionID, sites.SectionChange{
				Title: b.Title, Path: (*string)(b.Path), DefaultSiteSpace: (*string)(b.DefaultSiteSpace), Condition: b.Condition, Icon: b.Icon,
				Description: b.Description, ClearCondition: b.Nulls.Has("condition"), ClearIcon: b.Nulls.Has("icon"),
				ClearDescription: b.Nulls.Has("description")}))
		})
	httpapi.RegisterDelete(api, httpapi.Op{ID: "deleteSiteSectionById", Needs: access.Role(access.CreateContent), Path: path + "/{siteSectionId}", Tag: tag,
		Summary: "Delete a section with its site spaces"}, "section",
		func(ctx context.Context, in *SectionParams) (bool, error) {
			return s.DeleteSection(ctx, in.OrganizationID, in.SiteID, in.SiteSectionID)
		})
	type moveIn struct {
		SectionParams
		Body *SiteSectionMoveBody
	}
	httpapi.Register(api, httpapi.Op{ID: "moveSiteSection", Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: path + "/{siteSectionId}/move", Tag: tag,
		Summary: "Move a section before or after another"},
		func(ctx context.Context, in *moveIn) (*httpapi.Out[SiteSection], error) {
			return written(ctx, s, (*viewer).sectionByID, in.SiteSectionID)(s.MoveSection(ctx, in.OrganizationID, in.SiteID, in.SiteSectionID, in.Body.position()))
		})
}
