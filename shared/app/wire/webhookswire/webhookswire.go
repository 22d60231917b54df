// Package webhookswire provides the process's webhooks service (package
// wire): the endpoints' operations, the emitter the families tell their
// events to, and the webhook worker's deliveries.
package webhookswire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/webhooks"
)

// Service is the root's webhooks service, delivering with the
// deployment's policy (webhooks.DefaultPolicy).
func Service(r *app.Root) *webhooks.Service {
	return app.Service(r, func() *webhooks.Service { return webhooks.New(r.Deps, webhooks.DefaultPolicy()) })
}
