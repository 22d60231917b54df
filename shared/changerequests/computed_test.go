package changerequests_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/openapispecs/openapispecshttp"
	"github.com/galleydocs/galley/shared/openapispecs/openapiworker"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// openapiFixtures holds real public OpenAPI documents, outside the
// repository: the module root's ../shared/fixtures/openapi.
const openapiFixtures = "../../../shared/fixtures/openapi"

// specFixture is the change requests fixture with the OpenAPI specs
// family, whose jobs run when work is called.
type specFixture struct {
	*fixture
	q   *queuetest.Memory
	svc *openapispecs.Service
}

func setupSpecs(t *testing.T) *specFixture {
	k := testkit.New(t)
	q := &queuetest.Memory{}
	k.Deps.Queue = q
	f := setupOn(t, k)
	svc := openapispecs.New(k.Deps, openapiworker.Parse)
	openapispecshttp.Register(f.api, svc)
	return &specFixture{fixture: f, q: q, svc: svc}
}

func (f *specFixture) work(t *testing.T) {
	t.Helper()
	if err := f.q.Drain(context.Background(), map[string]queue.Handler{openapispecs.JobKind: f.svc.Handle}); err != nil {
		t.Fatal(err)
	}
}

func (f *specFixture) specs() string { return "/v1/orgs/" + f.org.ID + "/openapi" }

// blocks are the top-level blocks of a page read as a document.
func blocks(page map[string]any) []map[string]any {
	doc, _ := page["document"].(map[string]any)
	var out []map[string]any
	if doc == nil {
		return nil
	}
	for _, n := range doc["nodes"].([]any) {
		out = append(out, n.(map[string]any))
	}
	return out
}

