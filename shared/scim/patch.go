package scim

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
)

// filter is a parsed filter: `<attribute> eq "<value>"`, the one form
// Galley answers (RFC 7644 §3.4.2.2; what Okta and Entra ID send).
type filter struct {
	attr, value string
}

// parseFilter parses q for a resource whose filterable attributes are
// allowed (lower case); "" is no filter. Anything else is invalidFilter.
func parseFilter(q string, allowed ...string) (*filter, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, nil
	}
	attr, rest, ok := strings.Cut(q, " ")
	op, val, ok2 := strings.Cut(strings.TrimSpace(rest), " ")
	val = strings.TrimSpace(val)
	if !ok || !ok2 || !strings.EqualFold(op, "eq") || len(val) < 2 || val[0] != '"' || val[len(val)-1] != '"' {
		return nil, scimErr(apperr.Invalid, "invalidFilter", "unsupported filter %q: only `<attribute> eq \"<value>\"` is supported", q)
	}
	var v string
	if err := json.Unmarshal([]byte(val), &v); err != nil {
		return nil, scimErr(apperr.Invalid, "invalidFilter", "unsupported filter %q: the value is not a JSON string", q)
	}
	a := strings.ToLower(stripURN(attr))
	for _, al := range allowed {
		if a == al {
			return &filter{attr: a, value: v}, nil
		}
	}
	return nil, scimErr(apperr.Invalid, "invalidFilter", "unsupported filter %q: filters on %s are supported", q, strings.Join(allowed, ", "))
}

// stripURN takes the core schema's URN off an attribute path.
func stripURN(p string) string {
	for _, urn := range []string{UserSchema, GroupSchema} {
		if len(p) > len(urn) && strings.EqualFold(p[:len(urn)], urn) && p[len(urn)] == ':' {
			return p[len(urn)+1:]
		}
	}
	return p
}

// patchRequest is a PATCH body (RFC 7644 §3.5.2).
type patchRequest struct {
	Schemas    []string `json:"schemas"`
	Operations []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	} `json:"Operations"`
}

// applyPatch applies a PATCH body's operations, in order, to a resource
// as a JSON object. Operation names are read ignoring case (Entra ID sends
// "Replace"); attribute names too (canonical names are the resource's).
// Paths in a schema extension (urn:...:extension:...) name attributes
// Galley does not keep: those operations are accepted and change nothing.
func applyPatch(res map[string]any, body []byte) error {
	var req patchRequest
	if err := decode(body, &req); err != nil {
		return err
	}
	if len(req.Operations) == 0 {
		return scimErr(apperr.Invalid, "invalidSyntax", "a PATCH needs Operations")
	}
	for i, o := range req.Operations {
		op := strings.ToLower(o.Op)
		if op != "add" && op != "replace" && op != "remove" {
			return scimErr(apperr.Invalid, "invalidSyntax", "Operations[%d].op must be add, replace or remove", i)
		}
		var val any
		if len(o.Value) > 0 {
			if err := json.Unmarshal(o.Value, &val); err != nil {
				return scimErr(apperr.Invalid, "invalidSyntax", "Operations[%d].value is not JSON", i)
			}
		}
		if err := applyOp(res, op, strings.TrimSpace(o.Path), val); err != nil {
			return err
		}
	}
	return nil
}

