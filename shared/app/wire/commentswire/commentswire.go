// Package commentswire provides the process's comments service (package
// wire).
package commentswire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/comments"
)

// Service is the root's comments service.
func Service(r *app.Root) *comments.Service {
	return app.Service(r, func() *comments.Service {
		return comments.New(r.Deps, contentwire.Service(r), changerequestswire.Records(r))
	})
}

// ProvideReviewComments gives the root's change requests service the
// comments service, which posts the comments given with reviews: the
// change requests family's root calls it before it builds that service.
func ProvideReviewComments(r *app.Root) changerequests.ReviewCommenter {
	return app.Service(r, func() changerequests.ReviewCommenter { return Service(r) })
}