// A computed page (builtin:openapi) inserted through authoring is an API
// reference generated from the spec's latest version: one page per tag,
// one openapi-operation block per operation; computed=false reads it as
// stored; a new version of the spec shows without any step.
func TestComputedOpenAPIPageFollowsTheSpec(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(openapiFixtures, "blockfrost.yaml"))
	if err != nil {
		testenv.Missing(t, "OpenAPI fixture blockfrost.yaml ("+err.Error()+")")
	}
	f := setupSpecs(t)
	admin := f.as(t, f.admin)
	admin.Expect(http.StatusCreated, "POST", f.specs(), map[string]any{"slug": "blockfrost", "source": map[string]any{"text": string(raw)}})
	f.work(t)
	ops := admin.Expect(http.StatusOK, "GET", f.specs()+"/blockfrost/versions/latest/operations", nil).Map(t)["items"].([]any)
	if len(ops) < 100 {
		t.Fatalf("%d operations in the fixture", len(ops))
	}

	f.create(t, f.editor, "API reference")
	got := f.author(t, f.editor, 1, map[string]any{"operation": "insert_page", "ref": "api", "type": "computed", "title": "API reference",
		"computed": map[string]any{"type": "builtin:openapi", "dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "blockfrost"}}},
			"props": map[string]any{"models": true}}})
	api := got["refs"].(map[string]any)["api"].(string)
	reader := f.as(t, f.reader)
	page := func(id, query string) map[string]any {
		t.Helper()
		return reader.Expect(http.StatusOK, "GET", f.cr(1)+"/content/page/"+id+query, nil).Map(t)
	}

	// Computed (the default): a document page whose children are the tags.
	p := page(api, "?format=document")
	if p["type"] != "document" || len(blocks(p)) != 0 {
		t.Fatalf("computed page read computed: type %v, %d blocks", p["type"], len(blocks(p)))
	}
	dep := p["computed"].(map[string]any)["dependencies"].(map[string]any)["spec"].(map[string]any)
	if dep["value"].(map[string]any)["slug"] != "blockfrost" || dep["value"].(map[string]any)["lastVersion"] == nil {
		t.Errorf("dependency %v", dep)
	}
	tags := p["pages"].([]any)
	if len(tags) < 2 {
		t.Fatalf("%d generated pages", len(tags))
	}
	// Every operation of the version is in exactly one tag page, as a block
	// pointing at the spec, its path and its method.
	seen := map[string]int{}
	var accounts map[string]any
	for _, tg := range tags {
		tp := page(tg.(map[string]any)["id"].(string), "?format=document")
		if c := tp["computed"].(map[string]any)["props"].(map[string]any); c["doc"] != "tag" || c["page"] != tp["title"] {
			t.Errorf("generated page %v: props %v", tp["title"], c)
		}
		for _, b := range blocks(tp) {
			d := b["data"].(map[string]any)
			if b["type"] != "openapi-operation" || d["ref"].(map[string]any)["spec"] != "blockfrost" {
				t.Fatalf("block %v", b)
			}
			seen[d["method"].(string)+" "+d["path"].(string)]++
		}
		if tp["title"] == "Cardano » Accounts" {
			accounts = tp
		}
	}
	for _, o := range ops {
		m := o.(map[string]any)
		if k := m["method"].(string) + " " + m["path"].(string); seen[k] != 1 {
			t.Errorf("operation %s in %d pages", k, seen[k])
		}
	}
	if len(seen) != len(ops) {
		t.Errorf("%d operations in the pages, the version has %d", len(seen), len(ops))
	}
	if accounts == nil || len(blocks(accounts)) != 12 {
		t.Fatalf("the Accounts tag page: %v", accounts["title"])
	}
	for _, b := range blocks(accounts) {
		if !strings.HasPrefix(b["data"].(map[string]any)["path"].(string), "/accounts/") {
			t.Errorf("Accounts block %v", b["data"])
		}
	}
	// The generated page reads by path too.
	byPath := reader.Expect(http.StatusOK, "GET", f.cr(1)+"/content/path/"+accounts["path"].(string)+"?format=document", nil).Map(t)
	if byPath["id"] != accounts["id"] || len(blocks(byPath)) != 12 {
		t.Errorf("by path %v: %v, %d blocks", accounts["path"], byPath["id"], len(blocks(byPath)))
	}

	// computed=false: the page as stored, no generated pages, no blocks.
	raw0 := page(api, "?format=document&computed=false")
	if raw0["type"] != "computed" || len(raw0["pages"].([]any)) != 0 || raw0["document"] != nil {
		t.Errorf("computed=false: %v", raw0)
	}
	if ref := raw0["computed"].(map[string]any)["dependencies"].(map[string]any)["spec"].(map[string]any)["ref"].(map[string]any); ref["spec"] != "blockfrost" {
		t.Errorf("stored computed source %v", raw0["computed"])
	}
	reader.Expect(http.StatusNotFound, "GET", f.cr(1)+"/content/page/"+accounts["id"].(string)+"?computed=false", nil)
	// The tree reads compute too.
	tree := reader.Expect(http.StatusOK, "GET", f.cr(1)+"/content/pages", nil).Map(t)["pages"].([]any)
	if top := tree[0].(map[string]any); top["id"] != api || len(top["pages"].([]any)) != len(tags) {
		t.Errorf("pages: %v with %d children", top["id"], len(top["pages"].([]any)))
	}

	// A new version with one more operation shows in the page.
	added := strings.Replace(string(raw), "\npaths:\n", "\npaths:\n  /galley/added:\n    get:\n      tags:\n        - Health\n      responses:\n        '200':\n          description: ok\n", 1)
	if added == string(raw) {
		t.Fatal("the fixture has no top-level paths")
	}
	admin.Expect(http.StatusOK, "PUT", f.specs()+"/blockfrost", map[string]any{"source": map[string]any{"text": added}})
	f.work(t)
	found := false
	for _, tg := range page(api, "")["pages"].([]any) {
		if tg.(map[string]any)["title"] != "Health" {
			continue
		}
		for _, b := range blocks(page(tg.(map[string]any)["id"].(string), "?format=document")) {
			found = found || b["data"].(map[string]any)["path"] == "/galley/added"
		}
	}
	if !found {
		t.Error("the new version's operation is not in the Health page")
	}
}

