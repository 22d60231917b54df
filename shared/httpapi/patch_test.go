package httpapi

import (
	"reflect"
	"testing"
)

type patchItem struct {
	Name  *string `json:"name,omitempty"`
	Nulls Nulls   `json:"-"`
}

type patchBody struct {
	Title *string     `json:"title,omitempty"`
	Items []patchItem `json:"items"`
	One   *patchItem  `json:"one,omitempty"`
	Nulls Nulls       `json:"-"`
}

func TestDecodePatchFillsNullsAtEveryDepth(t *testing.T) {
	var b patchBody
	err := DecodePatch([]byte(`{"title":null,"Items":[{"name":"a"},{"name":null}],"one":{"name":null}}`), &b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.Nulls, Nulls{"title": true}) || b.Title != nil {
		t.Errorf("top level: nulls %v title %v", b.Nulls, b.Title)
	}
	if len(b.Items) != 2 || len(b.Items[0].Nulls) != 0 || !b.Items[1].Nulls.Has("name") {
		t.Errorf("items: %+v", b.Items)
	}
	if b.One == nil || !b.One.Nulls.Has("name") {
		t.Errorf("one: %+v", b.One)
	}
}

func TestDecodePatchRefusesBadJSON(t *testing.T) {
	var b patchBody
	if err := DecodePatch([]byte(`{"title":1}`), &b); err == nil {
		t.Error("a number for a string decoded")
	}
}
