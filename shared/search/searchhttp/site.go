package searchhttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/search"
)

// SiteSearchScope is which site spaces a site search covers (GitBook's
// SiteSearchScope).
type SiteSearchScope struct {
	Mode             string   `json:"mode" enum:"default,specific,all"`
	CurrentSiteSpace ids.ID   `json:"currentSiteSpace,omitempty"`
	RestrictTo       string   `json:"restrictTo,omitempty" enum:"currentSiteSpace,otherSiteSpaces"`
	SiteSpaceIDs     []ids.ID `json:"siteSpaceIds,omitempty" nullable:"false" maxItems:"200"`
}

// SiteSearchBody is the body of POST .../sites/{siteId}/search: a query
// and its scope (scope, or the older mode with siteSpaceIds/siteSpaceId).
type SiteSearchBody struct {
	Query        string           `json:"query" minLength:"1" maxLength:"512"`
	Scope        *SiteSearchScope `json:"scope,omitempty"`
	Mode         string           `json:"mode,omitempty" enum:"specific,current,all"`
	SiteSpaceIDs []ids.ID         `json:"siteSpaceIds,omitempty" nullable:"false" maxItems:"200"`
	SiteSpaceID  ids.ID           `json:"siteSpaceId,omitempty"`
}

// siteSpaces is the site spaces a body asks for; nil for all. Galley
// searches every site space for the "default" scope (GitBook: the current
// site space and the sections' defaults) unless it is restricted to the
// current one, and for "otherSiteSpaces".
func (b SiteSearchBody) siteSpaces() []string {
	if sc := b.Scope; sc != nil {
		switch {
		case sc.Mode == "specific":
			return nonEmpty(ids.Strings(sc.SiteSpaceIDs))
		case sc.Mode == "default" && sc.RestrictTo == "currentSiteSpace" && sc.CurrentSiteSpace != "":
			return []string{string(sc.CurrentSiteSpace)}
		}
		return nil
	}
	switch b.Mode {
	case "specific":
		return nonEmpty(ids.Strings(b.SiteSpaceIDs))
	case "current":
		if b.SiteSpaceID != "" {
			return []string{string(b.SiteSpaceID)}
		}
	}
	return nil
}

func nonEmpty(ids []string) []string {
	if len(ids) == 0 {
		return []string{""} // no site space: an id the site lacks, a 400 naming siteSpaceIds
	}
	return ids
}

func registerSite(api *httpapi.API, s *search.Service, tag string) {
	type siteIn struct {
		OrganizationID string `path:"organizationId" maxLength:"64"`
		SiteID         string `path:"siteId" maxLength:"64"`
		httpapi.ListParams
		Body SiteSearchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "searchSiteContent", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/sites/{siteId}/search", Tag: tag,
		Summary: "Search the content of a site's spaces"},
		func(ctx context.Context, in *siteIn) (*spacesOut, error) {
			found, err := s.Site(ctx, in.OrganizationID, in.SiteID, in.Body.siteSpaces(), in.Body.Query, in.Request())
			if err != nil {
				return nil, err
			}
			view := func(f search.SpaceHits) SpaceResult { return spaceResult(ctx, f.Space, f.Pages) }
			return &spacesOut{Body: httpapi.ListPage(found, view)}, nil
		})
	type prewarmIn struct {
		OrganizationID string `path:"organizationId" maxLength:"64"`
		SiteID         string `path:"siteId" maxLength:"64"`
	}
	httpapi.Register(api, httpapi.Op{ID: "prewarmSiteSearch", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/sites/{siteId}/search/prewarm", Tag: tag,
		Status: http.StatusNoContent, Summary: "Ready the search indexes of a site's content ahead of its first search"},
		func(ctx context.Context, in *prewarmIn) (*struct{}, error) {
			return nil, s.Prewarm(ctx, in.OrganizationID, in.SiteID)
		})
}
