package testkit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
)

// SQSWorker is a queue of moto's SQS and the worker Lambda's side of it:
// its jobs are received as Lambda's event source receives them and run
// through sqsqueue.Handler, the deployment's path.
type SQSWorker struct {
	Client *sqs.Client
	URL    string
	// Queue enqueues to it (a kit's Deps.Queue).
	Queue queue.Queue
	// Batches are the worker's batch handlers, by kind (none: each job
	// on its own), as sqsworker.StartBatchingWorker gives them.
	Batches map[string]queue.BatchHandler
}

// NewSQSWorker creates a queue no other test uses (FIFO when fifo, with
// content-based deduplication off: the job id deduplicates).
func NewSQSWorker(t testing.TB, fifo bool) *SQSWorker {
	t.Helper()
	client := sqs.NewFromConfig(Moto().AWSConfig(t))
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	in := &sqs.CreateQueueInput{QueueName: aws.String("galley-jobs-" + hex.EncodeToString(b))}
	if fifo {
		in.QueueName = aws.String(*in.QueueName + ".fifo")
		in.Attributes = map[string]string{"FifoQueue": "true"}
	}
	out, err := client.CreateQueue(context.Background(), in)
	if err != nil {
		t.Fatalf("create queue: %v", err)
	}
	url := aws.ToString(out.QueueUrl)
	return &SQSWorker{Client: client, URL: url, Queue: sqsqueue.New(client, url)}
}

// Receive takes the queue's visible messages (at most 10) as one Lambda
// event, leaving them visible again at once (visibility timeout 0): not
// deleting them is what makes SQS deliver them again, as it does after a
// worker's visibility timeout.
func (w *SQSWorker) Receive(t testing.TB) (events.SQSEvent, []types.Message) {
	t.Helper()
	out, err := w.Client.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
		QueueUrl: aws.String(w.URL), MaxNumberOfMessages: 10,
		MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAll},
	})
	if err != nil {
		t.Fatalf("receive: %v", err)
	}
	var ev events.SQSEvent
	for _, m := range out.Messages {
		// Zero is the SDK's "unset" for ReceiveMessage's timeout: the
		// messages are made visible again one by one.
		if _, err := w.Client.ChangeMessageVisibility(context.Background(), &sqs.ChangeMessageVisibilityInput{
			QueueUrl: aws.String(w.URL), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0}); err != nil {
			t.Fatalf("change visibility: %v", err)
		}
		attrs := map[string]string{}
		for k, v := range m.Attributes {
			attrs[k] = v
		}
		ev.Records = append(ev.Records, events.SQSMessage{MessageId: aws.ToString(m.MessageId),
			ReceiptHandle: aws.ToString(m.ReceiptHandle), Body: aws.ToString(m.Body), Attributes: attrs,
			EventSource: "aws:sqs", EventSourceARN: w.URL})
	}
	if len(out.Messages) > 0 {
		// moto makes a message visible again only once its visibility
		// time is strictly past, in milliseconds: a receive within the
		// same millisecond (a job that failed at once) would not see it.
		time.Sleep(2 * time.Millisecond)
	}
	return ev, out.Messages
}

// Deliver receives the visible messages and runs them through
// sqsqueue.BatchingHandler(handlers, w.Batches); it deletes the ones that succeeded (as
// Lambda's event source does) and returns how many there were and the
// ids of those that failed (left for delivery again).
func (w *SQSWorker) Deliver(t testing.TB, handlers map[string]queue.Handler) (n int, failed []string) {
	t.Helper()
	ev, msgs := w.Receive(t)
	res, err := sqsqueue.BatchingHandler(handlers, w.Batches)(context.Background(), ev)
	if err != nil {
		t.Fatalf("handler: %v", err)
	}
	for _, f := range res.BatchItemFailures {
		failed = append(failed, f.ItemIdentifier)
	}
	for _, m := range msgs {
		if !slices.Contains(failed, aws.ToString(m.MessageId)) {
			w.Delete(t, m)
		}
	}
	return len(msgs), failed
}

// Delete deletes a received message.
func (w *SQSWorker) Delete(t testing.TB, m types.Message) {
	t.Helper()
	if _, err := w.Client.DeleteMessage(context.Background(), &sqs.DeleteMessageInput{QueueUrl: aws.String(w.URL), ReceiptHandle: m.ReceiptHandle}); err != nil {
		t.Fatalf("delete message: %v", err)
	}
}

// Purge drops every message (a job lost: its message past the
// dead-letter queue, or never sent).
func (w *SQSWorker) Purge(t testing.TB) {
	t.Helper()
	for {
		_, msgs := w.Receive(t)
		if len(msgs) == 0 {
			return
		}
		for _, m := range msgs {
			w.Delete(t, m)
		}
	}
}
