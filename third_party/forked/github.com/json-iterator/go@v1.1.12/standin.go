// Galley's fork: the package is replaced by an encoding/json stand-in (every
// upstream file above is excluded with a "go:build ignore" line).
//
// Galley never uses json-iterator itself. It reaches the binaries only
// through bleve (geo/geojson and index/upsidedown), which call
// ConfigCompatibleWithStandardLibrary's Marshal and Unmarshal on geo shapes
// and index metadata Galley never stores. Upstream depends on
// modern-go/reflect2, whose Type.MethodByName calls reflect with a method
// name known only at run time; that makes Go's linker keep every exported
// method of every type reachable through an interface in the whole binary,
// which put the search function over the 25 MB budget of Galley's
// docs/functions.md. encoding/json gives the same results for these values.

package jsoniter

import "encoding/json"

// API is the part of json-iterator's API that bleve uses.
type API interface {
	Marshal(v interface{}) ([]byte, error)
	Unmarshal(data []byte, v interface{}) error
}

type std struct{}

func (std) Marshal(v interface{}) ([]byte, error)      { return json.Marshal(v) }
func (std) Unmarshal(data []byte, v interface{}) error { return json.Unmarshal(data, v) }

// ConfigCompatibleWithStandardLibrary behaves as encoding/json.
var ConfigCompatibleWithStandardLibrary API = std{}
