package infra_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/store/dynamostore"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testenv/lambdarun"
	"github.com/galleydocs/galley/shared/users"
)

// The functions' binaries, run as Lambda runs them: a process started with
// AWS_LAMBDA_RUNTIME_API pointing at a Runtime API (served here on
// loopback), over DynamoDB Local. docs/functions.md has the figures.

var ddb testenv.DynamoDBLocal

func TestMain(m *testing.M) {
	code := m.Run()
	ddb.Stop()
	moto.Stop()
	functionBinaries.Remove()
	os.Exit(code)
}

// buildFunctions builds the given commands (functions/<name>, or any main
// package path) into dir with the flags of the Makefile's build-<Function>
// targets, for goos/goarch, in one go build (the linker runs in parallel).
func buildFunctions(tb testing.TB, dir, goos, goarch string, pkgs ...string) {
	tb.Helper()
	args := []string{"build", "-tags", "lambda.norpc", "-trimpath", "-ldflags=-s -w", "-o", dir + string(os.PathSeparator)}
	args = append(args, pkgs...)
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
}

// functionBinaries are the functions and the hello-world baseline built
// once per test binary for this machine.
var functionBinaries lambdarun.Binaries

func binaries(tb testing.TB) string { return functionBinaries.Dir(tb) }

// invocation is what a function posted for the event it was given.
type invocation struct {
	path string // .../response or .../error
	body []byte
}

// runtimeAPI is a loopback Lambda Runtime API (2018-06-01) giving one event
// (or none) to one process: it records when the process first asks for an
// invocation (the end of its init) and what it answers.
type runtimeAPI struct {
	srv       *httptest.Server
	event     []byte
	mu        sync.Mutex
	served    bool
	firstNext chan time.Time
	answers   chan invocation
}

func newRuntimeAPI(tb testing.TB, event []byte) *runtimeAPI {
	r := &runtimeAPI{event: event, firstNext: make(chan time.Time, 1), answers: make(chan invocation, 4)}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	tb.Cleanup(r.srv.Close)
	return r
}

func (r *runtimeAPI) addr() string { return strings.TrimPrefix(r.srv.URL, "http://") }

func (r *runtimeAPI) serve(w http.ResponseWriter, req *http.Request) {
	const base = "/2018-06-01/runtime/"
	switch {
	case req.Method == http.MethodGet && req.URL.Path == base+"invocation/next":
		select {
		case r.firstNext <- time.Now():
		default:
		}
		r.mu.Lock()
		give := r.event != nil && !r.served
		r.served = r.served || give
		r.mu.Unlock()
		if !give {
			// No more work: hold the call as Lambda does until the
			// environment is frozen (here: the process is killed).
			<-req.Context().Done()
			return
		}
		w.Header().Set("Lambda-Runtime-Aws-Request-Id", "req-1")
		w.Header().Set("Lambda-Runtime-Deadline-Ms", fmt.Sprint(time.Now().Add(60*time.Second).UnixMilli()))
		w.Header().Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:000000000000:function:galley-test")
		w.Header().Set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000")
		_, _ = w.Write(r.event)
	case req.Method == http.MethodPost && strings.HasPrefix(req.URL.Path, base):
		body, _ := io.ReadAll(req.Body)
		r.answers <- invocation{path: strings.TrimPrefix(req.URL.Path, base), body: body}
		w.WriteHeader(http.StatusAccepted)
	default:
		http.NotFound(w, req)
	}
}

// startFunction starts a built function against rt and DynamoDB table;
// the process is killed when tb ends (or by the returned stop).
func startFunction(tb testing.TB, bin string, rt *runtimeAPI, endpoint, table string) (stop func(), logs *bytes.Buffer) {
	tb.Helper()
	return lambdarun.Start(tb, bin, rt.addr(), endpoint, table)
}

// sampleToken is the token of every sample event (events/*.json).
const sampleToken = "gly_sample-events-token-aBcDeFgHiJkLmNoPqRsTuVwXyZ012345"

// functionTable makes a table on the shared DynamoDB Local, with the
// administrator holding the sample events' token, and returns the endpoint
// and the table's name.
func functionTable(tb testing.TB) (endpoint, table string) {
	tb.Helper()
	endpoint = ddb.Endpoint(tb)
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("galley", "galley", "")})
	table = "galley-functions-" + ids.New(time.Now())
	ctx := context.Background()
	if err := dynamostore.CreateTable(ctx, c, table); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _, _ = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)}) })
	d, err := app.NewDeps(ctx, app.Config{}, deps.Deps{Store: dynamostore.New(c, table), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		tb.Fatal(err)
	}
	if created, _, err := users.New(d).Bootstrap(ctx, sampleToken); err != nil || !created {
		tb.Fatalf("bootstrap: created %v, err %v", created, err)
	}
	return endpoint, table
}
