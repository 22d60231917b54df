package s3blob_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/blob/blobtest"
	"github.com/galleydocs/galley/shared/blob/s3blob"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// newClient returns an S3 client for moto. Path-style addressing, because
// virtual-host style would put the bucket name in front of 127.0.0.1.
func newClient(t *testing.T) *s3.Client {
	return s3.NewFromConfig(testkit.Moto().AWSConfig(t), func(o *s3.Options) { o.UsePathStyle = true })
}

// newBucket creates a bucket no other test uses.
func newBucket(t *testing.T, client *s3.Client) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	name := "galley-test-" + hex.EncodeToString(b)
	if _, err := client.CreateBucket(t.Context(), &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("create bucket %s: %v", name, err)
	}
	return name
}

func TestConformance(t *testing.T) {
	blobtest.RunTests(t, func(t *testing.T) blob.Store {
		client := newClient(t)
		return s3blob.New(client, newBucket(t, client), "")
	})
}

func TestConformanceWithPrefix(t *testing.T) {
	blobtest.RunTests(t, func(t *testing.T) blob.Store {
		client := newClient(t)
		return s3blob.New(client, newBucket(t, client), "/env/blobs/")
	})
}

// TestPrefixLayout checks where objects land in the bucket and that stores
// with different prefixes in one bucket do not see each other's objects.
func TestPrefixLayout(t *testing.T) {
	ctx := context.Background()
	client := newClient(t)
	bucket := newBucket(t, client)
	a := s3blob.New(client, bucket, "a")
	b := s3blob.New(client, bucket, "b/")
	if err := a.Put(ctx, "k/1", []byte("from a"), "text/plain"); err != nil {
		t.Fatal(err)
	}
	out, err := client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String("a/k/1")})
	if err != nil {
		t.Fatalf("object not at a/k/1: %v", err)
	}
	out.Body.Close()
	if got := aws.ToString(out.ContentType); got != "text/plain" {
		t.Errorf("content type = %q, want text/plain", got)
	}
	if _, err := b.Get(ctx, "k/1"); err == nil {
		t.Error("store with prefix b/ sees the object of prefix a/")
	}
}

// TestMissingBucket checks that a missing bucket is an error, not a missing
// object: it is a deployment fault that must not read as "no such page".
func TestMissingBucket(t *testing.T) {
	s := s3blob.New(newClient(t), "galley-test-no-such-bucket", "")
	if _, err := s.Get(context.Background(), "k"); err == nil || errors.Is(err, blob.ErrNotFound) {
		t.Errorf("Get from a missing bucket error = %v, want an error other than ErrNotFound", err)
	}
}
