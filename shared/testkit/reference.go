package testkit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi/apitest"
)

// ReferenceDocument decodes into v GitBook's OpenAPI document of version
// 0.202.0 (the reference the served operations are checked against,
// found by apitest.ReferenceDir); a failure ends the test.
func ReferenceDocument(t testing.TB, v any) {
	t.Helper()
	dir, err := apitest.ReferenceDir()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "gitbook-openapi-0.202.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}
