// Package ssoroot is the SSO function's composition root (package roots): single sign-on and translation settings.
package ssoroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/auditwire"
	"github.com/galleydocs/galley/shared/app/wire/orgswire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/sso"
	"github.com/galleydocs/galley/shared/sso/ssohttp"
	"github.com/galleydocs/galley/shared/translations"
	"github.com/galleydocs/galley/shared/translations/translationshttp"
)

// Service is the root's SSO service.
func Service(r *app.Root) *sso.Service {
	return app.Service(r, func() *sso.Service { return sso.New(r.Deps, app.Users(r), orgswire.Service(r), auditwire.Service(r)) })
}

// Routes adds the SSO family's operations.
func Routes(api *httpapi.API, r *app.Root) { ssohttp.Register(api, Service(r)) }

// Translations adds the translation settings' operations.
func Translations(api *httpapi.API, r *app.Root) {
	translationshttp.Register(api, app.Service(r, func() *translations.Service { return translations.New(r.Deps) }))
}
