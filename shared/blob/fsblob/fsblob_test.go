package fsblob_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/blob/blobtest"
	"github.com/galleydocs/galley/shared/blob/fsblob"
)

func TestConformance(t *testing.T) {
	blobtest.RunTests(t, func(t *testing.T) blob.Store {
		s, err := fsblob.New(filepath.Join(t.TempDir(), "blobs"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestLayout checks that objects are plain files at their key and that no
// temporary file is left behind, since local mode's data folder is meant to
// be readable with ordinary tools.
func TestLayout(t *testing.T) {
	dir := t.TempDir()
	s, err := fsblob.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for range 3 {
		if err := s.Put(ctx, "pages/p1/doc.json", []byte(`{"v":1}`), "application/json"); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(filepath.Join(dir, "pages", "p1", "doc.json"))
	if err != nil || string(got) != `{"v":1}` {
		t.Fatalf("file at key = %q, %v", got, err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "pages", "p1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), "~") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want 1", len(entries))
	}
}
