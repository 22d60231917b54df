package testkit

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
)

// Client is a client of api sending token ("" for none).
func Client(t testing.TB, api *httpapi.API, token string) *apitest.Client {
	c := apitest.New(t, api)
	c.Token = token
	return c
}

// With is a client of the fixture's API sending token ("" for none).
func (a *API) With(t testing.TB, token string) *apitest.Client { return Client(t, a.API, token) }

// Case is one request of a table and the answer it must get: Status, and,
// when Field is not empty, an error whose message names Field. It is an
// alias of an unnamed struct type so that tables list their cases without
// keys, as the tests' own tables did.
type Case = struct {
	Name, Token, Method, Path string
	Body                      any
	Status                    int
	Field                     string
}

// Check sends each case, in order and as a subtest named by the case,
// through a client of api (which validates every answer against the API's
// document).
func Check(t *testing.T, api *httpapi.API, cases []Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res := Client(t, api, c.Token).Expect(c.Status, c.Method, c.Path, c.Body)
			if c.Field == "" {
				return
			}
			var e struct{ Error struct{ Message string } }
			res.JSON(t, &e)
			if !strings.Contains(e.Error.Message, c.Field) {
				t.Errorf("error message %q does not name %q", e.Error.Message, c.Field)
			}
		})
	}
}

// Check sends each case through the fixture's API (the package's Check).
func (a *API) Check(t *testing.T, cases []Case) {
	t.Helper()
	Check(t, a.API, cases)
}

// Pages reads every page of the list at path (which may have a query of
// its own), limit items at a time, through c. It fails unless each page
// answers 200 with count equal to its number of items and at most limit,
// or if the pages do not end within 100. It returns the items in order,
// and the page tokens it followed (one fewer than the pages).
func Pages(t testing.TB, c *apitest.Client, path string, limit int) (items []map[string]any, tokens []string) {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	page := ""
	for range 100 {
		p := fmt.Sprintf("%s%slimit=%d", path, sep, limit)
		if page != "" {
			p += "&page=" + url.QueryEscape(page)
		}
		var body struct {
			Next  *struct{ Page string } `json:"next"`
			Count int                    `json:"count"`
			Items []map[string]any       `json:"items"`
		}
		c.Expect(http.StatusOK, "GET", p, nil).JSON(t, &body)
		if body.Count != len(body.Items) || len(body.Items) > limit {
			t.Fatalf("GET %s: page of %d items with count %d (limit %d)", p, len(body.Items), body.Count, limit)
		}
		items = append(items, body.Items...)
		if body.Next == nil {
			return items, tokens
		}
		page = body.Next.Page
		tokens = append(tokens, page)
	}
	t.Fatalf("GET %s: more than 100 pages", path)
	return nil, nil
}

// Field returns the values of a string field of items (ids, names), "" where
// an item has none.
func Field(items []map[string]any, name string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i], _ = it[name].(string)
	}
	return out
}
