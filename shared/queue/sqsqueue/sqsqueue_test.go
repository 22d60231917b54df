package sqsqueue_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// newQueue creates a queue no other test uses and returns a client and its URL.
func newQueue(t *testing.T) (*sqs.Client, string) {
	t.Helper()
	client := sqs.NewFromConfig(testkit.Moto().AWSConfig(t))
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	out, err := client.CreateQueue(t.Context(), &sqs.CreateQueueInput{QueueName: aws.String("galley-test-" + hex.EncodeToString(b))})
	if err != nil {
		t.Fatalf("create queue: %v", err)
	}
	return client, aws.ToString(out.QueueUrl)
}

// receive long-polls until it has n messages or ctx is done.
func receive(ctx context.Context, client *sqs.Client, url string, n int) ([]types.Message, error) {
	var msgs []types.Message
	for len(msgs) < n {
		out, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
			QueueUrl:                    aws.String(url),
			MaxNumberOfMessages:         int32(min(n-len(msgs), 10)),
			WaitTimeSeconds:             1,
			MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAll},
		})
		if err != nil {
			return msgs, err
		}
		msgs = append(msgs, out.Messages...)
	}
	return msgs, nil
}

func TestConformance(t *testing.T) {
	queuetest.RunTests(t, func(t *testing.T) queuetest.Harness {
		client, url := newQueue(t)
		return queuetest.Harness{
			Queue: sqsqueue.New(client, url),
			Receive: func(ctx context.Context) (queue.Job, error) {
				msgs, err := receive(ctx, client, url, 1)
				if err != nil {
					return queue.Job{}, err
				}
				var job queue.Job
				if err := json.Unmarshal([]byte(aws.ToString(msgs[0].Body)), &job); err != nil {
					return queue.Job{}, err
				}
				_, err = client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(url), ReceiptHandle: msgs[0].ReceiptHandle})
				return job, err
			},
		}
	})
}

// TestMessageBody pins the wire format: worker Lambdas of other builds, and
// people reading the dead-letter queue, rely on the body being the job's JSON.
func TestMessageBody(t *testing.T) {
	client, url := newQueue(t)
	q := sqsqueue.New(client, url)
	ctx := t.Context()
	if err := q.Enqueue(ctx, queue.Job{Kind: "git-import", Payload: json.RawMessage(`{"space":"s1"}`)}); err != nil {
		t.Fatal(err)
	}
	msgs, err := receive(ctx, client, url, 1)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal([]byte(aws.ToString(msgs[0].Body)), &body); err != nil {
		t.Fatalf("body is not JSON: %v", err)
	}
	var id string
	if err := json.Unmarshal(body["id"], &id); err != nil || len(id) != 32 {
		t.Errorf("id = %s, want 32 hex digits", body["id"])
	}
	if _, err := hex.DecodeString(id); err != nil {
		t.Errorf("id %q is not hex", id)
	}
	if string(body["kind"]) != `"git-import"` || string(body["payload"]) != `{"space":"s1"}` {
		t.Errorf("body = %s", aws.ToString(msgs[0].Body))
	}
}

func TestEnqueueToMissingQueue(t *testing.T) {
	client, url := newQueue(t)
	q := sqsqueue.New(client, url+"-does-not-exist")
	if err := q.Enqueue(t.Context(), queue.Job{Kind: "x"}); err == nil {
		t.Error("Enqueue to a missing queue succeeded")
	}
}

// captureLogs points slog's default logger, which Handler logs to, at a
// buffer for the rest of the test.
func captureLogs(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	return &buf
}

