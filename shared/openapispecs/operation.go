package openapispecs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/content"
)

// docCacheSize is how many parsed documents a process keeps (a computed
// API page shows a few operations of one spec per read; parsing a large
// document each time would cost more than the page).
const docCacheSize = 4

// docCache keeps parsed version documents by digest (versions never
// change), the least recently used going first.
type docCache struct {
	mu    sync.Mutex
	docs  map[string]map[string]any
	order []string
}

func newDocCache() *docCache { return &docCache{docs: map[string]map[string]any{}} }

func (c *docCache) get(digest string, load func() (map[string]any, error)) (map[string]any, error) {
	c.mu.Lock()
	if d, ok := c.docs[digest]; ok {
		c.touch(digest)
		c.mu.Unlock()
		return d, nil
	}
	c.mu.Unlock()
	d, err := load()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.docs[digest]; !ok {
		if len(c.order) >= docCacheSize {
			delete(c.docs, c.order[0])
			c.order = c.order[1:]
		}
		c.docs[digest] = d
		c.order = append(c.order, digest)
	}
	return d, nil
}

func (c *docCache) touch(digest string) {
	for i, d := range c.order {
		if d == digest {
			c.order = append(append(c.order[:i:i], c.order[i+1:]...), digest)
			return
		}
	}
}

// SpecOperationReader reads the spec's latest document once (kept parsed
// by digest) and answers a lookup of its operations (OpenAPI 3; Swagger 2.0
// documents, stored as written, are read with their body parameters as
// request bodies and their responses' schemas as JSON content;
// references to components are followed one level). nil when the spec has no version.
func (f ForContent) SpecOperationReader(ctx context.Context, spec content.SpecInfo) (func(method, path string) *content.OperationDetail, error) {
	ver, ok, err := f.s.latestVersion(ctx, spec)
	if err != nil || !ok {
		return nil, err
	}
	doc, err := f.s.docs.get(ver.Digest, func() (map[string]any, error) {
		raw, err := f.s.d.Blobs.Get(ctx, contentKey(spec.OrgID, spec.ID, ver.Digest))
		if errors.Is(err, blob.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read OpenAPI spec version: %w", err)
		}
		var d map[string]any
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, fmt.Errorf("decode OpenAPI spec version: %w", err)
		}
		return d, nil
	})
	if err != nil || doc == nil {
		return nil, err
	}
	return func(method, path string) *content.OperationDetail { return operationOf(doc, ver.URL, method, path) }, nil
}

// operationOf describes an operation of a parsed document, which came from
// source ("" for a text: relative server URLs are then left out); nil when
// it has none such.
func operationOf(doc map[string]any, source, method, path string) *content.OperationDetail {
	item := obj(obj(doc["paths"])[path])
	op := obj(item[strings.ToLower(method)])
	if op == nil {
		return nil
	}
	out := &content.OperationDetail{Method: strings.ToUpper(method), Path: path, Summary: str(op["summary"]),
		Description: str(op["description"]), Deprecated: op["deprecated"] == true}
	seen := map[string]bool{}
	rb := resolve(doc, obj(op["requestBody"]))
	for _, list := range []any{op["parameters"], item["parameters"]} { // the operation's win
		for _, x := range arr(list) {
			p := resolve(doc, obj(x))
			key := str(p["in"]) + " " + str(p["name"])
			if p == nil || seen[key] {
				continue
			}
			seen[key] = true
			if str(p["in"]) == "body" && rb == nil {
				// Swagger 2.0 (stored as written): the body parameter is the
				// request body, of the operation's (or document's) consumes.
				rb = map[string]any{"description": p["description"], "required": p["required"],
					"content": swagger2Content(doc, op, "consumes", p["schema"], nil)}
				continue
			}
			typ := schemaName(doc, obj(p["schema"]))
			if typ == "" { // Swagger 2.0: the type is the parameter's
				typ = schemaName(doc, p)
			}
			out.Parameters = append(out.Parameters, content.OperationParameter{Name: str(p["name"]), In: str(p["in"]),
				Type: typ, Description: str(p["description"]), Required: p["required"] == true,
				Example: paramExample(doc, p), Default: paramDefault(doc, p)})
		}
	}
	if rb != nil {
		types, schema := media(doc, obj(rb["content"]))
		out.RequestBody = &content.OperationBody{Description: str(rb["description"]), Required: rb["required"] == true, ContentTypes: types, Schema: schema,
			SchemaDetail: schemaDetail(doc, obj(rb["content"])), Sample: bodySample(doc, obj(rb["content"]))}
	}
	out.Servers = servers(doc, item, op, source)
	out.Security = security(doc, op)
	responses := obj(op["responses"])
	codes := slices.Sorted(maps.Keys(responses))
	for _, code := range codes {
		r := resolve(doc, obj(responses[code]))
		if r["content"] == nil && r["schema"] != nil {
			r = map[string]any{"description": r["description"], "content": swagger2Content(doc, op, "produces", r["schema"], obj(r["examples"]))}
		}
		types, schema := media(doc, obj(r["content"]))
		out.Responses = append(out.Responses, content.OperationResponse{Status: code, Description: str(r["description"]), ContentTypes: types, Schema: schema,
			SchemaDetail: schemaDetail(doc, obj(r["content"]))})
	}
	return out
}

// swagger2Content makes an OpenAPI 3 content map of a Swagger 2.0 schema:
// one entry per media type of the operation's consumes or produces (else
// the document's, else JSON), with the examples given by media type.
func swagger2Content(doc, op map[string]any, key string, schema any, examples map[string]any) map[string]any {
	types := arr(op[key])
	if len(types) == 0 {
		types = arr(doc[key])
	}
	if len(types) == 0 {
		types = []any{"application/json"}
	}
	c := map[string]any{}
	for _, t := range types {
		mt := map[string]any{"schema": schema}
		if ex, ok := examples[str(t)]; ok {
			mt["example"] = ex
		}
		c[str(t)] = mt
	}
	return c
}

// resolve follows a local $ref (#/components/...) once.
func resolve(doc, v map[string]any) map[string]any {
	ref, ok := v["$ref"].(string)
	if !ok {
		return v
	}
	cur := any(doc)
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		cur = obj(cur)[strings.NewReplacer("~1", "/", "~0", "~").Replace(part)]
	}
	return obj(cur)
}

// schemaName is a schema's name (the component it refers to) or type.
func schemaName(doc, s map[string]any) string {
	if ref, ok := s["$ref"].(string); ok {
		return ref[strings.LastIndex(ref, "/")+1:]
	}
	t := str(s["type"])
	if t == "array" {
		if item := schemaName(doc, obj(s["items"])); item != "" {
			return item + "[]"
		}
	}
	return t
}

// media lists a content map's types and its first schema's name.
func media(doc, c map[string]any) ([]string, string) {
	types := slices.Sorted(maps.Keys(c))
	if len(types) == 0 {
		return nil, ""
	}
	return types, schemaName(doc, obj(obj(c[types[0]])["schema"]))
}

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func arr(v any) []any          { a, _ := v.([]any); return a }
func str(v any) string         { s, _ := v.(string); return s }
