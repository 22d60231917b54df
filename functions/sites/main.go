// Command sites is the SitesFunction Lambda function: the sites family
// (docs sites, their sections, section groups, site spaces, share links,
// adaptive schema and published view). Built for provided.al2023 as
// "bootstrap" by `make build-SitesFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/sitesroot"
	"github.com/galleydocs/galley/shared/cdn/cloudfrontcdn"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
)

func main() {
	app.StartLambda(app.NewFamily("sites", "SitesFunction", sitesroot.Routes).WithQueues(sqsqueue.Connect).WithCDN(cloudfrontcdn.Connect))
}