// TestHandler sends a mix of records through moto, turns what a Lambda
// event source mapping would deliver into an SQSEvent, and checks that exactly
// the records that cannot or did not succeed are reported.
func TestHandler(t *testing.T) {
	client, url := newQueue(t)
	q := sqsqueue.New(client, url)
	ctx := t.Context()
	send := func(body string) {
		t.Helper()
		if _, err := client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(url), MessageBody: aws.String(body)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, j := range []queue.Job{
		{ID: "good-1", Kind: "good", Payload: json.RawMessage(`{"n":1}`)},
		{ID: "fail-1", Kind: "fail"},
		{ID: "good-2", Kind: "good"},
		{ID: "unknown-1", Kind: "unknown"},
		{ID: "panic-1", Kind: "panic"},
	} {
		if err := q.Enqueue(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	send("this is not JSON")
	send(`{"kind":"good","payload":{"sent":"by hand, without id"}}`)
	const total = 7

	msgs, err := receive(ctx, client, url, total)
	if err != nil {
		t.Fatal(err)
	}
	ev := events.SQSEvent{}
	for _, m := range msgs {
		ev.Records = append(ev.Records, events.SQSMessage{
			MessageId:      aws.ToString(m.MessageId),
			ReceiptHandle:  aws.ToString(m.ReceiptHandle),
			Body:           aws.ToString(m.Body),
			Md5OfBody:      aws.ToString(m.MD5OfBody),
			Attributes:     m.Attributes,
			EventSource:    "aws:sqs",
			EventSourceARN: "arn:aws:sqs:us-east-1:123456789012:test",
			AWSRegion:      "us-east-1",
		})
	}

	logs := captureLogs(t)
	var handled []queue.Job
	h := sqsqueue.Handler(map[string]queue.Handler{
		"good":  func(_ context.Context, j queue.Job) error { handled = append(handled, j); return nil },
		"fail":  func(context.Context, queue.Job) error { return errors.New("downstream unavailable") },
		"panic": func(context.Context, queue.Job) error { panic("handler bug") },
	})
	resp, err := h(ctx, ev)
	if err != nil {
		t.Fatalf("Handler returned %v; a batch error would redeliver the good records too", err)
	}

	var wantFailed []string
	for _, r := range ev.Records {
		if !strings.Contains(r.Body, `"kind":"good"`) {
			wantFailed = append(wantFailed, r.MessageId)
		}
	}
	var gotFailed []string
	for _, f := range resp.BatchItemFailures {
		gotFailed = append(gotFailed, f.ItemIdentifier)
	}
	slices.Sort(wantFailed)
	slices.Sort(gotFailed)
	if !slices.Equal(gotFailed, wantFailed) {
		t.Errorf("failed ids = %v, want %v", gotFailed, wantFailed)
	}
	for _, id := range wantFailed {
		if !strings.Contains(logs.String(), id) {
			t.Errorf("failure of message %s not logged", id)
		}
	}

	if len(handled) != 3 {
		t.Fatalf("good handler ran %d times, want 3", len(handled))
	}
	// The message sent by hand, without job id, gets its message id instead.
	var byHand string
	for _, r := range ev.Records {
		if strings.Contains(r.Body, "by hand") {
			byHand = r.MessageId
		}
	}
	ids := []string{handled[0].ID, handled[1].ID, handled[2].ID}
	slices.Sort(ids)
	want := []string{byHand, "good-1", "good-2"}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("handled job ids = %v, want %v", ids, want)
	}
}

// TestHandlerAfterDeadline checks that records left when the invocation's
// time is up are reported for redelivery without being started.
func TestHandlerAfterDeadline(t *testing.T) {
	ran := false
	h := sqsqueue.Handler(map[string]queue.Handler{"good": func(context.Context, queue.Job) error { ran = true; return nil }})
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	captureLogs(t)
	resp, err := h(ctx, events.SQSEvent{Records: []events.SQSMessage{{MessageId: "m1", Body: `{"id":"a","kind":"good"}`}}})
	if err != nil || len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != "m1" {
		t.Errorf("Handler = %+v, %v; want m1 reported failed", resp, err)
	}
	if ran {
		t.Error("handler started after the deadline")
	}
}
