package sqsqueue_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/testkit"
)

// On a FIFO queue a job is sent in its group, and a job enqueued twice
// (same id) is delivered once.
func TestFIFOGroupsAndDeduplicates(t *testing.T) {
	client := sqs.NewFromConfig(testkit.Moto().AWSConfig(t))
	out, err := client.CreateQueue(t.Context(), &sqs.CreateQueueInput{QueueName: aws.String("galley-test-fifo-" + t.Name() + ".fifo"),
		Attributes: map[string]string{"FifoQueue": "true"}})
	if err != nil {
		t.Fatalf("create FIFO queue: %v", err)
	}
	url := aws.ToString(out.QueueUrl)
	q := sqsqueue.New(client, url)
	ctx := t.Context()
	for _, j := range []queue.Job{
		{ID: "import-1", Kind: "git-import", Group: "space-a", Payload: json.RawMessage(`{}`)},
		{ID: "import-1", Kind: "git-import", Group: "space-a", Payload: json.RawMessage(`{}`)},
		{ID: "export-2", Kind: "git-export", Group: "space-a", Payload: json.RawMessage(`{}`)},
		{ID: "a job id that is far too long for SQS and has spaces/slashes " + string(make([]byte, 100)), Kind: "git-export", Payload: json.RawMessage(`{}`)},
	} {
		if err := q.Enqueue(ctx, j); err != nil {
			t.Fatalf("enqueue %s: %v", j.ID, err)
		}
	}
	var got []string
	for len(got) < 3 {
		res, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 10, WaitTimeSeconds: 1,
			MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAll}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Messages) == 0 {
			break
		}
		for _, m := range res.Messages {
			var j queue.Job
			if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &j); err != nil {
				t.Fatal(err)
			}
			got = append(got, j.ID[:min(len(j.ID), 8)]+"@"+m.Attributes["MessageGroupId"])
			client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(url), ReceiptHandle: m.ReceiptHandle})
		}
	}
	slices.Sort(got)
	if want := []string{"a job id@git-export", "export-2@space-a", "import-1@space-a"}; !slices.Equal(got, want) {
		t.Errorf("received %v, want %v", got, want)
	}
}

// After a failed record of a FIFO group, the group's later records of the
// batch are reported failed without running; other groups run.
func TestHandlerKeepsFIFOGroupsInOrder(t *testing.T) {
	var ran []string
	h := sqsqueue.Handler(map[string]queue.Handler{"k": func(ctx context.Context, j queue.Job) error {
		ran = append(ran, j.ID)
		if j.ID == "a1" {
			return errors.New("boom")
		}
		return nil
	}})
	rec := func(id, group string) events.SQSMessage {
		body, _ := json.Marshal(queue.Job{ID: id, Kind: "k", Group: group})
		return events.SQSMessage{MessageId: "m-" + id, Body: string(body), Attributes: map[string]string{"MessageGroupId": group}}
	}
	captureLogs(t)
	resp, err := h(context.Background(), events.SQSEvent{Records: []events.SQSMessage{rec("a0", "A"), rec("b0", "B"), rec("a1", "A"), rec("b1", "B"), rec("a2", "A")}})
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, f := range resp.BatchItemFailures {
		failed = append(failed, f.ItemIdentifier)
	}
	if !slices.Equal(ran, []string{"a0", "b0", "a1", "b1"}) || !slices.Equal(failed, []string{"m-a1", "m-a2"}) {
		t.Errorf("ran %v, failed %v; want a0 b0 a1 b1 run and m-a1 m-a2 failed", ran, failed)
	}
}
