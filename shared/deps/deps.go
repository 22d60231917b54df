// Package deps holds what every family's service is built from: the ports
// (store, blobs, queue), the clock, the authorizer and the cursor signer.
// It is assembled once per process (a Lambda cold start, or the local server).
package deps

import (
	"log/slog"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/secret"
	"github.com/galleydocs/galley/shared/store"
)

// Deps are the dependencies of the services.
type Deps struct {
	Store  store.Store
	Blobs  blob.Store
	Queue  queue.Queue
	Now    func() time.Time
	Logger *slog.Logger
	// Metrics receives the services' CloudWatch embedded-metric records
	// (package metrics): stdout in a Lambda function, nil in local mode.
	Metrics *slog.Logger
	Authz   *access.Authorizer
	// Cursors signs the cursors of lists (services take a paging.Request
	// and return a paging.Page).
	Cursors *paging.Signer
	// Secret is the installation's secret, read on first use.
	Secret *secret.Instance
	// FetchAllowPrivate lets server-side fetches reach loopback and private
	// addresses (local testing only).
	FetchAllowPrivate bool
	// SitesDomain is the domain under which organizations with a hostname
	// publish their sites, https://<hostname>.<SitesDomain>/<basename>
	// (SITES_DOMAIN; empty: they do not, docs/reader.md).
	SitesDomain string
	// ReaderAssets is the directory of the reader's browser assets
	// (READER_ASSETS: the mermaid package functions/assets extracts);
	// empty, or without them, diagrams show their source (docs/reader.md).
	ReaderAssets string
	// APIURL is the API's public base URL (API_URL; "" unknown): links in
	// what is rendered away from a request (webhook payloads).
	APIURL string
	// AuditRetention is how long audit events are kept
	// (AUDIT_RETENTION_DAYS; zero: the audit family's default).
	AuditRetention time.Duration
}

// Clock returns the current time in UTC, truncated to milliseconds so that
// stored and returned timestamps agree.
func (d *Deps) Clock() time.Time {
	now := time.Now
	if d.Now != nil {
		now = d.Now
	}
	return now().UTC().Truncate(time.Millisecond)
}
