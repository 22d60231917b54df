package siteshttp

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/sites"
)

// The source pattern is GitBook's SiteRedirectSourcePath without its
// lookaheads (Go's regexp has none; the segments' characters already
// exclude the "*" they forbid anywhere but last).

// SiteRedirectDestination is where a redirect leads.
type SiteRedirectDestination struct {
	Kind          string `json:"kind" enum:"site-section,site-space,site-page,external"`
	SiteSectionID string `json:"siteSectionId,omitempty"`
	SiteSpaceID   string `json:"siteSpaceId,omitempty"`
	PageID        string `json:"pageId,omitempty"`
	URL           string `json:"url,omitempty" format:"uri" maxLength:"2048"`
}

// Schema documents the four forms, as GitBook's reference does.
func (SiteRedirectDestination) Schema(huma.Registry) *huma.Schema {
	str := func() *huma.Schema { return &huma.Schema{Type: huma.TypeString} }
	form := func(kind string, fields ...string) *huma.Schema {
		s := &huma.Schema{Type: huma.TypeObject, Required: append([]string{"kind"}, fields...),
			Properties: map[string]*huma.Schema{"kind": {Type: huma.TypeString, Enum: enum(kind)}}}
		for _, f := range fields {
			s.Properties[f] = str()
		}
		return s
	}
	return &huma.Schema{OneOf: []*huma.Schema{form("site-section", "siteSectionId"), form("site-space", "siteSpaceId"),
		form("site-page", "siteSpaceId", "pageId"), form("external", "url")}}
}

// SiteRedirectDestinationInput is a destination as a request gives it.
type SiteRedirectDestinationInput struct {
	Kind          string `json:"kind" enum:"site-section,site-space,site-page,external,path"`
	SiteSectionID ids.ID `json:"siteSectionId,omitempty"`
	SiteSpaceID   ids.ID `json:"siteSpaceId,omitempty"`
	PageID        ids.ID `json:"pageId,omitempty"`
	URL           string `json:"url,omitempty" maxLength:"2048"`
	SpaceID       ids.ID `json:"spaceId,omitempty"`
	Path          string `json:"path,omitempty" maxLength:"512"`
}

// Schema is written inline, so that the bulk change may declare its
// destination nullable (null deletes the redirect).
func (SiteRedirectDestinationInput) Schema(r huma.Registry) *huma.Schema {
	type plain SiteRedirectDestinationInput
	return httpapi.InlineSchema[plain](r)
}

func (d *SiteRedirectDestinationInput) dest() (*sites.RedirectDestination, error) {
	if d == nil {
		return nil, nil
	}
	if d.Kind == "path" {
		return nil, apperr.Field("destination.kind", "Galley does not resolve \"path\" destinations; give the page's id (kind site-page)")
	}
	return &sites.RedirectDestination{Kind: d.Kind, SiteSectionID: string(d.SiteSectionID), SiteSpaceID: string(d.SiteSpaceID), PageID: string(d.PageID), URL: d.URL}, nil
}

// SiteRedirect is the API shape of a redirect.
type SiteRedirect struct {
	Object          string                  `json:"object" enum:"site-redirect"`
	ID              string                  `json:"id"`
	Source          string                  `json:"source" maxLength:"512"`
	Draft           bool                    `json:"draft"`
	CaptureWildcard bool                    `json:"captureWildcard"`
	Permanent       bool                    `json:"permanent"`
	Destination     SiteRedirectDestination `json:"destination"`
	CreatedAt       time.Time               `json:"createdAt"`
	UpdatedAt       time.Time               `json:"updatedAt"`
}

func viewRedirect(r sites.Redirect) SiteRedirect {
	d := r.Destination
	return SiteRedirect{Object: "site-redirect", ID: r.ID, Source: r.Source, Draft: r.Draft, CaptureWildcard: r.CaptureWildcard,
		Permanent: r.Permanent, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		Destination: SiteRedirectDestination{Kind: d.Kind, SiteSectionID: d.SiteSectionID, SiteSpaceID: d.SiteSpaceID, PageID: d.PageID, URL: d.URL}}
}

// SiteRedirectCreateBody is the body of POST .../redirects.
type SiteRedirectCreateBody struct {
	Source          string                       `json:"source" maxLength:"512" pattern:"^/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+)*(?:/\\*|\\*)?$"`
	CaptureWildcard bool                         `json:"captureWildcard,omitempty"`
	Draft           bool                         `json:"draft,omitempty"`
	Permanent       bool                         `json:"permanent,omitempty"`
	Destination     SiteRedirectDestinationInput `json:"destination"`
}

