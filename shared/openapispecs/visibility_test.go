package openapispecs_test

import (
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// PATCH .../openapi/{specSlug} sets the visibility (creators of specs);
// a public spec fetched from a URL shows it as its content's urls.public.
func TestSpecVisibility(t *testing.T) {
	f := setup(t)
	ds := newDocServer(t, petstore)
	spec := f.base() + "/petstore"
	f.As(t, "create").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": "petstore", "source": map[string]any{"url": ds.URL + "/petstore.yaml"}})
	f.work(t)
	if v := f.As(t, "read").Expect(200, "GET", spec, nil).Map(t)["visibility"]; v != "private" {
		t.Fatalf("a new spec's visibility is %v, want private", v)
	}
	f.Check(t, []testkit.Case{
		{"401 without token", "", "PATCH", spec, map[string]any{"visibility": "public"}, 401, ""},
		{"403 below create", f.Tokens["review"], "PATCH", spec, map[string]any{"visibility": "public"}, 403, ""},
		{"404 for an outsider", f.Tokens[testkit.Outsider], "PATCH", spec, map[string]any{"visibility": "public"}, 404, ""},
		{"404 for an unknown spec", f.Tokens["create"], "PATCH", f.base() + "/nope", map[string]any{"visibility": "public"}, 404, ""},
		{"400 without visibility", f.Tokens["create"], "PATCH", spec, map[string]any{}, 400, "visibility"},
		{"400 an unknown visibility", f.Tokens["create"], "PATCH", spec, map[string]any{"visibility": "published"}, 400, "visibility"},
	})
	content := func() map[string]any {
		return f.As(t, "read").Expect(200, "GET", spec+"/versions/latest/content", nil).Map(t)["urls"].(map[string]any)
	}
	if u := content(); u["public"] != nil {
		t.Fatalf("a private spec's urls.public is %v", u["public"])
	}
	sp := f.As(t, "create").Expect(200, "PATCH", spec, map[string]any{"visibility": "public"}).Map(t)
	if sp["visibility"] != "public" {
		t.Fatalf("answer %v", sp)
	}
	if u := content(); u["public"] != ds.URL+"/petstore.yaml" {
		t.Fatalf("a public spec's urls.public is %v", u["public"])
	}
	// The same visibility again leaves updatedAt as it is.
	again := f.As(t, "create").Expect(200, "PATCH", spec, map[string]any{"visibility": "public"}).Map(t)
	if again["updatedAt"] != sp["updatedAt"] {
		t.Fatalf("updatedAt moved from %v to %v", sp["updatedAt"], again["updatedAt"])
	}
	f.As(t, "create").Expect(200, "PATCH", spec, map[string]any{"visibility": "private"})
	if u := content(); u["public"] != nil {
		t.Fatalf("urls.public %v after making it private", u["public"])
	}
}

// The latest version's raw content is its source as given (a text) or
// fetched (a URL), with its format; specs without a version yet are 404.
func TestLatestVersionRawContent(t *testing.T) {
	f := setup(t)
	ds := newDocServer(t, petstoreV2)
	f.As(t, "create").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": "text", "source": map[string]any{"text": petstore}})
	f.As(t, "create").Expect(http.StatusCreated, "POST", f.base(), map[string]any{"slug": "fetched", "source": map[string]any{"url": ds.URL + "/v2.json"}})
	raw := func(slug string) string { return f.base() + "/" + slug + "/versions/latest/content/raw" }
	f.Check(t, []testkit.Case{
		{"404 before processing", f.Tokens["read"], "GET", raw("text"), nil, 404, "no version yet"},
	})
	f.work(t)
	for slug, want := range map[string][2]string{"text": {petstore, "yaml"}, "fetched": {petstoreV2, "json"}} {
		got := f.As(t, "read").Expect(200, "GET", raw(slug), nil).Map(t)
		if got["text"] != want[0] || got["format"] != want[1] {
			t.Errorf("%s: raw content %v, want format %s and the source as given", slug, got, want[1])
		}
	}
	// A new source makes a new version, whose source is answered.
	f.As(t, "create").Expect(200, "PUT", f.base()+"/text", map[string]any{"source": map[string]any{"text": petstoreV2}})
	f.work(t)
	if got := f.As(t, "read").Expect(200, "GET", raw("text"), nil).Map(t); got["text"] != petstoreV2 || got["format"] != "json" {
		t.Errorf("after an update: %v", got)
	}
	f.Check(t, []testkit.Case{
		{"401 without token", "", "GET", raw("text"), nil, 401, ""},
		{"403 for a guest", f.Tokens["guest"], "GET", raw("text"), nil, 403, ""},
		{"404 for an outsider", f.Tokens[testkit.Outsider], "GET", raw("text"), nil, 404, ""},
		{"404 an unknown spec", f.Tokens["read"], "GET", raw("nope"), nil, 404, ""},
		{"400 a bad slug", f.Tokens["read"], "GET", raw("Not_A_Slug"), nil, 400, "specSlug"},
	})
}
