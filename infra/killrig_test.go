package infra_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	lambdaevents "github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/blob/s3blob"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/dynamostore"
	"github.com/galleydocs/galley/shared/testenv/lambdarun"
)

// killRig is a worker's binary run as Lambda runs it (over DynamoDB Local
// and moto, through the AWS proxy), fed from a queue of moto's SQS, and
// killed with SIGKILL at random points of its jobs; the jobs are asked
// for through the API in this process, on the same table, bucket and
// queue, in one organization. The Git worker's and the OpenAPI worker's
// kill tests share it.
type killRig struct {
	api      *apitest.Client
	st       store.Store
	sq       *sqs.Client
	queueURL string
	bin      string
	endpoint string
	table    string
	bucket   string
	// env is the worker's environment beyond the rig's.
	env []string
	org string
	rng *rand.Rand
	// window is how long after its start a process may be killed: a
	// little longer than a whole run takes (setWindow).
	window time.Duration
	// kills, runs: SIGKILLs sent, processes started.
	kills, runs int
}

// newKillRig makes the rig of worker (a binary of functions/), its queue
// FIFO or not, its random choices from seed.
func newKillRig(tb testing.TB, worker string, fifo bool, seed uint64) *killRig {
	tb.Helper()
	ctx := context.Background()
	k := &killRig{bin: filepath.Join(binaries(tb), worker), rng: rand.New(rand.NewPCG(seed, 30)), bucket: "galley-kill-" + worker}
	tb.Logf("random seed %d", seed)
	var ddbEndpoint string
	ddbEndpoint, k.table = functionTable(tb)
	k.endpoint = newAWSProxy(tb, ddbEndpoint, moto.Endpoint(tb)).srv.URL
	k.env = []string{"BUCKET_NAME=" + k.bucket, "FETCH_ALLOW_PRIVATE=1"}
	cfg := moto.AWSConfig(tb)
	s3c := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })
	if _, err := s3c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(k.bucket)}); err != nil && !strings.Contains(err.Error(), "BucketAlreadyOwnedByYou") {
		tb.Fatal(err)
	}
	k.sq = sqs.NewFromConfig(cfg)
	name, attrs := "galley-kill-"+worker+"-"+ids.New(time.Now()), map[string]string{}
	if fifo {
		name, attrs["FifoQueue"] = name+".fifo", "true"
	}
	q, err := k.sq.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: attrs})
	if err != nil {
		tb.Fatal(err)
	}
	k.queueURL = aws.ToString(q.QueueUrl)
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(ddbEndpoint),
		Credentials: credentials.NewStaticCredentialsProvider("galley", "galley", "")})
	k.st = dynamostore.New(c, k.table)
	d, err := app.NewDeps(ctx, app.Config{FetchAllowPrivate: true}, deps.Deps{Store: k.st, Blobs: s3blob.New(s3c, k.bucket, ""),
		Queue: sqsqueue.New(k.sq, k.queueURL), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		tb.Fatal(err)
	}
	k.api = apitest.New(tb, app.NewAPI(app.Config{}, families.NewRoot(d), families.All()...))
	k.api.Token = sampleToken
	k.org = k.api.Expect(http.StatusCreated, "POST", "/v1/orgs", map[string]any{"title": "Acme"}).Map(tb)["id"].(string)
	return k
}

// setWindow runs the job asked for by ask whole (a fresh process, not
// killed), and sets the window of kills to 1.5× the time it took.
func (k *killRig) setWindow(tb testing.TB, what string, ask func()) {
	tb.Helper()
	start := time.Now()
	ask()
	k.work1(tb, false)
	k.window = time.Since(start) * 3 / 2
	tb.Logf("a whole %s, the process's start included, takes %v", what, time.Since(start))
}

