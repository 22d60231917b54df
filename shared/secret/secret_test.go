package secret_test

import (
	"bytes"
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/galleydocs/galley/shared/secret"
	"github.com/galleydocs/galley/shared/store/boltstore"
)

// Processes starting at once on one store agree on one secret, made once,
// and a process keeps it once read.
func TestOneSecretPerInstallation(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := secret.New(st).Key(context.Background())
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		}()
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if len(k) != 32 || !bytes.Equal(k, keys[0]) {
			t.Fatalf("two secrets: %x and %x", keys[0], k)
		}
	}
	a, _ := secret.New(st).Derive(context.Background(), "x")
	b, _ := secret.New(st).Derive(context.Background(), "y")
	if bytes.Equal(a, b) {
		t.Fatal("two purposes share a derived key")
	}
}
