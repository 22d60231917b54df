package ssohttp

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/sso"
)

// GroupTeam maps an identity-provider group to a team (and a role).
type GroupTeam struct {
	Group string  `json:"group" minLength:"1" maxLength:"256" doc:"The group's name as the identity provider sends it (case-sensitive)"`
	Team  ids.ID  `json:"team" doc:"ID of a team of the organization"`
	Role  *string `json:"role,omitempty" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"Organization role the group's members get at least (raised, never lowered); null or omitted: none"`
}

func groupTeamsIn(in []GroupTeam) *[]model.GroupTeam {
	out := make([]model.GroupTeam, len(in))
	for i, g := range in {
		out[i] = model.GroupTeam{Group: g.Group, TeamID: string(g.Team)}
		if g.Role != nil {
			out[i].Role = model.Role(*g.Role)
		}
	}
	return &out
}

func groupTeamsOut(in []model.GroupTeam) []GroupTeam {
	out := make([]GroupTeam, len(in))
	for i, g := range in {
		out[i] = GroupTeam{Group: g.Group, Team: ids.ID(g.TeamID)}
		if g.Role != model.RoleGuest {
			r := string(g.Role)
			out[i].Role = &r
		}
	}
	return out
}

// roleOut is a default role as answered: null for guest.
func roleOut(r model.Role) *string {
	if r == model.RoleGuest {
		return nil
	}
	s := string(r)
	return &s
}

// OIDCProvider is the API shape of an OpenID Connect provider. Its client
// secret is never shown.
type OIDCProvider struct {
	Object      string                     `json:"object" enum:"oidc-provider"`
	ID          string                     `json:"id"`
	Label       string                     `json:"label" minLength:"1" maxLength:"30"`
	Issuer      string                     `json:"issuer" maxLength:"2048" doc:"The provider's issuer; its discovery document is at issuer + /.well-known/openid-configuration"`
	ClientID    string                     `json:"clientId" maxLength:"256"`
	Scopes      []string                   `json:"scopes" nullable:"false"`
	Claims      OIDCClaims                 `json:"claims"`
	DefaultTeam *orgshttp.OrganizationTeam `json:"defaultTeam,omitempty" doc:"The team people signing in join"`
	DefaultRole *string                    `json:"defaultRole" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"Role of members created by signing in; null for guests"`
	GroupTeams  []GroupTeam                `json:"groupTeams" nullable:"false"`
	CreatedAt   time.Time                  `json:"createdAt"`
	Service     OIDCServiceInfo            `json:"service"`
	URLs        SAMLProviderURLs           `json:"urls"`
}

// OIDCClaims names the ID token's claims a provider reads.
type OIDCClaims struct {
	Email  string `json:"email" maxLength:"100"`
	Name   string `json:"name" maxLength:"100"`
	Groups string `json:"groups" maxLength:"100"`
}

// OIDCServiceInfo is what the provider needs to know of Galley.
type OIDCServiceInfo struct {
	RedirectURI string `json:"redirectURI" format:"uri" doc:"The redirect URI to register at the provider for Galley's client"`
	StartURL    string `json:"startURL" format:"uri" doc:"Where a sign-in starts: redirects to the provider"`
}

// ViewOIDC renders a provider.
func ViewOIDC(ctx context.Context, v sso.OIDCProviderView) OIDCProvider {
	p := v.Provider
	urls := sso.OIDCProviderURLs(httpapi.APIURL(ctx), p.OrgID, p.ID)
	email, name, groups := sso.Claims(p)
	out := OIDCProvider{Object: "oidc-provider", ID: p.ID, Label: p.Label, Issuer: p.Issuer, ClientID: p.ClientID, Scopes: sso.ScopesOf(p),
		Claims: OIDCClaims{Email: email, Name: name, Groups: groups}, DefaultRole: roleOut(p.DefaultRole), GroupTeams: groupTeamsOut(p.GroupTeams),
		CreatedAt: p.CreatedAt, Service: OIDCServiceInfo{RedirectURI: urls.Callback, StartURL: urls.Start}, URLs: SAMLProviderURLs{Location: urls.Location}}
	if v.Team != nil {
		t := orgshttp.ViewTeam(orgs.TeamForCaller{Team: *v.Team, Viewer: v.Viewer})
		out.DefaultTeam = &t
	}
	return out
}

