package httpapi

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"unicode"

	"github.com/danielgtaylor/huma/v2"
)

// Read-modify-write (issue 23): a client GETs a record, changes a field and
// sends the whole answer back with PUT or PATCH. The answer carries fields
// only Galley writes (object, id, createdAt, updatedAt, urls, permissions,
// counters...), which the operation's body does not declare, and bodies
// refuse undeclared properties. So the body of every PUT and PATCH declares,
// besides its own fields, the fields of the operation's answer it lacks, at
// every depth where both are objects, marked readOnly: they are accepted
// when their value has the answer's type, and ignored (the body's Go type
// has no field for them, so decoding drops them), whatever their value.
// Other unknown properties are still refused (a misspelt field answers 400
// rather than doing nothing). docs/http.md, "Read-only fields".

// answerFieldsBody returns the request body of op, a PUT or PATCH whose
// handler takes in and answers out, with the answer's read-only fields
// declared; nil when there are none to add (another method, a body that is
// not a closed JSON object, an answer that is not one), and huma builds the
// body as usual. The schema is registered in reg under a name of the
// operation's own, since the body's type may be shared with an operation
// (a POST, or a PATCH answering something else) that must not accept them.
func answerFieldsBody(reg huma.Registry, op *huma.Operation, in, out reflect.Type) *huma.RequestBody {
	if op.Method != http.MethodPut && op.Method != http.MethodPatch {
		return nil
	}
	fin, ok := in.FieldByName("Body")
	if !ok || derefType(fin.Type).Kind() != reflect.Struct || (fin.Tag.Get("contentType") != "" && !isJSONType(fin.Tag.Get("contentType"))) {
		return nil
	}
	fout, ok := out.FieldByName("Body")
	if !ok || derefType(fout.Type).Kind() != reflect.Struct {
		return nil
	}
	// The hints huma itself gives (huma.go, getHint), so that the schemas
	// of both types keep the names they have everywhere else.
	inHint, outHint := op.OperationID+"Request", op.OperationID+"Response"
	if in.Name() != "" {
		inHint = in.Name() + fin.Name
	}
	if out.Name() != "" {
		outHint = out.Name() + fout.Name
	}
	if h := fin.Tag.Get("nameHint"); h != "" {
		inHint = h
	}
	if h := fout.Tag.Get("nameHint"); h != "" {
		outHint = h
	}
	before := make(map[string]bool, len(reg.Map()))
	for n := range reg.Map() {
		before[n] = true
	}
	inRef := huma.SchemaFromField(reg, fin, inHint)
	var added []string
	for n := range reg.Map() {
		if !before[n] {
			added = append(added, n)
		}
	}
	outRef := huma.SchemaFromField(reg, fout, outHint)
	merged, changed := withAnswerFields(reg, inRef, outRef, 0)
	if !changed || inRef.Ref == "" {
		return nil
	}
	name := upperFirst(op.OperationID) + "Input"
	if _, taken := reg.Map()[name]; taken {
		panic(fmt.Sprintf("httpapi: schema name %s of %s's body is taken", name, op.OperationID))
	}
	reg.Map()[name] = merged
	// The body's own schemas registered just now for this operation, and
	// now used by none, leave the document (an operation registered later
	// with the same type registers them again).
	used := map[string]bool{}
	reachable(reg, merged, used)
	reachable(reg, outRef, used)
	for _, n := range added {
		if !used[n] {
			delete(reg.Map(), n)
		}
	}
	prefix := inRef.Ref[:strings.LastIndex(inRef.Ref, "/")+1]
	return &huma.RequestBody{
		Description: inRef.Description,
		Required:    fin.Tag.Get("required") == "true" || (fin.Type.Kind() != reflect.Pointer && fin.Type.Kind() != reflect.Interface),
		Content:     map[string]*huma.MediaType{"application/json": {Schema: &huma.Schema{Ref: prefix + name, Description: inRef.Description}}},
	}
}

// withAnswerFields returns in (a request schema) with the properties of
// out (the answer's schema for the same value) that in lacks, marked
// readOnly, at every depth where both are objects with declared
// properties (and through arrays of them); changed is false, and in is
// returned as it is, when there are none. Schemas are copied, never
// changed: the registry's are shared with other operations.
func withAnswerFields(reg huma.Registry, in, out *huma.Schema, depth int) (*huma.Schema, bool) {
	ri, ro := resolve(reg, in), resolve(reg, out)
	if ri == nil || ro == nil || depth > 8 {
		return in, false
	}
	if ri.Type == "array" && ro.Type == "array" {
		items, changed := withAnswerFields(reg, ri.Items, ro.Items, depth+1)
		if !changed {
			return in, false
		}
		return changedCopy(in, ri, func(cp *huma.Schema) { cp.Items = items }), true
	}
	if ri.Type != "object" || ro.Type != "object" || len(ri.Properties) == 0 || len(ro.Properties) == 0 {
		return in, false
	}
	if closed, ok := ri.AdditionalProperties.(bool); !ok || closed {
		return in, false // free-form: every property is the client's
	}
	props := make(map[string]*huma.Schema, len(ri.Properties)+len(ro.Properties))
	for k, v := range ri.Properties {
		props[k] = v
	}
	changed := false
	for k, v := range ro.Properties {
		if p, ok := ri.Properties[k]; ok {
			if m, ch := withAnswerFields(reg, p, v, depth+1); ch {
				props[k], changed = m, true
			}
			continue
		}
		p := *v
		p.ReadOnly = true
		props[k], changed = &p, true
	}
	if !changed {
		return in, false
	}
	cp := changedCopy(in, ri, func(cp *huma.Schema) { cp.Properties = props })
	cp.PrecomputeMessages()
	return cp, true
}

// changedCopy is a copy of ri (in, resolved) that change alters, with in's
// own description when it has one.
func changedCopy(in, ri *huma.Schema, change func(*huma.Schema)) *huma.Schema {
	cp := *ri
	change(&cp)
	if in.Description != "" {
		cp.Description = in.Description
	}
	return &cp
}

// reachable adds to seen the names of the registered schemas s refers to,
// directly or through others.
func reachable(reg huma.Registry, s *huma.Schema, seen map[string]bool) {
	if s == nil {
		return
	}
	if s.Ref != "" {
		n := s.Ref[strings.LastIndex(s.Ref, "/")+1:]
		if seen[n] {
			return
		}
		seen[n] = true
		reachable(reg, reg.SchemaFromRef(s.Ref), seen)
		return
	}
	for _, p := range s.Properties {
		reachable(reg, p, seen)
	}
	reachable(reg, s.Items, seen)
	if ap, ok := s.AdditionalProperties.(*huma.Schema); ok {
		reachable(reg, ap, seen)
	}
	for _, l := range [][]*huma.Schema{s.OneOf, s.AnyOf, s.AllOf} {
		for _, x := range l {
			reachable(reg, x, seen)
		}
	}
	reachable(reg, s.Not, seen)
}

func resolve(reg huma.Registry, s *huma.Schema) *huma.Schema {
	for i := 0; s != nil && s.Ref != "" && i < 8; i++ {
		s = reg.SchemaFromRef(s.Ref)
	}
	return s
}

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func upperFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}
