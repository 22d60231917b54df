package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/collections"
	"github.com/galleydocs/galley/shared/comments"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/customfields"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/imports"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/search"
	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/sso"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/translations"
	"github.com/galleydocs/galley/shared/users"
)

// Family is one resource family: one Lambda function in template.yaml, one
// set of operations.
type Family struct {
	// Name selects the family (functions/<name>).
	Name string
	// Function is the family's logical id in template.yaml.
	Function string
	register func(api *httpapi.API, d *deps.Deps, c Config)
}

// Families lists every family.
func Families() []Family {
	return []Family{
		{Name: "users", Function: "UsersFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			users.Register(api, users.New(d), c.Build)
			registerOpenAPI(api, c)
		}},
		{Name: "orgs", Function: "OrganizationsFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			orgs.Register(api, orgs.New(d, users.New(d)))
		}},
		{Name: "spaces", Function: "SpacesFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			spaces.Register(api, spaces.New(d))
		}},
		{Name: "collections", Function: "CollectionsFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			collections.Register(api, collections.New(d))
		}},
		{Name: "customfields", Function: "CustomFieldsFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			customfields.Register(api, customfields.New(d))
		}},
		{Name: "changerequests", Function: "ChangeRequestsFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			changerequests.Register(api, changerequests.New(d))
		}},
		{Name: "sites", Function: "SitesFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			sites.Register(api, sites.New(d))
		}},
		{Name: "content", Function: "ContentFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			content.Register(api, content.New(d))
		}},
		{Name: "search", Function: "SearchFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			search.Register(api, search.New(d))
		}},
		// Single sign-on (SAML providers, login info, the SAML login) and
		// translation settings: the organization's identity and language
		// settings, one function (docs/sso.md).
		{Name: "sso", Function: "SSOFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			sso.Register(api, sso.New(d))
			translations.Register(api, translations.New(d))
		}},
		{Name: "comments", Function: "CommentsFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			comments.Register(api, comments.New(d))
		}},
		// OpenAPI specs: documents fetched, parsed and versioned by the
		// OpenAPI worker (docs/workers.md).
		{Name: "openapi", Function: "OpenAPIFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			openapispecs.Register(api, openapispecs.New(d))
		}},
		// Git Sync: import and export requests, queued for the Git worker
		// (docs/workers.md).
		{Name: "git", Function: "GitFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			gitsync.Register(api, gitsync.New(d))
		}},
		// Content import from URLs, run within the request (docs/workers.md).
		{Name: "imports", Function: "ImportsFunction", register: func(api *httpapi.API, d *deps.Deps, c Config) {
			imports.Register(api, imports.New(d))
		}},
	}
}

// FamilyByName returns the named family.
func FamilyByName(name string) (Family, error) {
	for _, f := range Families() {
		if f.Name == name {
			return f, nil
		}
	}
	return Family{}, fmt.Errorf("no family %q", name)
}

// NewAPI returns an API serving the given families (all when none given).
func NewAPI(c Config, d *deps.Deps, families ...Family) *httpapi.API {
	if len(families) == 0 {
		families = Families()
	}
	api := httpapi.New(httpapi.Config{Logger: d.Logger, Auth: users.New(d), APIURL: c.APIURL, AppURL: c.AppURL, Version: Version})
	for _, f := range families {
		f.register(api, d, c)
	}
	return api
}

// NewDeps assembles the services' dependencies on the given ports, loading
// (or creating, once per installation) the page-token signing key.
func NewDeps(ctx context.Context, c Config, d deps.Deps) (*deps.Deps, error) {
	secret, err := instanceSecret(ctx, d.Store)
	if err != nil {
		return nil, err
	}
	if d.Logger == nil {
		d.Logger = c.Logger()
	}
	d.Authz = access.NewAuthorizer(d.Store)
	d.Pager = httpapi.NewPager(secret)
	d.FetchAllowPrivate = c.FetchAllowPrivate
	return &d, nil
}

func instanceSecret(ctx context.Context, s store.Store) ([]byte, error) {
	type secret struct {
		Key []byte `json:"key"`
	}
	var key []byte
	err := store.Retry(ctx, func() error {
		v, _, err := records.Get[secret](ctx, s, keys.InstanceSecret())
		if err == nil {
			key = v.Key
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("read instance secret: %w", err)
		}
		fresh := secret{Key: make([]byte, 32)}
		if _, err := rand.Read(fresh.Key); err != nil {
			return err
		}
		// A conflict: another process made it meanwhile; read theirs.
		if err := s.Write(ctx, store.Put(records.Item(keys.InstanceSecret(), fresh, 1), store.IfNotExists)); err != nil {
			return fmt.Errorf("create instance secret: %w", err)
		}
		key = fresh.Key
		return nil
	})
	return key, err
}

// registerOpenAPI serves the whole API's OpenAPI document. It is built on
// first request (not at cold start) from every family's operations.
func registerOpenAPI(api *httpapi.API, c Config) {
	var once sync.Once
	var doc []byte
	var docErr error
	httpapi.Register(api, httpapi.Op{ID: "getOpenAPIDocument", Method: http.MethodGet, Path: "/v1/openapi.json", Tag: "Users",
		Public: true, Summary: "This API's OpenAPI document"},
		func(ctx context.Context, _ *struct{}) (*httpapi.RawJSON, error) {
			once.Do(func() { doc, docErr = OpenAPI(c) })
			if docErr != nil {
				return nil, docErr
			}
			return &httpapi.RawJSON{ContentType: "application/json", Body: doc}, nil
		})
}

// OpenAPI returns the OpenAPI document of every family, as JSON.
func OpenAPI(c Config) ([]byte, error) {
	d := &deps.Deps{}
	api := NewAPI(c, d)
	return api.Huma.OpenAPI().MarshalJSON()
}
