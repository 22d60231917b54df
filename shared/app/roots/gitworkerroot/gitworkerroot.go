// Package gitworkerroot is the Git worker's composition root (package roots).
package gitworkerroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/gitsyncwire"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/app/wire/webhookswire"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/queue"
)

// Handlers are the Git worker's job handlers, by kind. Each job's outcome,
// and the change requests its conflicts open, are told to the webhooks.
func Handlers(r *app.Root) map[string]queue.Handler {
	ProvideEvents(r)
	return gitsyncwire.Service(r).Handlers()
}

// ProvideEvents gives the root's Git Sync and change requests services
// the webhooks' emitter (and, with a CDN, the invalidation of imported
// spaces' published pages); the roots running Git jobs call it before
// they build those services.
func ProvideEvents(r *app.Root) {
	app.Service(r, func() gitsync.Events { return webhookswire.Service(r) })
	app.Service(r, func() changerequests.Events { return siteswire.ContentEvents(r, webhookswire.Service(r)) })
}
