package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/galleydocs/galley/shared/store"
)

// DynamoDB Local serializes transactions, so it never reports the
// TransactionConflict that DynamoDB does under contention: these tests
// play DynamoDB's part for it.

func reasons(codes ...string) error {
	var rs []types.CancellationReason
	for _, c := range codes {
		rs = append(rs, types.CancellationReason{Code: aws.String(c)})
	}
	return &types.TransactionCanceledException{Message: aws.String("cancelled"), CancellationReasons: rs}
}

func TestWriteErrorMapping(t *testing.T) {
	other := errors.New("boom")
	for _, tc := range []struct {
		name       string
		err        error
		conflict   bool // errors.Is(store.ErrConflict)
		race       bool // worth retrying
		version    bool // a version condition failed
		keepsCause bool // errors.Is(original)
	}{
		{"condition failed", &types.ConditionalCheckFailedException{}, true, false, false, false},
		{"wrapped condition failed", fmt.Errorf("op: %w", &types.ConditionalCheckFailedException{}), true, false, false, false},
		{"item in a transaction", &types.TransactionConflictException{}, true, true, false, false},
		{"cancelled by a condition", reasons("None", "ConditionalCheckFailed"), true, false, false, false},
		{"cancelled by a version", reasons("ConditionalCheckFailed", "None"), true, false, true, false},
		{"cancelled by condition and conflict", reasons("TransactionConflict", "ConditionalCheckFailed"), true, false, false, false},
		{"cancelled by a conflict", reasons("None", "TransactionConflict"), true, true, false, false},
		{"cancelled by validation", reasons("ValidationError", "None"), false, false, false, false},
		{"cancelled by validation and a version", reasons("ConditionalCheckFailed", "ValidationError"), true, false, true, false},
		{"cancelled by throttling and conflict", reasons("ThrottlingError", "TransactionConflict"), false, false, false, false},
		{"other", other, false, false, false, true},
	} {
		ops := []store.Op{
			store.PutIfVersion(store.Item{PK: "P", SK: "a", Version: 2}, 1),
			store.Put(store.Item{PK: "P", SK: "b"}, store.IfNotExists),
		}
		err := writeError("write", ops, tc.err)
		var c *conflictError
		isConflict := errors.As(err, &c)
		if errors.Is(err, store.ErrConflict) != tc.conflict || isConflict != tc.conflict ||
			(isConflict && (c.race != tc.race || c.version != tc.version)) ||
			(tc.keepsCause && !errors.Is(err, tc.err)) {
			t.Errorf("%s: writeError = %v (%+v)", tc.name, err, c)
		}
	}
	// A single write fails with ConditionalCheckFailedException.
	single := []store.Op{store.PutIfVersion(store.Item{PK: "P", SK: "a", Version: 2}, 1)}
	var c *conflictError
	if err := writeError("put", single, &types.ConditionalCheckFailedException{}); !errors.As(err, &c) || !c.version {
		t.Errorf("version put: writeError = %v (%+v)", err, c)
	}
}

// fakeDynamoDB answers every request with the next of answers (the last one
// repeated), counting the requests.
func fakeDynamoDB(t *testing.T, answers ...string) (*Store, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		n := int(calls.Add(1)) - 1
		a := answers[min(n, len(answers)-1)]
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		if strings.Contains(a, "__type") {
			w.WriteHeader(http.StatusBadRequest)
		}
		io.WriteString(w, a)
	}))
	t.Cleanup(srv.Close)
	client := dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String(srv.URL),
		RetryMaxAttempts: 1,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "fake", SecretAccessKey: "fake"}, nil
		}),
	})
	return New(client, "t"), &calls
}

const (
	conflictAnswer  = `{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","Message":"Transaction cancelled","CancellationReasons":[{"Code":"None"},{"Code":"TransactionConflict","Message":"Transaction is ongoing for the item"}]}`
	conditionAnswer = `{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","Message":"Transaction cancelled","CancellationReasons":[{"Code":"ConditionalCheckFailed"},{"Code":"None"}]}`
	okAnswer        = `{}`
)

var transfer = []store.Op{
	store.PutIfVersion(store.Item{PK: "ACC", SK: "a", Version: 2}, 1),
	store.PutIfVersion(store.Item{PK: "ACC", SK: "b", Version: 2}, 1),
}

func TestTransactionConflictIsRetried(t *testing.T) {
	s, calls := fakeDynamoDB(t, conflictAnswer, conflictAnswer, okAnswer)
	if err := s.Write(context.Background(), transfer...); err != nil {
		t.Fatalf("write after two conflicts: %v", err)
	}
	if n := calls.Load(); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
}

func TestTransactionConflictRetriesEnd(t *testing.T) {
	s, calls := fakeDynamoDB(t, conflictAnswer)
	err := s.Write(context.Background(), transfer...)
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("err = %v, want ErrConflict", err)
	}
	if n := calls.Load(); n != conflictRetries+1 {
		t.Fatalf("%d requests, want %d", n, conflictRetries+1)
	}
}

func TestConditionFailureIsNotRetried(t *testing.T) {
	s, calls := fakeDynamoDB(t, conflictAnswer, conditionAnswer, okAnswer)
	if err := s.Write(context.Background(), transfer...); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("err = %v, want ErrConflict", err)
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}
