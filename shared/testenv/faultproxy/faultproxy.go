// Package faultproxy is a fault-injecting HTTP proxy between the AWS SDK and
// the emulators the tests run against (DynamoDB Local, moto's S3 and SQS):
// the SDK's base endpoint points at the proxy, which forwards each call to
// its emulator or, when a rule matches it, answers as AWS does when it
// misbehaves — a throttling or server error, a slow answer, a reset
// connection, or a call that reached the store whose answer never came back.
//
// It is Galley's own, on net/http/httputil: the faults are AWS's (error
// shapes per service and operation), which a generic TCP proxy such as
// toxiproxy does not know, and the tests need no other process.
package faultproxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// Services, as rules name them.
const (
	DynamoDB = "dynamodb"
	S3       = "s3"
	SQS      = "sqs"
)

// Upstreams are the emulators' base URLs; a service whose upstream is
// empty answers 502.
type Upstreams struct {
	// DynamoDB is DynamoDB Local's base URL.
	DynamoDB string
	// Moto is moto's base URL (S3, path-style, and SQS).
	Moto string
}

// Rule injects a fault into some calls.
type Rule struct {
	// Service is DynamoDB, S3 or SQS.
	Service string
	// Op is the operation: DynamoDB's and SQS's as in X-Amz-Target
	// ("PutItem", "TransactWriteItems", "SendMessage"), S3's as named by
	// Operation ("PutObject", "GetObject", ...). Empty (and no Ops):
	// every operation.
	Op string
	// Ops are more operations the rule matches, beside Op.
	Ops []string
	// Skip lets the first Skip matching calls through: a fault at the
	// second write of a request, say.
	Skip int
	// Share is the share of matching calls affected, drawn at random
	// (from the proxy's seeded source); 0 or 1: every matching call.
	Share float64
	// Count bounds how many calls the rule affects; 0: no bound.
	Count int
	// Fault is what an affected call gets.
	Fault Fault
}

// Fault is what happens to an affected call: an answer made up by the
// proxy (Status set), a delay before forwarding (Latency), a reset
// connection without forwarding (Reset), a reset after forwarding
// (DropAnswer: the emulator applied the call, the client never learns),
// or a delay after forwarding (LateAnswer: applied, answered late).
type Fault struct {
	Name    string
	Status  int
	Header  http.Header
	Body    []byte
	Latency time.Duration
	Reset   bool
	// DropAnswer forwards the call, then resets the connection instead of
	// passing the answer on.
	DropAnswer bool
	// AnswerLatency forwards the call at once and holds its answer this
	// long (the answer goes nowhere when the client gives up first).
	AnswerLatency time.Duration
}

// DynamoError is DynamoDB's answer with error code (its JSON __type).
func DynamoError(status int, code string) Fault {
	body, _ := json.Marshal(map[string]string{"__type": "com.amazonaws.dynamodb.v20120810#" + code,
		"message": "injected by faultproxy"})
	return Fault{Name: code, Status: status, Body: body,
		Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}}}
}

// DynamoDB's faults.
var (
	// ProvisionedThroughputExceeded: a table or partition over its capacity.
	ProvisionedThroughputExceeded = DynamoError(http.StatusBadRequest, "ProvisionedThroughputExceededException")
	// Throttling: a control-plane or account rate exceeded.
	Throttling = DynamoError(http.StatusBadRequest, "ThrottlingException")
	// InternalServerError: DynamoDB's own failure.
	InternalServerError = DynamoError(http.StatusInternalServerError, "InternalServerError")
)

// TransactionCanceled is DynamoDB's TransactionCanceledException with one
// cancellation reason per item of the transaction ("None",
// "ConditionalCheckFailed", "TransactionConflict", "ThrottlingError",
// "ProvisionedThroughputExceeded", ...). The proxy answers it without
// forwarding: nothing is written.
func TransactionCanceled(reasons ...string) Fault {
	type reason struct {
		Code    string `json:"Code"`
		Message string `json:"Message,omitempty"`
	}
	rs := make([]reason, len(reasons))
	for i, r := range reasons {
		rs[i] = reason{Code: r}
		if r != "None" {
			rs[i].Message = "injected by faultproxy"
		}
	}
	body, _ := json.Marshal(map[string]any{
		"__type":              "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
		"Message":             "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(reasons, ", ") + "]",
		"CancellationReasons": rs,
	})
	return Fault{Name: "TransactionCanceled[" + strings.Join(reasons, ",") + "]", Status: http.StatusBadRequest, Body: body,
		Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}}}
}