// OIDCClaimsBody sets claim names; "" or omitted is the default.
type OIDCClaimsBody struct {
	Email  *string `json:"email,omitempty" maxLength:"100" doc:"Claim of the email address; default email"`
	Name   *string `json:"name,omitempty" maxLength:"100" doc:"Claim of the display name; default name"`
	Groups *string `json:"groups,omitempty" maxLength:"100" doc:"Claim of the groups (a list of strings); default groups"`
}

// CreateOIDCProviderBody is the body of POST /v1/orgs/{organizationId}/oidc.
type CreateOIDCProviderBody struct {
	Label        string          `json:"label" minLength:"1" maxLength:"30"`
	Issuer       string          `json:"issuer" minLength:"1" maxLength:"2048" pattern:"^https?://\\S+$" doc:"The provider's issuer URL (absolute http or https)"`
	ClientID     string          `json:"clientId" minLength:"1" maxLength:"256"`
	ClientSecret string          `json:"clientSecret" minLength:"1" maxLength:"1024" doc:"Stored sealed; never shown again"`
	Scopes       []string        `json:"scopes,omitempty" maxItems:"20" doc:"Scopes asked for (openid is always added); omitted: openid, email, profile"`
	Claims       *OIDCClaimsBody `json:"claims,omitempty"`
	DefaultTeam  ids.ID          `json:"defaultTeam,omitempty" doc:"ID of a team of the organization that people signing in join"`
	DefaultRole  *string         `json:"defaultRole,omitempty" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"Role of members created by signing in; null or omitted: guest"`
	GroupTeams   []GroupTeam     `json:"groupTeams,omitempty" maxItems:"100" doc:"Groups mapped to teams: membership of these teams follows the groups at each sign-in"`
}

func (c *OIDCClaimsBody) set(in *sso.OIDCSettings) {
	if c != nil {
		in.EmailClaim, in.NameClaim, in.GroupsClaim = c.Email, c.Name, c.Groups
	}
}

func (b CreateOIDCProviderBody) settings() sso.OIDCSettings {
	in := sso.OIDCSettings{Label: &b.Label, Issuer: &b.Issuer, ClientID: &b.ClientID, ClientSecret: &b.ClientSecret,
		Landing: landingIn(b.DefaultTeam, b.DefaultRole, b.GroupTeams)}
	if b.Scopes != nil {
		in.Scopes = &b.Scopes
	}
	b.Claims.set(&in)
	return in
}

// UpdateOIDCProviderBody is the body of PATCH
// /v1/orgs/{organizationId}/oidc/{oidcProviderId}: an omitted field is
// unchanged; null clears defaultTeam, makes defaultRole guest and empties
// groupTeams.
type UpdateOIDCProviderBody struct {
	Label        *string         `json:"label,omitempty" minLength:"1" maxLength:"30"`
	Issuer       *string         `json:"issuer,omitempty" minLength:"1" maxLength:"2048" pattern:"^https?://\\S+$"`
	ClientID     *string         `json:"clientId,omitempty" minLength:"1" maxLength:"256"`
	ClientSecret *string         `json:"clientSecret,omitempty" minLength:"1" maxLength:"1024"`
	Scopes       []string        `json:"scopes,omitempty" maxItems:"20"`
	Claims       *OIDCClaimsBody `json:"claims,omitempty"`
	DefaultTeam  *ids.ID         `json:"defaultTeam,omitempty" nullable:"true" doc:"null: sign-ins join no team"`
	DefaultRole  *string         `json:"defaultRole,omitempty" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"null: guest"`
	GroupTeams   []GroupTeam     `json:"groupTeams,omitempty" maxItems:"100" nullable:"true" doc:"Replaces the mapping; null or [] removes it"`
	Nulls        httpapi.Nulls   `json:"-"`
}

func (b UpdateOIDCProviderBody) settings() sso.OIDCSettings {
	in := sso.OIDCSettings{Label: b.Label, Issuer: b.Issuer, ClientID: b.ClientID, ClientSecret: b.ClientSecret,
		Landing: landingPatch(b.DefaultTeam, b.DefaultRole, b.GroupTeams, b.Nulls)}
	if b.Scopes != nil {
		in.Scopes = &b.Scopes
	}
	b.Claims.set(&in)
	return in
}

