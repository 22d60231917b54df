package access

import (
	"reflect"
	"testing"

	"github.com/galleydocs/galley/shared/model"
)

// cloneMember copies every field of model.Member that refers to shared
// memory: a new one (a slice, map or pointer) must be added there.
func TestCloneMemberKnowsEveryReferenceField(t *testing.T) {
	known := map[string]bool{"TeamIDs": true, "LastSeenAt": true}
	ty := reflect.TypeFor[model.Member]()
	for i := range ty.NumField() {
		f := ty.Field(i)
		switch f.Type.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
			if !known[f.Name] {
				t.Errorf("model.Member.%s (%s) is not copied by cloneMember", f.Name, f.Type)
			}
		}
	}
	m := model.Member{TeamIDs: []string{"t1"}}
	c := cloneMember(m)
	c.TeamIDs[0] = "x"
	if m.TeamIDs[0] != "t1" {
		t.Fatal("the copy shares its teams")
	}
}
