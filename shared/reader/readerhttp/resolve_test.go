package readerhttp_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/testkit"
)

// Reusable contents, variables, expressions and conditional blocks as
// readers see them (issue 25, items 3 to 5): every output resolves them
// for the visitor (content.ShownPage).

// resolvingBody is the page "Introduction" of resolvingSite: expressions
// reading the space's and the page's variables, one reading nothing, an
// include, a block for testers only and one on a variable.
const resolvingBody = "# Introduction\n\n" +
	"Version <code class=\"expression\">space.vars.version</code> of <code class=\"expression\">page.vars.product</code>.\n\n" +
	"Missing [<code class=\"expression\">space.vars.nope</code>] here.\n\n" +
	"{% include \".gitbook/includes/banner.md\" %}\n\n" +
	"{% if visitor.claims.isBeta === true %}\n" +
	"Beta zanzibar notes.\n" +
	"{% endif %}\n\n" +
	"{% if space.vars.edition === \"pro\" %}\n" +
	"Pro edition notes.\n" +
	"{% endif %}\n\n" +
	"{% if space.vars.edition === \"free\" %}\n" +
	"Free edition quokka notes.\n" +
	"{% endif %}\n"

// resolvingSite is a visitor-auth site "docs" over a space whose
// Introduction reads the space's variables (version 4.2, edition pro),
// its own (product Acmeflux) and includes the reusable content Banner.
func resolvingSite(t *testing.T) *fixture {
	f := newFixture(t)
	f.space, f.pages = f.newSpace(t, "Guide",
		page("intro", "", "# Introduction\n\nWelcome.\n"),
		page("after", "", "# After\n\nThe last page.\n"),
	)
	k := f.Kit
	repo := content.NewRepo(k.Deps)
	_, ix, err := repo.Load(k.Ctx, f.space, k.Head(t, f.space))
	if err != nil {
		t.Fatal(err)
	}
	banner, err := repo.PutDocument(k.Ctx, f.space, "Banner kumquat text, see [After](/pages/"+f.pages["after"]+").\n")
	if err != nil {
		t.Fatal(err)
	}
	body, err := repo.PutDocument(k.Ctx, f.space, resolvingBody)
	if err != nil {
		t.Fatal(err)
	}
	ix.PutReusableContent(content.ReusableContent{ID: "banner", Title: "Banner", Document: banner,
		Git: &content.GitBlob{OID: "0123456789abcdef0123456789abcdef01234567", Path: ".gitbook/includes/banner.md"}})
	ix.SetVariables(content.Variables{"version": "4.2", "edition": "pro"})
	tree := ix.Tree()
	for i := range tree.Pages {
		if tree.Pages[i].ID == f.pages["intro"] {
			tree.Pages[i].Document = body
			tree.Pages[i].Variables = content.Variables{"product": "Acmeflux"}
		}
	}
	k.Land(t, f.space, tree, nil)
	f.publish(t, "Acme Docs", map[string]any{"basename": "docs", "agentsContext": "included", "visibility": "visitor-auth"})
	return f
}

