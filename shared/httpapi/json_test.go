package httpapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

type inner struct {
	A string `json:"a"`
}

type Embedded struct {
	E int `json:"e"`
}

type sample struct {
	Embedded
	S       string            `json:"s"`
	Omit    string            `json:"omit,omitempty"`
	T       time.Time         `json:"t"`
	TP      *time.Time        `json:"tp,omitempty"`
	P       *inner            `json:"p"`
	M       map[string]any    `json:"m"`
	MS      map[string]string `json:"ms,omitempty"`
	L       []inner           `json:"l"`
	Nil     []string          `json:"nil"`
	Raw     json.RawMessage   `json:"raw"`
	B       []byte            `json:"b"`
	F       []float64         `json:"f"`
	I       int64             `json:"i"`
	Any     any               `json:"any"`
	Skipped string            `json:"-"`
	Bool    bool              `json:"bool"`
}

// Response bodies carry the values encoding/json writes, byte for byte but
// for four spellings of the same JSON: U+2028 and U+2029 are not escaped,
// invalid UTF-8 becomes U+FFFD itself rather than "\ufffd", a
// json.RawMessage is copied without being compacted, and small exponents
// have two digits (1e-07).
func TestResponseJSONMatchesEncodingJSON(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 123000000, time.UTC)
	values := []any{
		sample{Embedded: Embedded{E: 7}, S: `<a href="x">&</a> ✓ \ "q"` + "\t\n\x01\x7f", T: now, TP: &now, P: &inner{A: "x"},
			M:  map[string]any{"z": 1, "a": []any{"b", 2.5, nil, true}, "m": map[string]any{"y": "1", "b": 2}},
			MS: map[string]string{"k2": "v", "k1": "w"}, L: []inner{{"1"}, {"2"}}, Raw: json.RawMessage(`{"x":[1,2]}`),
			B: []byte("bytes\x00"), F: []float64{0, 0.1, 3, 1e20, 1e21, 1e-6, -2.5e-10, 123456789.125}, I: -1 << 62,
			Any: map[string]any{"n": json.Number("12")}, Skipped: "no", Bool: true},
		sample{},
		[]any{},
		map[string]int{},
		&ErrorBody{Err: ErrorInfo{Code: 404, Message: "space x not found"}},
	}
	for i, v := range values {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := jsonFormat.Marshal(&got, v); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("value %d:\n got %s\nwant %s", i, got.String(), want.String())
		}
	}
	// The four differences: the same values.
	odd := map[string]any{"s": "\u2028\u2029 invalid \xff\xfe utf-8", "raw": json.RawMessage(`{"x": [1, 2]}`), "f": 1e-7}
	var want, got bytes.Buffer
	if err := json.NewEncoder(&want).Encode(odd); err != nil {
		t.Fatal(err)
	}
	if err := jsonFormat.Marshal(&got, odd); err != nil {
		t.Fatal(err)
	}
	var w, g any
	if err := json.Unmarshal(want.Bytes(), &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(w, g) {
		t.Errorf("different values:\n got %s\nwant %s", got.String(), want.String())
	}
}
