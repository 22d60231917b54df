package siteshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/sites"
)

// ExternalLinkParams are the path parameters of an external link.
type ExternalLinkParams struct {
	SiteParams
	SiteExternalLinkID string `path:"siteExternalLinkId" maxLength:"64"`
}

// SiteExternalLinkCreateBody is the body of POST .../external-links.
type SiteExternalLinkCreateBody struct {
	Title                string            `json:"title" minLength:"2" maxLength:"128"`
	LocalizedTitle       map[string]string `json:"localizedTitle,omitempty" doc:"The title by language"`
	Description          *string           `json:"description,omitempty" maxLength:"256" nullable:"true"`
	LocalizedDescription map[string]string `json:"localizedDescription,omitempty" nullable:"true" doc:"The description by language"`
	Icon                 *string           `json:"icon,omitempty" maxLength:"50" nullable:"true"`
	URL                  string            `json:"url" minLength:"1" maxLength:"2048" doc:"An absolute http or https URL"`
	Parent               *ids.ID           `json:"parent,omitempty" doc:"The section group holding the link; absent: the top level"`
	Draft                *bool             `json:"draft,omitempty" doc:"A draft link is left out of what visitors see"`
	Condition            *string           `json:"condition,omitempty" maxLength:"1024" nullable:"true" doc:"Shown to the visitors for whom it holds"`
}

// SiteExternalLinkPatchBody is the body of PATCH .../external-links/{id}.
type SiteExternalLinkPatchBody struct {
	Title                *string           `json:"title,omitempty" minLength:"2" maxLength:"128"`
	LocalizedTitle       map[string]string `json:"localizedTitle,omitempty" nullable:"true" doc:"Replaces the translations; null removes them"`
	Description          *string           `json:"description,omitempty" maxLength:"256" nullable:"true" doc:"null removes it"`
	LocalizedDescription map[string]string `json:"localizedDescription,omitempty" nullable:"true" doc:"Replaces the translations; null removes them"`
	Icon                 *string           `json:"icon,omitempty" maxLength:"50" nullable:"true" doc:"null removes it"`
	URL                  *string           `json:"url,omitempty" minLength:"1" maxLength:"2048" doc:"An absolute http or https URL"`
	Parent               *ids.ID           `json:"parent,omitempty" nullable:"true" doc:"A section group moves the link to its end; null to the end of the top level"`
	Draft                *bool             `json:"draft,omitempty"`
	Condition            *string           `json:"condition,omitempty" maxLength:"1024" nullable:"true" doc:"null removes it"`
	Nulls                httpapi.Nulls     `json:"-"`
}

// SiteStructureItemPointer points at an item of a site's structure.
type SiteStructureItemPointer struct {
	Type string `json:"type" enum:"site-space,site-section,site-section-group,site-external-link"`
	ID   ids.ID `json:"id" minLength:"1"`
}

func (p SiteStructureItemPointer) ref() (string, ids.ID) { return p.Type, p.ID }

// SiteStructureItemMovePosition is where an item moves among its level's.
type SiteStructureItemMovePosition struct {
	Before *SiteStructureItemPointer `json:"before,omitempty"`
	After  *SiteStructureItemPointer `json:"after,omitempty"`
}

// SiteStructureSortBody is the body of PATCH .../structure/sort.
type SiteStructureSortBody struct {
	Item     SiteStructureItemPointer      `json:"item"`
	Position SiteStructureItemMovePosition `json:"position" doc:"Empty: to the end of the item's level"`
}

// optMap is a body's map as the service takes it: nil when absent.
func optMap(m map[string]string) *map[string]string {
	if m == nil {
		return nil
	}
	return &m
}

func (w *viewer) externalLinkByID(id string) (SiteExternalLink, error) {
	l, err := w.tree.ExternalLink(id)
	if err != nil {
		return SiteExternalLink{}, err
	}
	return viewExternalLink(l), nil
}

// structureItem renders the item a pointer names, in the structure's
// shape (the sort's answer).
func (w *viewer) structureItem(p sites.Pointer) (SiteStructureItem, error) {
	switch p.Type {
	case sites.PointerSiteSpace:
		v, err := w.siteSpaceByID(p.ID)
		return SiteStructureItem{Space: &v}, err
	case sites.PointerSection:
		sec, err := w.tree.Section(p.ID)
		if err != nil {
			return SiteStructureItem{}, err
		}
		v := w.section(sec)
		return SiteStructureItem{Section: &v}, nil
	case sites.PointerGroup:
		v, err := w.groupByID(p.ID)
		return SiteStructureItem{Group: &v}, err
	}
	v, err := w.externalLinkByID(p.ID)
	return SiteStructureItem{Link: &v}, err
}

