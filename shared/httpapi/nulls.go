package httpapi

import (
	"net/url"
	"reflect"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// null in a body (issue 32). Huma's validator lets null through for every
// field that is not required, nullable or not, and Go's decoder then reads
// it as the field left out: {"title": null} would create a space titled "".
// strictJSON refuses a null wherever the operation's request schema does
// not allow one, at every depth, naming the field ("title: expected
// string, got null"). A field whose null means something (PATCH: remove
// it) is declared nullable (huma tag nullable:"true"), so the document
// says so. docs/http.md, "Input hardening".

// nullNode tells where a body's schema refuses null. nil: nothing below
// is checked (no schema, or a free-form value).
type nullNode struct {
	allow bool   // null is a valid value here
	want  string // the type(s) expected here, for the message
	uri   bool   // a string here has format uri: see badURI
	props map[string]*nullNode
	items *nullNode // array items
	extra *nullNode // additionalProperties
}

func (n *nullNode) property(folded string) *nullNode {
	if n == nil {
		return nil
	}
	if p, ok := n.props[folded]; ok {
		return p
	}
	return n.extra
}

func (n *nullNode) item() *nullNode {
	if n == nil {
		return nil
	}
	return n.items
}

// refuses returns the message for a null at path, "" when null is valid
// there.
func (n *nullNode) refuses(path string) string {
	if n == nil || n.allow {
		return ""
	}
	if path == "" {
		path = "body"
	}
	if n.want == "" {
		return path + ": may not be null"
	}
	return path + ": expected " + n.want + ", got null"
}

// nullTree is where schema s refuses null. Schemas reached by $ref are
// built once (seen), so that recursive schemas (a document's blocks) make
// a graph, not an endless tree. The alternatives of oneOf and anyOf allow
// null when one of them does; their properties are merged, a property
// refusing null when every alternative declaring it does. (allOf is not
// read: Galley's document has none.)
func nullTree(reg huma.Registry, s *huma.Schema, seen map[*huma.Schema]*nullNode) *nullNode {
	if s == nil || s.Ref == "" {
		return nullOf(reg, s, seen)
	}
	r := reg.SchemaFromRef(s.Ref)
	if r == nil {
		return nil
	}
	if n, ok := seen[r]; ok {
		return n
	}
	n := &nullNode{allow: true} // until built: a merge meeting it checks nothing
	seen[r] = n
	*n = *nullOf(reg, r, seen)
	return n
}

func nullOf(reg huma.Registry, s *huma.Schema, seen map[*huma.Schema]*nullNode) *nullNode {
	if s == nil {
		return nil
	}
	n := &nullNode{allow: s.Nullable || s.Type == "null" || slices.Contains(s.Enum, nil), want: s.Type,
		uri: s.Type == huma.TypeString && s.Format == "uri"}
	if len(s.Properties) > 0 {
		n.props = make(map[string]*nullNode, len(s.Properties))
		for name, p := range s.Properties {
			n.props[fold(name)] = nullTree(reg, p, seen)
		}
	}
	n.items = nullTree(reg, s.Items, seen)
	if ap, ok := s.AdditionalProperties.(*huma.Schema); ok {
		n.extra = nullTree(reg, ap, seen)
	}
	alts := append(append([]*huma.Schema(nil), s.OneOf...), s.AnyOf...)
	if s.Type == "" && len(alts) == 0 {
		n.allow = true // any value
	}
	var wants []string
	altAllow := false
	for _, alt := range alts {
		a := nullTree(reg, alt, seen)
		if a == nil || a.allow {
			altAllow = true
		}
		if a != nil && a.want != "" {
			wants = append(wants, strings.Split(a.want, " or ")...)
		}
		n = mergeNullAlt(n, a, 0)
	}
	if s.Type == "" && len(alts) > 0 {
		n.allow = n.allow || altAllow
		slices.Sort(wants)
		n.want = strings.Join(slices.Compact(wants), " or ")
	}
	return n
}

// mergeNullAlt merges the children of base and alt (alternatives of one
// value: base keeps its own allow and want). A child both declare refuses
// null only when both do; one only one declares is taken as it is.
func mergeNullAlt(base, alt *nullNode, depth int) *nullNode {
	if base == nil || alt == nil {
		return base
	}
	out := &nullNode{allow: base.allow, want: base.want,
		items: unionNull(base.items, alt.items, depth), extra: unionNull(base.extra, alt.extra, depth)}
	if len(base.props)+len(alt.props) > 0 {
		out.props = make(map[string]*nullNode, len(base.props)+len(alt.props))
		for k, v := range base.props {
			out.props[k] = v
		}
		for k, v := range alt.props {
			if prev, ok := out.props[k]; ok {
				out.props[k] = mergeNullChild(prev, v, depth)
			} else {
				out.props[k] = v
			}
		}
	}
	return out
}

// unionNull is a child of alternatives: the one that has it (the JSON
// type of the value picks the alternative: only arrays have items), or
// both merged.
func unionNull(a, b *nullNode, depth int) *nullNode {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return mergeNullChild(a, b, depth)
}

// mergeNullChild is a child that a and b both describe: null is allowed
// where either allows it. Past a few levels (recursive schemas), nothing
// is checked.
func mergeNullChild(a, b *nullNode, depth int) *nullNode {
	if a == nil || b == nil || depth > 6 {
		return nil
	}
	if a == b {
		return a
	}
	m := mergeNullAlt(a, b, depth+1)
	m.allow = a.allow || b.allow
	m.uri = a.uri && b.uri
	if a.want != b.want && a.want != "" && b.want != "" {
		m.want = a.want + " or " + b.want
	}
	return m
}

// refusesNull reports whether n refuses null (or checks a URI) anywhere.
func (n *nullNode) refusesNull(seen map[*nullNode]bool) bool {
	if n == nil || seen[n] {
		return false
	}
	seen[n] = true
	if !n.allow || n.uri {
		return true
	}
	for _, p := range n.props {
		if p.refusesNull(seen) {
			return true
		}
	}
	return n.items.refusesNull(seen) || n.extra.refusesNull(seen)
}

// badURI returns the message for s at path where the schema's format is
// uri (n.uri), "" when s is a URI. JSON Schema's uri is RFC 3986's URI,
// which has a scheme; huma checks only that Go's url.Parse reads it,
// which takes "" and any relative reference, and a handler then stores ""
// as a fallback URL or an identity provider's address. (Schemathesis's
// negative_data_rejection check sends "", issue 32.)
func (n *nullNode) badURI(path, s string) string {
	if n == nil || !n.uri {
		return ""
	}
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && len(s) > len(u.Scheme)+1 {
		return ""
	}
	return path + ": expected a URI with a scheme (RFC 3986)"
}

// InlineSchema is the schema of T written where it is used rather than
// as a $ref. A field whose null means something is declared
// nullable:"true", which huma refuses on a field whose schema is a $ref to
// an object; such a field's type gives its schema through this (its
// Schema method, on a copy of the type without the method):
//
//	func (D) Schema(r huma.Registry) *huma.Schema { type plain D; return httpapi.InlineSchema[plain](r) }
func InlineSchema[T any](r huma.Registry) *huma.Schema {
	return huma.SchemaFromType(r, reflect.TypeFor[T]())
}
