package httpapi

import (
	"encoding/json"
	"io"
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// Nulls records which fields of a PATCH body were sent as an explicit null.
// PATCH semantics, everywhere: an omitted field is left unchanged, null
// removes it (where the field may be removed), a value sets it.
//
// A body type (or a type it holds, at any depth: the items of an array
// too) declares a field Nulls of this type, tagged json:"-", and the API's
// JSON decoder (jsonFormat) fills it with the keys of that object sent as
// null, as sent. No body type has a decoder of its own for this, and the
// field adds nothing to the OpenAPI document.
type Nulls map[string]bool

// Has reports whether field was sent as null.
func (n Nulls) Has(field string) bool { return n[field] }

var nullsType = reflect.TypeFor[Nulls]()

// jsonFormat is huma's JSON format whose Unmarshal also fills every Nulls
// field of the decoded value, and whose Marshal lets a PreEncoded body
// write itself.
func jsonFormat() huma.Format {
	f := huma.DefaultJSONFormat
	f.Unmarshal = DecodePatch
	marshal := f.Marshal
	f.Marshal = func(w io.Writer, v any) error {
		if p, ok := v.(PreEncoded); ok {
			if done, err := p.WriteJSON(w); done || err != nil {
				return err
			}
		}
		return marshal(w, v)
	}
	return f
}

// PreEncoded is a body that may write its JSON itself, byte for byte as
// the JSON format would (a newline after it), from an encoding kept
// across answers (a page tree's: contenthttp.PagesList); done false
// leaves the body to the format.
type PreEncoded interface {
	WriteJSON(w io.Writer) (done bool, err error)
}

// DecodePatch decodes data into v with encoding/json, then fills the
// Nulls fields of v from data (see Nulls).
func DecodePatch(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || !holdsNulls(rv.Type(), map[reflect.Type]bool{}) {
		return nil
	}
	fillNulls(rv.Elem(), data)
	return nil
}

// holdsNulls reports whether a value of type t can hold a Nulls field.
func holdsNulls(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return holdsNulls(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Type == nullsType || (f.IsExported() || f.Anonymous) && holdsNulls(f.Type, seen) {
				return true
			}
		}
	}
	return false
}

// fillNulls walks v along data (the JSON that v was decoded from).
func fillNulls(v reflect.Value, data []byte) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			fillNulls(v.Elem(), data)
		}
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(data, &items) != nil {
			return
		}
		for i := 0; i < v.Len() && i < len(items); i++ {
			fillNulls(v.Index(i), items[i])
		}
	case reflect.Struct:
		var raw map[string]json.RawMessage
		if !holdsNulls(v.Type(), map[reflect.Type]bool{}) || json.Unmarshal(data, &raw) != nil {
			return
		}
		fillStruct(v, raw)
	}
}

func fillStruct(v reflect.Value, raw map[string]json.RawMessage) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Type == nullsType:
			nulls := Nulls{}
			for k, m := range raw {
				if string(m) == "null" {
					nulls[k] = true
				}
			}
			v.Field(i).Set(reflect.ValueOf(nulls))
		case tag == "-" || !f.IsExported() && !f.Anonymous:
		case f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct:
			fillStruct(v.Field(i), raw)
		default:
			if tag == "" {
				tag = f.Name
			}
			if m, ok := lookupFold(raw, tag); ok {
				fillNulls(v.Field(i), m)
			}
		}
	}
}

// lookupFold finds key in raw as encoding/json matches a field: exactly,
// else without regard to case.
func lookupFold(raw map[string]json.RawMessage, key string) (json.RawMessage, bool) {
	if m, ok := raw[key]; ok {
		return m, true
	}
	for k, m := range raw {
		if strings.EqualFold(k, key) {
			return m, true
		}
	}
	return nil, false
}
