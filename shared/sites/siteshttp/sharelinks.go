package siteshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
)

// ShareLinkParams are the path parameters of a share link.
type ShareLinkParams struct {
	SiteParams
	ShareLinkID string `path:"shareLinkId" maxLength:"64"`
}

// ShareLinkCreateBody is the body of POST .../share-links.
type ShareLinkCreateBody struct {
	Name string `json:"name" maxLength:"50"`
}

// ShareLinkPatchBody is the body of PATCH .../share-links/{shareLinkId}.
type ShareLinkPatchBody struct {
	Active *bool   `json:"active,omitempty"`
	Name   *string `json:"name,omitempty" maxLength:"50"`
}

type shareLinkOut struct{ Body ShareLink }

func shareLinkAnswer(ctx context.Context, s *sites.Service, site model.Site, id string) (*shareLinkOut, error) {
	l, err := sites.FindShareLink(&site, id)
	if err != nil {
		return nil, err
	}
	var base string
	if sites.ByBasename(site) {
		if base, err = s.SitesBase(ctx, site.OrgID); err != nil {
			return nil, err
		}
	}
	return &shareLinkOut{Body: viewShareLink(ctx, site, *l, base)}, nil
}

func registerShareLinks(api *httpapi.API, s *sites.Service) {
	const path = site1 + "/share-links"
	type listIn struct {
		SiteParams
		httpapi.ListParams
	}
	type listOut struct{ Body httpapi.List[ShareLink] }
	httpapi.Register(api, httpapi.Op{ID: "listSiteShareLinks", Needs: access.Role(access.AdminContent), Method: http.MethodGet, Path: path, Tag: tag, Summary: "List a site's share links (administrators)"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			p, l, err := s.ShareLinks(ctx, in.OrganizationID, in.SiteID, in.Request())
			if err != nil {
				return nil, err
			}
			base, err := s.SitesBase(ctx, l.Site.OrgID)
			if err != nil {
				return nil, err
			}
			return &listOut{Body: httpapi.ListPage(p, func(x model.ShareLink) ShareLink { return viewShareLink(ctx, l.Site, x, base) })}, nil
		})
	type createIn struct {
		SiteParams
		Body ShareLinkCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "createSiteShareLink", Needs: access.Role(access.AdminContent), Method: http.MethodPost, Path: path, Tag: tag, Status: http.StatusCreated, Summary: "Create a share link"},
		func(ctx context.Context, in *createIn) (*shareLinkOut, error) {
			site, id, _, err := s.CreateShareLink(ctx, in.OrganizationID, in.SiteID, in.Body.Name)
			if err != nil {
				return nil, err
			}
			return shareLinkAnswer(ctx, s, site, id)
		})
	type patchIn struct {
		ShareLinkParams
		Body ShareLinkPatchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteShareLinkById", Needs: access.Role(access.AdminContent), Method: http.MethodPatch, Path: path + "/{shareLinkId}", Tag: tag,
		Summary: "Rename, activate or deactivate a share link"},
		func(ctx context.Context, in *patchIn) (*shareLinkOut, error) {
			b := in.Body
			if b.Active == nil && b.Name == nil {
				return nil, apperr.Field("body", "give active or name")
			}
			site, _, err := s.UpdateShareLink(ctx, in.OrganizationID, in.SiteID, in.ShareLinkID, sites.ShareLinkChange{Name: b.Name, Active: b.Active})
			if err != nil {
				return nil, err
			}
			return shareLinkAnswer(ctx, s, site, in.ShareLinkID)
		})
	httpapi.RegisterDelete(api, httpapi.Op{ID: "deleteSiteShareLinkById", Needs: access.Role(access.AdminContent), Path: path + "/{shareLinkId}", Tag: tag,
		Summary: "Delete a share link (its key stops working)"}, "share link",
		func(ctx context.Context, in *ShareLinkParams) (bool, error) {
			return s.DeleteShareLink(ctx, in.OrganizationID, in.SiteID, in.ShareLinkID)
		})
}
