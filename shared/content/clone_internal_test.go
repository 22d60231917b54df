package content

import (
	"reflect"
	"testing"
	"time"
)

// fill sets every field of v reachable from it, recursively: pointers to
// filled values, slices and maps of two filled elements, strings, numbers
// and booleans not zero; so that a field added later is filled too.
func fill(t *testing.T, v reflect.Value, depth int) {
	if depth > 8 {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(t, v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := 0; i < 2; i++ {
			fill(t, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for i := 0; i < 2; i++ {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(t, k, depth+1)
			if k.Kind() == reflect.String {
				k.SetString(k.String() + string(rune('a'+i)))
			}
			if e.Kind() == reflect.Interface {
				e.Set(reflect.ValueOf("value"))
			} else {
				fill(t, e, depth+1)
			}
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		v.SetUint(7)
	case reflect.Float64, reflect.Float32:
		v.SetFloat(0.5)
	case reflect.Interface:
		v.Set(reflect.ValueOf("value"))
	default:
		t.Fatalf("fill: a field of kind %s (%s): teach the test and Tree.Clone about it", v.Kind(), v.Type())
	}
}

// shared reports the first pointer, slice or map that a and b share.
func shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil in one copy only"
			}
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path + " (pointer)"
		}
		return shared(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).IsExported() {
				if s := shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); s != "" {
					return s
				}
			}
		}
	case reflect.Slice:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path + " (slice)"
		}
		for i := 0; i < min(a.Len(), b.Len()); i++ {
			if s := shared(a.Index(i), b.Index(i), path+"[i]"); s != "" {
				return s
			}
		}
	case reflect.Map:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path + " (map)"
		}
	}
	return ""
}

// A tree's copy shares no pointer, slice or map with the tree, for every
// field the types have (filled by reflection, so a field added later is
// checked too), and is equal to it.
func TestTreeCloneSharesNothing(t *testing.T) {
	var tree Tree
	fill(t, reflect.ValueOf(&tree).Elem(), 0)
	c := tree.Clone()
	if !reflect.DeepEqual(&tree, c) {
		t.Fatalf("the copy differs:\n%+v\n%+v", tree, *c)
	}
	if s := shared(reflect.ValueOf(&tree).Elem(), reflect.ValueOf(c).Elem(), "Tree"); s != "" {
		t.Fatalf("the copy shares %s with the tree", s)
	}
	// Empty and nil parts copy as they are.
	empty := (&Tree{Pages: []Page{}, Files: []File{}}).Clone()
	if empty.Pages == nil || empty.Files == nil || empty.ReusableContents != nil || empty.Variables != nil {
		t.Errorf("an empty tree's copy: %+v", empty)
	}
}
