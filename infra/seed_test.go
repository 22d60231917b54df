package infra_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/galleydocs/galley/events"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/blob/fsblob"
	"github.com/galleydocs/galley/shared/blob/s3blob"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/boltstore"
	"github.com/galleydocs/galley/shared/store/dynamostore"
	"github.com/galleydocs/galley/shared/users"
)

// A seeded sample (events.Seeds) is answered by the process and in
// process from the same data: the seed runs once, through the API, on a
// store and blob store that write to both sides (a fresh DynamoDB Local
// table and moto's bucket for the process, a bbolt store and a folder for
// the in-process answer) and read from the first; the administrator is
// bootstrapped through them too, so both sides hold the same items.

// localStores are the in-process side of a seeded sample.
type localStores struct {
	store store.Store
	blobs blob.Store
}

func newLocalStores(t *testing.T) *localStores {
	t.Helper()
	dir := t.TempDir()
	st, err := boltstore.Open(filepath.Join(dir, "galley.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	blobs, err := fsblob.New(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	return &localStores{store: st, blobs: blobs}
}

// teeStore reads from a and writes to a then b.
type teeStore struct{ a, b store.Store }

func (s teeStore) Get(ctx context.Context, pk, sk string) (store.Item, error) {
	return s.a.Get(ctx, pk, sk)
}
func (s teeStore) Query(ctx context.Context, q store.Query) (store.Page, error) {
	return s.a.Query(ctx, q)
}
func (s teeStore) BatchGet(ctx context.Context, keys []store.ItemKey) ([]store.Item, error) {
	return s.a.BatchGet(ctx, keys)
}
func (s teeStore) Write(ctx context.Context, ops ...store.Op) error {
	if err := s.a.Write(ctx, ops...); err != nil {
		return err
	}
	return s.b.Write(ctx, ops...)
}

// teeBlobs reads from a and writes to a then b.
type teeBlobs struct{ a, b blob.Store }

func (s teeBlobs) Get(ctx context.Context, key string) ([]byte, error) { return s.a.Get(ctx, key) }
func (s teeBlobs) Put(ctx context.Context, key string, data []byte, contentType string) error {
	if err := s.a.Put(ctx, key, data, contentType); err != nil {
		return err
	}
	return s.b.Put(ctx, key, data, contentType)
}
func (s teeBlobs) Delete(ctx context.Context, key string) error {
	if err := s.a.Delete(ctx, key); err != nil {
		return err
	}
	return s.b.Delete(ctx, key)
}

// seedSample makes a fresh table for a seeded sample's process and the
// local stores for its in-process answer, bootstraps the administrator
// holding the samples' token and runs the seed on both; it returns the
// table, the local stores and the sample with its placeholders replaced.
func seedSample(t *testing.T, name string, raw []byte, bucket string) (string, *localStores, []byte) {
	t.Helper()
	seed := events.Seeds[name]
	ctx := context.Background()
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(ddb.Endpoint(t)),
		Credentials: credentials.NewStaticCredentialsProvider("galley", "galley", "")})
	table := "galley-functions-" + ids.New(time.Now())
	if err := dynamostore.CreateTable(ctx, c, table); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)}) })
	local := newLocalStores(t)
	s3c := s3.NewFromConfig(moto.AWSConfig(t), func(o *s3.Options) { o.UsePathStyle = true })
	d, err := app.NewDeps(ctx, app.Config{}, deps.Deps{
		Store:  teeStore{a: dynamostore.New(c, table), b: local.store},
		Blobs:  teeBlobs{a: s3blob.New(s3c, bucket, ""), b: local.blobs},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if created, _, err := users.New(d).Bootstrap(ctx, sampleToken); err != nil || !created {
		t.Fatalf("bootstrap: created %v, err %v", created, err)
	}
	for from, to := range seed(t, d, sampleToken) {
		raw = bytes.ReplaceAll(raw, []byte(from), []byte(to))
	}
	return table, local, raw
}