// SiteRedirectUpdateBody is the body of PATCH .../redirects/{siteRedirectId}.
type SiteRedirectUpdateBody struct {
	Source          *string                       `json:"source,omitempty" maxLength:"512" pattern:"^/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+)*(?:/\\*|\\*)?$"`
	CaptureWildcard *bool                         `json:"captureWildcard,omitempty"`
	Draft           *bool                         `json:"draft,omitempty"`
	Permanent       *bool                         `json:"permanent,omitempty"`
	Destination     *SiteRedirectDestinationInput `json:"destination,omitempty"`
}

// SiteRedirectFound is the answer of getSiteRedirectBySource.
type SiteRedirectFound struct {
	Redirect SiteRedirect `json:"redirect"`
	Target   string       `json:"target" doc:"URL of the redirect's destination"`
}

// redirectTarget is the URL a redirect leads to.
func redirectTarget(ctx context.Context, f sites.FoundRedirect) string {
	u, external := f.Target(publishedBase(ctx, f.View.Site, f.View.OrgBase))
	if external {
		return u
	}
	return withKey(u, f.View.ShareKey)
}

func registerRedirects(api *httpapi.API, s *sites.Service) {
	type listIn struct {
		SiteParams
		httpapi.ListParams
		Search  string `query:"search" maxLength:"512" doc:"Only redirects whose source contains this"`
		Draft   bool   `query:"draft" doc:"Draft redirects instead of live ones"`
		OrderBy string `query:"orderBy" enum:"createdAt,updatedAt,source" doc:"Accepted; Galley lists by source (exact sources, then wildcards)"`
	}
	type listOut struct{ Body httpapi.List[SiteRedirect] }
	httpapi.Register(api, httpapi.Op{ID: "listSiteRedirects", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: site1 + "/redirects", Tag: tag, Summary: "List a site's redirects"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			p, err := s.Redirects(ctx, in.OrganizationID, in.SiteID, sites.RedirectFilter{Draft: in.Draft, Search: in.Search}, in.Request())
			if err != nil {
				return nil, err
			}
			return &listOut{Body: httpapi.ListPage(p, viewRedirect)}, nil
		})
	type createIn struct {
		SiteParams
		Body SiteRedirectCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "createSiteRedirect", Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: site1 + "/redirects", Tag: tag, Status: http.StatusCreated,
		Summary: "Create a redirect"},
		func(ctx context.Context, in *createIn) (*httpapi.Out[SiteRedirect], error) {
			b := in.Body
			d, err := b.Destination.dest()
			if err != nil {
				return nil, err
			}
			return httpapi.Answer(viewRedirect)(s.CreateRedirect(ctx, in.OrganizationID, in.SiteID, sites.RedirectInput{Source: &b.Source, Draft: &b.Draft,
				CaptureWildcard: &b.CaptureWildcard, Permanent: &b.Permanent, Destination: d}))
		})
	type oneIn struct {
		SiteParams
		SiteRedirectID string `path:"siteRedirectId" maxLength:"64"`
	}
	type updateIn struct {
		SiteParams
		SiteRedirectID string `path:"siteRedirectId" maxLength:"64"`
		Body           SiteRedirectUpdateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteRedirectById", Needs: access.Role(access.CreateContent), Method: http.MethodPatch, Path: site1 + "/redirects/{siteRedirectId}", Tag: tag,
		Summary: "Update a redirect"},
		func(ctx context.Context, in *updateIn) (*httpapi.Out[SiteRedirect], error) {
			b := in.Body
			d, err := b.Destination.dest()
			if err != nil {
				return nil, err
			}
			return httpapi.Answer(viewRedirect)(s.UpdateRedirect(ctx, in.OrganizationID, in.SiteID, in.SiteRedirectID, sites.RedirectInput{Source: b.Source, Draft: b.Draft,
				CaptureWildcard: b.CaptureWildcard, Permanent: b.Permanent, Destination: d}))
		})
	httpapi.RegisterDelete(api, httpapi.Op{ID: "deleteSiteRedirectById", Needs: access.Role(access.CreateContent), Path: site1 + "/redirects/{siteRedirectId}", Tag: tag,
		Summary: "Delete a redirect (205; 204 when there was none)"}, "redirect",
		func(ctx context.Context, in *oneIn) (bool, error) {
			return s.DeleteRedirect(ctx, in.OrganizationID, in.SiteID, in.SiteRedirectID)
		})
	type bySourceIn struct {
		SiteParams
		ShareKey string `query:"shareKey" maxLength:"128" doc:"Key of an active share link: the target carries it"`
		Source   string `query:"source" required:"true" maxLength:"512" pattern:"^/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+)*(?:/\\*|\\*)?$"`
	}
	type foundOut struct{ Body SiteRedirectFound }
	httpapi.Register(api, httpapi.Op{ID: "getSiteRedirectBySource", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: site1 + "/redirect", Tag: tag,
		Summary: "Find the live redirect of a path (exact, else the longest wildcard); 404 when none"},
		func(ctx context.Context, in *bySourceIn) (*foundOut, error) {
			f, err := s.RedirectBySource(ctx, in.OrganizationID, in.SiteID, in.Source, in.ShareKey)
			if err != nil {
				return nil, err
			}
			return &foundOut{Body: SiteRedirectFound{Redirect: viewRedirect(f.Redirect), Target: redirectTarget(ctx, f)}}, nil
		})
}

