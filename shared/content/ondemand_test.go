package content_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/openapispecs/openapiworker"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/testkit"
)

const petsByTag = `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get: {tags: [pets], responses: {200: {description: ok}}}
    post: {tags: [pets], responses: {201: {description: made}}}
  /stores:
    get: {tags: [stores], responses: {200: {description: ok}}}
  /health:
    get: {responses: {200: {description: ok}}}
`

// specsFixture is the content family with the OpenAPI specs family, and
// the spec "pets" of the organization processed.
func specsFixture(t *testing.T) *fixture {
	k := testkit.New(t)
	q := &queuetest.Memory{}
	k.Deps.Queue = q
	a := testkit.NewAPI(t, k, []string{"content", "openapi"})
	f := &fixture{API: a, space: a.Space(t)}
	f.As(t, "admin").Expect(http.StatusCreated, "POST", "/v1/orgs/"+a.Org.ID+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"text": petsByTag}})
	worker := openapispecs.New(k.Deps, openapiworker.Parse)
	if err := q.Drain(context.Background(), map[string]queue.Handler{openapispecs.JobKind: worker.Handle}); err != nil {
		t.Fatal(err)
	}
	return f
}

func computeSource(spec string, props map[string]any) map[string]any {
	return map[string]any{"type": "builtin:openapi", "props": props,
		"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": spec}}}}
}

// POST .../content/computed/revision answers the pages a computed page of
// the source would generate (by tag, or by operation), with ids derived
// from the seed; .../computed/document one of their documents.
func TestComputedContentOnDemand(t *testing.T) {
	f := specsFixture(t)
	rev := "/v1/spaces/" + f.space + "/content/computed/revision"
	doc := "/v1/spaces/" + f.space + "/content/computed/document"
	c := f.As(t, "read")
	out := c.Expect(200, "POST", rev, map[string]any{"seed": "s1", "source": computeSource("pets", map[string]any{"models": false})}).Map(t)
	pages := out["pages"].([]any)
	if len(pages) != 3 || len(out["files"].([]any)) != 0 || len(out["reusableContents"].([]any)) != 0 {
		t.Fatalf("answer %v", out)
	}
	titles := []string{}
	for _, p := range pages {
		titles = append(titles, p.(map[string]any)["title"].(string))
	}
	if titles[0] != "Other" || titles[1] != "pets" || titles[2] != "stores" {
		t.Fatalf("pages by tag %v", titles)
	}
	again := c.Expect(200, "POST", rev, map[string]any{"seed": "s1", "source": computeSource("pets", map[string]any{"models": false})}).Map(t)["pages"].([]any)
	other := c.Expect(200, "POST", rev, map[string]any{"seed": "s2", "source": computeSource("pets", map[string]any{"models": false})}).Map(t)["pages"].([]any)
	id := func(ps []any) string { return ps[1].(map[string]any)["id"].(string) }
	if id(again) != id(pages) || id(other) == id(pages) {
		t.Fatalf("ids %s %s %s: the same seed must give the same ids, another seed others", id(pages), id(again), id(other))
	}
	byOp := c.Expect(200, "POST", rev, map[string]any{"seed": "s1", "source": computeSource("pets", map[string]any{"models": false, "grouping": "by-operation"})}).Map(t)["pages"].([]any)
	if len(byOp) != 4 {
		t.Fatalf("%d pages by operation, want 4", len(byOp))
	}

	nodes := func(body map[string]any) []any {
		return c.Expect(200, "POST", doc, body).Map(t)["nodes"].([]any)
	}
	tag := nodes(map[string]any{"seed": "s1", "source": computeSource("pets", map[string]any{"doc": "tag", "page": "pets"})})
	if len(tag) != 2 || tag[0].(map[string]any)["type"] != "openapi-operation" {
		t.Fatalf("tag document %v", tag)
	}
	op := nodes(map[string]any{"seed": "s1", "source": computeSource("pets", map[string]any{"doc": "operation", "page": "/pets", "method": "post"})})
	data := op[0].(map[string]any)["data"].(map[string]any)
	if len(op) != 1 || data["method"] != "post" || data["path"] != "/pets" || data["headless"] != true {
		t.Fatalf("operation document %v", op)
	}
	if n := nodes(map[string]any{"seed": "s1", "source": computeSource("pets", map[string]any{"doc": "operations", "page": "/pets"})}); len(n) != 2 {
		t.Fatalf("operations of /pets: %v", n)
	}
	if n := nodes(map[string]any{"seed": "s1", "source": computeSource("pets", map[string]any{"doc": "info"})}); len(n) != 0 {
		t.Fatalf("info document %v", n)
	}

	body := map[string]any{"seed": "s1", "source": computeSource("pets", map[string]any{"models": false})}
	f.Check(t, []testkit.Case{
		{"401 without token", "", "POST", rev, body, 401, ""},
		{"404 for an outsider", f.Tokens[testkit.Outsider], "POST", rev, body, 404, ""},
		{"404 for an outsider (document)", f.Tokens[testkit.Outsider], "POST", doc, body, 404, ""},
		{"404 an unknown space", f.Tokens["read"], "POST", "/v1/spaces/nope/content/computed/revision", body, 404, ""},
		{"400 without seed", f.Tokens["read"], "POST", rev, map[string]any{"source": body["source"]}, 400, "seed"},
		{"400 without source", f.Tokens["read"], "POST", rev, map[string]any{"seed": "s"}, 400, "source"},
		{"400 another source type", f.Tokens["read"], "POST", rev, map[string]any{"seed": "s", "source": map[string]any{"type": "builtin:translation", "props": map[string]any{}}}, 400, "source.type"},
		{"400 an unknown spec", f.Tokens["read"], "POST", rev, map[string]any{"seed": "s", "source": computeSource("nope", map[string]any{})}, 400, "source.dependencies.spec.ref.spec"},
		{"400 an unknown doc", f.Tokens["read"], "POST", doc, map[string]any{"seed": "s", "source": computeSource("pets", map[string]any{"doc": "everything"})}, 400, "source.props.doc"},
		{"400 a tag without page", f.Tokens["read"], "POST", doc, map[string]any{"seed": "s", "source": computeSource("pets", map[string]any{"doc": "tag"})}, 400, "source.props.page"},
		{"400 an unknown tag", f.Tokens["read"], "POST", doc, map[string]any{"seed": "s", "source": computeSource("pets", map[string]any{"doc": "tag", "page": "cats"})}, 400, "source.props.page"},
		{"400 a bad schema", f.Tokens["read"], "POST", doc + "?schema=old", body, 400, "schema"},
	})
}
