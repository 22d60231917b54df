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

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/changerequestsroot"
	"github.com/galleydocs/galley/shared/app/roots/collectionsroot"
	"github.com/galleydocs/galley/shared/app/roots/commentsroot"
	"github.com/galleydocs/galley/shared/app/roots/contentroot"
	"github.com/galleydocs/galley/shared/app/roots/customfieldsroot"
	"github.com/galleydocs/galley/shared/app/roots/gitroot"
	"github.com/galleydocs/galley/shared/app/roots/gitworkerroot"
	"github.com/galleydocs/galley/shared/app/roots/importsroot"
	"github.com/galleydocs/galley/shared/app/roots/insightsroot"
	"github.com/galleydocs/galley/shared/app/roots/insightsworkerroot"
	"github.com/galleydocs/galley/shared/app/roots/openapiroot"
	"github.com/galleydocs/galley/shared/app/roots/openapiworkerroot"
	"github.com/galleydocs/galley/shared/app/roots/orgsroot"
	"github.com/galleydocs/galley/shared/app/roots/readerroot"
	"github.com/galleydocs/galley/shared/app/roots/searchroot"
	"github.com/galleydocs/galley/shared/app/roots/sitesroot"
	"github.com/galleydocs/galley/shared/app/roots/spacesroot"
	"github.com/galleydocs/galley/shared/app/roots/ssoroot"
	"github.com/galleydocs/galley/shared/app/roots/usersroot"
	"github.com/galleydocs/galley/shared/app/roots/webhookworkerroot"
	"github.com/galleydocs/galley/shared/app/wire/commentswire"
	"github.com/galleydocs/galley/shared/app/wire/gitjobwire"
	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/queue"
)

// All lists every family, as each function's main.go builds it.
func All() []app.Family {
	return []app.Family{
		// The users function also serves the API's OpenAPI document
		// (generated from every family, embedded: see package apidoc).
		app.NewFamily("users", "UsersFunction", usersroot.Routes),
		app.NewFamily("orgs", "OrganizationsFunction", orgsroot.Routes),
		app.NewFamily("spaces", "SpacesFunction", spacesroot.Routes),
		app.NewFamily("collections", "CollectionsFunction", collectionsroot.Routes),
		app.NewFamily("customfields", "CustomFieldsFunction", customfieldsroot.Routes),
		app.NewFamily("changerequests", "ChangeRequestsFunction", changerequestsroot.Routes),
		app.NewFamily("sites", "SitesFunction", sitesroot.Routes),
		app.NewFamily("content", "ContentFunction", contentroot.Routes),
		app.NewFamily("search", "SearchFunction", searchroot.Routes),
		// Single sign-on (SAML providers, login info, the SAML login) and
		// translation settings: the organization's identity and language
		// settings, one function (docs/sso.md).
		app.NewFamily("sso", "SSOFunction", ssoroot.Routes, ssoroot.Translations),
		app.NewFamily("comments", "CommentsFunction", commentsroot.Routes),
		// OpenAPI specs: documents fetched, parsed and versioned by the
		// OpenAPI worker (docs/workers.md).
		app.NewFamily("openapi", "OpenAPIFunction", openapiroot.Routes),
		// Git Sync: import and export requests, queued for the Git worker
		// (docs/workers.md).
		app.NewFamily("git", "GitFunction", gitroot.Routes),
		// Content import from URLs, run within the request (docs/workers.md).
		app.NewFamily("imports", "ImportsFunction", importsroot.Routes),
		// Readers: published sites as HTML and markdown, under the public
		// URL (docs/reader.md).
		// Site insights are served with it: the reader posts its events
		// there (docs/insights.md).
		app.NewFamily("reader", "ReaderFunction", readerroot.Routes, insightsroot.Routes),
	}
}

// NewRoot returns local mode's root over d: every family's services, built
// once. The services a family uses only when its process links another
// (content's OpenAPI specs, the comments posted with reviews, the OpenAPI
// documents' parser, the sites' spaces for the change requests' site
// filter) are provided first, so that each service is built
// with all of them whatever the order the families are served in.
func NewRoot(d *deps.Deps) *app.Root {
	r := app.NewRoot(d)
	sitesroot.ProvideEvents(r)
	changerequestsroot.ProvideEvents(r)
	gitworkerroot.ProvideEvents(r)
	insightsworkerroot.ProvideEvents(r)
	openapiworkerroot.ProvideParser(r)
	openapiwire.ProvideSpecs(r)
	commentswire.ProvideReviewComments(r)
	gitjobwire.ProvideExports(r)
	changerequestsroot.ProvideSiteSpaces(r)
	return r
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
		"openapiworker":  openapiworkerroot.Handlers,
		"gitworker":      gitworkerroot.Handlers,
		"webhookworker":  webhookworkerroot.Handlers,
		"insightsworker": insightsworkerroot.Handlers,
	}
}

// JobHandlers are every worker's handlers, by kind, on the services of r:
// local mode runs them all in-process.
func JobHandlers(r *app.Root) map[string]queue.Handler {
	all := map[string]queue.Handler{}
	for _, w := range app.Workers() {
		for kind, h := range WorkerHandlers()[w.Name](r) {
			all[kind] = h
		}
	}
	return all
}

// WorkerBatches are the batch handlers of the workers that have some, by
// worker name (sqsworker.StartBatchingWorker).
func WorkerBatches() map[string]app.Batches {
	return map[string]app.Batches{"insightsworker": insightsworkerroot.Batches}
}

// BatchHandlers are the job kinds local mode's queue runs by batches (the
// insights jobs: a site's queued events counted together), on the
// services of r.
func BatchHandlers(r *app.Root) map[string]queue.BatchHandler {
	all := map[string]queue.BatchHandler{}
	for _, b := range WorkerBatches() {
		for kind, h := range b(r) {
			all[kind] = h
		}
	}
	return all
}

// OpenAPI returns the OpenAPI document of every family, as indented JSON
// (so that a change of the API reads as a diff): what apidoc embeds (`make
// routes` writes it; a test compares them).
func OpenAPI() ([]byte, error) {
	api := app.NewAPI(app.Config{}, NewRoot(&deps.Deps{}), All()...)
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
