package readerhttp_test

import (
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// Links to pages of other spaces resolve to their published URLs when a
// site space of the site shows the space to the visitor; else they are
// text (a content-ref: a card saying so), never a broken link.
func TestLinksAcrossSiteSpaces(t *testing.T) {
	f := newFixture(t)
	other, op := f.newSpace(t, "Other", page("start", "", "# Start\n\nThe other space.\n"), page("deep", "", "# Deep\n\n## Setup\n\nSet up.\n"))
	lone, lp := f.newSpace(t, "Lone", page("alone", "", "# Alone\n\nNot on the site.\n"))
	secret, sp := f.newSpace(t, "Beta", page("beta", "", "# Beta\n\nFor testers.\n"))
	md := "# Links\n\n" +
		"[by ref](/s/" + other + "/pages/" + op["deep"] + ") " +
		"[by anchor](/s/" + other + "/pages/" + op["deep"] + "#setup) " +
		"[GitBook's way](/pages/" + op["deep"] + ") " +
		"[the space](/s/" + other + "/) " +
		"[unshown](/s/" + lone + "/pages/" + lp["alone"] + ") " +
		"[unknown id](/pages/nosuchpage) " +
		"[hidden](/s/" + secret + "/pages/" + sp["beta"] + ")\n\n" +
		"{% content-ref url=\"/s/" + other + "/pages/" + op["deep"] + "\" %}\n[deep](/s/" + other + "/pages/" + op["deep"] + ")\n{% endcontent-ref %}\n\n" +
		"{% content-ref url=\"/s/" + lone + "/pages/" + lp["alone"] + "\" %}\n[alone](/s/" + lone + "/pages/" + lp["alone"] + ")\n{% endcontent-ref %}\n"
	f.space, f.pages = f.newSpace(t, "Guide", page("links", "", md))
	c := f.As(t, "admin")
	s := c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/sites", map[string]any{"title": "Acme Docs", "spaces": []string{f.space}}).Map(t)
	f.sitePth = "/v1/orgs/" + f.Org.ID + "/sites/" + s["id"].(string)
	c.Expect(http.StatusOK, "PATCH", f.sitePth, map[string]any{"basename": "docs"})
	ss := c.Expect(http.StatusCreated, "POST", f.sitePth+"/site-spaces", map[string]any{"spaceId": other}).Map(t)
	hidden := c.Expect(http.StatusCreated, "POST", f.sitePth+"/site-spaces", map[string]any{"spaceId": secret}).Map(t)
	c.Expect(http.StatusOK, "PATCH", f.sitePth+"/site-spaces/"+hidden["id"].(string), map[string]any{"condition": "visitor.claims.isBeta === true"})
	c.Expect(http.StatusOK, "POST", f.sitePth+"/publish", nil)
	f.base = "/sites/" + f.Org.ID + "/docs"
	otherBase := f.base + "/" + ss["path"].(string) + "/"

	got, _ := f.body(t, http.StatusOK, f.base+"/")
	art := between(got, "<article>", "</article>")
	testkit.Contains(t, "links", art,
		`<a href="`+otherBase+`deep">by ref</a>`,
		`<a href="`+otherBase+`deep#setup">by anchor</a>`,
		`<a href="`+otherBase+`deep">GitBook&#39;s way</a>`,
		`<a href="`+otherBase+`">the space</a>`,
		` unshown `, ` unknown id `, ` hidden`,
		`<a class="card content-ref" href="`+otherBase+`deep"><span class="card-title">Deep</span></a>`,
		`<div class="card content-ref unavailable"><span class="card-title">Page not available on this site</span></div>`)
	testkit.Lacks(t, "links", art, "/pages/", "/s/"+lone, "/s/"+secret, `href=""`)
	// The link leads to the page.
	deep, _ := f.body(t, http.StatusOK, otherBase+"deep")
	testkit.Contains(t, "deep", deep, "<h1>Deep</h1>")
}
