package spaces

import (
	"reflect"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/model"
)

// cloneSpace shares nothing with what it copies.
func TestCloneSpaceSharesNothing(t *testing.T) {
	now := time.Now()
	sp := model.Space{ID: "s1", Ancestors: []string{"c1"}, DeletedAt: &now,
		MergeRules: &model.MergeRules{Type: "rules", Rules: []model.MergeRule{{Rule: "require_approval", Users: []string{"u1"}}}}}
	c := cloneSpace(sp)
	c.Ancestors[0], c.MergeRules.Rules[0].Users[0], c.MergeRules.Rules[0].Rule, *c.DeletedAt = "x", "x", "x", time.Time{}
	if sp.Ancestors[0] != "c1" || sp.MergeRules.Rules[0].Users[0] != "u1" || sp.MergeRules.Rules[0].Rule != "require_approval" || sp.DeletedAt.IsZero() {
		t.Fatalf("the copy shares memory: %+v", sp)
	}
}

// cloneSpace copies every field of model.Space that refers to shared
// memory: a new one (a slice, map or pointer) must be added there.
func TestCloneSpaceKnowsEveryReferenceField(t *testing.T) {
	known := map[string]bool{"Ancestors": true, "DeletedAt": true, "MergeRules": true}
	ty := reflect.TypeFor[model.Space]()
	for i := range ty.NumField() {
		f := ty.Field(i)
		switch f.Type.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
			if !known[f.Name] {
				t.Errorf("model.Space.%s (%s) is not copied by cloneSpace", f.Name, f.Type)
			}
		}
	}
}
