// Command openapi is the OpenAPIFunction Lambda function: the OpenAPI specs
// family (specs, their versions and content; processing is enqueued for
// the OpenAPI worker). Built for provided.al2023 as "bootstrap" by
// `make build-OpenAPIFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/openapiroot"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
)

func main() {
	app.StartLambda(app.NewFamily("openapi", "OpenAPIFunction", openapiroot.Routes).WithQueues(sqsqueue.Connect))
}
