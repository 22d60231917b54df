package readerhttp_test

import (
	"context"
	"net/http"
	"regexp"
	"testing"

	"github.com/galleydocs/galley/shared/app/wire/gitsyncwire"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// sodadataSite imports the sodadata fixture (a real GitBook space: 457
// pages, 102 of them including reusable contents) by Git Sync from a Git
// server on loopback, and publishes it as the site "docs".
func sodadataSite(t *testing.T) *fixture {
	repo := testenv.ServeBundle(t, "sodadata-docs")
	k := testkit.New(t)
	q := &queuetest.Memory{}
	k.Deps.Queue = q
	k.Deps.FetchAllowPrivate = true
	a := testkit.NewAPI(t, k, []string{"spaces", "sites", "content", "changerequests", "reader", "search", "git"})
	f := &fixture{API: a, h: a.API.Handler()}
	c := f.As(t, "admin")
	f.space = c.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/spaces", map[string]any{"title": "Soda"}).Map(t)["id"].(string)
	c.Expect(http.StatusNoContent, "POST", "/v1/spaces/"+f.space+"/git/import", map[string]any{"url": repo, "ref": "refs/heads/main"})
	svc := gitsyncwire.Service(f.Root)
	if err := q.Drain(context.Background(), map[string]queue.Handler{gitsync.ImportKind: svc.Handle}); err != nil {
		t.Fatal(err)
	}
	f.publish(t, "Soda", map[string]any{"basename": "docs", "agentsContext": "included"})
	return f
}

var reWords = regexp.MustCompile(`[A-Za-z][A-Za-z ]{20,}[A-Za-z]`)

var reIncludeLine = regexp.MustCompile(`\{%\s*include\s+"([^"]+)"\s*%\}`)

// TestSodadataIncludesShown: every page of the sodadata fixture that
// includes a reusable content shows its text in HTML and in .md, and no
// page shows an include's source.
func TestSodadataIncludesShown(t *testing.T) {
	f := sodadataSite(t)
	k := f.Kit
	repo := content.NewRepo(k.Deps)
	_, ix, err := repo.Load(k.Ctx, f.space, k.Head(t, f.space))
	if err != nil {
		t.Fatal(err)
	}
	// Words of each reusable content's text (its first run of words), as
	// .md and HTML show them.
	marker := map[string]string{}
	for _, rc := range ix.ReusableContents() {
		body, err := repo.Document(k.Ctx, f.space, rc.Document)
		if err != nil {
			t.Fatal(err)
		}
		if w := reWords.FindString(body); w != "" {
			marker[rc.ID] = w
		}
	}
	paths := ix.Paths()
	checked := 0
	ix.Walk(func(p *content.Page, _ int) bool {
		if p.Type != content.TypeDocument || p.Hidden {
			return true
		}
		body, err := repo.Document(k.Ctx, f.space, p.Document)
		if err != nil {
			t.Fatal(err)
		}
		ms := reIncludeLine.FindAllStringSubmatch(body, -1)
		if len(ms) == 0 {
			return true
		}
		checked++
		md, _ := f.body(t, http.StatusOK, f.base+"/"+content.EscapeSegments(paths[p.ID])+".md")
		html, _ := f.body(t, http.StatusOK, f.base+"/"+content.EscapeSegments(paths[p.ID]))
		testkit.Lacks(t, paths[p.ID]+".md", md, "{% include")
		testkit.Lacks(t, paths[p.ID]+" HTML", html, "{% include", "{%")
		for _, m := range ms {
			id := ix.ReusableContentAt(p.ID, m[1])
			if id == "" {
				t.Errorf("%s: include %q names nothing", paths[p.ID], m[1])
				continue
			}
			if w := marker[id]; w != "" {
				testkit.Contains(t, paths[p.ID]+".md", md, w)
				testkit.Contains(t, paths[p.ID]+" HTML", html, w)
			}
		}
		return true
	})
	if checked < 90 {
		t.Errorf("%d pages with includes checked, want the fixture's (about 100)", checked)
	}
	if len(marker) < 6 {
		t.Errorf("%d reusable contents with a line of words to look for: %v", len(marker), marker)
	}
}
