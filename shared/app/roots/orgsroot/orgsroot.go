// Package orgsroot is the organizations function's composition root (package roots).
package orgsroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/auditwire"
	"github.com/galleydocs/galley/shared/app/wire/collectionswire"
	"github.com/galleydocs/galley/shared/app/wire/orgswire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/app/wire/webhookswire"
	"github.com/galleydocs/galley/shared/audit/audithttp"
	"github.com/galleydocs/galley/shared/grants"
	"github.com/galleydocs/galley/shared/grants/grantshttp"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/scim"
	"github.com/galleydocs/galley/shared/scim/scimhttp"
	"github.com/galleydocs/galley/shared/webhooks/webhookshttp"
)

// Routes adds the organizations family's operations: organizations,
// members, teams and invites, their audit log (package audit), who is
// given what on spaces, collections and sites (package grants), and
// webhook endpoints (package webhooks: the organization's settings; their
// deliveries run in the webhook worker), and SCIM provisioning of members
// and teams (package scim).
func Routes(api *httpapi.API, r *app.Root) {
	orgshttp.Register(api, orgswire.Service(r))
	audithttp.Register(api, auditwire.Service(r))
	grantshttp.Register(api, app.Service(r, func() *grants.Service {
		return grants.New(r.Deps, spaceswire.Service(r), collectionswire.Service(r), siteswire.Service(r), auditwire.Service(r))
	}))
	webhookshttp.Register(api, webhookswire.Service(r))
	scimhttp.Register(api, app.Service(r, func() *scim.Service {
		return scim.New(r.Deps, app.Users(r), orgswire.Service(r), auditwire.Service(r))
	}))
}
