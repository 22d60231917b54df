package scimhttp

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/scim"
)

// project applies a request's attributes or excludedAttributes (RFC 7644
// §3.4.2.5, §3.9) to an answer: one resource, or each resource of a list.
// Names are read ignoring case, with or without their schema's URN, as
// "attr" or "attr.sub". attributes wins when both are given.
func project(raw []byte, q url.Values) ([]byte, error) {
	incl, excl := names(q.Get("attributes")), names(q.Get("excludedAttributes"))
	if len(incl) == 0 && len(excl) == 0 {
		return raw, nil
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	if rs, ok := v["Resources"].([]any); ok {
		for _, r := range rs {
			if m, ok := r.(map[string]any); ok {
				keep(m, incl, excl)
			}
		}
	} else if _, ok := v["id"]; ok {
		keep(v, incl, excl)
	}
	return json.Marshal(v)
}

// names reads a comma-separated list of attribute paths, lower-cased and
// without a core schema's URN.
func names(list string) []string {
	var out []string
	for _, n := range strings.Split(list, ",") {
		n = strings.ToLower(strings.TrimSpace(n))
		for _, urn := range []string{scim.UserSchema, scim.GroupSchema} {
			n = strings.TrimPrefix(n, strings.ToLower(urn)+":")
		}
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// keep takes out of resource what incl (when given) does not name, else
// what excl names; a sub-attribute path acts inside its attribute.
func keep(resource map[string]any, incl, excl []string) {
	for k, v := range resource {
		lk := strings.ToLower(k)
		if lk == "id" || lk == "schemas" {
			continue // returned always (RFC 7643 §7); schemas says what it is
		}
		whole, subs := match(lk, incl)
		if len(incl) > 0 {
			switch {
			case whole:
			case len(subs) > 0:
				eachObject(v, func(o map[string]any) {
					for sk := range o {
						if !slices.Contains(subs, strings.ToLower(sk)) {
							delete(o, sk)
						}
					}
				})
			default:
				delete(resource, k)
			}
			continue
		}
		whole, subs = match(lk, excl)
		if whole {
			delete(resource, k)
			continue
		}
		eachObject(v, func(o map[string]any) {
			for sk := range o {
				if slices.Contains(subs, strings.ToLower(sk)) {
					delete(o, sk)
				}
			}
		})
	}
}

// match reports whether paths name attr whole, and which of its
// sub-attributes they name.
func match(attr string, paths []string) (bool, []string) {
	var subs []string
	for _, p := range paths {
		if p == attr {
			return true, nil
		}
		if sub, ok := strings.CutPrefix(p, attr+"."); ok {
			subs = append(subs, sub)
		}
	}
	return false, subs
}

// eachObject calls fn on v when it is an object, or on each object of v
// when it is a list.
func eachObject(v any, fn func(map[string]any)) {
	switch t := v.(type) {
	case map[string]any:
		fn(t)
	case []any:
		for _, e := range t {
			if o, ok := e.(map[string]any); ok {
				fn(o)
			}
		}
	}
}
