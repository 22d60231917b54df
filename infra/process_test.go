package infra_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	lambdaevents "github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/galleydocs/galley/events"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testenv/lambdarun"
	"github.com/galleydocs/galley/shared/users"
)

// awsProxy stands between one function process and its AWS services: it
// sends DynamoDB calls to DynamoDB Local and S3 and SQS calls to moto, and
// records each call as the IAM action it needs (dynamodb:GetItem,
// s3:PutObject, sqs:SendMessage...), with the partition keys it writes.
type awsProxy struct {
	srv       *httptest.Server
	ddb, moto *httputil.ReverseProxy
	mu        sync.Mutex
	actions   map[string]bool
	// writes are the partition keys of DynamoDB writes.
	writes map[string]bool
}

func newAWSProxy(tb testing.TB, ddbEndpoint, motoEndpoint string) *awsProxy {
	du, _ := url.Parse(ddbEndpoint)
	mu, _ := url.Parse(motoEndpoint)
	p := &awsProxy{ddb: httputil.NewSingleHostReverseProxy(du), moto: httputil.NewSingleHostReverseProxy(mu),
		actions: map[string]bool{}, writes: map[string]bool{}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	tb.Cleanup(p.srv.Close)
	return p
}

func (p *awsProxy) record(action string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.actions[action] = true
}

func (p *awsProxy) serve(w http.ResponseWriter, r *http.Request) {
	target := r.Header.Get("X-Amz-Target")
	switch {
	case strings.HasPrefix(target, "DynamoDB_20120810."):
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		op := strings.TrimPrefix(target, "DynamoDB_20120810.")
		p.recordDynamoDB(op, body)
		p.ddb.ServeHTTP(w, r)
	case strings.HasPrefix(target, "AmazonSQS."):
		op := strings.TrimPrefix(target, "AmazonSQS.")
		if op == "SendMessageBatch" {
			op = "SendMessage" // the same IAM action
		}
		p.record("sqs:" + op)
		p.moto.ServeHTTP(w, r)
	default: // S3, path-style: /bucket[/key]
		parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 2)
		object := len(parts) == 2 && parts[1] != ""
		switch {
		case object && (r.Method == http.MethodGet || r.Method == http.MethodHead):
			p.record("s3:GetObject")
		case object && r.Method == http.MethodPut:
			p.record("s3:PutObject")
		case object && r.Method == http.MethodDelete:
			p.record("s3:DeleteObject")
		case !object && r.Method == http.MethodGet:
			p.record("s3:ListBucket")
		case !object && r.Method == http.MethodPost && r.URL.Query().Has("delete"):
			p.record("s3:DeleteObject")
		default:
			p.record("s3:" + r.Method + " " + r.URL.Path)
		}
		p.moto.ServeHTTP(w, r)
	}
}

// recordDynamoDB records a DynamoDB call: a transaction as the actions of
// its items (IAM checks TransactWriteItems per item), and the partition
// key of every write.
func (p *awsProxy) recordDynamoDB(op string, body []byte) {
	type key map[string]struct {
		S string `json:"S"`
	}
	var in struct {
		Item          key `json:"Item"`
		Key           key `json:"Key"`
		TransactItems []struct {
			Put            *struct{ Item key } `json:"Put"`
			Update         *struct{ Key key }  `json:"Update"`
			Delete         *struct{ Key key }  `json:"Delete"`
			ConditionCheck *struct{ Key key }  `json:"ConditionCheck"`
		} `json:"TransactItems"`
	}
	_ = json.Unmarshal(body, &in)
	write := func(action string, k key) {
		p.record("dynamodb:" + action)
		p.mu.Lock()
		p.writes[k["PK"].S] = true
		p.mu.Unlock()
	}
	switch op {
	case "PutItem":
		write("PutItem", in.Item)
	case "UpdateItem", "DeleteItem":
		write(op, in.Key)
	case "TransactWriteItems":
		for _, t := range in.TransactItems {
			switch {
			case t.Put != nil:
				write("PutItem", t.Put.Item)
			case t.Update != nil:
				write("UpdateItem", t.Update.Key)
			case t.Delete != nil:
				write("DeleteItem", t.Delete.Key)
			case t.ConditionCheck != nil:
				p.record("dynamodb:ConditionCheckItem")
			}
		}
	default:
		p.record("dynamodb:" + op)
	}
}

