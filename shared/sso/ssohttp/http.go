// Package ssohttp is the SSO family's HTTP layer: the operations on SAML
// providers and the login info, the SAML sign-in's endpoints (the redirect
// to the identity provider, the page answering its response, the
// metadata), their bodies and response shapes, on the service of package
// sso (which knows no HTTP and holds the SAML protocol).
package ssohttp

import (
	"context"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/sso"
)

// SAMLProvider is the API shape of a SAML provider.
type SAMLProvider struct {
	Object      string                     `json:"object" enum:"saml-provider"`
	ID          string                     `json:"id"`
	Label       string                     `json:"label" minLength:"1" maxLength:"30"`
	SSOURL      string                     `json:"ssoURL" maxLength:"2048" doc:"The identity provider's sign-in URL; empty while pending"`
	EntityID    string                     `json:"entityID" maxLength:"1024" doc:"The identity provider's entity ID; empty while pending"`
	Certificate string                     `json:"certificate" maxLength:"10000" doc:"The identity provider's signing certificate (PEM); empty while pending"`
	DefaultTeam *orgshttp.OrganizationTeam `json:"defaultTeam,omitempty" doc:"The team people signing in join"`
	DefaultRole *string                    `json:"defaultRole" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"Role of members created by signing in; null for guests"`
	CreatedAt   time.Time                  `json:"createdAt"`
	Status      string                     `json:"status" enum:"active,pending" doc:"active once ssoURL, entityID and certificate are set"`
	Service     SAMLServiceProviderInfo    `json:"service"`
	URLs        SAMLProviderURLs           `json:"urls"`

	// AllowRSA15KeyTransport is Galley's own setting (docs/sso.md).
	AllowRSA15KeyTransport bool `json:"allowRSA15KeyTransport" doc:"Galley's extension: accept assertions whose key the identity provider wraps with RSA PKCS#1 v1.5 (xmlenc#rsa-1_5), which XML Encryption 1.1 forbids for its padding-oracle attacks; only for an identity provider that cannot use RSA-OAEP; false by default"`
	// GroupsAttribute and GroupTeams are Galley's (docs/sso.md, groups to teams).
	GroupsAttribute string      `json:"groupsAttribute" maxLength:"256" doc:"Galley's extension: the assertion's attribute listing the person's groups"`
	GroupTeams      []GroupTeam `json:"groupTeams" nullable:"false" doc:"Galley's extension: groups mapped to teams; membership of these teams follows the groups at each sign-in"`
}

// SAMLServiceProviderInfo is what the identity provider needs to know of
// Galley (its service provider) for this provider.
type SAMLServiceProviderInfo struct {
	ACSURL   string `json:"acsURL" format:"uri" doc:"Assertion consumer service URL (HTTP-POST binding)"`
	StartURL string `json:"startURL" format:"uri" doc:"Where a sign-in starts: redirects to the identity provider"`
	EntityID string `json:"entityID" maxLength:"1024" doc:"Galley's entity ID for this provider; also the URL of its metadata"`
}

// SAMLProviderURLs are a provider's links.
type SAMLProviderURLs struct {
	Location string `json:"location" format:"uri"`
}

// View renders a provider.
func View(ctx context.Context, v sso.ProviderView) SAMLProvider {
	p := v.Provider
	urls := sso.URLs(httpapi.APIURL(ctx), p.OrgID, p.ID)
	out := SAMLProvider{Object: "saml-provider", ID: p.ID, Label: p.Label, SSOURL: p.SSOURL, EntityID: p.EntityID,
		Certificate: p.Certificate, CreatedAt: p.CreatedAt, Status: "pending",
		Service: SAMLServiceProviderInfo{ACSURL: urls.ACS, StartURL: urls.Start, EntityID: urls.EntityID},
		URLs:    SAMLProviderURLs{Location: urls.Location}, AllowRSA15KeyTransport: p.AllowRSA15KeyTransport,
		DefaultRole: roleOut(p.DefaultRole), GroupsAttribute: p.GroupsAttribute, GroupTeams: groupTeamsOut(p.GroupTeams)}
	if out.GroupsAttribute == "" {
		out.GroupsAttribute = "groups"
	}
	if p.Active() {
		out.Status = "active"
	}
	if v.Team != nil {
		t := orgshttp.ViewTeam(orgs.TeamForCaller{Team: *v.Team, Viewer: v.Viewer})
		out.DefaultTeam = &t
	}
	return out
}

