package httpapi

import (
	"reflect"

	"github.com/danielgtaylor/huma/v2"
)

// OptionalBool is a boolean query parameter that may be absent.
type OptionalBool struct {
	Value bool
	Set   bool
}

// Receiver is where huma parses the value.
func (o *OptionalBool) Receiver() reflect.Value { return reflect.ValueOf(o).Elem().Field(0) }

// OnParamSet records whether the parameter was given.
func (o *OptionalBool) OnParamSet(isSet bool, _ any) { o.Set = isSet }

// Schema documents the parameter as a boolean.
func (OptionalBool) Schema(huma.Registry) *huma.Schema { return &huma.Schema{Type: huma.TypeBoolean} }

// Ptr returns the value, nil when absent.
func (o OptionalBool) Ptr() *bool {
	if !o.Set {
		return nil
	}
	v := o.Value
	return &v
}
