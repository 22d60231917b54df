package testkit

import (
	"strings"
	"testing"
)

// Contains fails the test (without stopping it) for each snippet that is
// not in s; what names s in the message.
func Contains(t testing.TB, what, s string, snippets ...string) {
	t.Helper()
	for _, x := range snippets {
		if !strings.Contains(s, x) {
			t.Errorf("%s lacks %q", what, x)
		}
	}
}

// Lacks fails the test (without stopping it) for each snippet that is in s.
func Lacks(t testing.TB, what, s string, snippets ...string) {
	t.Helper()
	for _, x := range snippets {
		if strings.Contains(s, x) {
			t.Errorf("%s holds %q", what, x)
		}
	}
}