// landingIn is a create body's default team and role and group mapping.
func landingIn(team ids.ID, role *string, gts []GroupTeam) sso.Landing {
	var l sso.Landing
	if team != "" {
		t := string(team)
		l.DefaultTeam = &t
	}
	if role != nil {
		r := model.Role(*role)
		l.DefaultRole = &r
	}
	if gts != nil {
		l.GroupTeams = groupTeamsIn(gts)
	}
	return l
}

// landingPatch is a PATCH body's: omitted unchanged; null clears the
// default team, makes the default role guest, empties the mapping.
func landingPatch(team *ids.ID, role *string, gts []GroupTeam, nulls httpapi.Nulls) sso.Landing {
	l := sso.Landing{DefaultTeam: (*string)(team), ClearTeam: nulls.Has("defaultTeam")}
	if role != nil || nulls.Has("defaultRole") {
		r := model.RoleGuest
		if role != nil {
			r = model.Role(*role)
		}
		l.DefaultRole = &r
	}
	if gts != nil || nulls.Has("groupTeams") {
		l.GroupTeams = groupTeamsIn(gts)
	}
	return l
}

type oidcProviderPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	OIDCProviderID string `path:"oidcProviderId" maxLength:"64"`
}

// signInCookie is the cookie of a started sign-in, for the callback's path
// only (value "" clears it). The callback is a top-level GET from the
// provider's site, which sends a SameSite=Lax cookie.
func signInCookie(ctx context.Context, orgID, providerID, value string) string {
	return flowCookie(sso.SignInCookie, sso.OIDCProviderURLs(httpapi.APIURL(ctx), orgID, providerID).Callback, value, false)
}

// flowCookie is a sign-in's cookie for the path of endpoint (its URL)
// only, HttpOnly, alive sso.RequestLifetime (value "" clears it); Secure
// over HTTPS. crossSitePost: the identity provider's page posts to
// endpoint from its own site, which sends only a SameSite=None cookie
// (Secure, so HTTPS); over plain HTTP it stays Lax (sent when the
// identity provider is on the same site).
func flowCookie(name, endpoint, value string, crossSitePost bool) string {
	path := "/"
	if u, err := url.Parse(endpoint); err == nil && u.Path != "" {
		path = u.Path
	}
	secure := strings.HasPrefix(endpoint, "https://")
	c := http.Cookie{Name: name, Value: value, Path: path, HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: secure, MaxAge: int(sso.RequestLifetime / time.Second)}
	if crossSitePost && secure {
		c.SameSite = http.SameSiteNoneMode
	}
	if value == "" {
		c.MaxAge = -1
	}
	return c.String()
}

