package readerhttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Share-link and visitor-auth sites in a browser: the key or the visitor
// token given once in a URL opens the site, the cookie it leaves keeps it
// open while the visitor follows links and opens pages by their plain
// URLs, and the site closes when the link is deactivated (share link) and
// for a visitor without a token (visitor-auth).
func TestBrowserAudienceFlows(t *testing.T) {
	b := startBrowser(t)
	// Served as localhost: a loopback origin, where Chromium keeps the
	// cookies' Secure flag (the public URL is https).
	serve := func(t *testing.T, h http.Handler) string {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	}
	open := func(t *testing.T, ctx context.Context, url string) string {
		t.Helper()
		run(t, ctx, "open "+url, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("body")))
		return strings.TrimSpace(eval[string](t, ctx, `(document.querySelector("h1") || document.body).textContent`))
	}

	t.Run("share link", func(t *testing.T) {
		f := standardSite(t, map[string]any{"visibility": "share-link"})
		base := serve(t, f.h)
		l := f.As(t, "admin").Expect(http.StatusCreated, "POST", f.sitePth+"/share-links", map[string]any{"name": "Partners"}).Map(t)
		pub := strings.TrimPrefix(l["urls"].(map[string]any)["published"].(string), "https://app.test")
		ctx := b.tab(t)
		if h := open(t, ctx, base+f.base+"/blocks"); h == "Blocks" {
			t.Fatal("the site opened without its key")
		}
		if h := open(t, ctx, base+pub); h != "Introduction" {
			t.Fatalf("the link's URL: heading %q", h)
		}
		follow(t, ctx, `nav.sidebar a[href*="/blocks"]`, "/blocks", "Blocks")
		if h := open(t, ctx, base+f.base+"/blocks/child-page"); h != "Child page" {
			t.Fatalf("a page by its URL without the key: heading %q", h)
		}
		f.As(t, "admin").Expect(http.StatusOK, "PATCH", f.sitePth+"/share-links/"+l["id"].(string), map[string]any{"active": false})
		if h := open(t, ctx, base+f.base+"/blocks/child-page"); h == "Child page" {
			t.Fatal("the page still opens after the link was deactivated")
		}
	})

	t.Run("visitor auth", func(t *testing.T) {
		f := standardSite(t, map[string]any{"visibility": "visitor-auth"})
		base := serve(t, f.h)
		tok := f.visitorToken(t, map[string]any{"sub": "visitor-1"})
		ctx := b.tab(t)
		if h := open(t, ctx, base+f.base+"/blocks"); h == "Blocks" {
			t.Fatal("the site opened without a visitor token")
		}
		if h := open(t, ctx, base+f.base+"/?jwt_token="+tok); h != "Introduction" {
			t.Fatalf("the site with a visitor token: heading %q", h)
		}
		follow(t, ctx, `nav.sidebar a[href*="/blocks"]`, "/blocks", "Blocks")
		if h := open(t, ctx, base+f.base+"/blocks/child-page"); h != "Child page" {
			t.Fatalf("a page by its URL without the token: heading %q", h)
		}
		// Another visitor (a new browser context, no cookie) is refused.
		other, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
		defer cancel()
		if h := open(t, other, base+f.base+"/blocks/child-page"); h == "Child page" {
			t.Fatal("a visitor without a token read a page")
		}
	})
}
