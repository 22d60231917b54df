package testkit

import (
	"testing"

	"github.com/galleydocs/galley/shared/blob/fsblob"
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