func applyOp(res map[string]any, op, path string, val any) error {
	if strings.HasPrefix(strings.ToLower(path), "urn:") && stripURN(path) == path {
		return nil // an extension's attribute: not kept
	}
	path = stripURN(path)
	if path == "" {
		if op == "remove" {
			return scimErr(apperr.Invalid, "noTarget", "a remove needs a path")
		}
		obj, ok := val.(map[string]any)
		if !ok {
			return scimErr(apperr.Invalid, "invalidValue", "an operation without a path needs an object value")
		}
		for k, v := range obj {
			if strings.HasPrefix(strings.ToLower(k), "urn:") && stripURN(k) == k {
				continue
			}
			if err := applyOp(res, op, k, v); err != nil {
				return err
			}
		}
		return nil
	}
	attr, sel, sub, err := parsePath(path)
	if err != nil {
		return err
	}
	key := canonical(res, attr)
	if sel == nil {
		if sub != "" {
			obj, _ := res[key].(map[string]any)
			if obj == nil {
				if op == "remove" {
					return nil
				}
				obj = map[string]any{}
			}
			subKey := canonical(obj, sub)
			if op == "remove" {
				delete(obj, subKey)
			} else {
				obj[subKey] = val
			}
			res[key] = obj
			return nil
		}
		cur, isList := res[key].([]any)
		switch {
		case op == "remove" && isList && val != nil:
			// Entra ID removes members by value: {"path":"members","value":[{"value":"id"}]}.
			res[key] = without(cur, values(val))
		case op == "remove":
			delete(res, key)
		case op == "add" && isList:
			add, _ := val.([]any)
			if add == nil {
				add = []any{val}
			}
			res[key] = append(without(cur, values(add)), add...)
		default:
			res[key] = val
		}
		return nil
	}
	list, _ := res[key].([]any)
	matched := false
	out := make([]any, 0, len(list))
	for _, el := range list {
		obj, ok := el.(map[string]any)
		if !ok || !sel.matches(obj) {
			out = append(out, el)
			continue
		}
		matched = true
		switch {
		case op == "remove" && sub == "":
			continue
		case op == "remove":
			delete(obj, canonical(obj, sub))
		case sub == "":
			if v, ok := val.(map[string]any); ok {
				for k, x := range v {
					obj[canonical(obj, k)] = x
				}
			}
		default:
			obj[canonical(obj, sub)] = val
		}
		out = append(out, obj)
	}
	if !matched && op != "remove" {
		// Entra ID sets emails[type eq "work"].value on a user without one.
		obj := map[string]any{sel.attr: sel.value}
		if sub != "" {
			obj[sub] = val
		} else if v, ok := val.(map[string]any); ok {
			for k, x := range v {
				obj[k] = x
			}
		}
		out = append(out, obj)
	}
	res[key] = out
	return nil
}

// parsePath splits `attr`, `attr.sub`, `attr[filter]` and
// `attr[filter].sub`.
func parsePath(p string) (attr string, sel *filter, sub string, err error) {
	if i := strings.IndexByte(p, '['); i >= 0 {
		j := strings.LastIndexByte(p, ']')
		if j < i {
			return "", nil, "", scimErr(apperr.Invalid, "invalidPath", "invalid path %q", p)
		}
		f, err := parseFilter(p[i+1:j], strings.ToLower(strings.TrimSpace(strings.SplitN(p[i+1:j], " ", 2)[0])))
		if err != nil {
			return "", nil, "", scimErr(apperr.Invalid, "invalidPath", "invalid path %q: %v", p, err)
		}
		return p[:i], f, strings.TrimPrefix(p[j+1:], "."), nil
	}
	attr, sub, _ = strings.Cut(p, ".")
	if attr == "" {
		return "", nil, "", scimErr(apperr.Invalid, "invalidPath", "invalid path %q", p)
	}
	return attr, nil, sub, nil
}

func (f *filter) matches(obj map[string]any) bool {
	v, ok := obj[canonical(obj, f.attr)]
	if !ok {
		return false
	}
	return strings.EqualFold(fmt.Sprint(v), f.value)
}

// canonical is the key of obj that name designates ignoring case; name
// itself when there is none.
func canonical(obj map[string]any, name string) string {
	if _, ok := obj[name]; ok {
		return name
	}
	for k := range obj {
		if strings.EqualFold(k, name) {
			return k
		}
	}
	for _, known := range []string{"userName", "externalId", "displayName", "givenName", "familyName", "formatted", "emails", "members", "active", "name", "value", "primary", "type", "display"} {
		if strings.EqualFold(known, name) {
			return known
		}
	}
	return name
}

// values are the "value"s of a list of references.
func values(v any) map[string]bool {
	out := map[string]bool{}
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	for _, el := range list {
		if obj, ok := el.(map[string]any); ok {
			out[fmt.Sprint(obj["value"])] = true
		}
	}
	return out
}

// without is list less the references whose value is in drop.
func without(list []any, drop map[string]bool) []any {
	out := make([]any, 0, len(list))
	for _, el := range list {
		if obj, ok := el.(map[string]any); ok && drop[fmt.Sprint(obj["value"])] {
			continue
		}
		out = append(out, el)
	}
	return out
}
