package sqsqueue_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/galleydocs/galley/shared/awsretry"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/testenv/faultproxy"
	"github.com/galleydocs/galley/shared/testkit"
)

// proxied returns a client of moto's SQS through a fault proxy, and the proxy.
func proxied(t *testing.T) (*sqs.Client, *faultproxy.Proxy) {
	t.Helper()
	p := faultproxy.New(t, faultproxy.Upstreams{Moto: testkit.Moto().Endpoint(t)})
	return sqs.NewFromConfig(p.Via(testkit.Moto().AWSConfig(t))), p
}

// messages receives what url holds after the enqueues: up to want, and
// one more long poll to see any extra.
func messages(t *testing.T, client *sqs.Client, url string, want int) []queue.Job {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	msgs, err := receive(ctx, client, url, want)
	if err != nil {
		t.Fatal(err)
	}
	more, _ := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 10, WaitTimeSeconds: 1})
	if more != nil {
		msgs = append(msgs, more.Messages...)
	}
	jobs := make([]queue.Job, len(msgs))
	for i, m := range msgs {
		if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &jobs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return jobs
}

var job = queue.Job{ID: "job-1", Kind: "openapi-fetch", Payload: json.RawMessage(`{}`)}

// Throttled sends are retried; throttling that lasts is ErrUnavailable.
func TestFaultsThrottledEnqueue(t *testing.T) {
	direct, url := newQueue(t)
	c, p := proxied(t)
	q := sqsqueue.New(c, url)
	p.Set(faultproxy.Rule{Service: faultproxy.SQS, Op: "SendMessage", Count: 2, Fault: faultproxy.SQSThrottling})
	if err := q.Enqueue(t.Context(), job); err != nil {
		t.Fatalf("enqueue with two throttled attempts: %v", err)
	}
	if jobs := messages(t, direct, url, 1); len(jobs) != 1 {
		t.Errorf("%d messages, want 1", len(jobs))
	}
	p.Set(faultproxy.Rule{Service: faultproxy.SQS, Op: "SendMessage", Fault: faultproxy.SQSThrottling})
	before := p.Calls(faultproxy.SQS, "SendMessage")
	if err := q.Enqueue(t.Context(), job); !errors.Is(err, queue.ErrUnavailable) {
		t.Errorf("enqueue under lasting throttling: %v, want ErrUnavailable", err)
	}
	if n := p.Calls(faultproxy.SQS, "SendMessage") - before; n != awsretry.MaxAttempts {
		t.Errorf("%d attempts, want %d", n, awsretry.MaxAttempts)
	}
}

// A send whose answer is lost is resent: a standard queue then holds the
// job twice (at-least-once: why every job is idempotent), a FIFO queue
// once (the job's id is its deduplication id).
func TestFaultsLostAnswerEnqueue(t *testing.T) {
	direct, url := newQueue(t)
	out, err := direct.CreateQueue(t.Context(), &sqs.CreateQueueInput{QueueName: aws.String("galley-test-fifo-lost.fifo"),
		Attributes: map[string]string{"FifoQueue": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	fifo := aws.ToString(out.QueueUrl)
	c, p := proxied(t)
	for _, tc := range []struct {
		url  string
		want int
	}{{url, 2}, {fifo, 1}} {
		p.Set(faultproxy.Rule{Service: faultproxy.SQS, Op: "SendMessage", Count: 1, Fault: faultproxy.DropAnswer})
		if err := sqsqueue.New(c, tc.url).Enqueue(t.Context(), job); err != nil {
			t.Fatalf("%s: enqueue: %v", tc.url, err)
		}
		jobs := messages(t, direct, tc.url, tc.want)
		if len(jobs) != tc.want {
			t.Errorf("%s: %d messages, want %d", tc.url, len(jobs), tc.want)
		}
		for _, j := range jobs {
			if j.ID != job.ID {
				t.Errorf("%s: job id %q, want %q", tc.url, j.ID, job.ID)
			}
		}
	}
}