// TestResolvedEverywhere: the page shows its variables' values, the
// included text and the blocks whose condition holds, in HTML, .md,
// llms-full.txt, the MCP getPage; no output shows the source syntax; the
// testers' block reaches the tester only; the site search finds the
// evaluated and included text and never the testers' block.
func TestResolvedEverywhere(t *testing.T) {
	f := resolvingSite(t)
	tester := f.visitorToken(t, map[string]any{"isBeta": true})
	other := f.visitorToken(t, map[string]any{"isBeta": false})
	source := []string{"{% include", "{% if", "{% endif", `class="expression"`, "space.vars", "page.vars", "visitor.claims"}
	shown := []string{"Version 4.2 of Acmeflux.", "Banner kumquat text", "Pro edition notes."}

	for _, v := range []struct {
		name, tok string
		beta      bool
	}{{"tester", tester, true}, {"other", other, false}} {
		q := "?jwt_token=" + url.QueryEscape(v.tok)
		html, _ := f.body(t, http.StatusOK, f.base+"/"+q)
		md, _ := f.body(t, http.StatusOK, f.base+"/introduction.md"+q)
		full, _ := f.body(t, http.StatusOK, f.base+"/llms-full.txt"+q)
		ans, _ := f.mcpPost(t, http.StatusOK, f.base+"/~gitbook/mcp", callTool(1, "getPage", map[string]any{"url": "introduction"}),
			"Authorization", "Bearer "+v.tok)
		mcp, isErr := toolText(t, ans)
		if isErr {
			t.Fatalf("%s: getPage: %s", v.name, mcp)
		}
		outs := map[string]string{"HTML": html, ".md": md, "llms-full.txt": full, "MCP getPage": mcp}
		for what, out := range outs {
			what = v.name + "'s " + what
			testkit.Contains(t, what, out, shown...)
			testkit.Lacks(t, what, out, source...)
			testkit.Lacks(t, what, out, "quokka")
			if v.beta {
				testkit.Contains(t, what, out, "Beta zanzibar notes.")
			} else {
				testkit.Lacks(t, what, out, "zanzibar")
			}
		}
		// An expression without a value shows nothing.
		testkit.Contains(t, v.name+"'s .md", md, "Missing [] here.")
		// The included body's link resolves from the page that shows it.
		testkit.Contains(t, v.name+"'s HTML", html, `href="`+f.base+`/after`)

		cookie := &http.Cookie{Name: "galley_visitor", Value: v.tok}
		found, _ := f.getWith(t, http.StatusOK, f.base+"/~search?q=kumquat", cookie)
		testkit.Contains(t, v.name+"'s search of included text", found, `href="`+f.base+`/introduction"`)
		found, _ = f.getWith(t, http.StatusOK, f.base+"/~search?q=Acmeflux", cookie)
		testkit.Contains(t, v.name+"'s search of a page variable's value", found, `href="`+f.base+`/introduction"`)
		found, _ = f.getWith(t, http.StatusOK, f.base+"/~search?q=zanzibar", cookie)
		// Blocks whose condition reads the visitor's claims are not
		// indexed: found by no one (docs/content.md).
		testkit.Contains(t, v.name+"'s search of the testers' block", found, "No page matches")
		testkit.Lacks(t, v.name+"'s search of the testers' block", found, f.base+"/introduction", "Beta zanzibar notes")
		found, _ = f.getWith(t, http.StatusOK, f.base+"/~search?q=quokka", cookie)
		testkit.Contains(t, v.name+"'s search of a block whose condition fails", found, "No page matches")
		for _, s := range []string{"kumquat", "Acmeflux"} {
			ans, _ := f.mcpPost(t, http.StatusOK, f.base+"/~gitbook/mcp", callTool(2, "searchDocumentation", map[string]any{"query": s}),
				"Authorization", "Bearer "+v.tok)
			text, _ := toolText(t, ans)
			testkit.Contains(t, v.name+"'s MCP search of "+s, text, "Introduction")
		}
	}

	// A visitor's site token reads the content API: its bodies are
	// resolved for every visitor at once (the token carries no claims),
	// so the testers' block never reaches it, whoever asked for the token.
	raw := "https://app.test" + f.base + "/introduction"
	pub := f.As(t, "").Expect(http.StatusOK, "GET", "/v1/urls/published?url="+url.QueryEscape(raw)+"&visitorAuthToken="+url.QueryEscape(tester), nil).Map(t)
	visitor := f.As(t, "")
	visitor.Token = pub["apiToken"].(string)
	vpg := "/v1/spaces/" + f.space + "/content/page/" + f.pages["intro"]
	for _, q := range []string{"?format=markdown", "?format=document", "?format=document&evaluated=false"} {
		out := string(visitor.Expect(http.StatusOK, "GET", vpg+q, nil).Body)
		testkit.Lacks(t, "site token's page read "+q, out, "zanzibar", "{% if", "{% include", `"type":"if"`, "quokka")
		testkit.Contains(t, "site token's page read "+q, out, "Banner kumquat text", "Pro edition notes.")
	}
	doc := string(visitor.Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/documents/"+
		visitor.Expect(http.StatusOK, "GET", vpg, nil).Map(t)["documentId"].(string), nil).Body)
	testkit.Lacks(t, "site token's document by id", doc, "zanzibar", `"type":"if"`)

	// The API keeps the source: markdown as written, the document's nodes.
	c := f.As(t, "admin")
	pg := "/v1/spaces/" + f.space + "/content/page/" + f.pages["intro"]
	md := c.Expect(http.StatusOK, "GET", pg+"?format=markdown", nil).Map(t)["markdown"].(string)
	testkit.Contains(t, "API markdown", md, `{% include ".gitbook/includes/banner.md" %}`, "{% if visitor.claims.isBeta === true %}", `<code class="expression">space.vars.version</code>`)
	// (The client checks the answer against GitBook's schemas: the
	// conditional block is GitBook's "if" block.)
	doc = string(c.Expect(http.StatusOK, "GET", pg+"?format=document", nil).Body)
	testkit.Contains(t, "API document", doc, `"type":"reusable-content"`, `"reusableContent":"banner"`, `"type":"if"`, `"type":"expression"`)
}
