package openapispecs

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/content"
)

// A body's schema as readers show it: its fields (properties with their
// type, whether required and description, nested objects and arrays of
// objects below their property) and an example, the spec's own (the media
// type's example or first examples entry, else the schema's example) or,
// when it gives none, one made from the schema (each property's example,
// default or first enum value, else a placeholder of its type). Both are
// bounded, so a large schema does not make a page heavy.
const (
	// MaxSchemaFields bounds the fields listed for one schema.
	MaxSchemaFields = 40
	// MaxSchemaDepth bounds the nesting of the fields listed (0 is the
	// top level: three levels in all).
	MaxSchemaDepth = 2
	// MaxExampleBytes bounds an example's text; a longer one is cut at a
	// line's end and marked with "…".
	MaxExampleBytes = 2000
	// MaxSampleBytes bounds the body a reader may send from an
	// operation's playground (content.OperationBody's Sample).
	MaxSampleBytes = 16000
	// maxExampleDepth and maxExampleProps bound a generated example.
	maxExampleDepth = 6
	maxExampleProps = 25
	// maxParamExample bounds a parameter's example.
	maxParamExample = 200
	// maxRefChain bounds $ref chains followed for one schema.
	maxRefChain = 8
)

// schemaDetail describes the schema of a content map's first type.
func schemaDetail(doc, c map[string]any) content.SchemaDetail {
	types := slices.Sorted(maps.Keys(c))
	if len(types) == 0 {
		return content.SchemaDetail{}
	}
	mt := obj(c[types[0]])
	schema := obj(mt["schema"])
	var out content.SchemaDetail
	out.Fields, out.FieldsCut = fields(doc, schema)
	ex, generated, ok := bodyExample(doc, mt)
	if ok {
		out.Example, out.Generated = exampleText(ex, types[0], MaxExampleBytes), generated
	}
	if out.Example == "" {
		out.Generated = false
	}
	return out
}

// bodyExample is a media type's example: its own (mediaExample), else its
// schema's, else one made from the schema (generated).
func bodyExample(doc, mt map[string]any) (ex any, generated, ok bool) {
	schema := obj(mt["schema"])
	if ex, ok := mediaExample(doc, mt); ok {
		return ex, false, true
	}
	if top := flatten(doc, schema); top != nil && top["example"] != nil {
		return top["example"], false, true
	}
	if schema != nil {
		ex := generate(doc, schema, 0, map[string]bool{})
		return ex, true, ex != nil
	}
	return nil, false, false
}

// bodySample is the example of a content map's first type whole, as
// exampleText writes it, or "" when it has none or it is longer than
// MaxSampleBytes (cut, it would not be a body to send).
func bodySample(doc, c map[string]any) string {
	types := slices.Sorted(maps.Keys(c))
	if len(types) == 0 {
		return ""
	}
	ex, _, ok := bodyExample(doc, obj(c[types[0]]))
	if !ok {
		return ""
	}
	s := exampleText(ex, types[0], math.MaxInt)
	if len(s) > MaxSampleBytes {
		return ""
	}
	return s
}

// mediaExample is a media type's (or parameter's) own example: example,
// else the first of examples (by name; references followed).
func mediaExample(doc, mt map[string]any) (any, bool) {
	if ex, ok := mt["example"]; ok && ex != nil {
		return ex, true
	}
	exs := obj(mt["examples"])
	names := slices.Sorted(maps.Keys(exs))
	for _, n := range names {
		if v, ok := resolve(doc, obj(exs[n]))["value"]; ok && v != nil {
			return v, true
		}
	}
	return nil, false
}

// paramExample is a parameter's example (the spec's only), as short text.
func paramExample(doc, p map[string]any) string {
	ex, ok := mediaExample(doc, p)
	if !ok {
		if s := flatten(doc, obj(p["schema"])); s != nil && s["example"] != nil {
			ex, ok = s["example"], true
		}
	}
	if !ok {
		return ""
	}
	return paramText(ex)
}

// paramDefault is a parameter's default (its schema's; Swagger 2.0: its
// own), as short text.
func paramDefault(doc, p map[string]any) string {
	d := p["default"]
	if s := flatten(doc, obj(p["schema"])); s != nil && s["default"] != nil {
		d = s["default"]
	}
	if d == nil {
		return ""
	}
	return paramText(d)
}

