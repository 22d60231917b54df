// Package jsoniter stands in for github.com/json-iterator/go in Galley's
// builds: go.mod replaces that module with this directory.
//
// Why: Galley never uses json-iterator itself. It reaches the binaries only
// through bleve (geo/geojson and index/upsidedown), which call
// ConfigCompatibleWithStandardLibrary's Marshal and Unmarshal on geo shapes
// and index metadata Galley never stores (its indexes are scorch indexes
// without geo fields). json-iterator depends on modern-go/reflect2, whose
// Type.MethodByName calls reflect with a method name known only at run
// time; that makes Go's linker keep every exported method of every type
// reachable through an interface in the whole binary (the AWS SDK clients
// above all), which put the search function over the 25 MB budget of
// docs/functions.md. encoding/json gives the same results for these values.
package jsoniter

import "encoding/json"

// API is the part of json-iterator's API that Galley's dependencies use.
type API interface {
	Marshal(v any) ([]byte, error)
	Unmarshal(data []byte, v any) error
}

type std struct{}

func (std) Marshal(v any) ([]byte, error)      { return json.Marshal(v) }
func (std) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// ConfigCompatibleWithStandardLibrary behaves as encoding/json.
var ConfigCompatibleWithStandardLibrary API = std{}
