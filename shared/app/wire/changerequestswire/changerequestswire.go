// Package changerequestswire provides the process's change requests
// service (package wire).
package changerequestswire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/contentpdfwire"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/changerequests"
)

// Service is the root's change requests service. It posts reviews'
// comments through the comments family when the process provided it first
// (commentswire.ProvideReviewComments: the change requests function and
// local mode); elsewhere (Git Sync, imports) reviews are not served. Its
// organization list filters by site through the sites family when the
// process provided it first (changerequestsroot.ProvideSiteSpaces). It
// tells requests opened and merged to the webhooks when the process
// provided them first (changerequestsroot.ProvideEvents,
// gitworkerroot.ProvideEvents).
func Service(r *app.Root) *changerequests.Service {
	return app.Service(r, func() *changerequests.Service {
		return changerequests.New(r.Deps, contentwire.Service(r), contentpdfwire.Service(r), app.Optional[changerequests.ReviewCommenter](r),
			app.Optional[changerequests.Landings](r), app.Optional[changerequests.SiteSpaces](r), app.Optional[changerequests.Events](r))
	})
}

// Records are the root's change request records, what the comments family
// uses (comments.ChangeRequests).
func Records(r *app.Root) changerequests.Records {
	return app.Service(r, func() changerequests.Records { return changerequests.NewRecords(r.Deps) })
}