// registerOIDC adds the operations on OpenID Connect providers and the
// OpenID Connect sign-in's start and callback.
func registerOIDC(api *httpapi.API, s *sso.Service, tag string) {
	const base = "/v1/orgs/{organizationId}/oidc"
	httpapi.Register(api, httpapi.Op{ID: "listOIDCProvidersInOrganizationById", Needs: access.Role(access.AdminOrg), Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "List the organization's OpenID Connect providers, oldest first (admins)"},
		func(ctx context.Context, in *orgshttp.OrgListIn) (*httpapi.Out[httpapi.List[OIDCProvider]], error) {
			return httpapi.AnswerPage(httpapi.In(ctx, ViewOIDC))(s.ListOIDC(ctx, in.OrganizationID, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "createOrganizationOIDCProvider", Needs: access.Role(access.AdminOrg), Method: http.MethodPost, Path: base, Tag: tag,
		Status: http.StatusCreated, Summary: "Add an OpenID Connect provider (admins)"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			Body           CreateOIDCProviderBody
		}) (*httpapi.Created[OIDCProvider], error) {
			return httpapi.AnswerCreated(httpapi.In(ctx, ViewOIDC), func(v OIDCProvider) string { return v.URLs.Location })(s.CreateOIDC(ctx, in.OrganizationID, in.Body.settings()))
		})
	httpapi.Register(api, httpapi.Op{ID: "getOrganizationOIDCProviderById", Needs: access.Role(access.AdminOrg), Method: http.MethodGet, Path: base + "/{oidcProviderId}", Tag: tag,
		Summary: "Get an OpenID Connect provider (admins)"},
		func(ctx context.Context, in *oidcProviderPath) (*httpapi.Out[OIDCProvider], error) {
			return httpapi.Answer(httpapi.In(ctx, ViewOIDC))(s.GetOIDC(ctx, in.OrganizationID, in.OIDCProviderID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateOrganizationOIDCProvider", Needs: access.Role(access.AdminOrg), Method: http.MethodPatch, Path: base + "/{oidcProviderId}", Tag: tag,
		Summary: "Update an OpenID Connect provider (admins)"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			OIDCProviderID string `path:"oidcProviderId" maxLength:"64"`
			Body           UpdateOIDCProviderBody
		}) (*httpapi.Out[OIDCProvider], error) {
			return httpapi.Answer(httpapi.In(ctx, ViewOIDC))(s.UpdateOIDC(ctx, in.OrganizationID, in.OIDCProviderID, in.Body.settings()))
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteOrganizationOIDCProvider", Needs: access.Role(access.AdminOrg), Method: http.MethodDelete, Path: base + "/{oidcProviderId}", Tag: tag,
		Status: http.StatusNoContent, Summary: "Delete an OpenID Connect provider (admins)"},
		func(ctx context.Context, in *oidcProviderPath) (*struct{}, error) {
			return nil, s.DeleteOIDC(ctx, in.OrganizationID, in.OIDCProviderID)
		})
	type startOut struct {
		Location     string `header:"Location" doc:"The provider's authorization URL"`
		CacheControl string `header:"Cache-Control"`
		SetCookie    string `header:"Set-Cookie" doc:"The sealed sign-in (state, nonce, PKCE verifier) for the callback"`
	}
	httpapi.Register(api, httpapi.Op{ID: "startOIDCSignIn", Needs: access.Anyone, Method: http.MethodGet, Path: base + "/{oidcProviderId}/start", Tag: tag,
		Status: http.StatusFound, Summary: "Start signing in: redirects the browser to the OpenID Connect provider (code flow with PKCE)"},
		func(ctx context.Context, in *oidcProviderPath) (*startOut, error) {
			u, sealed, err := s.StartOIDC(ctx, httpapi.APIURL(ctx), in.OrganizationID, in.OIDCProviderID)
			if err != nil {
				return nil, err
			}
			return &startOut{u, "no-store", signInCookie(ctx, in.OrganizationID, in.OIDCProviderID, sealed)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "finishOIDCSignIn", Needs: access.Anyone, Method: http.MethodGet, Path: base + "/{oidcProviderId}/callback", Tag: tag,
		Summary: "Redirect URI: verifies the provider's answer and answers a page with a new API token"},
		func(ctx context.Context, in *struct {
			OrganizationID   string `path:"organizationId" maxLength:"64"`
			OIDCProviderID   string `path:"oidcProviderId" maxLength:"64"`
			Code             string `query:"code" maxLength:"4096"`
			State            string `query:"state" maxLength:"512"`
			Error            string `query:"error" maxLength:"256"`
			ErrorDescription string `query:"error_description" maxLength:"1024"`
			Cookie           string `cookie:"galley_oidc" maxLength:"4096"`
		}) (*struct{ Body func(huma.Context) }, error) {
			res, err := s.CallbackOIDC(ctx, httpapi.APIURL(ctx), in.OrganizationID, in.OIDCProviderID,
				sso.Callback{Code: in.Code, State: in.State, Error: in.Error, ErrorDescription: in.ErrorDescription, Cookie: in.Cookie})
			if err != nil {
				return nil, err
			}
			page := signedInPage(pageData{Org: res.Org.Title, Email: res.User.Email, Token: res.Token, Joined: res.Joined})
			clear := signInCookie(ctx, in.OrganizationID, in.OIDCProviderID, "")
			return &struct{ Body func(huma.Context) }{func(hc huma.Context) {
				hc.AppendHeader("Set-Cookie", clear)
				writePage(hc, http.StatusOK, page)
			}}, nil
		})
}
