// Command openapiworker is the OpenAPIWorkerFunction Lambda function: it
// runs the openapi-fetch jobs of the jobs queue (SQS), reporting failed
// records one by one. Built for provided.al2023 as "bootstrap" by
// `make build-OpenAPIWorkerFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app/roots/openapiworkerroot"
	"github.com/galleydocs/galley/shared/app/sqsworker"
)

func main() { sqsworker.StartWorker("openapiworker", openapiworkerroot.Handlers) }
