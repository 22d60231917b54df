package httpapi

import "encoding/json"

// Nulls records which fields of a PATCH body were sent as an explicit null.
// PATCH semantics, everywhere: an omitted field is left unchanged, null
// removes it (where the field may be removed), a value sets it.
type Nulls map[string]bool

// Has reports whether field was sent as null.
func (n Nulls) Has(field string) bool { return n[field] }

// DecodePatch decodes a PATCH body into v (usually an alias type of the body
// without its UnmarshalJSON) and returns the fields sent as null.
func DecodePatch(data []byte, v any) (Nulls, error) {
	if err := json.Unmarshal(data, v); err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	nulls := Nulls{}
	for k, v := range raw {
		if string(v) == "null" {
			nulls[k] = true
		}
	}
	return nulls, nil
}
