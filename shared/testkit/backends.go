package testkit

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/galleydocs/galley/shared/awsretry"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/store/dynamostore"
)

// Backends runs fn once per storage backend: on bbolt, and on DynamoDB
// Local (the test binary's, stopped by Main), each on a fresh store.
// Without DynamoDB Local installed, that half skips, or fails when
// emulators are required (testenv).
func Backends(t *testing.T, fn func(t *testing.T, k *Kit)) {
	t.Run("bolt", func(t *testing.T) { fn(t, New(t)) })
	t.Run("dynamodb", func(t *testing.T) { fn(t, NewOn(t, DynamoStore(t))) })
}

// DynamoStore returns a store on a fresh table of the test binary's
// DynamoDB Local, deleted when t ends. The credentials are fake and the
// endpoint explicit: it never reaches AWS.
func DynamoStore(t testing.TB) *dynamostore.Store {
	t.Helper()
	return DynamoStoreAt(t, dynamo.Endpoint(t))
}

// DynamoStoreAt is DynamoStore through endpoint: the test binary's
// DynamoDB Local behind a fault proxy (package faultproxy). The client
// retries as the deployment's do (awsretry).
func DynamoStoreAt(t testing.TB, endpoint string) *dynamostore.Store {
	t.Helper()
	c := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Retryer:      awsretry.New(),
		HTTPClient:   awsretry.HTTPClient(),
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "galley", SecretAccessKey: "galley", Source: "test"}, nil
		}),
	})
	name := "galley-kit-" + ids.New(time.Now())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := dynamostore.CreateTable(ctx, c, name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A delete retried after its first attempt's answer was late
		// (awsretry.AttemptTimeout) finds the table gone: done.
		var gone *types.ResourceNotFoundException
		if _, err := c.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil && !errors.As(err, &gone) {
			t.Errorf("delete table %s: %v", name, err)
		}
	})
	return dynamostore.New(c, name)
}
