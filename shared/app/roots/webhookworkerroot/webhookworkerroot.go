// Package webhookworkerroot is the webhook worker's composition root
// (package roots).
package webhookworkerroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/webhookswire"
	"github.com/galleydocs/galley/shared/queue"
)

// Handlers are the webhook worker's job handlers, by kind: one attempt of
// a delivery each.
func Handlers(r *app.Root) map[string]queue.Handler { return webhookswire.Service(r).Handlers() }
