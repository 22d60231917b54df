// Package insightswire provides the process's insights service (package wire).
package insightswire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/insights"
)

// Service is the root's insights service. It tells the page feedback it
// counts to the webhooks when the process provided them first
// (insightsworkerroot.ProvideEvents: the insights worker and local mode).
func Service(r *app.Root) *insights.Service {
	return app.Service(r, func() *insights.Service {
		return insights.New(r.Deps, siteswire.Service(r), app.Optional[insights.Events](r))
	})
}
