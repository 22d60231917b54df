package testkit

import (
	"testing"

	"github.com/galleydocs/galley/shared/httpapi/apitest"
)

// Items is Pages without the page tokens: every item of the list at path,
// in order, read limit a page as c, with the same checks on each page.
func Items(t testing.TB, c *apitest.Client, path string, limit int) []map[string]any {
	t.Helper()
	items, _ := Pages(t, c, path, limit)
	return items
}
