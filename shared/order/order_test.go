package order

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBetweenOrdersRandomInsertions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var keys []string
	for i := 0; i < 3000; i++ {
		at := r.IntN(len(keys) + 1)
		if i%7 == 0 {
			at = len(keys) // appends keep keys short
		}
		lo, hi := "", ""
		if at > 0 {
			lo = keys[at-1]
		}
		if at < len(keys) {
			hi = keys[at]
		}
		k, err := Between(lo, hi)
		if err != nil {
			t.Fatalf("Between(%q, %q): %v", lo, hi, err)
		}
		if (lo != "" && k <= lo) || (hi != "" && k >= hi) {
			t.Fatalf("Between(%q, %q) = %q, not strictly between", lo, hi, k)
		}
		keys = slices.Insert(keys, at, k)
	}
	if !slices.IsSorted(keys) {
		t.Fatal("keys are not in insertion order")
	}
}

func TestAppendingAndPrependingKeepKeysShort(t *testing.T) {
	last, first := First, First
	for i := 0; i < 100000; i++ {
		var err error
		if last, err = Between(last, ""); err != nil {
			t.Fatal(err)
		}
		if first, err = Between("", first); err != nil {
			t.Fatal(err)
		}
	}
	if len(last) > 5 || len(first) > 5 {
		t.Fatalf("after 100000 appends and prepends: %q and %q", last, first)
	}
}

func TestRepeatedInsertionIntoOneGapGrowsSlowly(t *testing.T) {
	lo, hi := First, "a1"
	for i := 0; i < 600; i++ {
		k, err := Between(lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		hi = k
	}
	if len(hi) > 120 {
		t.Fatalf("600 insertions at one spot made a key of %d characters", len(hi))
	}
}

func TestBetweenRejects(t *testing.T) {
	for _, tc := range []struct{ name, a, b string }{
		{"BoundsOutOfOrder", "a1", "a0"},
		{"EqualBounds", "a1", "a1"},
		{"TrailingZero", "a0V0", ""},
		{"BadHead", "!0", ""},
		{"TooShort", "b0", ""},
		{"BadDigit", "a#", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if k, err := Between(tc.a, tc.b); err == nil {
				t.Fatalf("Between(%q, %q) = %q, want an error", tc.a, tc.b, k)
			}
		})
	}
}
