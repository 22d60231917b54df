package s3blob_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/blob/s3blob"
	"github.com/galleydocs/galley/shared/testenv/faultproxy"
	"github.com/galleydocs/galley/shared/testkit"
)

// faulty returns a store on a fresh bucket reached through a fault proxy,
// the proxy, and a store on the same bucket reached directly.
func faulty(t *testing.T) (*s3blob.Store, *faultproxy.Proxy, *s3blob.Store) {
	t.Helper()
	p := faultproxy.New(t, faultproxy.Upstreams{Moto: testkit.Moto().Endpoint(t)})
	proxied := s3.NewFromConfig(p.Via(testkit.Moto().AWSConfig(t)), func(o *s3.Options) { o.UsePathStyle = true })
	direct, bucket := testkit.MotoBucket(t)
	return s3blob.New(proxied, bucket, ""), p, s3blob.New(direct, bucket, "")
}

var s3Faults = []faultproxy.Fault{faultproxy.SlowDown, faultproxy.S3InternalError, faultproxy.Reset}

// A tenth of the calls faulted: every put and get succeeds, and every
// object is there afterwards.
func TestFaultsShareIsAbsorbed(t *testing.T) {
	for _, f := range s3Faults {
		t.Run(f.Name, func(t *testing.T) {
			s, p, direct := faulty(t)
			ctx := context.Background()
			p.Set(faultproxy.Rule{Service: faultproxy.S3, Share: 0.1, Fault: f})
			const n = 30
			for i := range n {
				key := fmt.Sprintf("k/%d", i)
				if err := s.Put(ctx, key, []byte(key), "text/plain"); err != nil {
					t.Fatalf("put %s: %v", key, err)
				}
				if got, err := s.Get(ctx, key); err != nil || string(got) != key {
					t.Fatalf("get %s: %v %q", key, err, got)
				}
			}
			if p.Injected(faultproxy.S3, "") == 0 {
				t.Fatal("no fault was injected")
			}
			p.Set()
			for i := range n {
				if _, err := direct.Get(ctx, fmt.Sprintf("k/%d", i)); err != nil {
					t.Errorf("object %d: %v", i, err)
				}
			}
		})
	}
}

// Every call faulted: ErrUnavailable after the SDK's attempts — never
// ErrNotFound, which a reader would answer 404.
func TestFaultsPersistentIsUnavailable(t *testing.T) {
	for _, f := range s3Faults {
		t.Run(f.Name, func(t *testing.T) {
			s, p, direct := faulty(t)
			ctx := context.Background()
			if err := direct.Put(ctx, "there", []byte("x"), ""); err != nil {
				t.Fatal(err)
			}
			p.Set(faultproxy.Rule{Service: faultproxy.S3, Fault: f})
			check := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, blob.ErrUnavailable) || errors.Is(err, blob.ErrNotFound) {
					t.Errorf("%s: %v, want ErrUnavailable", what, err)
				}
			}
			check("put", s.Put(ctx, "new", []byte("x"), ""))
			_, err := s.Get(ctx, "there")
			check("get", err)
			check("delete", s.Delete(ctx, "there"))
			p.Set()
			if _, err := direct.Get(ctx, "there"); err != nil {
				t.Errorf("the object after a failed delete: %v", err)
			}
			if _, err := s.Get(ctx, "missing"); !errors.Is(err, blob.ErrNotFound) || errors.Is(err, blob.ErrUnavailable) {
				t.Errorf("missing object without faults: %v, want ErrNotFound only", err)
			}
		})
	}
}

// A put whose answer is lost is resent and reported done: objects are
// replaced whole, so applying it twice leaves the same object.
func TestFaultsLostAnswer(t *testing.T) {
	s, p, direct := faulty(t)
	ctx := context.Background()
	p.Set(faultproxy.Rule{Service: faultproxy.S3, Op: "PutObject", Count: 1, Fault: faultproxy.DropAnswer})
	if err := s.Put(ctx, "k", []byte("v"), ""); err != nil {
		t.Fatalf("put: %v", err)
	}
	if got, err := direct.Get(ctx, "k"); err != nil || string(got) != "v" {
		t.Errorf("object %v %q", err, got)
	}
	if n := p.Calls(faultproxy.S3, "PutObject"); n != 2 {
		t.Errorf("%d attempts, want 2", n)
	}
}