// paramText writes a parameter's value: text as is, else compact JSON.
func paramText(v any) string {
	if s, isStr := v.(string); isStr {
		return cut(s, maxParamExample)
	}
	b, _ := marshal(v, false)
	return cut(string(b), maxParamExample)
}

// exampleText writes an example: text as is for a non-JSON type, else
// indented JSON; at most limit bytes.
func exampleText(ex any, mediaType string, limit int) string {
	if s, ok := ex.(string); ok && !strings.Contains(mediaType, "json") {
		return cut(s, limit)
	}
	b, err := marshal(ex, true)
	if err != nil {
		return ""
	}
	return cut(string(b), limit)
}

func marshal(v any, indent bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// cut shortens s to at most limit bytes, at a line's end when it has
// lines, else at a character's, and marks the cut with "…".
func cut(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	s = s[:limit]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		return s[:i] + "\n…"
	}
	for len(s) > 0 && !utf8Start(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	if len(s) > 0 {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// utf8Start says whether b begins a character.
func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// flatten follows a schema's $ref chain and merges its allOf (properties,
// required); a oneOf or anyOf is shown by its first alternative. nil
// stays nil.
func flatten(doc, s map[string]any) map[string]any {
	for i := 0; s != nil && i < maxRefChain; i++ {
		if _, ok := s["$ref"].(string); !ok {
			break
		}
		s = resolve(doc, s)
	}
	if s == nil {
		return nil
	}
	if all := arr(s["allOf"]); len(all) > 0 {
		merged := map[string]any{}
		for k, v := range s {
			if k != "allOf" {
				merged[k] = v
			}
		}
		props := map[string]any{}
		var req []any
		for _, part := range all {
			p := flatten(doc, obj(part))
			for k, v := range obj(p["properties"]) {
				props[k] = v
			}
			req = append(req, arr(p["required"])...)
			for _, k := range []string{"type", "description", "example", "items"} {
				if merged[k] == nil && p[k] != nil {
					merged[k] = p[k]
				}
			}
		}
		for k, v := range obj(s["properties"]) {
			props[k] = v
		}
		req = append(req, arr(s["required"])...)
		if len(props) > 0 {
			merged["properties"] = props
			if merged["type"] == nil {
				merged["type"] = "object"
			}
		}
		merged["required"] = req
		return merged
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts := arr(s[k]); len(alts) > 0 && s["properties"] == nil {
			first := flatten(doc, obj(alts[0]))
			if first == nil {
				return s
			}
			if d := str(s["description"]); d != "" && str(first["description"]) == "" {
				c := map[string]any{}
				for k, v := range first {
					c[k] = v
				}
				c["description"] = d
				first = c
			}
			return first
		}
	}
	return s
}

// typeName is a property's type as shown: the schema it refers to, its
// type (an array's as item[]), or its alternatives.
func typeName(doc, s map[string]any) string {
	if n := schemaName(doc, s); n != "" {
		return n
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts := arr(s[k]); len(alts) > 0 {
			names := make([]string, 0, len(alts))
			for _, a := range alts {
				if n := typeName(doc, obj(a)); n != "" {
					names = append(names, n)
				}
			}
			return strings.Join(names, " | ")
		}
	}
	if f := flatten(doc, s); f != nil && f["properties"] != nil {
		return "object"
	}
	return ""
}

// fieldNode is a field while fields are chosen.
type fieldNode struct {
	f      content.SchemaField
	schema map[string]any
	refs   []string
	kids   []*fieldNode
	in     bool
}

// children are the properties of s (an array's: its items'), sorted by
// name, their paths under prefix; none when s refers to a schema it is
// within (refs).
func children(doc, s map[string]any, prefix string, depth int, refs []string) []*fieldNode {
	for i := 0; s != nil && i < maxRefChain; i++ {
		if ref, ok := s["$ref"].(string); ok {
			for _, r := range refs {
				if r == ref {
					return nil
				}
			}
			refs = append(refs[:len(refs):len(refs)], ref)
		}
		f := flatten(doc, s)
		if f == nil || f["properties"] != nil || f["items"] == nil {
			s = f
			break
		}
		s, prefix = obj(f["items"]), prefix+"[]"
	}
	props := obj(s["properties"])
	names := slices.Sorted(maps.Keys(props))
	required := map[string]bool{}
	for _, r := range arr(s["required"]) {
		required[str(r)] = true
	}
	out := make([]*fieldNode, 0, len(names))
	for _, n := range names {
		p := obj(props[n])
		path := n
		if prefix = strings.TrimPrefix(prefix, "[]"); prefix != "" {
			path = prefix + "." + n
		}
		desc := str(p["description"])
		if desc == "" {
			desc = str(flatten(doc, p)["description"])
		}
		out = append(out, &fieldNode{f: content.SchemaField{Path: path, Name: n, Type: typeName(doc, p), Description: desc, Required: required[n], Depth: depth},
			schema: p, refs: refs})
	}
	return out
}

// fields lists a schema's properties (an array's: its items'), each
// followed by its own, bounded: the budget of MaxSchemaFields goes to the
// top level first, then to the next, so a large nested object does not
// hide the fields after it. cut says some were left out.
func fields(doc, schema map[string]any) ([]content.SchemaField, bool) {
	roots := children(doc, schema, "", 0, nil)
	budget, cut := MaxSchemaFields, false
	level := roots
	for depth := 0; len(level) > 0; depth++ {
		var next []*fieldNode
		for _, n := range level {
			if budget == 0 {
				cut = true
				break
			}
			n.in, budget = true, budget-1
			if depth < MaxSchemaDepth {
				n.kids = children(doc, n.schema, n.f.Path, depth+1, n.refs)
				next = append(next, n.kids...)
			} else if hasFields(doc, n.schema) {
				cut = true
			}
		}
		level = next
	}
	var out []content.SchemaField
	var emit func([]*fieldNode)
	emit = func(ns []*fieldNode) {
		for _, n := range ns {
			if n.in {
				out = append(out, n.f)
				emit(n.kids)
			}
		}
	}
	emit(roots)
	return out, cut
}

// hasFields says whether a schema (or its items) has properties.
func hasFields(doc, s map[string]any) bool {
	f := flatten(doc, s)
	if f != nil && f["properties"] == nil && f["items"] != nil {
		f = flatten(doc, obj(f["items"]))
	}
	return len(obj(f["properties"])) > 0
}

// generate makes an example value of a schema (nil when it cannot).
func generate(doc, s map[string]any, depth int, refs map[string]bool) any {
	if s == nil || depth > maxExampleDepth {
		return nil
	}
	if ex, ok := s["example"]; ok && ex != nil {
		return ex
	}
	if ref, ok := s["$ref"].(string); ok {
		if refs[ref] {
			return nil
		}
		refs[ref] = true
		defer delete(refs, ref)
	}
	s = flatten(doc, s)
	if s == nil {
		return nil
	}
	for _, k := range []string{"example", "default"} {
		if v, ok := s[k]; ok && v != nil {
			return v
		}
	}
	if e := arr(s["enum"]); len(e) > 0 {
		return e[0]
	}
	t := str(s["type"])
	if t == "" && s["properties"] != nil {
		t = "object"
	}
	switch t {
	case "object":
		props := obj(s["properties"])
		names := slices.Sorted(maps.Keys(props))
		out := map[string]any{}
		for _, n := range names {
			if len(out) == maxExampleProps {
				break
			}
			if v := generate(doc, obj(props[n]), depth+1, refs); v != nil {
				out[n] = v
			}
		}
		return out
	case "array":
		if v := generate(doc, obj(s["items"]), depth+1, refs); v != nil {
			return []any{v}
		}
		return []any{}
	case "string":
		switch str(s["format"]) {
		case "date-time":
			return "2024-01-01T00:00:00Z"
		case "date":
			return "2024-01-01"
		case "email":
			return "user@example.com"
		case "uri", "url":
			return "https://example.com"
		case "uuid":
			return "00000000-0000-0000-0000-000000000000"
		case "binary":
			return "(binary)"
		}
		return "string"
	case "integer", "number":
		return 0
	case "boolean":
		return true
	}
	return nil
}
