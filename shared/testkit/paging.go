package testkit

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi/apitest"
)

// Items reads every page of the list at path, limit items a page, as c,
// and returns the items in order. It fails when a page's count is not its
// number of items, when a page holds more than limit, and after 100 pages.
func Items(t testing.TB, c *apitest.Client, path string, limit int) []map[string]any {
	t.Helper()
	var out []map[string]any
	next := ""
	for pages := 0; ; pages++ {
		if pages == 100 {
			t.Fatalf("%s: more than 100 pages", path)
		}
		u, err := url.Parse(path)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("limit", strconv.Itoa(limit))
		if next != "" {
			q.Set("page", next)
		}
		u.RawQuery = q.Encode()
		var p struct {
			Next  *struct{ Page string }
			Count int
			Items []map[string]any
		}
		c.Expect(http.StatusOK, "GET", u.String(), nil).JSON(t, &p)
		if p.Count != len(p.Items) || len(p.Items) > limit {
			t.Fatalf("%s: a page of %d items with count %d (limit %d)", u, len(p.Items), p.Count, limit)
		}
		out = append(out, p.Items...)
		if p.Next == nil {
			return out
		}
		next = p.Next.Page
	}
}

// Field is each item's value of field, as a string.
func Field(items []map[string]any, field string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i], _ = it[field].(string)
	}
	return out
}
