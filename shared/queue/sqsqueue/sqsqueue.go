// Package sqsqueue implements the queue port on Amazon SQS (the AWS
// deployment): services enqueue with Queue, and worker Lambdas subscribed to
// the queue run the jobs through Handler.
package sqsqueue

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/galleydocs/galley/shared/awsretry"
	"github.com/galleydocs/galley/shared/queue"
)

// Queue is the SQS adapter. A message's body is the JSON of one queue.Job.
type Queue struct {
	client *sqs.Client
	url    string
}

var _ queue.Queue = (*Queue)(nil)

// MaxDelay is the longest delay SQS holds a message back.
const MaxDelay = 15 * time.Minute

// New returns a queue sending to queueURL.
func New(client *sqs.Client, queueURL string) *Queue {
	return &Queue{client: client, url: queueURL}
}

// Connect returns the constructor of queues at SQS URLs over one client
// (app.Family.Queues): the functions that enqueue jobs pass it, so that
// the others link no SQS client.
func Connect(cfg aws.Config) func(url string) queue.Queue {
	client := sqs.NewFromConfig(cfg)
	return func(url string) queue.Queue { return New(client, url) }
}

// Enqueue implements queue.Queue. A job without an ID gets a random one, so
// that handlers always have a key to make redelivery harmless.
func (q *Queue) Enqueue(ctx context.Context, job queue.Job) error {
	if job.Kind == "" {
		return errors.New("sqsqueue: enqueue: job has no kind")
	}
	if job.ID == "" {
		id, err := newID()
		if err != nil {
			return fmt.Errorf("sqsqueue: enqueue %s: %w", job.Kind, err)
		}
		job.ID = id
	}
	body, err := json.Marshal(job)
	if err != nil {
		return fmt.Errorf("sqsqueue: enqueue %s %s: encode: %w", job.Kind, job.ID, err)
	}
	in := &sqs.SendMessageInput{
		QueueUrl:    aws.String(q.url),
		MessageBody: aws.String(string(body)),
	}
	if job.Delay > 0 && !strings.HasSuffix(q.url, ".fifo") {
		// SQS counts whole seconds, at most 15 minutes; a FIFO queue has
		// no delay per message.
		in.DelaySeconds = int32(min((job.Delay+time.Second-1)/time.Second, MaxDelay/time.Second))
	}
	if strings.HasSuffix(q.url, ".fifo") {
		// A FIFO queue delivers one group's messages one at a time in
		// order, and drops a message whose deduplication id it saw in the
		// last five minutes: the job's id, so that enqueueing a job twice
		// sends it once.
		group := job.Group
		if group == "" {
			group = job.Kind
		}
		in.MessageGroupId = aws.String(group)
		in.MessageDeduplicationId = aws.String(dedupID(job.ID))
	}
	_, err = q.client.SendMessage(ctx, in)
	if err != nil {
		if awsretry.Transient(err) {
			return fmt.Errorf("sqsqueue: enqueue %s %s: %w: %w", job.Kind, job.ID, queue.ErrUnavailable, err)
		}
		return fmt.Errorf("sqsqueue: enqueue %s %s: %w", job.Kind, job.ID, err)
	}
	return nil
}