// S3Error is S3's XML error answer.
func S3Error(status int, code string) Fault {
	body := fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<Error><Code>%s</Code><Message>injected by faultproxy</Message><RequestId>faultproxy</RequestId></Error>`, code)
	return Fault{Name: code, Status: status, Body: []byte(body), Header: http.Header{"Content-Type": {"application/xml"}}}
}

// S3's faults.
var (
	// SlowDown: S3 asks the client to reduce its request rate.
	SlowDown = S3Error(http.StatusServiceUnavailable, "SlowDown")
	// S3InternalError: S3's own failure.
	S3InternalError = S3Error(http.StatusInternalServerError, "InternalError")
)

// SQSError is SQS's answer (JSON protocol) with error code; the
// x-amzn-query-error header carries the code of SQS's older query
// protocol, as SQS sends it.
func SQSError(status int, code, queryCode string) Fault {
	body, _ := json.Marshal(map[string]string{"__type": "com.amazonaws.sqs#" + code, "message": "injected by faultproxy"})
	return Fault{Name: code, Status: status, Body: body, Header: http.Header{
		"Content-Type":       {"application/x-amz-json-1.0"},
		"X-Amzn-Query-Error": {queryCode + ";Sender"},
	}}
}

// SQSThrottling is SQS's throttling answer.
var SQSThrottling = SQSError(http.StatusBadRequest, "RequestThrottled", "RequestThrottled")

// Latency delays a call by d, then forwards it; a call whose client gave
// up meanwhile (an attempt timed out) is not forwarded.
func Latency(d time.Duration) Fault { return Fault{Name: "latency " + d.String(), Latency: d} }

// LateAnswer forwards a call at once and passes its answer on d later:
// the store applied it, the client waits (and may give up and retry).
func LateAnswer(d time.Duration) Fault {
	return Fault{Name: "late answer " + d.String(), AnswerLatency: d}
}

// Reset closes the connection without forwarding the call.
var Reset = Fault{Name: "reset", Reset: true}

// DropAnswer forwards the call and resets the connection instead of
// answering: the write happened, the client sees a reset.
var DropAnswer = Fault{Name: "drop answer", DropAnswer: true}

// Proxy is a running fault proxy. Its methods are safe for concurrent use.
type Proxy struct {
	// URL is the proxy's base URL: the SDK's base endpoint.
	URL string

	srv       *httptest.Server
	ddb, moto *httputil.ReverseProxy

	mu       sync.Mutex
	rng      *rand.Rand
	rules    []*rule
	calls    map[string]int // service/op -> calls seen
	injected map[string]int // service/op fault name -> calls affected
}

type rule struct {
	Rule
	seen, used int
}

func (r *rule) matches(service, op string) bool {
	if r.Service != service {
		return false
	}
	if r.Op == "" && len(r.Ops) == 0 || r.Op == op {
		return true
	}
	for _, o := range r.Ops {
		if o == op {
			return true
		}
	}
	return false
}

// New starts a proxy to up, stopped when tb ends. Its random draws start
// from a random seed, logged (Seed replays one).
func New(tb testing.TB, up Upstreams) *Proxy {
	tb.Helper()
	p := &Proxy{calls: map[string]int{}, injected: map[string]int{}}
	seed := rand.Uint64()
	tb.Logf("faultproxy: seed %d", seed)
	p.Seed(seed)
	if up.DynamoDB != "" {
		p.ddb = reverseProxy(tb, up.DynamoDB)
	}
	if up.Moto != "" {
		p.moto = reverseProxy(tb, up.Moto)
	}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	tb.Cleanup(p.srv.Close)
	p.URL = p.srv.URL
	return p
}

func reverseProxy(tb testing.TB, base string) *httputil.ReverseProxy {
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("faultproxy: upstream %q: %v", base, err)
	}
	// An unreachable emulator answers 502, which the SDK retries like
	// AWS's own.
	return httputil.NewSingleHostReverseProxy(u)
}

// Seed restarts the random draws of Share from seed.
func (p *Proxy) Seed(seed uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rng = rand.New(rand.NewPCG(seed, seed))
}

// Via returns cfg with the proxy as its base endpoint: the configuration
// of a client whose calls go through the proxy.
func (p *Proxy) Via(cfg aws.Config) aws.Config {
	cfg.BaseEndpoint = aws.String(p.URL)
	return cfg
}

// Set replaces the rules (none: every call is forwarded).
func (p *Proxy) Set(rules ...Rule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules = p.rules[:0]
	for _, r := range rules {
		p.rules = append(p.rules, &rule{Rule: r})
	}
}

// Calls is how many calls of service's op (every op for "") the proxy saw.
func (p *Proxy) Calls(service, op string) int {
	return p.count(p.calls, service, op)
}

// Injected is how many calls of service's op (every op for "") got a fault.
func (p *Proxy) Injected(service, op string) int {
	return p.count(p.injected, service, op)
}

func (p *Proxy) count(m map[string]int, service, op string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for k, v := range m {
		s, o, _ := strings.Cut(k, "/")
		if s == service && (op == "" || o == op) {
			n += v
		}
	}
	return n
}

// Operation names the service and operation of an SDK call: DynamoDB's and
// SQS's from X-Amz-Target, S3's (path-style addressing) from the method
// and path.
func Operation(r *http.Request) (service, op string) {
	target := r.Header.Get("X-Amz-Target")
	if s, o, ok := strings.Cut(target, "."); ok {
		switch s {
		case "DynamoDB_20120810":
			return DynamoDB, o
		case "AmazonSQS":
			return SQS, o
		}
	}
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 2)
	object := len(parts) == 2 && parts[1] != ""
	q := r.URL.Query()
	switch {
	case object && r.Method == http.MethodGet:
		return S3, "GetObject"
	case object && r.Method == http.MethodHead:
		return S3, "HeadObject"
	case object && r.Method == http.MethodPut && r.Header.Get("X-Amz-Copy-Source") != "":
		return S3, "CopyObject"
	case object && r.Method == http.MethodPut:
		return S3, "PutObject"
	case object && r.Method == http.MethodDelete:
		return S3, "DeleteObject"
	case r.Method == http.MethodPost && q.Has("delete"):
		return S3, "DeleteObjects"
	case r.Method == http.MethodGet && q.Get("list-type") == "2":
		return S3, "ListObjectsV2"
	case r.Method == http.MethodGet:
		return S3, "ListObjects"
	case r.Method == http.MethodPut:
		return S3, "CreateBucket"
	case r.Method == http.MethodDelete:
		return S3, "DeleteBucket"
	case r.Method == http.MethodHead:
		return S3, "HeadBucket"
	}
	return S3, r.Method
}

// pick counts the call and returns the fault of the first rule that
// affects it, if any.
func (p *Proxy) pick(service, op string) (Fault, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls[service+"/"+op]++
	for _, r := range p.rules {
		if !r.matches(service, op) || (r.Count > 0 && r.used >= r.Count) {
			continue
		}
		if r.seen++; r.seen <= r.Skip {
			continue
		}
		if r.Share > 0 && r.Share < 1 && p.rng.Float64() >= r.Share {
			continue
		}
		r.used++
		p.injected[service+"/"+op]++
		return r.Fault, true
	}
	return Fault{}, false
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	service, op := Operation(r)
	up := p.moto
	if service == DynamoDB {
		up = p.ddb
	}
	if up == nil {
		http.Error(w, "faultproxy: no upstream for "+service, http.StatusBadGateway)
		return
	}
	f, ok := p.pick(service, op)
	switch {
	case !ok:
		up.ServeHTTP(w, r)
	case f.Status != 0:
		for k, v := range f.Header {
			w.Header()[k] = v
		}
		w.Header().Set("X-Amzn-Requestid", "faultproxy")
		w.WriteHeader(f.Status)
		_, _ = w.Write(f.Body)
	case f.Latency > 0:
		// Read the body first: the server notices a client that gave up
		// (its context done) only once the body is read, and a call whose
		// client gave up is never forwarded.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if sleep(r, f.Latency) {
			up.ServeHTTP(w, r)
		}
	case f.AnswerLatency > 0:
		rec := httptest.NewRecorder()
		up.ServeHTTP(rec, r)
		if !sleep(r, f.AnswerLatency) {
			return
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	case f.DropAnswer:
		// The emulator applies the call; its answer goes nowhere.
		up.ServeHTTP(httptest.NewRecorder(), r)
		reset(w)
	case f.Reset:
		reset(w)
	}
}

// sleep waits d, or until r's client gives up: false then.
func sleep(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-r.Context().Done():
		return false
	case <-t.C:
		return true
	}
}

// reset closes the client's connection with a TCP reset (no answer).
func reset(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // ends the connection all the same
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}
