package infra_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
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
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/dynamostore"
	"github.com/galleydocs/galley/shared/testenv"
)

// gitKill is the Git worker's binary run as Lambda runs it (over DynamoDB
// Local and moto, through the AWS proxy), fed from a FIFO queue of moto's
// SQS, and killed with SIGKILL at random points of its jobs; the jobs are
// asked for through the API in this process, on the same table, bucket
// and queue, for one space synced with a repository served on loopback.
type gitKill struct {
	api      *apitest.Client
	st       store.Store
	sq       *sqs.Client
	queueURL string
	bin      string
	endpoint string
	table    string
	bucket   string
	// bare is the repository's bare directory, repo its URL, work a
	// clone the test commits from.
	bare, repo, work string
	space            string
	rng              *rand.Rand
	// window is how long after its start a process may be killed: a
	// little longer than a whole run takes.
	window time.Duration
	// kills, runs: SIGKILLs sent, processes started.
	kills, runs int
}

func newGitKill(tb testing.TB, seed uint64) *gitKill {
	tb.Helper()
	ctx := context.Background()
	g := &gitKill{bin: filepath.Join(binaries(tb), "gitworker"), rng: rand.New(rand.NewPCG(seed, 30)), bucket: "galley-gitkill"}
	tb.Logf("random seed %d", seed)
	var ddbEndpoint string
	ddbEndpoint, g.table = functionTable(tb)
	g.endpoint = newAWSProxy(tb, ddbEndpoint, moto.Endpoint(tb)).srv.URL
	cfg := moto.AWSConfig(tb)
	s3c := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })
	if _, err := s3c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(g.bucket)}); err != nil && !strings.Contains(err.Error(), "BucketAlreadyOwnedByYou") {
		tb.Fatal(err)
	}
	g.sq = sqs.NewFromConfig(cfg)
	q, err := g.sq.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("galley-gitkill-" + ids.New(time.Now()) + ".fifo"),
		Attributes: map[string]string{"FifoQueue": "true"}})
	if err != nil {
		tb.Fatal(err)
	}
	g.queueURL = aws.ToString(q.QueueUrl)
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(ddbEndpoint),
		Credentials: credentials.NewStaticCredentialsProvider("galley", "galley", "")})
	g.st = dynamostore.New(c, g.table)
	d, err := app.NewDeps(ctx, app.Config{FetchAllowPrivate: true}, deps.Deps{Store: g.st, Blobs: s3blob.New(s3c, g.bucket, ""),
		Queue: sqsqueue.New(g.sq, g.queueURL), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		tb.Fatal(err)
	}
	g.api = apitest.New(tb, app.NewAPI(app.Config{}, families.NewRoot(d), families.All()...))
	g.api.Token = sampleToken

	// The repository: one commit, pushes allowed.
	root := tb.TempDir()
	g.bare, g.work = filepath.Join(root, "docs.git"), tb.TempDir()
	testenv.Git(tb, root, "init", "-q", "--bare", "-b", "main", g.bare)
	testenv.Git(tb, g.bare, "config", "http.receivepack", "true")
	srv := httptest.NewServer(&cgi.Handler{Path: filepath.Join(testenv.GitExecPath(tb), "git-http-backend"),
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}})
	tb.Cleanup(srv.Close)
	g.repo = srv.URL + "/docs.git"
	testenv.Git(tb, g.work, "clone", "-q", g.bare, ".")
	g.commitFile(tb, "README.md", "# Docs\n\nHello.\n")

	org := g.api.Expect(http.StatusCreated, "POST", "/v1/orgs", map[string]any{"title": "Acme"}).Map(tb)["id"].(string)
	g.space = g.api.Expect(http.StatusCreated, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Docs"}).Map(tb)["id"].(string)
	// The first import, whole: how long a run takes sets the window.
	start := time.Now()
	g.api.Expect(http.StatusNoContent, "POST", "/v1/spaces/"+g.space+"/git/import", map[string]any{"url": g.repo, "ref": "refs/heads/main"})
	g.work1(tb, false)
	g.window = time.Since(start) * 3 / 2
	tb.Logf("a whole import, the process's start included, takes %v", time.Since(start))
	return g
}