// CreateSAMLProviderBody is the body of POST /v1/orgs/{organizationId}/saml.
type CreateSAMLProviderBody struct {
	Label       string  `json:"label" minLength:"1" maxLength:"30"`
	EntityID    string  `json:"entityID,omitempty" maxLength:"1024" doc:"The identity provider's entity ID (its Issuer)"`
	Certificate string  `json:"certificate,omitempty" maxLength:"10000" doc:"The identity provider's X.509 signing certificate, PEM (bare base64 is accepted)"`
	SSOURL      string  `json:"ssoURL,omitempty" maxLength:"2048" pattern:"^(https?://\\S+)?$" doc:"The identity provider's single sign-on URL (HTTP-Redirect binding), absolute http or https; \"\" as omitted"`
	DefaultTeam ids.ID  `json:"defaultTeam,omitempty" doc:"ID of a team of the organization that people signing in join"`
	DefaultRole *string `json:"defaultRole,omitempty" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"Role of members created by signing in; null or omitted: guest"`

	AllowRSA15KeyTransport bool        `json:"allowRSA15KeyTransport,omitempty" doc:"Galley's extension: accept assertions whose key the identity provider wraps with RSA PKCS#1 v1.5 (xmlenc#rsa-1_5), which XML Encryption 1.1 forbids for its padding-oracle attacks; only for an identity provider that cannot use RSA-OAEP; omitted: false"`
	GroupsAttribute        string      `json:"groupsAttribute,omitempty" maxLength:"256" doc:"Galley's extension: the assertion's attribute listing the person's groups; omitted: groups"`
	GroupTeams             []GroupTeam `json:"groupTeams,omitempty" maxItems:"100" doc:"Galley's extension: groups mapped to teams"`
}

func (b CreateSAMLProviderBody) settings() sso.Settings {
	in := sso.Settings{Label: &b.Label, Landing: landingIn(b.DefaultTeam, b.DefaultRole, b.GroupTeams)}
	for _, f := range []struct {
		dst **string
		v   string
	}{{&in.EntityID, b.EntityID}, {&in.Certificate, b.Certificate}, {&in.SSOURL, b.SSOURL}, {&in.GroupsAttribute, b.GroupsAttribute}} {
		if f.v != "" {
			v := f.v
			*f.dst = &v
		}
	}
	if b.AllowRSA15KeyTransport {
		in.AllowRSA15KeyTransport = &b.AllowRSA15KeyTransport
	}
	return in
}

// UpdateSAMLProviderBody is the body of PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}.
// An omitted field is unchanged; null clears defaultTeam, makes defaultRole
// guest and allowRSA15KeyTransport false (its default), and is refused for
// the other fields.
type UpdateSAMLProviderBody struct {
	Label       *string       `json:"label,omitempty" minLength:"1" maxLength:"30"`
	EntityID    *string       `json:"entityID,omitempty" maxLength:"1024"`
	Certificate *string       `json:"certificate,omitempty" maxLength:"10000"`
	SSOURL      *string       `json:"ssoURL,omitempty" maxLength:"2048" pattern:"^(https?://\\S+)?$" doc:"Absolute http or https; \"\" (the answer's while pending) leaves an unset URL unset"`
	DefaultTeam *ids.ID       `json:"defaultTeam,omitempty" nullable:"true" doc:"null: sign-ins join no team"`
	DefaultRole *string       `json:"defaultRole,omitempty" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"null: guest"`
	Nulls       httpapi.Nulls `json:"-"`

	AllowRSA15KeyTransport *bool       `json:"allowRSA15KeyTransport,omitempty" nullable:"true" doc:"Galley's extension: accept assertions whose key the identity provider wraps with RSA PKCS#1 v1.5 (xmlenc#rsa-1_5), which XML Encryption 1.1 forbids for its padding-oracle attacks; only for an identity provider that cannot use RSA-OAEP; null: false"`
	GroupsAttribute        *string     `json:"groupsAttribute,omitempty" maxLength:"256" doc:"Galley's extension; \"\": the default, groups"`
	GroupTeams             []GroupTeam `json:"groupTeams,omitempty" maxItems:"100" nullable:"true" doc:"Galley's extension: replaces the mapping; null or [] removes it"`
}

func (b UpdateSAMLProviderBody) settings() sso.Settings {
	in := sso.Settings{Label: b.Label, EntityID: b.EntityID, Certificate: b.Certificate, SSOURL: b.SSOURL, GroupsAttribute: b.GroupsAttribute,
		Landing: landingPatch(b.DefaultTeam, b.DefaultRole, b.GroupTeams, b.Nulls)}
	if b.AllowRSA15KeyTransport != nil || b.Nulls.Has("allowRSA15KeyTransport") {
		allow := b.AllowRSA15KeyTransport != nil && *b.AllowRSA15KeyTransport
		in.AllowRSA15KeyTransport = &allow
	}
	return in
}

