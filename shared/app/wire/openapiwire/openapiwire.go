// Package openapiwire provides the process's OpenAPI specs service, and
// the specs content computes pages from (package wire).
package openapiwire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/openapispecs"
)

// Service is the root's OpenAPI specs service; it processes documents
// when the process provided a parser first (the OpenAPI worker's root and
// local mode's: openapiworker.Parse links kin-openapi).
func Service(r *app.Root) *openapispecs.Service {
	return app.Service(r, func() *openapispecs.Service {
		return openapispecs.New(r.Deps, app.Optional[openapispecs.Parser](r))
	})
}

// ProvideSpecs gives the root's content service the OpenAPI specs it
// computes pages and resolves OpenAPI blocks from: the roots of the
// families that read computed pages call it before they build content.
func ProvideSpecs(r *app.Root) content.Specs {
	return app.Service(r, func() content.Specs { return Service(r).ForContent() })
}
