package content_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/testkit"
)

// An expression that does not evaluate shows nothing to readers and is
// listed with the page's links (brokenExpressions): an unknown variable,
// one that does not parse, a condition naming an unknown page variable.
// Valid ones, and one reading a visitor's claim, are not listed.
func TestBrokenExpressionsAreReportedAndShowNothing(t *testing.T) {
	f := setup(t)
	pages, bodies := samplePages()
	pages[2].Variables = content.Variables{"product": "Acmeflux"}
	bodies["guide"] = "Version <code class=\"expression\">space.vars.version</code> of <code class=\"expression\">page.vars.product</code>.\n\n" +
		"Missing [<code class=\"expression\">space.vars.nope</code>] here.\n\n" +
		"Malformed [<code class=\"expression\">space.vars.version +</code>] there.\n\n" +
		"Fallback <code class=\"expression\">visitor.claims.name || \"space.vars.quoted\"</code>.\n\n" +
		"{% if page.vars.tier === \"pro\" %}\nPro wombat.\n{% endif %}\n\n" +
		"{% if space.vars.version === \"4.2\" %}\nCurrent quokka.\n{% endif %}\n"
	f.Kit.Land(t, f.space, &content.Tree{Pages: pages, Variables: content.Variables{"version": "4.2"}}, bodies)

	// What a reader is shown: the values, nothing for the broken ones.
	svc := contentwire.Service(app.NewRoot(f.Kit.Deps))
	shown, err := svc.ShownPage(f.Ctx("read"), content.At{SpaceID: f.space}, "guide", "markdown", content.Audience{})
	if err != nil || shown.Markdown == nil {
		t.Fatalf("shown page: %v %v", shown, err)
	}
	md := *shown.Markdown
	testkit.Contains(t, "shown page", md, "Version 4.2 of Acmeflux.", "Missing [] here.", "Malformed [] there.", "Current quokka.", `Fallback space.vars.quoted.`)
	testkit.Lacks(t, "shown page", md, "space.vars.nope", "space.vars.version", "page.vars", "expression", "wombat", "{%")

	sp := "/v1/spaces/" + f.space + "/content/page/guide/links"
	c := f.As(t, "read")
	var got struct {
		BrokenExpressions []content.BrokenExpression `json:"brokenExpressions"`
	}
	c.Expect(http.StatusOK, "GET", sp, nil).JSON(t, &got)
	want := []content.BrokenExpression{
		{PageID: "guide", Kind: "expression", Expression: "space.vars.nope", Line: 3, Reason: "space.vars.nope is not set"},
		{PageID: "guide", Kind: "expression", Expression: "space.vars.version +", Line: 5, Reason: "a value expected at the end of the expression"},
		{PageID: "guide", Kind: "condition", Expression: `page.vars.tier === "pro"`, Line: 9, Reason: "page.vars.tier is not set"},
	}
	if !reflect.DeepEqual(got.BrokenExpressions, want) {
		t.Fatalf("broken expressions\n got %+v\nwant %+v", got.BrokenExpressions, want)
	}

	// The status filter: broken keeps them, other statuses do not; a page
	// without expressions has none.
	c.Expect(http.StatusOK, "GET", sp+"?status=broken", nil).JSON(t, &got)
	if len(got.BrokenExpressions) != 3 {
		t.Errorf("status=broken: %+v", got.BrokenExpressions)
	}
	for _, path := range []string{sp + "?status=ok", "/v1/spaces/" + f.space + "/content/page/intro/links"} {
		body := string(c.Expect(http.StatusOK, "GET", path, nil).Body)
		testkit.Contains(t, path, body, `"brokenExpressions":[]`)
	}
}