// dedupID fits a job id into SQS's deduplication ids (at most 128
// characters of a limited set): a hash when it does not.
func dedupID(id string) string {
	if len(id) <= 128 && strings.Trim(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == "" {
		return id
	}
	h := sha256.Sum256([]byte(id))
	return hex.EncodeToString(h[:])
}

// newID returns 16 random bytes in hex.
func newID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("job id: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Handler returns the function of a worker Lambda subscribed to the queue
// with ReportBatchItemFailures enabled: it runs each record's job with the
// handler of its kind and reports the records that failed, so that SQS
// redelivers only those (and, past the queue's maxReceiveCount, moves them
// to its dead-letter queue). A record that cannot succeed on any delivery
// (bad JSON, unknown kind) is reported failed too, which sends it to the
// dead-letter queue where it can be inspected. A panicking handler fails its
// record instead of the whole batch. Failures are logged with slog's default
// logger.
func Handler(handlers map[string]queue.Handler) func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	return BatchingHandler(handlers, nil)
}

// BatchingHandler is Handler giving the jobs of a kind that has a batch
// handler (and no Group) to it together, when a delivery holds several
// (as local mode's queue does, localqueue.RunBatched). When the batch
// handler fails, each of those jobs runs again on its own handler and
// only the ones failing there are reported (a batch handler may leave
// some jobs done: its jobs are idempotent).
func BatchingHandler(handlers map[string]queue.Handler, batches map[string]queue.BatchHandler) func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	return func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
		var resp events.SQSEventResponse
		failed := map[string]bool{}
		fail := func(rec events.SQSMessage, err error) {
			slog.ErrorContext(ctx, "sqs job failed", "messageId", rec.MessageId,
				"receiveCount", rec.Attributes["ApproximateReceiveCount"], "err", err)
			failed[rec.MessageId] = true
		}
		// The records batched, by kind (their jobs decoded).
		byKind := map[string][]int{}
		jobs := make([]queue.Job, len(ev.Records))
		for i, rec := range ev.Records {
			job, err := decodeJob(rec)
			if err != nil || batches[job.Kind] == nil || job.Group != "" || rec.Attributes["MessageGroupId"] != "" {
				continue
			}
			jobs[i] = job
			byKind[job.Kind] = append(byKind[job.Kind], i)
		}
		batched := map[int]bool{}
		for kind, is := range byKind {
			if len(is) < 2 {
				continue
			}
			for _, i := range is {
				batched[i] = true
			}
			batch := make([]queue.Job, len(is))
			for n, i := range is {
				batch[n] = jobs[i]
			}
			err := ctx.Err()
			if err == nil {
				err = runBatch(ctx, batches[kind], batch)
			}
			if err == nil {
				continue
			}
			slog.WarnContext(ctx, "sqs batch failed, its jobs run one by one", "kind", kind, "jobs", len(is), "err", err)
			for _, i := range is {
				if err := handleRecord(ctx, handlers, ev.Records[i]); err != nil {
					fail(ev.Records[i], err)
				}
			}
		}
		// On a FIFO queue, the records of a group after a failed one must
		// not run before it: they are reported failed too, and come back
		// after it, in order.
		failedGroups := map[string]bool{}
		for i, rec := range ev.Records {
			if batched[i] {
				continue
			}
			group := rec.Attributes["MessageGroupId"]
			if group != "" && failedGroups[group] {
				failed[rec.MessageId] = true
				continue
			}
			if err := handleRecord(ctx, handlers, rec); err != nil {
				if group != "" {
					failedGroups[group] = true
				}
				fail(rec, err)
			}
		}
		for _, rec := range ev.Records {
			if failed[rec.MessageId] {
				resp.BatchItemFailures = append(resp.BatchItemFailures,
					events.SQSBatchItemFailure{ItemIdentifier: rec.MessageId})
			}
		}
		return resp, nil
	}
}

// runBatch calls a batch handler, turning a panic into an error.
func runBatch(ctx context.Context, h queue.BatchHandler, jobs []queue.Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("batch of %d %s jobs panicked: %v\n%s", len(jobs), jobs[0].Kind, p, debug.Stack())
		}
	}()
	return h(ctx, jobs)
}

// decodeJob is a record's job; a message sent by other means than
// Enqueue may lack an ID: the message ID is stable across redeliveries,
// so it serves the same end.
func decodeJob(rec events.SQSMessage) (queue.Job, error) {
	var job queue.Job
	if err := json.Unmarshal([]byte(rec.Body), &job); err != nil {
		return job, fmt.Errorf("decode job: %w", err)
	}
	if job.ID == "" {
		job.ID = rec.MessageId
	}
	return job, nil
}

// handleRecord runs one record's job.
func handleRecord(ctx context.Context, handlers map[string]queue.Handler, rec events.SQSMessage) (err error) {
	// Once the invocation's deadline has passed, the remaining records are
	// left for redelivery rather than started.
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("not run: %w", err)
	}
	job, err := decodeJob(rec)
	if err != nil {
		return err
	}
	h := handlers[job.Kind]
	if h == nil {
		return fmt.Errorf("no handler for job kind %q", job.Kind)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("job %s %s panicked: %v\n%s", job.Kind, job.ID, p, debug.Stack())
		}
	}()
	if err := h(ctx, job); err != nil {
		return fmt.Errorf("job %s %s: %w", job.Kind, job.ID, err)
	}
	return nil
}
