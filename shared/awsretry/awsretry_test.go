package awsretry_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/galleydocs/galley/shared/awsretry"
)

func TestTransient(t *testing.T) {
	api := func(code string) error { return &smithy.GenericAPIError{Code: code, Message: "m"} }
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{context.Canceled, false},
		{fmt.Errorf("call: %w", context.DeadlineExceeded), true},
		{api("ProvisionedThroughputExceededException"), true},
		{api("ThrottlingException"), true},
		{api("SlowDown"), true},
		{api("RequestThrottled"), true},
		{errors.Join(api("ThrottlingException"), ratelimit.QuotaExceededError{Available: 0, Requested: 5}), true},
		{api("ConditionalCheckFailedException"), false},
		{api("TransactionCanceledException"), false},
		{api("ValidationException"), false},
		{api("NoSuchKey"), false},
	} {
		if got := awsretry.Transient(c.err); got != c.want {
			t.Errorf("Transient(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestDelayGrowsWithinBounds(t *testing.T) {
	for attempt := 1; attempt <= 12; attempt++ {
		step := min(awsretry.BaseDelay<<(attempt-1), awsretry.MaxDelay)
		for range 50 {
			if d := awsretry.Delay(attempt); d < step/2 || d > step {
				t.Fatalf("Delay(%d) = %s, want within [%s, %s]", attempt, d, step/2, step)
			}
		}
	}
}

// An attempt whose answer does not begin within AttemptTimeout is given up
// and the call tried again (a hung node's call does not hold the request).
func TestHungAttemptIsRetried(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			select {
			case <-r.Context().Done():
			case <-time.After(awsretry.AttemptTimeout + time.Second):
			}
			return
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL), Retryer: awsretry.New(),
		HTTPClient: awsretry.HTTPClient(), Credentials: credentials.NewStaticCredentialsProvider("a", "b", "")})
	if _, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("t"),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "k"}}}); err != nil {
		t.Fatalf("a call whose first attempt hung: %v", err)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d attempts, want 2", n)
	}
}