// The actions of the policy templates template.yaml uses (AWS SAM's
// policy templates).
var policyActions = map[string][]string{
	"DynamoDBCrudPolicy": {"dynamodb:GetItem", "dynamodb:DeleteItem", "dynamodb:PutItem", "dynamodb:Scan", "dynamodb:Query",
		"dynamodb:UpdateItem", "dynamodb:BatchWriteItem", "dynamodb:BatchGetItem", "dynamodb:DescribeTable", "dynamodb:ConditionCheckItem"},
	"DynamoDBReadPolicy": {"dynamodb:GetItem", "dynamodb:Scan", "dynamodb:Query", "dynamodb:BatchGetItem", "dynamodb:DescribeTable"},
	"S3CrudPolicy": {"s3:GetObject", "s3:ListBucket", "s3:GetBucketLocation", "s3:GetObjectVersion", "s3:PutObject",
		"s3:PutObjectAcl", "s3:GetLifecycleConfiguration", "s3:PutLifecycleConfiguration", "s3:DeleteObject"},
	"SQSSendMessagePolicy": {"sqs:SendMessage"},
	"S3ReadPolicy":         {"s3:GetObject", "s3:ListBucket", "s3:GetBucketLocation", "s3:GetObjectVersion", "s3:GetLifecycleConfiguration"},
}

// onlySecretOrTokens tells writes (partition keys) that only the
// installation secret and API tokens' items are among.
func onlySecretOrTokens(writes map[string]bool) bool {
	for pk := range writes {
		if pk != "INSTANCE" && !strings.HasPrefix(pk, "TOKEN#") {
			return false
		}
	}
	return true
}

// allowed says whether a function's grants allow what its process did.
func allowed(name string, actions, writes map[string]bool) []string {
	g := grants[name]
	ok := map[string]bool{}
	add := func(policy string) {
		for _, a := range policyActions[policy] {
			ok[a] = true
		}
	}
	switch g.table {
	case tableCrud:
		add("DynamoDBCrudPolicy")
	case tableRead:
		add("DynamoDBReadPolicy")
	}
	if g.blobs {
		add("S3CrudPolicy")
	}
	if blobReaders[name] {
		add("S3ReadPolicy")
	}
	add("SQSSendMessagePolicy") // checked against the queue variables by TestTemplatePoliciesAreLeastPrivilege
	var denied []string
	for a := range actions {
		if ok[a] {
			continue
		}
		// A read-only function may put the installation secret and a
		// token's last use, nothing else.
		if g.table == tableRead && a == "dynamodb:PutItem" && onlySecretOrTokens(writes) {
			continue
		}
		denied = append(denied, a)
	}
	sort.Strings(denied)
	return denied
}

var moto = testenv.NewMoto()

// samples are a function's sample events (events/<name>-*.json).
func samples(tb testing.TB, name string) []string {
	matches, _ := filepath.Glob(filepath.Join("..", "events", name+"-*.json"))
	sort.Strings(matches)
	if len(matches) == 0 {
		tb.Fatalf("no sample event events/%s-*.json", name)
	}
	return matches
}

