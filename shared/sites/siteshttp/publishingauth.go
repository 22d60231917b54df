package siteshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/sites"
)

// SitePublishingAuth is a site's publishing auth (GitBook's
// SitePublishingAuth, custom backend): the private key that signs its
// visitor tokens.
type SitePublishingAuth struct {
	Object      string `json:"object" enum:"publishing-auth"`
	Backend     string `json:"backend" enum:"custom"`
	PrivateKey  string `json:"privateKey" doc:"Private key used to sign visitor tokens (JWT, HS256)"`
	FallbackURL string `json:"fallbackURL,omitempty" format:"uri" doc:"Where visitors without a valid token are sent"`
}

// SitePublishingAuthUpdate is the body of PATCH .../publishing/auth.
type SitePublishingAuthUpdate struct {
	Backend     string        `json:"backend" enum:"custom" doc:"Galley has the custom backend only"`
	FallbackURL *string       `json:"fallbackURL,omitempty" format:"uri" maxLength:"2048" nullable:"true" doc:"null removes it"`
	LogoutURL   *string       `json:"logoutURL,omitempty" format:"uri" maxLength:"2048" nullable:"true" doc:"Accepted and ignored: Galley keeps no logout URL"`
	Nulls       httpapi.Nulls `json:"-"`
}

func viewPublishingAuth(a sites.PublishingAuth) SitePublishingAuth {
	return SitePublishingAuth{Object: "publishing-auth", Backend: "custom", PrivateKey: a.PrivateKey, FallbackURL: a.FallbackURL}
}

func registerPublishingAuth(api *httpapi.API, s *sites.Service) {
	const path = site1 + "/publishing/auth"
	httpapi.Register(api, httpapi.Op{ID: "getSitePublishingAuthById", Needs: access.Role(access.AdminContent), Method: http.MethodGet, Path: path, Tag: tag,
		Summary: "Get a site's publishing auth: the private key signing its visitor tokens (administrators; made on first read)"},
		func(ctx context.Context, in *SiteParams) (*httpapi.Out[SitePublishingAuth], error) {
			return httpapi.Answer(viewPublishingAuth)(s.PublishingAuth(ctx, in.OrganizationID, in.SiteID))
		})
	type patchIn struct {
		SiteParams
		Body SitePublishingAuthUpdate
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSitePublishingAuthById", Needs: access.Role(access.AdminContent), Method: http.MethodPatch, Path: path, Tag: tag,
		Summary: "Update a site's publishing auth (its fallback URL)"},
		func(ctx context.Context, in *patchIn) (*httpapi.Out[SitePublishingAuth], error) {
			return httpapi.Answer(viewPublishingAuth)(s.UpdatePublishingAuth(ctx, in.OrganizationID, in.SiteID,
				sites.PublishingAuthChange{FallbackURL: in.Body.FallbackURL, ClearFallbackURL: in.Body.Nulls.Has("fallbackURL")}))
		})
	httpapi.Register(api, httpapi.Op{ID: "regenerateSitePublishingAuthById", Needs: access.Role(access.AdminContent), Method: http.MethodPost, Path: path + "/regenerate", Tag: tag,
		Summary: "Replace a site's private key: visitor tokens signed with the old one stop opening the site"},
		func(ctx context.Context, in *SiteParams) (*httpapi.Out[SitePublishingAuth], error) {
			return httpapi.Answer(viewPublishingAuth)(s.RegeneratePublishingAuth(ctx, in.OrganizationID, in.SiteID))
		})
}
