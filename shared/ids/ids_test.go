package ids

import (
	"sort"
	"testing"
	"time"
)

func TestNewSortsByTimeAndIsUnique(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	var made []string
	for i := 0; i < 2000; i++ {
		id := New(base.Add(time.Duration(i) * time.Millisecond))
		if len(id) != 20 {
			t.Fatalf("id %q has length %d", id, len(id))
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
		made = append(made, id)
	}
	if !sort.StringsAreSorted(made) {
		t.Fatal("ids made later do not sort after earlier ones")
	}
}

func TestSecretAndHash(t *testing.T) {
	a, b := Secret("gly_", 32), Secret("gly_", 32)
	if a == b || len(a) != 4+43 {
		t.Fatalf("secrets %q %q", a, b)
	}
	if Hash(a) == Hash(b) || Hash(a) != Hash(a) || len(Hash(a)) != 64 {
		t.Fatal("hash is not a stable distinct sha256 hex")
	}
}