// SSOProviderLogin is one way to sign in to an organization.
type SSOProviderLogin struct {
	ID       string `json:"id"`
	Label    string `json:"label" minLength:"1" maxLength:"30"`
	StartURL string `json:"startURL" format:"uri" doc:"Open it in a browser to sign in"`
}

// SSOProviderLogins answers GET /v1/orgs/{organizationId}/sso.
type SSOProviderLogins struct {
	Items []SSOProviderLogin `json:"items" nullable:"false"`
}

type providerPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	SAMLProviderID string `path:"samlProviderId" maxLength:"64"`
}

// Register adds the SSO family's operations: SAML providers, the login
// info, and the SAML login itself.
func Register(api *httpapi.API, s *sso.Service) {
	const tag = "SSO"
	const base = "/v1/orgs/{organizationId}/saml"
	httpapi.Register(api, httpapi.Op{ID: "listSAMLProvidersInOrganizationById", Needs: access.Role(access.AdminOrg), Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "List the organization's SAML providers, oldest first (admins)"},
		func(ctx context.Context, in *orgshttp.OrgListIn) (*httpapi.Out[httpapi.List[SAMLProvider]], error) {
			return httpapi.AnswerPage(httpapi.In(ctx, View))(s.List(ctx, in.OrganizationID, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "createOrganizationSAMLProvider", Needs: access.Role(access.AdminOrg), Method: http.MethodPost, Path: base, Tag: tag,
		Status: http.StatusCreated, Summary: "Add a SAML provider (admins)"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			Body           CreateSAMLProviderBody
		}) (*httpapi.Created[SAMLProvider], error) {
			return httpapi.AnswerCreated(httpapi.In(ctx, View), func(v SAMLProvider) string { return v.URLs.Location })(s.Create(ctx, in.OrganizationID, in.Body.settings()))
		})
	httpapi.Register(api, httpapi.Op{ID: "getOrganizationSAMLProviderById", Needs: access.Role(access.AdminOrg), Method: http.MethodGet, Path: base + "/{samlProviderId}", Tag: tag,
		Summary: "Get a SAML provider (admins)"},
		func(ctx context.Context, in *providerPath) (*httpapi.Out[SAMLProvider], error) {
			return httpapi.Answer(httpapi.In(ctx, View))(s.Get(ctx, in.OrganizationID, in.SAMLProviderID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateOrganizationSAMLProvider", Needs: access.Role(access.AdminOrg), Method: http.MethodPatch, Path: base + "/{samlProviderId}", Tag: tag,
		Summary: "Update a SAML provider (admins)"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			SAMLProviderID string `path:"samlProviderId" maxLength:"64"`
			Body           UpdateSAMLProviderBody
		}) (*httpapi.Out[SAMLProvider], error) {
			return httpapi.Answer(httpapi.In(ctx, View))(s.Update(ctx, in.OrganizationID, in.SAMLProviderID, in.Body.settings()))
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteOrganizationSAMLProvider", Needs: access.Role(access.AdminOrg), Method: http.MethodDelete, Path: base + "/{samlProviderId}", Tag: tag,
		Status: http.StatusNoContent, Summary: "Delete a SAML provider (admins)"},
		func(ctx context.Context, in *providerPath) (*struct{}, error) {
			return nil, s.Delete(ctx, in.OrganizationID, in.SAMLProviderID)
		})
	httpapi.Register(api, httpapi.Op{ID: "listSSOProviderLoginsInOrganization", Needs: access.Anyone, Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/sso", Tag: tag,
		Summary: "How to sign in to the organization: its active SAML providers and its OpenID Connect providers (no token needed)"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
		}) (*struct{ Body SSOProviderLogins }, error) {
			ls, err := s.Logins(ctx, in.OrganizationID)
			if err != nil {
				return nil, err
			}
			body := SSOProviderLogins{Items: make([]SSOProviderLogin, 0, len(ls))}
			apiURL := httpapi.APIURL(ctx)
			for _, l := range ls {
				start := sso.URLs(apiURL, in.OrganizationID, l.ID).Start
				if l.Protocol == "oidc" {
					start = sso.OIDCProviderURLs(apiURL, in.OrganizationID, l.ID).Start
				}
				body.Items = append(body.Items, SSOProviderLogin{ID: l.ID, Label: l.Label, StartURL: start})
			}
			return &struct{ Body SSOProviderLogins }{body}, nil
		})
	registerLogin(api, s, tag)
	registerOIDC(api, s, tag)
}