// OpenAPI blocks of markdown resolve against the organization's specs
// when rendered as documents; unknown specs stay as written.
func TestOpenAPIBlocksResolveToTheOrganizationsSpecs(t *testing.T) {
	f := setupSpecs(t)
	admin := f.as(t, f.admin)
	sp := admin.Expect(http.StatusCreated, "POST", f.specs(), map[string]any{"slug": "pets", "source": map[string]any{"text": "openapi: 3.0.3\ninfo: {title: Pets, version: '1'}\npaths:\n  /x:\n    get:\n      responses:\n        '200': {description: ok}\n"}}).Map(t)
	f.work(t)
	f.create(t, f.editor, "blocks")
	md := "# Ops\n\n" +
		"{% openapi-operation spec=\"pets\" path=\"/x\" method=\"get\" %}\n\n" +
		"{% openapi-operation spec=\"" + sp["id"].(string) + "\" path=\"/x\" method=\"get\" %}\n\n" +
		"{% openapi-operation spec=\"nope\" path=\"/x\" method=\"get\" %}\n\n" +
		"{% openapi src=\"pets\" path=\"/x\" method=\"get\" %}\n{% endopenapi %}\n\n" +
		"{% openapi src=\"https://example.com/unknown.yaml\" path=\"/x\" method=\"get\" %}\n{% endopenapi %}\n"
	id := f.author(t, f.editor, 1, insert("ops", "", md))["refs"].(map[string]any)["ops"].(string)
	read := func(q url.Values) []map[string]any {
		return blocks(f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/page/"+id+"?"+q.Encode(), nil).Map(t))
	}
	bs := read(url.Values{"format": {"document"}})
	want := []struct{ typ, spec string }{{"openapi-operation", "pets"}, {"openapi-operation", "pets"}, {"openapi-operation", "nope"}, {"openapi-operation", "pets"}, {"swagger", ""}}
	if len(bs) != len(want) {
		t.Fatalf("%d blocks: %v", len(bs), bs)
	}
	for i, w := range want {
		ref := bs[i]["data"].(map[string]any)["ref"].(map[string]any)
		if bs[i]["type"] != w.typ || (w.spec != "" && ref["spec"] != w.spec) || (w.spec == "" && ref["url"] != "https://example.com/unknown.yaml") {
			t.Errorf("block %d: %v %v, want %s %s", i, bs[i]["type"], ref, w.typ, w.spec)
		}
	}
	// computed=false: the blocks as written.
	raw := read(url.Values{"format": {"document"}, "computed": {"false"}})
	if ref := raw[1]["data"].(map[string]any)["ref"].(map[string]any); ref["spec"] != sp["id"] {
		t.Errorf("computed=false resolved the block: %v", ref)
	}
}

// Every fixture document (GitHub Enterprise Server's OpenAPI 3.0 JSON,
// Docker Engine's Swagger 2.0 YAML, Blockfrost's OpenAPI 3.0 YAML) makes a
// computed page whose tag pages hold each of its operations once, as
// openapi-operation blocks.
func TestComputedPagePerFixtureSpec(t *testing.T) {
	for slug, file := range map[string]string{"ghes": "github-ghes-3.6.json", "docker": "docker-engine-swagger2.yaml", "blockfrost": "blockfrost.yaml"} {
		t.Run(slug, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(openapiFixtures, file))
			if err != nil {
				testenv.Missing(t, "OpenAPI fixture "+file+" ("+err.Error()+")")
			}
			f := setupSpecs(t)
			admin := f.as(t, f.admin)
			admin.Expect(http.StatusCreated, "POST", f.specs(), map[string]any{"slug": slug, "source": map[string]any{"text": string(raw)}})
			f.work(t)
			ops := admin.Expect(http.StatusOK, "GET", f.specs()+"/"+slug+"/versions/latest/operations?limit=1000", nil).Map(t)["items"].([]any)
			f.create(t, f.editor, "API reference")
			got := f.author(t, f.editor, 1, map[string]any{"operation": "insert_page", "ref": "api", "type": "computed", "title": "API reference",
				"computed": map[string]any{"type": "builtin:openapi", "dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": slug}}}}})
			reader := f.as(t, f.reader)
			p := reader.Expect(http.StatusOK, "GET", f.cr(1)+"/content/page/"+got["refs"].(map[string]any)["api"].(string)+"?format=document", nil).Map(t)
			seen := map[string]int{}
			for _, tg := range p["pages"].([]any) {
				tp := reader.Expect(http.StatusOK, "GET", f.cr(1)+"/content/page/"+tg.(map[string]any)["id"].(string)+"?format=document", nil).Map(t)
				for _, b := range blocks(tp) {
					d := b["data"].(map[string]any)
					if b["type"] != "openapi-operation" {
						t.Fatalf("block %v", b)
					}
					seen[d["method"].(string)+" "+d["path"].(string)]++
				}
			}
			if len(ops) == 0 || len(seen) != len(ops) {
				t.Fatalf("%d operations in the pages, the version has %d", len(seen), len(ops))
			}
			for k, n := range seen {
				if n != 1 {
					t.Errorf("operation %s in %d pages", k, n)
				}
			}
			t.Logf("%s: %d operations in %d tag pages", slug, len(ops), len(p["pages"].([]any)))
		})
	}
}
