package awsretry_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
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
