// Package insightsworkerroot is the insights worker's composition root (package roots).
package insightsworkerroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/insightswire"
	"github.com/galleydocs/galley/shared/insights"
	"github.com/galleydocs/galley/shared/queue"
)

// Handlers are the insights worker's job handlers, by kind.
func Handlers(r *app.Root) map[string]queue.Handler {
	return map[string]queue.Handler{insights.JobKind: insightswire.Service(r).Apply}
}
