// Package awsretry is Galley's one retry policy for calls to AWS
// (DynamoDB, S3, SQS): every client of the deployment is built with
// New, and the adapters tell with Transient which failures mean "AWS is
// busy or failing now, try later" (answered 503 with Retry-After) rather
// than a fault of the request or the code.
package awsretry

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// The budget of one call (docs/faults.md): at most MaxAttempts attempts,
// waiting between two about BaseDelay, doubling, at most MaxDelay (with
// jitter: half the step plus a random share of the other half). Four waits
// of at most 20+40+80+160 ms: a call that cannot succeed gives up within
// 0.3 s plus its attempts, well inside an API request's 29 s, and the
// request answers 503 (the client retries later) instead of holding a
// Lambda while DynamoDB sheds load. 20 ms rather than 50: a read makes
// several calls, and under 10% throttling half of them wait once; the p95
// of reads was 4.9x the fault-free one at 50 ms, 2.5x at 20 ms
// (BenchmarkReadsUnderThrottling, docs/faults.md).
const (
	MaxAttempts = 5
	BaseDelay   = 20 * time.Millisecond
	MaxDelay    = 2 * time.Second
)

// AttemptTimeout is how long one attempt waits for AWS's answer to begin
// (its status and headers, once the request is sent) before the attempt
// is given up and retried like a reset connection. The SDK sets none: a
// call to a DynamoDB node that hangs would hold the request until the
// Lambda's own timeout, past API Gateway's 29 s (a 504, nothing told).
// With it, a call that cannot get an answer gives up after 5 attempts,
// about 10.3 s (5 × 2 s plus the waits), and the request answers 503;
// a single slow attempt costs 2 s and the retry. 2 s is far above what a
// healthy call takes (DynamoDB answers in milliseconds, the emulators'
// p99 under the soak's load is tens of milliseconds) so that a busy
// moment is not turned into retries, and short enough that a request
// whose calls hang several times still answers within its 29 s
// (docs/faults.md). It does not limit reading a body (a large S3 object).
// A call that waits on purpose longer than it before answering (SQS long
// polling past 1 s: Galley's functions never poll, Lambda's event source
// mappings do) needs a client of its own.
const AttemptTimeout = 2 * time.Second

// HTTPClient is the HTTP client of every AWS client (aws.Config.HTTPClient
// or the service's Options.HTTPClient): the SDK's own, with AttemptTimeout
// as its transport's ResponseHeaderTimeout. The SDK retries the timed-out
// attempt (a connection error); after the last, Transient says so.
func HTTPClient() aws.HTTPClient {
	return awshttp.NewBuildableClient().WithTransportOptions(func(t *http.Transport) {
		t.ResponseHeaderTimeout = AttemptTimeout
	})
}

// New returns the SDK's standard retryer (throttling, 5xx and connection
// errors retried; the client-side retry quota that stops retries when most
// calls fail) with Galley's budget. Give it to every client:
// aws.Config.Retryer or the service's Options.Retryer.
func New() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = MaxAttempts
		o.MaxBackoff = MaxDelay
		o.Backoff = retry.BackoffDelayerFunc(func(attempt int, _ error) (time.Duration, error) {
			return Delay(attempt), nil
		})
	})
}

// Delay is the wait before retrying after the attempt-th failed attempt
// (1 for the first).
func Delay(attempt int) time.Duration {
	d := min(BaseDelay<<min(max(attempt-1, 0), 10), MaxDelay)
	return d/2 + rand.N(d/2+1)
}

// Transient reports whether err, returned by an SDK call after its
// retries, is AWS being busy or failing for now — throttling, a 5xx
// answer, a connection that failed or was reset, the retry quota spent —
// or the call's deadline passing while it waited: the same call may
// succeed later. A failed condition, a missing item or object, a
// validation error and a cancelled context are not transient.
func Transient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var quota ratelimit.QuotaExceededError
	if errors.As(err, &quota) {
		return true
	}
	return retry.IsErrorRetryables(retry.DefaultRetryables).IsErrorRetryable(err) == aws.TrueTernary
}
