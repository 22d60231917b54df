package sqsqueue_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/testkit"
)

// sent records the DelaySeconds of each SendMessage on its way to moto
// (-1: none).
type sent struct {
	mu     sync.Mutex
	delays []int
	next   aws.HTTPClient
}

func (s *sent) Do(r *http.Request) (*http.Response, error) {
	if r.Header.Get("X-Amz-Target") == "AmazonSQS.SendMessage" {
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		var in struct{ DelaySeconds *int }
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, err
		}
		d := -1
		if in.DelaySeconds != nil {
			d = *in.DelaySeconds
		}
		s.mu.Lock()
		s.delays = append(s.delays, d)
		s.mu.Unlock()
	}
	return s.next.Do(r)
}

func (s *sent) take() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.delays
	s.delays = nil
	return out
}

// A job's Delay is SQS's DelaySeconds on a standard queue, rounded up to
// a second and capped at 15 minutes, and moto holds such messages back;
// a FIFO queue takes no per-message delay, so none is sent there.
func TestDelayIsDelaySeconds(t *testing.T) {
	cfg := testkit.Moto().AWSConfig(t)
	rec := &sent{next: cfg.HTTPClient}
	if rec.next == nil {
		rec.next = http.DefaultClient
	}
	cfg.HTTPClient = rec
	client := sqs.NewFromConfig(cfg)
	ctx := t.Context()
	out, err := client.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("galley-test-delay-" + strconv.FormatInt(time.Now().UnixNano(), 36))})
	if err != nil {
		t.Fatal(err)
	}
	url := aws.ToString(out.QueueUrl)
	q := sqsqueue.New(client, url)
	for _, d := range []time.Duration{0, 10*time.Minute + time.Millisecond, 20 * time.Minute, 300 * time.Millisecond} {
		if err := q.Enqueue(ctx, queue.Job{Kind: "webhook-deliver", Payload: json.RawMessage(`{}`), Delay: d}); err != nil {
			t.Fatalf("enqueue with delay %s: %v", d, err)
		}
	}
	if got, want := rec.take(), []int{-1, 601, 900, 1}; !slices.Equal(got, want) {
		t.Errorf("DelaySeconds sent %v, want %v", got, want)
	}
	// The two long-delayed messages are held back (the short one may be
	// out already): only the undelayed one, perhaps the short one, come.
	attrs, err := client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(url),
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameApproximateNumberOfMessagesDelayed}})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := strconv.Atoi(attrs.Attributes[string(types.QueueAttributeNameApproximateNumberOfMessagesDelayed)]); n < 2 {
		t.Errorf("%d messages delayed, want at least the 10- and 15-minute ones", n)
	}
	msgs, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs.Messages) == 0 || len(msgs.Messages) > 2 {
		t.Errorf("received %d messages at once, want the undelayed one (and perhaps the 1-second one)", len(msgs.Messages))
	}

	fifo, err := client.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("galley-test-delay-" + t.Name() + ".fifo"),
		Attributes: map[string]string{"FifoQueue": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sqsqueue.New(client, aws.ToString(fifo.QueueUrl)).Enqueue(ctx, queue.Job{ID: "j1", Kind: "git-import", Payload: json.RawMessage(`{}`), Delay: time.Minute}); err != nil {
		t.Fatalf("enqueue with a delay on a FIFO queue: %v", err)
	}
	if got := rec.take(); !slices.Equal(got, []int{-1}) {
		t.Errorf("DelaySeconds sent to a FIFO queue: %v", got)
	}
}
