package lambdarun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	lambdaevents "github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// EventSource is Lambda's event source mapping from an SQS queue to a
// worker function (ReportBatchItemFailures): it receives up to Batch
// messages at a time, hiding them for Visibility; invokes the function
// with them; deletes the messages the function did not report failed; a
// reported failure, a function error, a killed process or a timeout
// leave their messages in the queue, seen again once Visibility has
// passed since they were received (SQS's redelivery; the queue's
// redrive policy dead-letters a message received too often).
type EventSource struct {
	SQS        *sqs.Client
	QueueURL   string
	Function   *Function
	Batch      int32
	Visibility time.Duration
	// MaxReceives is the redrive policy's maxReceiveCount: a message
	// received more often is dead-lettered (counted, and deleted).
	MaxReceives int

	invocations, failed, redelivered, dead atomic.Int64
}

// Run delivers messages until ctx ends.
func (e *EventSource) Run(ctx context.Context) {
	for ctx.Err() == nil {
		out, err := e.SQS.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(e.QueueURL),
			MaxNumberOfMessages: e.Batch, WaitTimeSeconds: 1, VisibilityTimeout: int32(e.Visibility / time.Second),
			MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameAll}})
		if err != nil || len(out.Messages) == 0 {
			if err != nil && ctx.Err() == nil {
				time.Sleep(100 * time.Millisecond)
			}
			continue
		}
		e.deliver(ctx, out.Messages)
	}
}

func (e *EventSource) deliver(ctx context.Context, msgs []sqstypes.Message) {
	arn := "arn:aws:sqs:us-east-1:000000000000:" + e.QueueURL[strings.LastIndex(e.QueueURL, "/")+1:]
	var ev lambdaevents.SQSEvent
	var live []sqstypes.Message
	for _, m := range msgs {
		attrs := m.Attributes
		var n int
		_, _ = fmt.Sscan(attrs["ApproximateReceiveCount"], &n)
		if e.MaxReceives > 0 && n > e.MaxReceives {
			e.dead.Add(1)
			_, _ = e.SQS.DeleteMessage(context.WithoutCancel(ctx), &sqs.DeleteMessageInput{QueueUrl: aws.String(e.QueueURL), ReceiptHandle: m.ReceiptHandle})
			continue
		}
		if n > 1 {
			e.redelivered.Add(1)
		}
		live = append(live, m)
		ev.Records = append(ev.Records, lambdaevents.SQSMessage{MessageId: aws.ToString(m.MessageId),
			ReceiptHandle: aws.ToString(m.ReceiptHandle), Body: aws.ToString(m.Body), Attributes: attrs,
			EventSource: "aws:sqs", EventSourceARN: arn, AWSRegion: "us-east-1"})
	}
	if len(live) == 0 {
		return
	}
	msgs = live
	raw, err := json.Marshal(ev)
	if err != nil {
		panic(err)
	}
	e.invocations.Add(1)
	out, err := e.Function.Invoke(ctx, raw)
	failed := map[string]bool{}
	if err == nil {
		var res lambdaevents.SQSEventResponse
		if json.Unmarshal(out, &res) != nil {
			err = fmt.Errorf("not a batch answer: %s", out)
		}
		for _, f := range res.BatchItemFailures {
			failed[f.ItemIdentifier] = true
		}
	}
	var done []sqstypes.DeleteMessageBatchRequestEntry
	for i, m := range msgs {
		if err != nil || failed[aws.ToString(m.MessageId)] {
			e.failed.Add(1)
			continue
		}
		done = append(done, sqstypes.DeleteMessageBatchRequestEntry{Id: aws.String(fmt.Sprint(i)), ReceiptHandle: m.ReceiptHandle})
	}
	if len(done) > 0 {
		// The event source's own delete: retried until it succeeds (the
		// test's client, not the function's).
		for attempt := 0; attempt < 5; attempt++ {
			if _, derr := e.SQS.DeleteMessageBatch(context.WithoutCancel(ctx), &sqs.DeleteMessageBatchInput{QueueUrl: aws.String(e.QueueURL), Entries: done}); derr == nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// Counts answers the invocations made, the messages left failed (each
// seen again after Visibility), the messages received again, and those
// dead-lettered.
func (e *EventSource) Counts() (invocations, failed, redelivered, dead int) {
	return int(e.invocations.Load()), int(e.failed.Load()), int(e.redelivered.Load()), int(e.dead.Load())
}

// QueueDepth is the messages of a queue, visible or in flight.
func QueueDepth(ctx context.Context, c *sqs.Client, url string) (int, error) {
	out, err := c.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(url),
		AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameApproximateNumberOfMessages,
			sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible, sqstypes.QueueAttributeNameApproximateNumberOfMessagesDelayed}})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, k := range []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameApproximateNumberOfMessages,
		sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible, sqstypes.QueueAttributeNameApproximateNumberOfMessagesDelayed} {
		var v int
		if _, err := fmt.Sscan(out.Attributes[string(k)], &v); err != nil {
			return 0, errors.Join(fmt.Errorf("attribute %s: %q", k, out.Attributes[string(k)]), err)
		}
		n += v
	}
	return n, nil
}
