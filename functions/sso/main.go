// Command sso is the SSOFunction Lambda function: the SSO family (an
// organization's SAML providers, its login info, the SAML sign-in itself)
// and translation settings. Built for provided.al2023 as "bootstrap" by
// `make build-SSOFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/ssoroot"
)

func main() {
	app.StartLambda(app.NewFamily("sso", "SSOFunction", ssoroot.Routes, ssoroot.Translations))
}
