package app

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/cdn"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/idempotency"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/secret"
)

// Routes adds operations to an API, with the services of the process's
// root: each family's package of roots exports one (spacesroot.Routes,
// ...). A family's list of routes may start with providers, which add no
// operation but build a service the family's others use when the process
// links it (openapiwire.Specs: the specs content computes pages from).
type Routes func(api *httpapi.API, r *Root)

// Family is one resource family: one Lambda function in template.yaml, one
// set of operations. The package app imports no family: each function's
// main.go names its own, so that each binary links only its family's code
// (package families lists them all, for local mode and the checks of
// infra/).
type Family struct {
	// Name selects the family (functions/<name>).
	Name string
	// Function is the family's logical id in template.yaml.
	Function string
	// Routes add the family's operations; most families have one.
	Routes []Routes
	// Queues connects the function's job queues (QUEUE_URL, GIT_QUEUE_URL,
	// INSIGHTS_QUEUE_URL)
	// in AWS: set by the main.go of a function that enqueues jobs
	// (WithQueues), nil elsewhere, so that only those link an SQS client.
	Queues Queues
	// CDN connects the CDN whose copies the function invalidates
	// (CDN_DISTRIBUTION_ID) in AWS: set by the main.go of a function that
	// changes what published pages show (WithCDN), nil elsewhere, so that
	// only those link the CloudFront client.
	CDN CDNs
}

// CDNs returns the CDN of a distribution over AWS configuration
// (cloudfrontcdn.Connect).
type CDNs func(cfg aws.Config, distribution string) cdn.CDN

// WithCDN returns f whose Lambda function invalidates the CDN's copies.
func (f Family) WithCDN(cdns CDNs) Family {
	f.CDN = cdns
	return f
}

// Queues returns the constructor of the queues at given URLs, over AWS
// configuration (sqsqueue.Connect).
type Queues func(aws.Config) func(url string) queue.Queue

// WithQueues returns f whose Lambda function sends jobs to queues.
func (f Family) WithQueues(queues Queues) Family {
	f.Queues = queues
	return f
}

// NewFamily returns the family name served by the function of that logical
// id with those routes.
func NewFamily(name, function string, routes ...Routes) Family {
	return Family{Name: name, Function: function, Routes: routes}
}

// NewAPI returns an API serving the given families with the services of
// root r. Every API authenticates its callers with the users family's
// tokens (users.Authenticate, the root's users service), so every function
// links that package.
func NewAPI(c Config, r *Root, families ...Family) *httpapi.API {
	d := r.Deps
	api := httpapi.New(httpapi.Config{Logger: d.Logger, Auth: Users(r), APIURL: c.APIURL, AppURL: c.AppURL,
		Version: Version, Build: c.Build, Metrics: c.Metrics, Family: familyName(families),
		RateLimit: c.RateLimit, Lazy: c.Lazy, Idempotency: idempotency.New(d.Store, d.Clock)})
	if d.Cursors != nil {
		// The cursors' secret is read before the first operation runs, not at
		// start-up; a failed read answers 500 (and is tried again next time).
		pager := d.Cursors
		api.Use(func(ctx huma.Context, next func(huma.Context)) {
			if err := pager.Load(ctx.Context()); err != nil {
				httpapi.LoggerFrom(ctx.Context()).Error("load the instance secret", "err", err.Error())
				_ = huma.WriteErr(api.Huma, ctx, http.StatusInternalServerError, "Internal error")
				return
			}
			next(ctx)
		})
	}
	for _, f := range families {
		for _, routes := range f.Routes {
			routes(api, r)
		}
	}
	return api
}

// familyName is the metrics dimension of an API: its family, or "all".
func familyName(families []Family) string {
	if len(families) == 1 {
		return families[0].Name
	}
	return "all"
}

// NewDeps assembles the services' dependencies on the given ports. It does
// no I/O: the installation's secret (page tokens, sealed credentials) is
// read on first use.
func NewDeps(_ context.Context, c Config, d deps.Deps) (*deps.Deps, error) {
	if d.Store == nil {
		return nil, fmt.Errorf("deps: no store")
	}
	if d.Logger == nil {
		d.Logger = c.Logger()
	}
	if d.Metrics == nil {
		d.Metrics = c.Metrics
	}
	d.Authz = access.NewAuthorizer(d.Store)
	if d.Secret == nil {
		d.Secret = secret.New(d.Store)
	}
	d.Cursors = paging.NewLazySigner(d.Secret.Key)
	d.FetchAllowPrivate = c.FetchAllowPrivate
	d.SitesDomain = c.SitesDomain
	d.ReaderAssets = c.ReaderAssets
	d.APIURL = c.APIURL
	d.AuditRetention = time.Duration(c.AuditRetentionDays) * 24 * time.Hour
	return &d, nil
}
