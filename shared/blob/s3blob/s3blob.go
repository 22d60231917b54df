// Package s3blob implements the blob-store port on Amazon S3: the blob store
// of the AWS deployment.
package s3blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"github.com/galleydocs/galley/shared/awsretry"
	"github.com/galleydocs/galley/shared/blob"
)

// Store is the S3 adapter.
type Store struct {
	client *s3.Client
	bucket string
	prefix string
}

var (
	_ blob.Store     = (*Store)(nil)
	_ blob.Presigner = (*Store)(nil)
)

// New returns a store keeping its objects in bucket under prefix, so that
// several stores (or environments) can share one bucket. Leading and trailing
// slashes of prefix are ignored; an empty prefix uses the bucket's root.
func New(client *s3.Client, bucket string, prefix string) *Store {
	prefix = strings.Trim(prefix, "/")
	if prefix != "" {
		prefix += "/"
	}
	return &Store{client: client, bucket: bucket, prefix: prefix}
}

func (s *Store) objectKey(key string) *string { return aws.String(s.prefix + key) }

// Put implements blob.Store. An empty content type is stored as S3's
// default, binary/octet-stream.
func (s *Store) Put(ctx context.Context, key string, data []byte, contentType string) error {
	if err := blob.ValidateKey(key); err != nil {
		return err
	}
	in := &s3.PutObjectInput{
		Bucket:        aws.String(s.bucket),
		Key:           s.objectKey(key),
		Body:          bytes.NewReader(data),
		ContentLength: aws.Int64(int64(len(data))),
	}
	if contentType != "" {
		in.ContentType = aws.String(contentType)
	}
	if _, err := s.client.PutObject(ctx, in); err != nil {
		return s.callError("put", key, err)
	}
	return nil
}

// PresignPut implements blob.Presigner: a URL for one PUT of the object,
// valid for ttl (and no longer than the credentials that signed it, a
// Lambda function's session), whose signature covers the Content-Type and
// Content-Length headers, so that S3 refuses another type or size.
func (s *Store) PresignPut(ctx context.Context, key, contentType string, size int64, ttl time.Duration) (string, error) {
	if err := blob.ValidateKey(key); err != nil {
		return "", err
	}
	req, err := s3.NewPresignClient(s.client).PresignPutObject(ctx, &s3.PutObjectInput{
		Bucket:        aws.String(s.bucket),
		Key:           s.objectKey(key),
		ContentType:   aws.String(contentType),
		ContentLength: aws.Int64(size),
	}, s3.WithPresignExpires(ttl))
	if err != nil {
		return "", fmt.Errorf("s3blob: presign put s3://%s/%s%s: %w", s.bucket, s.prefix, key, err)
	}
	return req.URL, nil
}

// Get implements blob.Store.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	if err := blob.ValidateKey(key); err != nil {
		return nil, err
	}
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: s.objectKey(key)})
	if err != nil {
		if notFound(err) {
			return nil, fmt.Errorf("s3blob: get s3://%s/%s%s: %w", s.bucket, s.prefix, key, blob.ErrNotFound)
		}
		return nil, s.callError("get", key, err)
	}
	defer out.Body.Close()
	// Size the buffer from the response so large objects are read without
	// repeated growth.
	var buf bytes.Buffer
	if n := aws.ToInt64(out.ContentLength); n > 0 {
		buf.Grow(int(n))
	}
	if _, err := io.Copy(&buf, out.Body); err != nil {
		// The SDK does not retry a body cut while it is read.
		return nil, fmt.Errorf("s3blob: read s3://%s/%s%s: %w: %w", s.bucket, s.prefix, key, blob.ErrUnavailable, err)
	}
	return buf.Bytes(), nil
}

// Delete implements blob.Store. S3 itself answers success for a missing key.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := blob.ValidateKey(key); err != nil {
		return err
	}
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: s.objectKey(key)})
	if err != nil {
		return s.callError("delete", key, err)
	}
	return nil
}

// callError wraps the failure of an SDK call on key: blob.ErrUnavailable
// when it is S3 throttling or failing for now (awsretry.Transient).
func (s *Store) callError(verb, key string, err error) error {
	if awsretry.Transient(err) {
		return fmt.Errorf("s3blob: %s s3://%s/%s%s: %w: %w", verb, s.bucket, s.prefix, key, blob.ErrUnavailable, err)
	}
	return fmt.Errorf("s3blob: %s s3://%s/%s%s: %w", verb, s.bucket, s.prefix, key, err)
}

// notFound reports whether err says the object does not exist. GetObject
// normally returns a typed NoSuchKey; the generic code check also covers
// S3-compatible servers that answer a bare 404.
func notFound(err error) bool {
	var nsk *types.NoSuchKey
	if errors.As(err, &nsk) {
		return true
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode() {
		case "NoSuchKey", "NotFound":
			return true
		}
	}
	return false
}
