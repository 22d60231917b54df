// Package blobtest is the conformance suite of the blob-store port: every
// adapter runs it, so code tested against one adapter behaves the same on
// the others.
package blobtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/blob"
)

// BadKeys are keys every adapter must reject.
func BadKeys() []string {
	return []string{
		"", "/", "/a", "a/", "a//b", ".", "..", "../a", "a/..", "a/../b", "a/./b",
		"a b", `a\b`, "a~b", "a:b", "a?b", "a%2Fb", "é", "a\x00b", "a\nb",
		string(bytes.Repeat([]byte("a"), blob.MaxKeyBytes+1)),
	}
}

// RunTests runs the suite. newStore returns an empty store for one subtest;
// it is called once per subtest, so each starts from nothing.
func RunTests(t *testing.T, newStore func(t *testing.T) blob.Store) {
	t.Run("RoundTrip", func(t *testing.T) {
		s := newStore(t)
		ctx := testContext(t)
		all := make([]byte, 256)
		for i := range all {
			all[i] = byte(i)
		}
		big := make([]byte, 5<<20)
		if _, err := rand.Read(big); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			key, contentType string
			data             []byte
		}{
			{"binary", "application/octet-stream", all},
			{"empty", "text/plain", []byte{}},
			{"no-content-type", "", []byte("x")},
			{"nested/dir/Key_1.2-3.json", "application/json", []byte(`{"a":1}`)},
			{"sha256/ab/abcdef0123456789", "", []byte("hashed")},
			{".hidden", "", []byte("dot")},
			{"big", "application/octet-stream", big},
		}
		for _, c := range cases {
			if err := s.Put(ctx, c.key, c.data, c.contentType); err != nil {
				t.Fatalf("Put(%q): %v", c.key, err)
			}
		}
		for _, c := range cases {
			got, err := s.Get(ctx, c.key)
			if err != nil {
				t.Fatalf("Get(%q): %v", c.key, err)
			}
			if !bytes.Equal(got, c.data) {
				t.Errorf("Get(%q) = %d bytes, want the %d bytes put", c.key, len(got), len(c.data))
			}
		}
	})

	t.Run("Overwrite", func(t *testing.T) {
		s := newStore(t)
		ctx := testContext(t)
		mustPut(t, s, "k", []byte("first, and longer than the second"))
		mustPut(t, s, "k", []byte("second"))
		if got := mustGet(t, s, "k"); string(got) != "second" {
			t.Errorf("Get after overwrite = %q, want %q", got, "second")
		}
		mustPut(t, s, "k", nil)
		if got, err := s.Get(ctx, "k"); err != nil || len(got) != 0 {
			t.Errorf("Get after overwrite with nothing = %q, %v; want empty", got, err)
		}
	})

	t.Run("Missing", func(t *testing.T) {
		s := newStore(t)
		ctx := testContext(t)
		mustPut(t, s, "dir/present", []byte("x"))
		for _, key := range []string{"absent", "dir/absent", "dir", "dir/present/below", "other/dir/absent"} {
			if _, err := s.Get(ctx, key); !errors.Is(err, blob.ErrNotFound) {
				t.Errorf("Get(%q) error = %v, want ErrNotFound", key, err)
			}
		}
	})

	t.Run("Delete", func(t *testing.T) {
		s := newStore(t)
		ctx := testContext(t)
		mustPut(t, s, "a/b", []byte("x"))
		mustPut(t, s, "a/c", []byte("y"))
		if err := s.Delete(ctx, "a/b"); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		if _, err := s.Get(ctx, "a/b"); !errors.Is(err, blob.ErrNotFound) {
			t.Errorf("Get after Delete error = %v, want ErrNotFound", err)
		}
		if got := mustGet(t, s, "a/c"); string(got) != "y" {
			t.Errorf("sibling after Delete = %q, want %q", got, "y")
		}
		for _, key := range []string{"a/b", "never", "a", "x/y/z"} {
			if err := s.Delete(ctx, key); err != nil {
				t.Errorf("Delete(%q) of a missing object: %v", key, err)
			}
		}
		if got := mustGet(t, s, "a/c"); string(got) != "y" {
			t.Errorf("sibling after deleting missing objects = %q, want %q", got, "y")
		}
		// A deleted key can be written again.
		mustPut(t, s, "a/b", []byte("again"))
		if got := mustGet(t, s, "a/b"); string(got) != "again" {
			t.Errorf("Get after re-Put = %q", got)
		}
	})

	t.Run("BadKeys", func(t *testing.T) {
		s := newStore(t)
		ctx := testContext(t)
		for _, key := range BadKeys() {
			if err := s.Put(ctx, key, []byte("x"), ""); !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("Put(%q) error = %v, want ErrInvalidKey", key, err)
			}
			if _, err := s.Get(ctx, key); !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("Get(%q) error = %v, want ErrInvalidKey", key, err)
			}
			if err := s.Delete(ctx, key); !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("Delete(%q) error = %v, want ErrInvalidKey", key, err)
			}
		}
	})

	t.Run("Concurrent", func(t *testing.T) {
		s := newStore(t)
		ctx := testContext(t)
		const workers, perWorker = 8, 8
		var wg sync.WaitGroup
		errs := make(chan error, workers*perWorker)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range perWorker {
					key := fmt.Sprintf("concurrent/%d/%d", w, i)
					data := bytes.Repeat([]byte(key), 100+i)
					if err := s.Put(ctx, key, data, "text/plain"); err != nil {
						errs <- fmt.Errorf("Put(%q): %w", key, err)
						continue
					}
					got, err := s.Get(ctx, key)
					if err != nil {
						errs <- fmt.Errorf("Get(%q): %w", key, err)
					} else if !bytes.Equal(got, data) {
						errs <- fmt.Errorf("Get(%q) returned other bytes", key)
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		// Every object is still there once all writers are done.
		for w := range workers {
			for i := range perWorker {
				key := fmt.Sprintf("concurrent/%d/%d", w, i)
				if got := mustGet(t, s, key); !bytes.Equal(got, bytes.Repeat([]byte(key), 100+i)) {
					t.Errorf("Get(%q) after all writers returned other bytes", key)
				}
			}
		}
	})
}

// testContext bounds each subtest, so a hung adapter fails instead of
// stalling the whole test binary.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustPut(t *testing.T, s blob.Store, key string, data []byte) {
	t.Helper()
	if err := s.Put(testContext(t), key, data, ""); err != nil {
		t.Fatalf("Put(%q): %v", key, err)
	}
}

func mustGet(t *testing.T, s blob.Store, key string) []byte {
	t.Helper()
	got, err := s.Get(testContext(t), key)
	if err != nil {
		t.Fatalf("Get(%q): %v", key, err)
	}
	return got
}
