// Package blob is the port for content too large for a table item: page
// documents, revision trees, files. Objects are immutable by convention
// (keys are usually content hashes), so no adapter needs conditions.
package blob

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotFound: no object has the key.
var ErrNotFound = errors.New("blob: object not found")

// ErrInvalidKey: the key breaks the rules of ValidateKey.
var ErrInvalidKey = errors.New("blob: invalid key")

// ErrUnavailable: the blob store is throttling or failing for now (S3
// answered SlowDown or a server error, or did not answer, through every
// retry of the call). The HTTP layer answers it 503 with Retry-After.
var ErrUnavailable = errors.New("blob: temporarily unavailable")

// MaxKeyBytes is the longest key. S3 allows 1024 bytes including the
// adapter's prefix, so keys stay well below that.
const MaxKeyBytes = 512

// ValidateKey checks key against the rules every adapter enforces, so that
// a key accepted locally is accepted on S3 and maps to the same object: one
// or more segments of [A-Za-z0-9._-] joined by single slashes, no leading or
// trailing slash, and no "." or ".." segment (which a filesystem would
// resolve to another path). The error wraps ErrInvalidKey.
func ValidateKey(key string) error {
	if key == "" {
		return fmt.Errorf("%w: empty key", ErrInvalidKey)
	}
	if len(key) > MaxKeyBytes {
		return fmt.Errorf("%w: key longer than %d bytes", ErrInvalidKey, MaxKeyBytes)
	}
	for _, seg := range strings.Split(key, "/") {
		switch seg {
		case "":
			return fmt.Errorf("%w: %q has an empty segment", ErrInvalidKey, key)
		case ".", "..":
			return fmt.Errorf("%w: %q has a %q segment", ErrInvalidKey, key, seg)
		}
		for i := 0; i < len(seg); i++ {
			c := seg[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
				return fmt.Errorf("%w: %q contains byte %q", ErrInvalidKey, key, c)
			}
		}
	}
	return nil
}

// Store is the blob-store port. Keys are slash-separated paths of
// [A-Za-z0-9._-] segments (see ValidateKey); every method rejects any other
// key with an error wrapping ErrInvalidKey.
type Store interface {
	// Put stores data under key, replacing any object there.
	Put(ctx context.Context, key string, data []byte, contentType string) error
	// Get returns the object's bytes, or ErrNotFound.
	Get(ctx context.Context, key string) ([]byte, error)
	// Delete removes the object; removing a missing object is not an error.
	Delete(ctx context.Context, key string) error
}

// Presigner is a store a client can write an object of directly, through a
// URL the store signs, without the bytes passing through Galley (S3's
// pre-signed PUT). The URL binds the key, the content type and the size:
// a PUT with another Content-Type or Content-Length is refused by the
// store. Stores that cannot sign URLs (the filesystem) do not implement
// it; Galley then serves the upload itself (docs/storage.md, "Uploads").
type Presigner interface {
	PresignPut(ctx context.Context, key, contentType string, size int64, ttl time.Duration) (string, error)
}

// Gzip compresses raw for a gzipped object (a tree, a list), at the speed
// that suits objects written on the request's path (gzip.BestSpeed).
func Gzip(raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
