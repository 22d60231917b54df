package testkit

import (
	"encoding/json"
	"testing"
)

// JSON is v encoded as JSON; the test fails when it cannot be.
func JSON(t testing.TB, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// Sent is v as a client sends it: encoded as JSON and decoded again, into
// maps, slices and float64s.
func Sent(t testing.TB, v any) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(JSON(t, v), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
