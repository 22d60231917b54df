package ssohttp

import (
	"context"
	"net/http"
	"net/url"

	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/sso"
)

// signedInPage shows the token of a sign-in, once. It is what the browser
// posting the identity provider's response gets back: there is no session
// to set, the API works with tokens. It is written out rather than
// executed as an html/template, whose field look-ups by name turn off the
// linker's dead-code elimination of methods for the whole function
// (shared/httpapi/html.go); login_test.go holds the template it answers
// as.
func signedInPage(d pageData) []byte {
	org := httpapi.HTMLText(d.Org)
	joined := ""
	if d.Joined {
		joined = ", and joined the organization"
	}
	return []byte(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signed in to ` + org + `</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{word-break:break-all;background:#f3f3f3;padding:.3rem;display:block}</style>
</head><body>
<h1>Signed in to ` + org + `</h1>
<p>You are signed in as <strong>` + httpapi.HTMLText(d.Email) + `</strong>` + joined + `.</p>
<p>Your API token (it is shown only now; keep it secret):</p>
<code id="token">` + httpapi.HTMLText(d.Token) + `</code>
<p>Send it with every request as <code>Authorization: Bearer &lt;token&gt;</code>. It acts only in this organization.</p>
</body></html>
`)
}

// pageData fills signedInPage.
type pageData struct {
	Org, Email, Token string
	Joined            bool
}

// writePage answers with an HTML page nobody may cache, frame or script.
func writePage(ctx huma.Context, status int, page []byte) {
	ctx.SetHeader("Content-Type", "text/html; charset=utf-8")
	ctx.SetHeader("Cache-Control", "no-store")
	ctx.SetHeader("Pragma", "no-cache")
	ctx.SetHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	ctx.SetHeader("X-Content-Type-Options", "nosniff")
	ctx.SetHeader("Referrer-Policy", "no-referrer")
	ctx.SetHeader("X-Frame-Options", "DENY")
	ctx.SetStatus(status)
	_, _ = ctx.BodyWriter().Write(page)
}

type samlStartOut struct {
	Location     string `header:"Location" doc:"The identity provider's sign-in URL with the AuthnRequest"`
	CacheControl string `header:"Cache-Control"`
	SetCookie    string `header:"Set-Cookie" doc:"The sign-in's browser binding, for the assertion consumer service"`
}

// samlCookie is the cookie of a started SAML sign-in (value "" clears
// it), for the ACS's path only. The identity provider's page posts the
// answer from its own site: over HTTPS the cookie is SameSite=None (and
// Secure) so that the browser sends it with that cross-site POST; over
// plain HTTP it can only be SameSite=Lax, sent when the identity
// provider is on the same site (as on one machine: localhost).
func samlCookie(ctx context.Context, orgID, providerID, value string) string {
	return flowCookie(sso.SAMLSignInCookie, sso.URLs(httpapi.APIURL(ctx), orgID, providerID).ACS, value, true)
}

// registerLogin adds the public operations of the SAML login: its start,
// its assertion consumer service and the service provider's metadata.
func registerLogin(api *httpapi.API, s *sso.Service, tag string) {
	const base = "/v1/orgs/{organizationId}/saml/{samlProviderId}"
	httpapi.Register(api, httpapi.Op{ID: "startSAMLSignIn", Needs: access.Anyone, Method: http.MethodGet, Path: base + "/start", Tag: tag,
		Status: http.StatusFound, Summary: "Start signing in: redirects the browser to the identity provider with an AuthnRequest"},
		func(ctx context.Context, in *providerPath) (*samlStartOut, error) {
			u, binding, err := s.Start(ctx, httpapi.APIURL(ctx), in.OrganizationID, in.SAMLProviderID)
			if err != nil {
				return nil, err
			}
			return &samlStartOut{u, "no-store", samlCookie(ctx, in.OrganizationID, in.SAMLProviderID, binding)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "consumeSAMLResponse", Needs: access.Anyone, Method: http.MethodPost, Path: base + "/acs", Tag: tag,
		Summary: "Assertion consumer service: verifies the identity provider's response and answers a page with a new API token"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			SAMLProviderID string `path:"samlProviderId" maxLength:"64"`
			RawBody        []byte `contentType:"application/x-www-form-urlencoded" doc:"SAMLResponse (and RelayState), as the identity provider's form posts them"`
			Cookie         string `cookie:"galley_saml" maxLength:"64" doc:"The sign-in's browser binding, set by the start"`
		}) (*struct{ Body func(huma.Context) }, error) {
			form, err := url.ParseQuery(string(in.RawBody))
			if err != nil {
				form = url.Values{}
			}
			res, err := s.ACS(ctx, httpapi.APIURL(ctx), in.OrganizationID, in.SAMLProviderID, form.Get("SAMLResponse"), in.Cookie)
			if err != nil {
				return nil, err
			}
			page := signedInPage(pageData{Org: res.Org.Title, Email: res.User.Email, Token: res.Token, Joined: res.Joined})
			clear := samlCookie(ctx, in.OrganizationID, in.SAMLProviderID, "")
			return &struct{ Body func(huma.Context) }{func(hc huma.Context) {
				hc.AppendHeader("Set-Cookie", clear)
				writePage(hc, http.StatusOK, page)
			}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getSAMLServiceProviderMetadata", Needs: access.Anyone, Method: http.MethodGet, Path: base + "/metadata", Tag: tag,
		Summary: "Galley's SAML service-provider metadata for this provider (its entity ID is this URL)"},
		func(ctx context.Context, in *providerPath) (*struct{ Body func(huma.Context) }, error) {
			md, err := s.Metadata(ctx, httpapi.APIURL(ctx), in.OrganizationID, in.SAMLProviderID)
			if err != nil {
				return nil, err
			}
			return &struct{ Body func(huma.Context) }{func(hc huma.Context) {
				hc.SetHeader("Content-Type", "application/samlmetadata+xml")
				hc.SetStatus(http.StatusOK)
				_, _ = hc.BodyWriter().Write(md)
			}}, nil
		})
}
