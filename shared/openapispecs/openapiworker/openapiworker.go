// Package openapiworker is the OpenAPI worker's code: the job handlers of
// the OpenAPI specs family, with the parser of OpenAPI documents. It is a
// package of its own so that the OpenAPI API function, which only queues
// jobs, links neither kin-openapi nor its JSON Schema compiler (whose
// package initialization alone takes about 4 ms of every cold start).
package openapiworker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/openapispecs"
)

// Parse reads an OpenAPI 3.x or Swagger 2.0 document in JSON or YAML and
// returns it as JSON (a JSON document as it came, compacted; a YAML one
// converted, keys in Go's order), with its operations and its validation
// problems. Only what cannot be read as one of these documents is an
// error: a validation problem (an undeclared path parameter, a pattern Go
// cannot compile, a missing info.version...) is a warning. External
// references are never followed: following them would make the server
// fetch URLs the document names.
func Parse(ctx context.Context, raw []byte) (openapispecs.Parsed, error) {
	doc, head, err := toJSON(raw)
	if err != nil {
		return openapispecs.Parsed{}, err
	}
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = false
	loader.ReadFromURIFunc = func(*openapi3.Loader, *url.URL) ([]byte, error) {
		return nil, errors.New("external references are not followed")
	}
	var t *openapi3.T
	switch {
	case head.OpenAPI != nil:
		v := fmt.Sprint(head.OpenAPI)
		if !strings.HasPrefix(v, "3") {
			return openapispecs.Parsed{}, fmt.Errorf("unsupported OpenAPI version %q (3.x is supported)", v)
		}
		if t, err = loader.LoadFromData(doc); err != nil {
			return openapispecs.Parsed{}, fmt.Errorf("not a readable OpenAPI %s document: %w", v, err)
		}
	case head.Swagger != nil:
		if v := fmt.Sprint(head.Swagger); v != "2.0" && v != "2" {
			return openapispecs.Parsed{}, fmt.Errorf("unsupported Swagger version %q (2.0 is supported)", v)
		}
		var t2 openapi2.T
		if err := json.Unmarshal(doc, &t2); err != nil {
			return openapispecs.Parsed{}, fmt.Errorf("not a readable Swagger 2.0 document: %w", err)
		}
		if t, err = openapi2conv.ToV3(&t2); err != nil {
			return openapispecs.Parsed{}, fmt.Errorf("not a convertible Swagger 2.0 document: %w", err)
		}
	default:
		return openapispecs.Parsed{}, errors.New("not an OpenAPI document: neither openapi nor swagger is set")
	}
	out := openapispecs.Parsed{Doc: doc, Operations: operations(t)}
	for _, problem := range validate(ctx, t) {
		out.WarningCount++
		if len(out.Warnings) < model.MaxOpenAPIProblems {
			out.Warnings = append(out.Warnings, openapispecs.Truncate(problem, 1000))
		}
	}
	return out, nil
}

// header is what tells the kind of a document.
type header struct {
	OpenAPI any `json:"openapi"`
	Swagger any `json:"swagger"`
}

// toJSON returns a document as JSON, with its header. JSON is read as
// JSON (numbers kept as written); anything else as YAML.
func toJSON(raw []byte) ([]byte, header, error) {
	var head header
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf")))
	if len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		var buf bytes.Buffer
		if err := json.Compact(&buf, trimmed); err != nil {
			return nil, head, fmt.Errorf("not JSON: %w", err)
		}
		if err := json.Unmarshal(buf.Bytes(), &head); err != nil {
			return nil, head, fmt.Errorf("not an OpenAPI document: %w", err)
		}
		return buf.Bytes(), head, nil
	}
	var tree any
	if err := yaml.Unmarshal(trimmed, &tree); err != nil {
		return nil, head, fmt.Errorf("not JSON or YAML: %w", err)
	}
	m, ok := jsonable(tree).(map[string]any)
	if !ok {
		return nil, head, errors.New("not an OpenAPI document: not a JSON or YAML object")
	}
	doc, err := json.Marshal(m)
	if err != nil {
		return nil, head, fmt.Errorf("not representable as JSON: %w", err)
	}
	head.OpenAPI, head.Swagger = m["openapi"], m["swagger"]
	return doc, head, nil
}

// operations lists a document's operations, by path (sorted) then method.
func operations(t *openapi3.T) []model.OpenAPIOperation {
	methods := [...]string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}
	var out []model.OpenAPIOperation
	if t.Paths == nil {
		return out
	}
	paths := t.Paths.Map()
	keys := slices.Sorted(maps.Keys(paths))
	for _, p := range keys {
		item := paths[p]
		if item == nil {
			continue
		}
		for _, m := range methods {
			if op := item.GetOperation(strings.ToUpper(m)); op != nil {
				out = append(out, model.OpenAPIOperation{Path: p, Method: m, Tags: op.Tags})
			}
		}
	}
	return out
}

// validate returns a document's validation problems, each on its own.
// kin-openapi's validators may panic on documents they do not expect: that
// ends validation with a problem saying so, not the job.
func validate(ctx context.Context, t *openapi3.T) (problems []string) {
	defer func() {
		if r := recover(); r != nil {
			problems = append(problems, fmt.Sprintf("validation stopped early: %v", r))
		}
	}()
	err := t.Validate(ctx, openapi3.EnableMultiError(), openapi3.DisableExamplesValidation())
	if err == nil {
		return nil
	}
	var me openapi3.MultiError
	if errors.As(err, &me) {
		for _, e := range me {
			problems = append(problems, e.Error())
		}
		return problems
	}
	return []string{err.Error()}
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