// SiteRedirectBulkItem is one change of PUT .../redirects: intent publish
// (the draft goes live), or intent live/draft (default live) with a
// destination to create or update the redirect, null to delete it.
type SiteRedirectBulkItem struct {
	Source          string                        `json:"source" maxLength:"512" pattern:"^/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+)*(?:/\\*|\\*)?$"`
	Intent          string                        `json:"intent,omitempty" enum:"live,draft,publish"`
	CaptureWildcard *bool                         `json:"captureWildcard,omitempty"`
	Permanent       *bool                         `json:"permanent,omitempty"`
	Destination     *SiteRedirectDestinationInput `json:"destination,omitempty" nullable:"true" doc:"null deletes the redirect"`
	Nulls           httpapi.Nulls                 `json:"-"`
}

// SiteRedirectBulkBody is the body of PUT .../redirects.
type SiteRedirectBulkBody struct {
	Redirects []SiteRedirectBulkItem `json:"redirects" nullable:"false" minItems:"1" maxItems:"500"`
}

// SiteRedirectBulkResult is what one change did.
type SiteRedirectBulkResult struct {
	Status string `json:"status" enum:"created,updated,deleted,published,error"`
	Source string `json:"source"`
	Draft  bool   `json:"draft"`
	ID     string `json:"id,omitempty"`
	Error  string `json:"error,omitempty"`
}

// SiteRedirectBulkResults is the answer of PUT .../redirects.
type SiteRedirectBulkResults struct {
	Results []SiteRedirectBulkResult `json:"results" nullable:"false"`
}

func registerBulkRedirects(api *httpapi.API, s *sites.Service) {
	type bulkIn struct {
		SiteParams
		Body SiteRedirectBulkBody
	}
	type bulkOut struct{ Body SiteRedirectBulkResults }
	httpapi.Register(api, httpapi.Op{ID: "bulkUpsertSiteRedirects", Needs: access.Role(access.CreateContent), Method: http.MethodPut, Path: site1 + "/redirects", Tag: tag,
		Summary: "Create, update, delete or publish up to 500 redirects; each change reports its own outcome"},
		func(ctx context.Context, in *bulkIn) (*bulkOut, error) {
			changes := make([]sites.BulkRedirect, 0, len(in.Body.Redirects))
			for i, b := range in.Body.Redirects {
				ch := sites.BulkRedirect{Source: b.Source, Draft: b.Intent == "draft", Publish: b.Intent == "publish", Delete: b.Nulls.Has("destination"),
					CaptureWildcard: b.CaptureWildcard, Permanent: b.Permanent}
				if !ch.Publish && !ch.Delete {
					if b.Destination == nil {
						return nil, apperr.Field(fmt.Sprintf("redirects[%d].destination", i), "required (null deletes the redirect)")
					}
					d, err := b.Destination.dest()
					if err != nil {
						return nil, apperr.Field(fmt.Sprintf("redirects[%d].destination.kind", i), "%s", err.Error())
					}
					ch.Destination = d
				}
				changes = append(changes, ch)
			}
			res, err := s.BulkRedirects(ctx, in.OrganizationID, in.SiteID, changes)
			if err != nil {
				return nil, err
			}
			out := &bulkOut{Body: SiteRedirectBulkResults{Results: make([]SiteRedirectBulkResult, 0, len(res))}}
			for _, r := range res {
				out.Body.Results = append(out.Body.Results, SiteRedirectBulkResult{Status: r.Status, Source: r.Source, Draft: r.Draft, ID: r.ID, Error: r.Error})
			}
			return out, nil
		})
}
