// Package openapiworker is the OpenAPI worker's code: the job handlers of
// the OpenAPI specs family, with the parser of OpenAPI documents. It is a
// package of its own so that the OpenAPI API function, which only queues
// jobs, links neither kin-openapi nor its JSON Schema compiler (whose
// package initialization alone takes about 4 ms of every cold start).
package openapiworker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/queue"
)

// Handlers are the OpenAPI worker's job handlers, by kind, on the service
// built from d.
func Handlers(d *deps.Deps) map[string]queue.Handler {
	return map[string]queue.Handler{openapispecs.JobKind: Service(d).Handle}
}

// Service is the OpenAPI specs service able to process documents: what
// the worker, local mode and tests run jobs with.
func Service(d *deps.Deps) *openapispecs.Service { return openapispecs.New(d).WithParser(Parse) }

// Parse reads an OpenAPI 3.x or Swagger 2.0 document in JSON or YAML,
// validates it, and returns it as JSON (keys in the document's order are
// not kept; values are). External references are refused: following them
// would make the server fetch URLs the document names.
func Parse(ctx context.Context, raw []byte) ([]byte, error) {
	var tree any
	if err := yaml.Unmarshal(raw, &tree); err != nil {
		return nil, fmt.Errorf("not JSON or YAML: %w", err)
	}
	tree = jsonable(tree)
	m, ok := tree.(map[string]any)
	if !ok {
		return nil, errors.New("not an object")
	}
	doc, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = false
	loader.ReadFromURIFunc = func(*openapi3.Loader, *url.URL) ([]byte, error) {
		return nil, errors.New("external references are not followed")
	}
	switch {
	case m["openapi"] != nil:
		v, _ := m["openapi"].(string)
		if !strings.HasPrefix(v, "3.") {
			return nil, fmt.Errorf("unsupported OpenAPI version %q", v)
		}
		t, err := loader.LoadFromData(doc)
		if err != nil {
			return nil, err
		}
		if err := t.Validate(ctx, openapi3.DisableExamplesValidation()); err != nil {
			return nil, err
		}
	case m["swagger"] != nil:
		if v, _ := m["swagger"].(string); v != "2.0" {
			return nil, fmt.Errorf("unsupported Swagger version %q", m["swagger"])
		}
		var t2 openapi2.T
		if err := json.Unmarshal(doc, &t2); err != nil {
			return nil, err
		}
		t3, err := openapi2conv.ToV3(&t2)
		if err != nil {
			return nil, err
		}
		if err := t3.Validate(ctx, openapi3.DisableExamplesValidation()); err != nil {
			return nil, err
		}
	default:
		return nil, errors.New("neither openapi nor swagger is set")
	}
	return doc, nil
}

// jsonable turns what YAML decodes (maps with non-string keys, such as
// response codes) into what JSON encodes.
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = jsonable(e)
		}
		return t
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[fmt.Sprint(k)] = jsonable(e)
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = jsonable(e)
		}
		return t
	}
	return v
}
