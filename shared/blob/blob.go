// Package blob is the port for content too large for a table item: page
// documents, revision trees, files. Objects are immutable by convention
// (keys are usually content hashes), so no adapter needs conditions.
package blob

import (
	"context"
	"errors"
)

// ErrNotFound: no object has the key.
var ErrNotFound = errors.New("blob: object not found")

// Store is the blob-store port. Keys are slash-separated paths of
// [A-Za-z0-9._-] segments.
type Store interface {
	// Put stores data under key, replacing any object there.
	Put(ctx context.Context, key string, data []byte, contentType string) error
	// Get returns the object's bytes, or ErrNotFound.
	Get(ctx context.Context, key string) ([]byte, error)
	// Delete removes the object; removing a missing object is not an error.
	Delete(ctx context.Context, key string) error
}
