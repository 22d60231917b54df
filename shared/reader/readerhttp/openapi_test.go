package readerhttp_test

import (
	"html"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/openapispecs/openapiworker"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// openapiFixtures holds real public OpenAPI documents, outside the
// repository (the module root's ../shared/fixtures/openapi).
const openapiFixtures = "../../../../shared/fixtures/openapi"

// An API operation shows its bodies' fields and examples: the spec's own
// (a media type's examples, references followed) or one made from the
// schema (from its properties' examples), bounded. Real documents.
func TestOperationFieldsAndExamplesFromRealSpecs(t *testing.T) {
	f := newFixture(t)
	ctx := f.Ctx("admin")
	var changes []map[string]any
	for _, x := range []struct{ file, slug string }{{"blockfrost.yaml", "blockfrost"}, {"github-ghes-3.6.json", "ghes"}, {"docker-engine-swagger2.yaml", "docker"}} {
		raw, err := os.ReadFile(filepath.Join(openapiFixtures, x.file))
		if err != nil {
			testenv.Missing(t, "OpenAPI fixture "+x.file+" ("+err.Error()+")")
		}
		if _, _, err := openapispecs.New(f.Kit.Deps, openapiworker.Parse).Create(ctx, f.Org.ID, x.slug, openapispecs.Source{Text: string(raw)}); err != nil {
			t.Fatal(err)
		}
		changes = append(changes, map[string]any{"operation": "insert_page", "ref": x.slug, "type": "computed", "title": "API " + x.slug,
			"computed": map[string]any{"type": "builtin:openapi", "dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": x.slug}}}}})
	}
	f.space, f.pages = f.newSpace(t, "APIs", append([]map[string]any{page("intro", "", "# Welcome\n\nThe APIs.\n")}, changes...)...)
	f.publish(t, "API Docs", map[string]any{"basename": "docs"})
	// tagPage reads the generated page of a tag, found in the page tree
	// of the spec's page.
	tagPage := func(slug, tag string) string {
		t.Helper()
		ref, _ := f.body(t, http.StatusOK, f.base+"/api-"+slug)
		m := regexp.MustCompile(`<a href="([^"]+)"[^>]*>` + regexp.QuoteMeta(html.EscapeString(tag)) + `</a>`).FindStringSubmatch(ref)
		if m == nil {
			t.Fatalf("no page of the tag %q under /api-%s", tag, slug)
		}
		p, res := f.body(t, http.StatusOK, html.UnescapeString(m[1]))
		pg := 0
		for _, d := range regexp.MustCompile(`(?s)<details class="playground".*?</details>`).FindAllString(p, -1) {
			pg += len(d)
		}
		t.Logf("%s › %s: %d bytes, %d of them the playgrounds; connect-src %v", slug, tag, len(p), pg, policy(t, res.Header.Get("Content-Security-Policy"))["connect-src"])
		return p
	}
	// operation is the card of one operation on a page.
	operation := func(p, method, path string) string {
		t.Helper()
		head := `<span class="method method-` + strings.ToLower(method) + `">` + method + `</span> <code class="api-path">` + html.EscapeString(path) + `</code>`
		i := strings.Index(p, head)
		if i < 0 {
			t.Fatalf("no operation %s %s", method, path)
		}
		card := p[i:]
		if j := strings.Index(card[1:], `<div class="card api">`); j >= 0 {
			card = card[:j+1]
		}
		return card
	}

	// Blockfrost: a response's fields with descriptions; no example in the
	// spec's media type, so one is made from the properties' examples.
	latest := operation(tagPage("blockfrost", "Cardano » Blocks"), "GET", "/blocks/latest")
	testkit.Contains(t, "blockfrost 200", latest, `<caption>Response 200 fields</caption>`,
		`<tr><td class="depth-0"><code>hash</code> <span class="required">required</span></td><td><code>string</code></td><td>Hash of the block</td></tr>`,
		`<figcaption class="code-title">Example (made from the schema)</figcaption>`,
		`&#34;hash&#34;: &#34;4ea1ba291e8eef538635a53e59fddba7810d1679631cc3aed7c8e6c4091a516a&#34;`,
		`&#34;time&#34;: 1641338934`)

	// GitHub: the request body's fields (required ones marked) and the
	// media type's own example; the response's example, a reference to a
	// component, cut to its bound; a schema of more fields than shown.
	pulls := tagPage("ghes", "pulls")
	create := operation(pulls, "POST", "/repos/{owner}/{repo}/pulls")
	testkit.Contains(t, "ghes request body", create, `<caption>Request body fields</caption>`,
		`<tr><td class="depth-0"><code>head</code> <span class="required">required</span></td><td><code>string</code></td>`,
		`<tr><td class="depth-0"><code>draft</code></td><td><code>boolean</code></td>`,
		`<figcaption class="code-title">Example</figcaption><pre tabindex="0"><code>{
  &#34;base&#34;: &#34;master&#34;,`,
		`<caption>Response 201 fields</caption>`,
		`<pre tabindex="0"><code>{
  &#34;_links&#34;: {`, "\n…</code></pre>",
		`More fields are in the specification.`)
	// Its playground: the server's template, its scheme a variable.
	testkit.Contains(t, "ghes playground", create, `<option value="{protocol}://{hostname}/api/v3" selected>`,
		`<input id="`, `class="pg-var" data-name="hostname" value="HOSTNAME" spellcheck="false">`,
		html.EscapeString(`--url 'http://HOSTNAME/api/v3/repos/`))
	// Nested fields: an object's properties below it, an array's items'
	// as name[].field.
	review := operation(pulls, "POST", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews")
	testkit.Contains(t, "ghes nested", review, `<tr><td class="depth-0"><code>comments</code></td><td><code>object[]</code></td>`,
		`<tr><td class="depth-1"><code>comments[].path</code> <span class="required">required</span></td><td><code>string</code></td>`)
	for _, ex := range regexp.MustCompile(`(?s)<pre tabindex="0"><code>(.*?)</code></pre>`).FindAllStringSubmatch(pulls, -1) {
		if n := len(html.UnescapeString(ex[1])); n > openapispecs.MaxExampleBytes+4 {
			t.Errorf("an example of %d bytes, over the bound %d", n, openapispecs.MaxExampleBytes)
		}
	}
	for _, tb := range regexp.MustCompile(`(?s)<table class="api-params api-fields">.*?</table>`).FindAllString(pulls, -1) {
		if n := strings.Count(tb, "<tr><td"); n > openapispecs.MaxSchemaFields {
			t.Errorf("a fields table of %d rows, over the bound %d", n, openapispecs.MaxSchemaFields)
		}
	}

	// Docker (Swagger 2.0, stored converted): a body parameter's schema's
	// fields and its example.
	create = operation(tagPage("docker", "Container"), "POST", "/containers/create")
	testkit.Contains(t, "docker create", create, `<caption>Request body fields</caption>`, `<code>Image</code>`, `<figcaption class="code-title">Example`)
}
