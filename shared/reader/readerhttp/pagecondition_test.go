package readerhttp_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

const betaCondition = "visitor.claims.isBeta === true"

// conditionalSite is a visitor-auth site "docs" over a space whose page
// Beta (with its child Inner) has a condition: testers only.
func conditionalSite(t *testing.T) *fixture {
	f := newFixture(t)
	f.space, f.pages = f.newSpace(t, "Guide",
		page("intro", "", "# Introduction\n\nWelcome.\n"),
		page("beta", "", "# Beta features\n\nFor zanzibar testers.\n", "condition", betaCondition),
		page("inner", "beta", "# Inner\n\nDeeper zanzibar notes.\n"),
		page("after", "", "# After\n\nThe last page.\n"),
	)
	f.publish(t, "Acme Docs", map[string]any{"basename": "docs", "agentsContext": "included", "visibility": "visitor-auth"})
	return f
}

// TestPageConditionAPI: a page's condition is set by the authoring
// operations, read back with a user's token only (not with a site token),
// refused when it does not parse, and removed with "".
func TestPageConditionAPI(t *testing.T) {
	f := conditionalSite(t)
	c := f.As(t, "admin")
	pagePath := "/v1/spaces/" + f.space + "/content/page/" + f.pages["beta"]
	if got := c.Expect(http.StatusOK, "GET", pagePath, nil).Map(t)["condition"]; got != betaCondition {
		t.Fatalf("condition read with a user token: %v", got)
	}
	// A visitor's site token reads the page, without its condition.
	tok := f.visitorToken(t, map[string]any{"isBeta": true})
	raw := "https://app.test" + f.base + "/beta-features"
	pub := c.Expect(http.StatusOK, "GET", "/v1/urls/published?url="+url.QueryEscape(raw)+"&visitorAuthToken="+url.QueryEscape(tok), nil).Map(t)
	visitor := f.As(t, "")
	visitor.Token = pub["apiToken"].(string)
	got := visitor.Expect(http.StatusOK, "GET", pagePath, nil).Map(t)
	if _, ok := got["condition"]; ok || got["title"] != "Beta features" {
		t.Errorf("page read with a site token: %v", got)
	}
	if strings.Contains(string(visitor.Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/pages", nil).Body), "condition") {
		t.Error("the pages read with a site token show a condition")
	}
	// Change requests: bad syntax is refused, "" removes the condition.
	crs := "/v1/spaces/" + f.space + "/change-requests"
	n := jsonNumber(c.Expect(http.StatusCreated, "POST", crs, map[string]any{"subject": "conditions"}).Map(t)["number"])
	body := c.Expect(http.StatusBadRequest, "POST", crs+"/"+n+"/content", map[string]any{"changes": []any{
		map[string]any{"operation": "update_page", "page": f.pages["beta"], "document": map[string]any{"markdown": "---\nif: visitor.claims.x ===\n---\n# Beta\n"}}}}).Body
	if !strings.Contains(string(body), "changes[0].document.markdown") {
		t.Errorf("a bad if: in frontmatter: error %s", body)
	}
	for _, bad := range []string{"visitor.claims.isBeta ===", "visitor.isBeta", "alert(1)"} {
		body := c.Expect(http.StatusBadRequest, "POST", crs+"/"+n+"/content", map[string]any{"changes": []any{
			map[string]any{"operation": "update_page", "page": f.pages["beta"], "condition": bad}}}).Body
		if !strings.Contains(string(body), "changes[0].condition") {
			t.Errorf("%q: error %s does not name changes[0].condition", bad, body)
		}
	}
	refs := c.Expect(http.StatusOK, "POST", crs+"/"+n+"/content?compat=false", map[string]any{"changes": []any{
		map[string]any{"operation": "update_page", "page": f.pages["beta"], "condition": ""},
		map[string]any{"operation": "update_page", "page": f.pages["after"], "condition": "visitor.claims.plan == 'pro'"},
		page("premium", "", "---\nif: visitor.claims.premium\n---\n# Premium\n")}}).Map(t)["refs"].(map[string]any)
	cr := crs + "/" + n + "/content/page/"
	if got := c.Expect(http.StatusOK, "GET", cr+f.pages["beta"], nil).Map(t); got["condition"] != nil {
		t.Errorf("condition not removed: %v", got["condition"])
	}
	if got := c.Expect(http.StatusOK, "GET", cr+f.pages["after"], nil).Map(t); got["condition"] != "visitor.claims.plan == 'pro'" {
		t.Errorf("condition set by update_page: %v", got["condition"])
	}
	// GitBook's frontmatter `if:` sets it too.
	if got := c.Expect(http.StatusOK, "GET", cr+refs["premium"].(string), nil).Map(t); got["condition"] != "visitor.claims.premium" {
		t.Errorf("condition set by frontmatter: %v", got["condition"])
	}
}

// TestPageConditionInReader: a page whose condition fails for the visitor
// is left out with its children: navigation, previous/next, its URL and
// its child's (404), .md, llms.txt, llms-full.txt, the site's search and
// the sitemap; a visitor with the claim sees all of it.
func TestPageConditionInReader(t *testing.T) {
	f := conditionalSite(t)
	tester := url.QueryEscape(f.visitorToken(t, map[string]any{"isBeta": true}))
	other := url.QueryEscape(f.visitorToken(t, map[string]any{"isBeta": false}))

	html, _ := f.body(t, http.StatusOK, f.base+"/?jwt_token="+tester)
	testkit.Contains(t, "tester's navigation", html, `href="`+f.base+`/beta-features"`, "Beta features</a>")
	html, _ = f.body(t, http.StatusOK, f.base+"/beta-features/inner?jwt_token="+tester)
	testkit.Contains(t, "tester's child page", html, "Deeper zanzibar notes.")
	f.body(t, http.StatusOK, f.base+"/beta-features.md?jwt_token="+tester)
	llms, _ := f.body(t, http.StatusOK, f.base+"/llms.txt?jwt_token="+tester)
	testkit.Contains(t, "tester's llms.txt", llms, "Beta features", "Inner")

	html, _ = f.body(t, http.StatusOK, f.base+"/?jwt_token="+other)
	testkit.Lacks(t, "other visitor's navigation", html, "beta-features", "Beta features")
	// Previous/next skip the hidden pages: Introduction leads to After.
	testkit.Contains(t, "other visitor's next", html, `href="`+f.base+`/after"`)
	html, _ = f.body(t, http.StatusOK, f.base+"/after?jwt_token="+other)
	testkit.Lacks(t, "other visitor's previous", html, "beta-features")
	f.body(t, http.StatusNotFound, f.base+"/beta-features?jwt_token="+other)
	f.body(t, http.StatusNotFound, f.base+"/beta-features/inner?jwt_token="+other)
	f.body(t, http.StatusNotFound, f.base+"/beta-features.md?jwt_token="+other)
	f.body(t, http.StatusNotFound, f.base+"/beta-features/inner.md?jwt_token="+other)
	llms, _ = f.body(t, http.StatusOK, f.base+"/llms.txt?jwt_token="+other)
	testkit.Lacks(t, "other visitor's llms.txt", llms, "Beta features", "Inner")
	testkit.Contains(t, "other visitor's llms.txt", llms, "After")
	full, _ := f.body(t, http.StatusOK, f.base+"/llms-full.txt?jwt_token="+other)
	testkit.Lacks(t, "other visitor's llms-full.txt", full, "zanzibar")
	testkit.Contains(t, "other visitor's llms-full.txt", full, "The last page.")

	// The site's search (the cookie carries the visitor token).
	cookie := func(tok string) *http.Cookie {
		v, _ := url.QueryUnescape(tok)
		return &http.Cookie{Name: "galley_visitor", Value: v}
	}
	found, _ := f.getWith(t, http.StatusOK, f.base+"/~search?q=zanzibar", cookie(tester))
	testkit.Contains(t, "tester's search", found, `href="`+f.base+`/beta-features"`, `href="`+f.base+`/beta-features/inner"`)
	found, _ = f.getWith(t, http.StatusOK, f.base+"/~search?q=zanzibar", cookie(other))
	testkit.Lacks(t, "other visitor's search", found, "beta-features")
	testkit.Contains(t, "other visitor's search", found, "No page matches")

	// On a public site, anonymous visitors have no claims: the page is
	// out of the sitemap and 404.
	f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"visibility": "public"})
	sm, _ := f.body(t, http.StatusOK, f.base+"/sitemap.xml")
	testkit.Contains(t, "sitemap", sm, f.base+"/after")
	testkit.Lacks(t, "sitemap", sm, "beta-features")
	f.body(t, http.StatusNotFound, f.base+"/beta-features")
	html, _ = f.body(t, http.StatusOK, f.base+"/after")
	testkit.Contains(t, "public page", html, "The last page.")
}
