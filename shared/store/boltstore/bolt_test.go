package boltstore_test

import (
	"path/filepath"
	"testing"

	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/boltstore"
	"github.com/galleydocs/galley/shared/store/storetest"
)

func TestConformanceBolt(t *testing.T) {
	storetest.RunTests(t, func(t *testing.T) store.Store {
		s, err := boltstore.Open(filepath.Join(t.TempDir(), "galley.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