func registerExternalLinks(api *httpapi.API, s *sites.Service) {
	const path = site1 + "/external-links"
	type createIn struct {
		SiteParams
		Body SiteExternalLinkCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "addExternalLinkToSite", Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: path, Tag: tag, Status: http.StatusCreated,
		Summary: "Add an external link to a site's navigation (at the top level or in a section group)"},
		func(ctx context.Context, in *createIn) (*httpapi.Created[SiteExternalLink], error) {
			b := in.Body
			out, err := added(ctx, s, (*viewer).externalLinkByID)(s.AddExternalLink(ctx, in.OrganizationID, in.SiteID, sites.ExternalLinkInput{
				Title: &b.Title, LocalizedTitle: optMap(b.LocalizedTitle), Description: b.Description, LocalizedDescription: optMap(b.LocalizedDescription),
				Icon: b.Icon, URL: &b.URL, Parent: (*string)(b.Parent), Draft: b.Draft, Condition: b.Condition}))
			if err != nil {
				return nil, err
			}
			return &httpapi.Created[SiteExternalLink]{Location: in.location(ctx, "/external-links/"+out.Body.ID), Body: out.Body}, nil
		})
	type patchIn struct {
		ExternalLinkParams
		httpapi.ReturnPreference
		Body SiteExternalLinkPatchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteExternalLinkById", Needs: access.Role(access.CreateContent), Method: http.MethodPatch, Path: path + "/{siteExternalLinkId}", Tag: tag,
		Summary: "Update an external link (parent moves it to the end of a group, or of the top level)", Also: httpapi.MinimalAnswer()},
		func(ctx context.Context, in *patchIn) (*httpapi.PreferredOut[SiteExternalLink], error) {
			b := in.Body
			return httpapi.Preferred[SiteExternalLink](in.ReturnPreference)(written(ctx, s, (*viewer).externalLinkByID, in.SiteExternalLinkID)(
				s.UpdateExternalLink(ctx, in.OrganizationID, in.SiteID, in.SiteExternalLinkID, sites.ExternalLinkInput{
					Title: b.Title, LocalizedTitle: optMap(b.LocalizedTitle), Description: b.Description, LocalizedDescription: optMap(b.LocalizedDescription),
					Icon: b.Icon, URL: b.URL, Parent: (*string)(b.Parent), Draft: b.Draft, Condition: b.Condition,
					ClearParent: b.Nulls.Has("parent"), ClearDescription: b.Nulls.Has("description"), ClearIcon: b.Nulls.Has("icon"),
					ClearCondition: b.Nulls.Has("condition"), ClearLocalizedTitle: b.Nulls.Has("localizedTitle"),
					ClearLocalizedDescription: b.Nulls.Has("localizedDescription")})))
		})
	httpapi.RegisterDelete(api, httpapi.Op{ID: "deleteSiteExternalLinkById", Needs: access.Role(access.CreateContent), Path: path + "/{siteExternalLinkId}", Tag: tag,
		Summary: "Delete an external link"}, "external link",
		func(ctx context.Context, in *ExternalLinkParams) (bool, error) {
			return s.DeleteExternalLink(ctx, in.OrganizationID, in.SiteID, in.SiteExternalLinkID)
		})
	type sortIn struct {
		SiteParams
		httpapi.ReturnPreference
		Body SiteStructureSortBody
	}
	httpapi.Register(api, httpapi.Op{ID: "sortSiteStructure", Needs: access.Role(access.CreateContent), Method: http.MethodPatch, Path: site1 + "/structure/sort", Tag: tag,
		Summary: "Move an item of a site's structure before or after a sibling of its level", Also: httpapi.MinimalAnswer()},
		func(ctx context.Context, in *sortIn) (*httpapi.PreferredOut[SiteStructureItem], error) {
			item := sites.Pointer{Type: in.Body.Item.Type, ID: string(in.Body.Item.ID)}
			pick := func(w *viewer, _ string) (SiteStructureItem, error) { return w.structureItem(item) }
			return httpapi.Preferred[SiteStructureItem](in.ReturnPreference)(written(ctx, s, pick, item.ID)(
				s.SortStructure(ctx, in.OrganizationID, in.SiteID, item, moveTo(in.Body.Position.Before, in.Body.Position.After))))
		})
}
