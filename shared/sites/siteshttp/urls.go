package siteshttp

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/sites"
)

// PublishedSiteContent is what a published URL names (GitBook's
// PublishedSiteContent).
type PublishedSiteContent struct {
	Site         string `json:"site"`
	SiteSection  string `json:"siteSection,omitempty"`
	SiteSpace    string `json:"siteSpace"`
	Space        string `json:"space"`
	Revision     string `json:"revision,omitempty"`
	Pathname     string `json:"pathname" doc:"The page's path in the space, \"\" for its first page; the renderer reads the page by path"`
	BasePath     string `json:"basePath" doc:"Path of the site space's root in the URL, with a trailing slash"`
	SiteBasePath string `json:"siteBasePath" doc:"Path of the site's root in the URL, with a trailing slash"`
	APIToken     string `json:"apiToken" doc:"A site token (JWT, kind site, exp) for the visitor: a bearer token for the reads they may make of this site"`
	Organization string `json:"organization"`
	ShareKey     string `json:"shareKey,omitempty"`
	Complete     bool   `json:"complete"`
	CanonicalURL string `json:"canonicalUrl"`
}

// SiteVisitorPayload is who visits (GitBook's SiteVisitorPayload): the
// visitor token of a visitor-auth site, and unsigned claims (kept when the
// site's adaptive schema declares them under unsigned).
type SiteVisitorPayload struct {
	Type           string         `json:"type,omitempty" enum:"human,agent"`
	JWTToken       string         `json:"jwtToken,omitempty" maxLength:"8192"`
	UnsignedClaims map[string]any `json:"unsignedClaims,omitempty"`
}

// ResolveURLBody is the body of POST /v1/urls/published.
type ResolveURLBody struct {
	URL             string              `json:"url" format:"uri" maxLength:"2048"`
	RedirectOnError bool                `json:"redirectOnError,omitempty"`
	Visitor         *SiteVisitorPayload `json:"visitor,omitempty"`
}

type publishedContentOut struct{ Body PublishedSiteContent }

func viewResolved(ctx context.Context, r sites.Resolved) PublishedSiteContent {
	site := r.View.Site
	out := PublishedSiteContent{Site: site.ID, SiteSpace: r.SiteSpace.ID, Space: r.Space.ID, Revision: r.Space.Revision,
		Pathname: r.Pathname, BasePath: r.BasePath, SiteBasePath: r.SiteBasePath, APIToken: r.APIToken, Organization: site.OrgID,
		ShareKey: r.View.ShareKey, Complete: true,
		CanonicalURL: publishedBase(ctx, site, r.View.OrgBase) + "/" + r.CanonicalPath + r.Pathname}
	if r.Section != nil {
		out.SiteSection = r.Section.ID
	}
	return out
}

func registerURLs(api *httpapi.API, s *sites.Service) {
	type getIn struct {
		URL              string `query:"url" required:"true" maxLength:"2048" doc:"URL to resolve"`
		VisitorAuthToken string `query:"visitorAuthToken" maxLength:"8192" doc:"A visitor token of a visitor-auth site (when the URL has no jwt_token)"`
		RedirectOnError  bool   `query:"redirectOnError" doc:"Ignored"`
	}
	httpapi.Register(api, httpapi.Op{ID: "getPublishedContentByUrl", Needs: access.Anyone, Method: http.MethodGet, Path: "/v1/urls/published", Tag: tag,
		Summary: "Resolve a published URL to its site, site space, space and page path, with a site token for the visitor"},
		func(ctx context.Context, in *getIn) (*publishedContentOut, error) {
			r, err := s.ResolveURL(ctx, in.URL, httpapi.AppURL(ctx), sites.Visitor{Token: in.VisitorAuthToken})
			if err != nil {
				return nil, err
			}
			return &publishedContentOut{Body: viewResolved(ctx, r)}, nil
		})
	type postIn struct {
		Body ResolveURLBody
	}
	httpapi.Register(api, httpapi.Op{ID: "resolvePublishedContentByUrl", Needs: access.Anyone, Method: http.MethodPost, Path: "/v1/urls/published", Tag: tag,
		Summary: "Resolve a published URL (as getPublishedContentByUrl; GitBook's renderer posts it)"},
		func(ctx context.Context, in *postIn) (*publishedContentOut, error) {
			vis := sites.Visitor{}
			if v := in.Body.Visitor; v != nil {
				vis.Token = v.JWTToken
				vis.Unsigned = map[string]string{}
				for k, x := range v.UnsignedClaims {
					if str, ok := x.(string); ok {
						vis.Unsigned[k] = str
					} else if b, err := json.Marshal(x); err == nil {
						vis.Unsigned[k] = string(b)
					}
				}
			}
			r, err := s.ResolveURL(ctx, in.Body.URL, httpapi.AppURL(ctx), vis)
			if err != nil {
				return nil, err
			}
			return &publishedContentOut{Body: viewResolved(ctx, r)}, nil
		})
}
