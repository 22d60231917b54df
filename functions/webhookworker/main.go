// Command webhookworker is the WebhookWorkerFunction Lambda function: it
// makes the delivery attempts of the webhooks queue (SQS), each retry
// queued with its backoff as its delay, reporting failed records one by
// one. Built for provided.al2023 as "bootstrap" by `make
// build-WebhookWorkerFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app/roots/webhookworkerroot"
	"github.com/galleydocs/galley/shared/app/sqsworker"
)

func main() { sqsworker.StartWorker("webhookworker", webhookworkerroot.Handlers) }