// Every function's binary, run as Lambda runs it over DynamoDB Local and
// moto (S3 and SQS), answers each of its sample events as the same code
// does in process (the same status and fields; for a worker, the same
// failed records), and calls nothing its policy in template.yaml does not
// allow.
func TestFunctionProcessesAnswerAsInProcessWithinTheirPolicies(t *testing.T) {
	t.Parallel() // the longest tests of the package overlap (CI time, issue 24)
	dir := binaries(t)
	ddbEndpoint := ddb.Endpoint(t)
	motoEndpoint := moto.Endpoint(t)
	ctx := context.Background()
	cfg := moto.AWSConfig(t)
	const bucket = "galley-functions"
	if _, err := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }).CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil && !strings.Contains(err.Error(), "BucketAlreadyOwnedByYou") {
		t.Fatal(err)
	}
	sq := sqs.NewFromConfig(cfg)
	queues := map[string]string{}
	for env, q := range map[string]*sqs.CreateQueueInput{
		"QUEUE_URL":     {QueueName: aws.String("galley-jobs")},
		"GIT_QUEUE_URL": {QueueName: aws.String("galley-git.fifo"), Attributes: map[string]string{"FifoQueue": "true"}},
		// The reader function sends the events its sites' pages post.
		"INSIGHTS_QUEUE_URL": {QueueName: aws.String("galley-insights")},
	} {
		out, err := sq.CreateQueue(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		queues[env] = *out.QueueUrl
	}
	tpl := readTemplate(t)
	for _, name := range lambdarun.FunctionNames() {
		t.Run(name, func(t *testing.T) {
			function := functionOf(t, name)
			env := decode[struct {
				Environment struct {
					Variables map[string]any `yaml:"Variables"`
				} `yaml:"Environment"`
			}](t, function, tpl.Resources[function].Properties)
			proxy := newAWSProxy(t, ddbEndpoint, motoEndpoint)
			for _, sample := range samples(t, name) {
				raw, err := os.ReadFile(sample)
				if err != nil {
					t.Fatal(err)
				}
				var table string
				var local *localStores
				if events.Seeds[filepath.Base(sample)] != nil {
					table, local, raw = seedSample(t, filepath.Base(sample), raw, bucket)
				} else {
					_, table = functionTable(t)
				}
				extra := []string{"BUCKET_NAME=" + bucket}
				for v := range env.Environment.Variables {
					if q, ok := queues[v]; ok {
						extra = append(extra, v+"="+q)
					}
				}
				rt := newRuntimeAPI(t, raw)
				stop, logs := lambdarun.Start(t, filepath.Join(dir, name), rt.addr(), proxy.srv.URL, table, extra...)
				var got invocation
				select {
				case got = <-rt.answers:
				case <-time.After(60 * time.Second):
					t.Fatalf("%s: no answer within 60 s; logs:\n%s", sample, logs)
				}
				stop()
				if got.path != "invocation/req-1/response" {
					t.Fatalf("%s: posted %s: %s; logs:\n%s", sample, got.path, got.body, logs)
				}
				compareWithInProcess(t, name, sample, raw, got.body, local)
			}
			t.Logf("%s called %v", function, keysOf(proxy.actions))
			if len(proxy.actions) == 0 {
				t.Errorf("%s made no AWS call through the proxy: is AWS_ENDPOINT_URL honoured?", function)
			}
			if denied := allowed(name, proxy.actions, proxy.writes); len(denied) > 0 {
				t.Errorf("%s called %v, which its policies in template.yaml do not allow (all its calls: %v)", function, denied, keysOf(proxy.actions))
			}
		})
	}
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// functionOf is the logical id of a function's directory name.
func functionOf(t *testing.T, name string) string {
	for _, f := range families.All() {
		if f.Name == name {
			return f.Function
		}
	}
	for _, w := range app.Workers() {
		if w.Name == name {
			return w.Function
		}
	}
	t.Fatalf("no function %s", name)
	return ""
}

// compareWithInProcess runs the sample through the same family's code in
// this process, on a fresh bbolt store (or, for a seeded sample, the local
// stores seeded with the process's data), and compares the answers.
func compareWithInProcess(t *testing.T, name, sample string, raw, processAnswer []byte, local *localStores) {
	t.Helper()
	ctx := context.Background()
	seeded := local != nil
	if !seeded {
		local = newLocalStores(t)
	}
	c := app.Config{}
	d, err := app.NewDeps(ctx, c, deps.Deps{Store: local.store, Blobs: local.blobs, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := families.WorkerHandlers()[name]; ok {
		var ev lambdaevents.SQSEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		want, err := sqsqueue.Handler(h(app.NewRoot(d)))(ctx, ev)
		if err != nil {
			t.Fatal(err)
		}
		var got lambdaevents.SQSEventResponse
		if err := json.Unmarshal(processAnswer, &got); err != nil {
			t.Fatalf("%s: worker answer is not JSON: %s", sample, processAnswer)
		}
		ids := func(r lambdaevents.SQSEventResponse) []string {
			var out []string
			for _, f := range r.BatchItemFailures {
				out = append(out, f.ItemIdentifier)
			}
			return out
		}
		if !slices.Equal(ids(got), ids(want)) {
			t.Errorf("%s: the process failed records %v, in process %v", sample, ids(got), ids(want))
		}
		return
	}
	if _, _, err := users.New(d).Bootstrap(ctx, sampleToken); err != nil {
		t.Fatal(err)
	}
	family, err := families.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	var ev lambdaevents.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	want, err := httpadapter.NewV2(app.NewAPI(c, app.NewRoot(d), family).Handler()).ProxyWithContext(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	var got lambdaevents.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(processAnswer, &got); err != nil {
		t.Fatalf("%s: answer is not JSON: %s", sample, processAnswer)
	}
	if got.StatusCode != want.StatusCode {
		t.Fatalf("%s: the process answered %d (%s), in process %d (%s)", sample, got.StatusCode, got.Body, want.StatusCode, want.Body)
	}
	if seeded && got.StatusCode >= 400 {
		t.Errorf("%s: a seeded sample answered %d (%.300s)", sample, got.StatusCode, got.Body)
	}
	if want.StatusCode == http.StatusNoContent {
		if got.Body != "" || want.Body != "" {
			t.Errorf("%s: a 204 with the bodies %q (process), %q (in process)", sample, got.Body, want.Body)
		}
		return
	}
	if strings.HasPrefix(want.Headers["Content-Type"], "text/html") {
		// The reader's pages: the same HTML.
		if got.Body != want.Body {
			t.Errorf("%s: the process answered %s, in process %s", sample, got.Body, want.Body)
		}
		return
	}
	fields := func(body string) []string {
		var m map[string]any
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatalf("%s: body is not a JSON object: %s", sample, body)
		}
		return keysOf(func() map[string]bool {
			out := map[string]bool{}
			for k := range m {
				out[k] = true
			}
			return out
		}())
	}
	if g, w := fields(got.Body), fields(want.Body); !slices.Equal(g, w) {
		t.Errorf("%s: the process answered the fields %v, in process %v", sample, g, w)
	}
}
