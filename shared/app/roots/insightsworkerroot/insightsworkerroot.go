// Package insightsworkerroot is the insights worker's composition root (package roots).
package insightsworkerroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/insightswire"
	"github.com/galleydocs/galley/shared/app/wire/webhookswire"
	"github.com/galleydocs/galley/shared/insights"
	"github.com/galleydocs/galley/shared/queue"
)

// Handlers are the insights worker's job handlers, by kind; the page
// feedback it counts is told to the webhooks.
func Handlers(r *app.Root) map[string]queue.Handler {
	ProvideEvents(r)
	return map[string]queue.Handler{insights.JobKind: insightswire.Service(r).Apply}
}

// Batches are the insights jobs' batch handler, by kind: local mode's
// queue runs its due jobs together, the AWS worker a delivery's
// (docs/insights.md).
func Batches(r *app.Root) map[string]queue.BatchHandler {
	ProvideEvents(r)
	return map[string]queue.BatchHandler{insights.JobKind: insightswire.Service(r).ApplyAll}
}

// ProvideEvents gives the root's insights service the webhooks' emitter;
// the roots that count events call it before they build that service.
func ProvideEvents(r *app.Root) insights.Events {
	return app.Service(r, func() insights.Events { return webhookswire.Service(r) })
}