// commitFile commits a file to main in the work clone (and its line in
// SUMMARY.md) and pushes it.
func (g *gitKill) commitFile(tb testing.TB, name, content string) {
	tb.Helper()
	if strings.TrimSpace(testenv.Git(tb, g.work, "ls-remote", "origin", "main")) != "" {
		testenv.Git(tb, g.work, "pull", "-q", "--ff-only", "origin", "main")
	}
	if err := os.WriteFile(filepath.Join(g.work, name), []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	// Listed in the table of contents, when the branch has one (an
	// export wrote it): files it does not list are not pages.
	if toc, err := os.ReadFile(filepath.Join(g.work, "SUMMARY.md")); err == nil {
		toc = append(toc, "* ["+strings.TrimSuffix(name, ".md")+"]("+name+")\n"...)
		if err := os.WriteFile(filepath.Join(g.work, "SUMMARY.md"), toc, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	testenv.Git(tb, g.work, "add", "-A")
	testenv.Git(tb, g.work, "commit", "-q", "-m", "Add "+name)
	testenv.Git(tb, g.work, "push", "-q", "origin", "HEAD:main")
}

// work1 runs the queue's one message through worker processes until one
// answers it without a failure (then deletes it, as Lambda's event source
// does). With kill, a process is killed (SIGKILL) at a random point of
// its first window, up to three times; a process killed, or answering a
// failure, leaves the message for the next.
func (g *gitKill) work1(tb testing.TB, kill bool) {
	tb.Helper()
	ctx := context.Background()
	for attempt := 0; ; attempt++ {
		out, err := g.sq.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(g.queueURL), MaxNumberOfMessages: 10,
			VisibilityTimeout: 300, MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameAll}})
		if err != nil {
			tb.Fatal(err)
		}
		if len(out.Messages) != 1 {
			tb.Fatalf("attempt %d: %d messages in the queue, want 1", attempt, len(out.Messages))
		}
		m := out.Messages[0]
		ev := lambdaevents.SQSEvent{Records: []lambdaevents.SQSMessage{{MessageId: aws.ToString(m.MessageId), ReceiptHandle: aws.ToString(m.ReceiptHandle),
			Body: aws.ToString(m.Body), Attributes: m.Attributes, EventSource: "aws:sqs", EventSourceARN: g.queueURL}}}
		raw, err := json.Marshal(ev)
		if err != nil {
			tb.Fatal(err)
		}
		rt := newRuntimeAPI(tb, raw)
		stop, logs := startFunctionWith(tb, g.bin, rt, g.endpoint, g.table, "BUCKET_NAME="+g.bucket, "FETCH_ALLOW_PRIVATE=1")
		g.runs++
		var killAt <-chan time.Time
		if kill && attempt < 3 {
			killAt = time.After(time.Duration(g.rng.Int64N(int64(g.window))))
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
			g.kills++
		case <-time.After(90 * time.Second):
			tb.Fatalf("the worker did not answer within 90 s; logs:\n%s", logs)
		}
		if done {
			if _, err := g.sq.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(g.queueURL), ReceiptHandle: m.ReceiptHandle}); err != nil {
				tb.Fatal(err)
			}
			return
		}
		// Visible again at once: SQS's delivery after the visibility
		// timeout, without the wait.
		if _, err := g.sq.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{QueueUrl: aws.String(g.queueURL),
			ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0}); err != nil {
			tb.Fatal(err)
		}
	}
}

