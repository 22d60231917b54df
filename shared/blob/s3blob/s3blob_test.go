package s3blob_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/blob/blobtest"
	"github.com/galleydocs/galley/shared/blob/s3blob"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

func TestConformance(t *testing.T) {
	blobtest.RunTests(t, func(t *testing.T) blob.Store {
		client, bucket := testkit.MotoBucket(t)
		return s3blob.New(client, bucket, "")
	})
}

func TestConformanceWithPrefix(t *testing.T) {
	blobtest.RunTests(t, func(t *testing.T) blob.Store {
		client, bucket := testkit.MotoBucket(t)
		return s3blob.New(client, bucket, "/env/blobs/")
	})
}

// TestPrefixLayout checks where objects land in the bucket and that stores
// with different prefixes in one bucket do not see each other's objects.
func TestPrefixLayout(t *testing.T) {
	ctx := context.Background()
	client, bucket := testkit.MotoBucket(t)
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
	client, _ := testkit.MotoBucket(t)
	s := s3blob.New(client, "galley-test-no-such-bucket", "")
	if _, err := s.Get(context.Background(), "k"); err == nil || errors.Is(err, blob.ErrNotFound) {
		t.Errorf("Get from a missing bucket error = %v, want an error other than ErrNotFound", err)
	}
}

// TestPresignPut checks that a pre-signed PUT signs the content type and
// length (S3 refuses a PUT with others) and that the object it writes is
// the store's.
func TestPresignPut(t *testing.T) {
	ctx := context.Background()
	client, bucket := testkit.MotoBucket(t)
	s := s3blob.New(client, bucket, "env")
	data := []byte("%PDF-1.4 not much of a document")
	u, err := s.PresignPut(ctx, "uploads/o/f1", "application/pdf", int64(len(data)), 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	link, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	signed := strings.Split(link.Query().Get("X-Amz-SignedHeaders"), ";")
	if !slices.Contains(signed, "content-type") || !slices.Contains(signed, "content-length") {
		t.Errorf("signed headers %v, want content-type and content-length", signed)
	}
	if link.Query().Get("X-Amz-Expires") != "900" || !strings.HasSuffix(link.Path, "/env/uploads/o/f1") {
		t.Errorf("presigned URL %s", u)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPut, u, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/pdf")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("PUT through the presigned URL: %s", res.Status)
	}
	got, err := s.Get(ctx, "uploads/o/f1")
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("object after the PUT: %q, %v", got, err)
	}
	if _, err := s.PresignPut(ctx, "../x", "text/plain", 1, time.Minute); !errors.Is(err, blob.ErrInvalidKey) {
		t.Errorf("presign of a bad key: %v", err)
	}
}
