package siteshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/sites"
)

// SitePreview is the answer of a site's preview: a URL valid one hour.
type SitePreview struct {
	URL string `json:"url" format:"uri" maxLength:"2048" doc:"The site as published, for whoever holds this URL, for one hour"`
}

func registerPreview(api *httpapi.API, s *sites.Service) {
	type previewIn struct {
		SiteParams
		SiteSpace string               `query:"siteSpace" maxLength:"64" doc:"The site space to open; absent: the site's default"`
		Claims    string               `query:"claims" maxLength:"4096" doc:"The visitor's claims in rison, such as (plan:pro,beta:!t)"`
		Draft     httpapi.OptionalBool `query:"draft" doc:"Whether draft items (external links) are shown; absent: true"`
		Target    string               `query:"target" maxLength:"2048" doc:"A URL under the site's published root to open instead"`
	}
	httpapi.Register(api, httpapi.Op{ID: "getSitePublishingPreviewById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: site1 + "/publishing/preview", Tag: tag,
		Summary: "A URL showing the site as published (unpublished included) for one hour"},
		func(ctx context.Context, in *previewIn) (*httpapi.Out[SitePreview], error) {
			u, err := s.Preview(ctx, in.OrganizationID, in.SiteID, sites.PreviewRequest{SiteSpace: in.SiteSpace, Claims: in.Claims, Target: in.Target,
				Draft: !in.Draft.Set || in.Draft.Value, AppURL: httpapi.AppURL(ctx)})
			return httpapi.Answer(func(u string) SitePreview { return SitePreview{URL: u} })(u, err)
		})
}