// state reads the space's Git Sync state.
func (g *gitKill) state(tb testing.TB) model.GitSync {
	tb.Helper()
	st, _, err := gitstate.Get(context.Background(), g.st, g.space)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// settled checks that the space's last job ended once: a success, among
// the concluded jobs, no lease, nothing pending (0 stuck jobs).
func (g *gitKill) settled(tb testing.TB, what string) model.GitSync {
	tb.Helper()
	st := g.state(tb)
	if op := st.Operation; op == nil || op.State != model.GitSuccess || !strings.Contains(" "+strings.Join(st.Done, " ")+" ", " "+op.JobID+" ") ||
		st.Lease != nil || len(st.Pending) != 0 {
		tb.Fatalf("%s: operation %+v, lease %v, pending %v", what, st.Operation, st.Lease, st.Pending)
	}
	return st
}

// head is the space's head revision id and its parents.
func (g *gitKill) head(tb testing.TB) (string, []string) {
	tb.Helper()
	var rev struct {
		ID      string   `json:"id"`
		Parents []string `json:"parents"`
	}
	g.api.Expect(http.StatusOK, "GET", "/v1/spaces/"+g.space+"/content", nil).JSON(tb, &rev)
	return rev.ID, rev.Parents
}

// round asks for one job and works it with SIGKILLs: even rounds an
// export of a page added through a change request (one commit holding
// the page), odd rounds an import of a commit pushed to the branch (one
// revision on the head, holding the page).
func (g *gitKill) round(tb testing.TB, i int) {
	tb.Helper()
	marker := fmt.Sprintf("marker-%d-%d", i, g.rng.Int())
	head, _ := g.head(tb)
	if i%2 == 0 {
		crs := "/v1/spaces/" + g.space + "/change-requests"
		n := g.api.Expect(http.StatusCreated, "POST", crs, map[string]any{"subject": marker}).Map(tb)["number"].(float64)
		cr := fmt.Sprintf("%s/%d", crs, int(n))
		g.api.Expect(http.StatusOK, "POST", cr+"/content?compat=false", map[string]any{"changes": []map[string]any{
			{"operation": "insert_page", "ref": "p", "document": map[string]any{"markdown": "# Page " + marker + "\n\n" + marker + "\n"}}}})
		g.api.Expect(http.StatusOK, "POST", cr+"/merge", nil)
		tip := testenv.Git(tb, g.bare, "rev-parse", "refs/heads/main")
		g.api.Expect(http.StatusNoContent, "POST", "/v1/spaces/"+g.space+"/git/export",
			map[string]any{"url": g.repo, "ref": "refs/heads/main", "commitMessage": "Export " + marker})
		g.work1(tb, true)
		st := g.settled(tb, "export "+marker)
		if c := strings.TrimSpace(testenv.Git(tb, g.bare, "rev-list", "--count", strings.TrimSpace(tip)+"..refs/heads/main")); c != "1" {
			tb.Fatalf("export %s: %s commits, want 1", marker, c)
		}
		if !strings.Contains(testenv.Git(tb, g.bare, "grep", "-l", marker, "refs/heads/main"), ".md") || st.LastCommit != strings.TrimSpace(testenv.Git(tb, g.bare, "rev-parse", "refs/heads/main")) {
			tb.Fatalf("export %s: the page is not in the branch's commit, or the state's commit %s is not the branch's", marker, st.LastCommit)
		}
		return
	}
	g.commitFile(tb, marker+".md", "# "+marker+"\n\n"+marker+"\n")
	g.api.Expect(http.StatusNoContent, "POST", "/v1/spaces/"+g.space+"/git/import", map[string]any{"url": g.repo, "ref": "refs/heads/main"})
	g.work1(tb, true)
	st := g.settled(tb, "import "+marker)
	now, parents := g.head(tb)
	if now != st.LastRevision || len(parents) != 1 || parents[0] != head {
		tb.Fatalf("import %s: head %s (parents %v), the state's %s, before %s", marker, now, parents, st.LastRevision, head)
	}
	g.api.Expect(http.StatusOK, "GET", "/v1/spaces/"+g.space+"/content/path/"+marker, nil)
}

// The Git worker as a process, killed with SIGKILL at random points of
// imports and exports, then delivered the message again: each job ends a
// success once (nothing left running, leased or pending), each export one
// commit holding its page, each import one revision holding its page.
// Short (a few rounds): BenchmarkGitWorkerSIGKILL runs many.
func TestGitWorkerSIGKILLedEndsOnce(t *testing.T) {
	t.Parallel()
	g := newGitKill(t, uint64(time.Now().UnixNano()))
	start := time.Now()
	for i := range 4 {
		g.round(t, i)
	}
	t.Logf("%d rounds in %v: %d processes, %d killed", 4, time.Since(start).Round(time.Millisecond), g.runs, g.kills)
}

// BenchmarkGitWorkerSIGKILL is the test's rounds b.N times (run it with
// -benchtime=100x or more): it reports the SIGKILLs sent per round; any
// stuck job, duplicate commit or revision, or lost page fails it.
func BenchmarkGitWorkerSIGKILL(b *testing.B) {
	g := newGitKill(b, uint64(time.Now().UnixNano()))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		g.round(b, i)
	}
	b.ReportMetric(float64(g.kills)/float64(b.N), "kills/round")
	b.ReportMetric(float64(g.runs)/float64(b.N), "processes/round")
	b.Logf("%d rounds: %d processes, %d killed", b.N, g.runs, g.kills)
}