// work1 runs the queue's one message through worker processes until one
// answers it without a failure (then deletes it, as Lambda's event source
// does). With kill, a process is killed (SIGKILL) at a random point of
// its first window, up to three times; a process killed, or answering a
// failure, leaves the message for the next.
func (k *killRig) work1(tb testing.TB, kill bool) {
	tb.Helper()
	ctx := context.Background()
	for attempt := 0; ; attempt++ {
		out, err := k.sq.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(k.queueURL), MaxNumberOfMessages: 10,
			VisibilityTimeout: 300, MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameAll}})
		if err != nil {
			tb.Fatal(err)
		}
		if len(out.Messages) != 1 {
			tb.Fatalf("attempt %d: %d messages in the queue, want 1", attempt, len(out.Messages))
		}
		m := out.Messages[0]
		ev := lambdaevents.SQSEvent{Records: []lambdaevents.SQSMessage{{MessageId: aws.ToString(m.MessageId), ReceiptHandle: aws.ToString(m.ReceiptHandle),
			Body: aws.ToString(m.Body), Attributes: m.Attributes, EventSource: "aws:sqs", EventSourceARN: k.queueURL}}}
		raw, err := json.Marshal(ev)
		if err != nil {
			tb.Fatal(err)
		}
		rt := newRuntimeAPI(tb, raw)
		stop, logs := lambdarun.Start(tb, k.bin, rt.addr(), k.endpoint, k.table, k.env...)
		k.runs++
		var killAt <-chan time.Time
		if kill && attempt < 3 {
			killAt = time.After(time.Duration(k.rng.Int64N(int64(k.window))))
		}
		done := false
		select {
		case got := <-rt.answers:
			stop()
			var res lambdaevents.SQSEventResponse
			if got.path != "invocation/req-1/response" || json.Unmarshal(got.body, &res) != nil {
				tb.Fatalf("the worker posted %s: %s; logs:\n%s", got.path, got.body, logs)
			}
			done = len(res.BatchItemFailures) == 0
		case <-killAt:
			stop() // os.Process.Kill: SIGKILL
			k.kills++
		case <-time.After(90 * time.Second):
			tb.Fatalf("the worker did not answer within 90 s; logs:\n%s", logs)
		}
		if done {
			if _, err := k.sq.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(k.queueURL), ReceiptHandle: m.ReceiptHandle}); err != nil {
				tb.Fatal(err)
			}
			return
		}
		// Visible again at once: SQS's delivery after the visibility
		// timeout, without the wait.
		if _, err := k.sq.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{QueueUrl: aws.String(k.queueURL),
			ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0}); err != nil {
			tb.Fatal(err)
		}
	}
}

// rounds runs n rounds of a short kill test (round i asks for a job and
// works it with kills, then checks its outcome) and logs the kills.
func (k *killRig) rounds(t *testing.T, n int, round func(testing.TB, int)) {
	t.Helper()
	start := time.Now()
	for i := range n {
		round(t, i)
	}
	t.Logf("%d rounds in %v: %d processes, %d killed", n, time.Since(start).Round(time.Millisecond), k.runs, k.kills)
}

// bench runs round b.N times (a kill benchmark: -benchtime=100x or more)
// and reports the SIGKILLs sent and processes started per round.
func (k *killRig) bench(b *testing.B, round func(testing.TB, int)) {
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		round(b, i)
	}
	b.ReportMetric(float64(k.kills)/float64(b.N), "kills/round")
	b.ReportMetric(float64(k.runs)/float64(b.N), "processes/round")
	b.Logf("%d rounds: %d processes, %d killed", b.N, k.runs, k.kills)
}

// BenchmarkWorkerSIGKILL runs each worker's kill test rounds b.N times
// (-benchtime=100x or more; -bench 'WorkerSIGKILL/git' for one worker):
// it reports the SIGKILLs sent and processes started per round; any
// stuck job or duplicated outcome (commit, revision, version) or lost
// page fails it.
func BenchmarkWorkerSIGKILL(b *testing.B) {
	b.Run("git", func(b *testing.B) { g := newGitKill(b, uint64(time.Now().UnixNano())); g.bench(b, g.round) })
	b.Run("openapi", func(b *testing.B) { o := newOpenAPIKill(b, uint64(time.Now().UnixNano())); o.bench(b, o.round) })
}
