// Package openapiworkerroot is the OpenAPI worker's composition root (package roots).
package openapiworkerroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/openapispecs/openapiworker"
	"github.com/galleydocs/galley/shared/queue"
)

// ProvideParser gives the root's OpenAPI specs service the parser of
// documents (kin-openapi): the worker's root, and local mode's, call it
// before they build that service.
func ProvideParser(r *app.Root) openapispecs.Parser {
	return app.Service(r, func() openapispecs.Parser { return openapiworker.Parse })
}

// Handlers are the OpenAPI worker's job handlers, by kind.
func Handlers(r *app.Root) map[string]queue.Handler {
	ProvideParser(r)
	return map[string]queue.Handler{openapispecs.JobKind: openapiwire.Service(r).Handle}
}
