// Package families lists every family and worker of Galley with their
// code: local mode serves them all, the route generator (functions/routes)
// writes template.yaml's Events and the OpenAPI document from them, and
// infra/ checks the template, the routes and the document against them. A Lambda function never
// imports it: each functions/<name>/main.go names its own family, so that
// its binary links only that family (TestMainsMatchFamilies keeps the two
// in step).
package families

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/galleydocs/galley/shared/apidoc"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/changerequests/changerequestshttp"
	"github.com/galleydocs/galley/shared/collections/collectionshttp"
	"github.com/galleydocs/galley/shared/comments/commentshttp"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/customfields/customfieldshttp"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/gitsync/gitsynchttp"
	"github.com/galleydocs/galley/shared/imports/importshttp"
	"github.com/galleydocs/galley/shared/openapispecs/openapispecshttp"
	"github.com/galleydocs/galley/shared/openapispecs/openapiworker"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/reader/readerhttp"
	"github.com/galleydocs/galley/shared/search/searchhttp"
	"github.com/galleydocs/galley/shared/sites/siteshttp"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
	"github.com/galleydocs/galley/shared/sso/ssohttp"
	"github.com/galleydocs/galley/shared/translations/translationshttp"
	"github.com/galleydocs/galley/shared/users/usershttp"
)

// All lists every family, as each function's main.go builds it.
func All() []app.Family {
	return []app.Family{
		// The users function also serves the API's OpenAPI document
		// (generated from every family, embedded: see package apidoc).
		app.NewFamily("users", "UsersFunction", usershttp.Routes, apidoc.Routes),
		app.NewFamily("orgs", "OrganizationsFunction", orgshttp.Routes),
		app.NewFamily("spaces", "SpacesFunction", spaceshttp.Routes),
		app.NewFamily("collections", "CollectionsFunction", collectionshttp.Routes),
		app.NewFamily("customfields", "CustomFieldsFunction", customfieldshttp.Routes),
		app.NewFamily("changerequests", "ChangeRequestsFunction", changerequestshttp.Routes),
		app.NewFamily("sites", "SitesFunction", siteshttp.Routes),
		app.NewFamily("content", "ContentFunction", contenthttp.Routes),
		app.NewFamily("search", "SearchFunction", searchhttp.Routes),
		// Single sign-on (SAML providers, login info, the SAML login) and
		// translation settings: the organization's identity and language
		// settings, one function (docs/sso.md).
		app.NewFamily("sso", "SSOFunction", ssohttp.Routes, translationshttp.Routes),
		app.NewFamily("comments", "CommentsFunction", commentshttp.Routes),
		// OpenAPI specs: documents fetched, parsed and versioned by the
		// OpenAPI worker (docs/workers.md).
		app.NewFamily("openapi", "OpenAPIFunction", openapispecshttp.Routes),
		// Git Sync: import and export requests, queued for the Git worker
		// (docs/workers.md).
		app.NewFamily("git", "GitFunction", gitsynchttp.Routes),
		// Content import from URLs, run within the request (docs/workers.md).
		app.NewFamily("imports", "ImportsFunction", importshttp.Routes),
		// Readers: published sites as HTML and markdown, under the public
		// URL (docs/reader.md).
		app.NewFamily("reader", "ReaderFunction", readerhttp.Routes),
	}
}

// ByName returns the named family.
func ByName(name string) (app.Family, error) {
	for _, f := range All() {
		if f.Name == name {
			return f, nil
		}
	}
	return app.Family{}, fmt.Errorf("no family %q", name)
}

// WorkerHandlers are each worker's handlers, by worker name (app.Workers).
func WorkerHandlers() map[string]app.Handlers {
	return map[string]app.Handlers{
		"openapiworker": openapiworker.Handlers,
		"gitworker":     gitsync.Handlers,
	}
}

// JobHandlers are every worker's handlers, by kind: local mode runs them
// all in-process.
func JobHandlers(d *deps.Deps) map[string]queue.Handler {
	all := map[string]queue.Handler{}
	for _, w := range app.Workers() {
		for kind, h := range WorkerHandlers()[w.Name](d) {
			all[kind] = h
		}
	}
	return all
}

// OpenAPI returns the OpenAPI document of every family, as indented JSON
// (so that a change of the API reads as a diff): what apidoc embeds (`make
// routes` writes it; a test compares them).
func OpenAPI() ([]byte, error) {
	api := app.NewAPI(app.Config{}, &deps.Deps{}, All()...)
	doc := api.Huma.OpenAPI()
	// A route ending in a wildcard ({pagePath...}: the rest of the path)
	// is written {pagePath} in OpenAPI, whose parameters have no wildcard.
	for p, item := range doc.Paths {
		if strings.HasSuffix(p, "...}") {
			delete(doc.Paths, p)
			doc.Paths[strings.TrimSuffix(p, "...}")+"}"] = item
		}
	}
	raw, err := doc.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
