package events

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
)

// A sample whose answer needs data names it here: the tests that replay
// samples (events_test.go, infra/process_test.go) run its seed first,
// through the API as the sample's token's administrator, on the store the
// sample is then answered from, and replace in the sample each key of the
// answer (an id the sample holds as a placeholder) by its value (the id
// the seed made). Other samples run on an empty installation.
var Seeds = map[string]func(tb testing.TB, d *deps.Deps, token string) map[string]string{
	"reader-read-published-page.json": SeedPublishedSite,
	"reader-track-page-events.json":   SeedPublishedSite,
}

// PublishedOrgPlaceholder is the organization id the reader's published
// page sample holds in place of the seeded organization's.
const PublishedOrgPlaceholder = "0f00000000000000000c"

// SeedPublishedSite makes an organization with a public site "docs",
// published, over a space of two pages (Introduction, then Setup at
// setup).
func SeedPublishedSite(tb testing.TB, d *deps.Deps, token string) map[string]string {
	tb.Helper()
	c := apitest.New(tb, app.NewAPI(app.Config{}, families.NewRoot(d), families.All()...))
	c.Token = token
	org := c.Expect(http.StatusCreated, "POST", "/v1/orgs", map[string]any{"title": "Acme"}).Map(tb)["id"].(string)
	space := c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Guide"}).Map(tb)["id"].(string)
	crs := "/v1/spaces/" + space + "/change-requests"
	n, _ := c.Expect(http.StatusCreated, "POST", crs, map[string]any{"subject": "pages"}).Map(tb)["number"].(float64)
	cr := crs + "/" + strconv.Itoa(int(n))
	c.Expect(http.StatusOK, "POST", cr+"/content?compat=false", map[string]any{"changes": []map[string]any{
		{"operation": "insert_page", "ref": "intro", "document": map[string]any{"markdown": "# Introduction\n\nWelcome to the guide.\n"}},
		{"operation": "insert_page", "ref": "setup", "document": map[string]any{"markdown": "# Setup\n\nInstall it, then [read on](./intro.md).\n\n```sh\nmake run\n```\n"}},
	}})
	c.Expect(http.StatusOK, "POST", cr+"/merge", nil)
	site := c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Acme Docs", "spaces": []string{space}}).Map(tb)["id"].(string)
	sitePath := "/v1/orgs/" + org + "/sites/" + site
	c.Expect(http.StatusOK, "PATCH", sitePath, map[string]any{"basename": "docs", "visibility": "public"})
	c.Expect(http.StatusOK, "POST", sitePath+"/publish", nil)
	// A first read of the revision (here, the API's) writes its tree index
	// (content builds it lazily); the reader's function, which may only
	// read the bucket, then finds it (docs/reader.md, "In AWS").
	c.Expect(http.StatusOK, "GET", "/v1/spaces/"+space+"/content/path/setup", nil)
	return map[string]string{PublishedOrgPlaceholder: org}
}
