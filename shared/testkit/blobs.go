package testkit

import (
	"crypto/rand"
	"encoding/hex"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/galleydocs/galley/shared/blob/fsblob"
	"github.com/galleydocs/galley/shared/blob/s3blob"
)

// BlobStore returns a blob store in a fresh temporary folder, for tests
// that build their dependencies otherwise than NewOn (as a process does).
func BlobStore(t testing.TB) *fsblob.Store {
	t.Helper()
	blobs, err := fsblob.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return blobs
}

// MotoBucket returns an S3 client of the test binary's moto and a bucket
// no other test uses. The client addresses buckets by path, because
// virtual-host style would put the bucket's name in front of 127.0.0.1.
func MotoBucket(t testing.TB) (*s3.Client, string) {
	t.Helper()
	client := s3.NewFromConfig(Moto().AWSConfig(t), func(o *s3.Options) { o.UsePathStyle = true })
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	name := "galley-test-" + hex.EncodeToString(b)
	if _, err := client.CreateBucket(t.Context(), &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("create bucket %s: %v", name, err)
	}
	return client, name
}

// S3BlobStore returns the AWS deployment's blob store on a fresh bucket of
// moto: a kit whose Deps.Blobs it replaces stores files as Lambda
// functions do, and answers S3's pre-signed upload URLs.
func S3BlobStore(t testing.TB) *s3blob.Store {
	t.Helper()
	client, bucket := MotoBucket(t)
	return s3blob.New(client, bucket, "")
}
