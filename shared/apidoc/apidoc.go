// Package apidoc serves the API's own OpenAPI document at
// GET /v1/openapi.json. The document covers every family, but each Lambda
// function links only its own; so it is generated from all of them
// (families.OpenAPI, written by `make routes`) and embedded here, and a
// test fails when the embedded copy differs from what the code registers.
package apidoc

import (
	"context"
	_ "embed"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
)

//go:embed openapi.json
var document []byte

// Document returns the API's OpenAPI document, as JSON (not to be changed).
func Document() []byte { return document }

// Register adds GET /v1/openapi.json (public).
func Register(api *httpapi.API) {
	httpapi.Register(api, httpapi.Op{ID: "getOpenAPIDocument", Needs: access.Anyone, Method: http.MethodGet, Path: "/v1/openapi.json", Tag: "Users",
		Summary: "This API's OpenAPI document"},
		func(ctx context.Context, _ *struct{}) (*httpapi.RawJSON, error) {
			return &httpapi.RawJSON{ContentType: "application/json", Body: document}, nil
		})
}
