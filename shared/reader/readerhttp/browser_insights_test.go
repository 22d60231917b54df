package readerhttp_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// requestLog is every URL a tab's pages asked for (network events).
type requestLog struct {
	mu   sync.Mutex
	urls []string
}

func (l *requestLog) listen(ev any) {
	if e, ok := ev.(*network.EventRequestWillBeSent); ok && e.Request != nil {
		l.mu.Lock()
		l.urls = append(l.urls, e.Request.URL)
		l.mu.Unlock()
	}
}

// offOrigin are the URLs asked for that are not of origin.
func (l *requestLog) offOrigin(origin string) (off []string, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, u := range l.urls {
		p, err := url.Parse(u)
		if err != nil || p.Scheme+"://"+p.Host != origin {
			off = append(off, u)
		}
	}
	return off, len(l.urls)
}

// cookies are the names of every cookie the browser holds for u (HttpOnly
// ones included), read through DevTools.
func cookies(t *testing.T, ctx context.Context, u string) []string {
	t.Helper()
	names, err := chromedp.Run(ctx, chromedp.Action[[]string](func(ctx context.Context, tg *chromedp.Target) ([]string, error) {
		r, err := cdp.Call(ctx, tg, network.GetCookies, network.GetCookiesParams{URLs: []string{u}})
		if err != nil {
			return nil, err
		}
		var out []string
		for _, c := range r.Cookies {
			out = append(out, c.Name)
		}
		return out, nil
	}))
	if err != nil {
		t.Fatalf("read cookies: %v", err)
	}
	return names
}

// TestBrowserInsights reads a published site with page feedback on in
// Chromium, with and without JavaScript: page views, a search and the
// result opened, a link click and two votes (one with a comment, by
// keyboard; one by the plain form) reach the aggregate operation with
// the expected counts; every request stays on the site's origin and no
// cookie is set (docs/insights.md, "The reader").
func TestBrowserInsights(t *testing.T) {
	b := startBrowser(t)
	f := newFixture(t)
	f.space, f.pages = f.newSpace(t, "Guide",
		page("intro", "", "# Introduction\n\nWelcome. Read [the setup](./setup.md), or [elsewhere](https://example.com/away).\n"),
		page("setup", "", "# Setup\n\nInstall the frobnicator with make.\n"))
	f.publish(t, "Acme Docs", map[string]any{"basename": "docs"})
	f.customize(t, map[string]map[string]any{"feedback": {"enabled": true}})
	b.srv = httptest.NewServer(f.h)
	t.Cleanup(b.srv.Close)
	reqs := &requestLog{}
	ctx, _ := b.tabCSP(t, chromedp.WithListener(reqs.listen))

	b.open(t, ctx, f.base+"/")
	if c := eval[string](t, ctx, `document.cookie`); c != "" {
		t.Errorf("the first page leaves document.cookie %q", c)
	}
	// A link click to another page, then a search whose result is opened.
	follow(t, ctx, `article a[href$="/setup"]`, "/setup", "Setup")
	box := `form.search input[name=q]`
	run(t, ctx, "type in the search box", chromedp.Click(chromedp.CSS(box)), chromedp.SendKeys(chromedp.CSS(box), "frobnicator"))
	waitFor(t, ctx, `!!document.querySelector("#search-results [role=option][data-page]")`, "a result naming its page")
	run(t, ctx, "open the first result", chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, `location.pathname.endsWith("/setup") && document.readyState === "complete" && !document.querySelector("#search-results [role=option]")`, "the result's page")
	// The vote, by keyboard: a rating chosen with the arrow keys, a
	// comment, Enter on Send.
	b.checkA11y(t, ctx, "page with the feedback form")
	screenshot(t, ctx, "feedback.png")
	run(t, ctx, "rate by keyboard", chromedp.Focus(chromedp.CSS(`#feedback-ok`)), chromedp.KeyEvent(kb.ArrowUp))
	if v := eval[string](t, ctx, `(document.querySelector("input[name=rating]:checked") || {}).value || ""`); v != "good" {
		t.Fatalf("after ArrowUp from OK the rating checked is %q, want good", v)
	}
	run(t, ctx, "comment and send", chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent("Works as written."), chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, `document.activeElement && document.activeElement.id === "feedback-thanks"`, "the thank-you note focused")
	if !visible(t, ctx, `#feedback-thanks`) || visible(t, ctx, `form.feedback`) {
		t.Error("after sending, the thank-you note is not shown in place of the form")
	}
	if !strings.HasSuffix(eval[string](t, ctx, `location.pathname + location.hash`), "/setup") {
		t.Error("with JavaScript the vote left the page")
	}

	// Without JavaScript: the plain form, and its redirect back to the
	// page's thank-you note (another page: one vote a visitor, page and day).
	noJS := b.tab(t)
	run(t, noJS, "disable scripts", command(emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}))
	b.open(t, noJS, f.base+"/")
	if visible(t, noJS, `#feedback-thanks`) {
		t.Error("the thank-you note shows before a vote")
	}
	run(t, noJS, "rate without JavaScript", chromedp.Click(chromedp.CSS(`label[for=feedback-bad]`)), chromedp.Click(chromedp.CSS(`form.feedback button[type=submit]`)))
	waitFor(t, noJS, `location.hash === "#feedback-thanks" && document.readyState === "complete"`, "the page's thank-you note")
	if !visible(t, noJS, `#feedback-thanks`) || visible(t, noJS, `form.feedback`) {
		t.Error("without JavaScript, the redirect back does not show the thank-you note in place of the form")
	}

	// The counts, as the aggregate operation answers them (the process has
	// no queue: events are counted within their post; the pages' last
	// batch goes 1.5 s after its last event).
	want := map[string]float64{"page_view": 3, "link_click": 1, "search_type_query": 1, "search_open_result": 1,
		"page_post_feedback": 2, "page_post_feedback_comment": 1}
	var got map[string]float64
	deadline := time.Now().Add(15 * time.Second)
	for {
		got = f.eventCounts(t)
		if fmt.Sprint(got) == fmt.Sprint(want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events by type %v, want %v", got, want)
	}
	res := f.As(t, "admin").Expect(200, "POST", f.sitePth+"/insights/events/aggregate", map[string]any{"range": "last7Days",
		"groupBy": []any{map[string]any{"column": "eventSearchQuery"}, map[string]any{"column": "eventSearchResultRecordId"}},
		"where":   []any{map[string]any{"column": "eventType", "values": []any{"search_open_result"}}}}).Map(t)
	if s := fmt.Sprint(res["columns"]); !strings.Contains(s, "frobnicator") || !strings.Contains(s, f.pages["setup"]) {
		t.Errorf("the result opened: %s, want the query frobnicator and the page Setup", s)
	}
	comments := f.As(t, "admin").Expect(200, "POST", f.sitePth+"/insights/events/aggregate", map[string]any{"range": "last7Days",
		"groupBy": []any{map[string]any{"column": "eventPageFeedbackComment"}},
		"where":   []any{map[string]any{"column": "eventType", "values": []any{"page_post_feedback_comment"}}}}).Map(t)
	if s := fmt.Sprint(comments["columns"]); !strings.Contains(s, "Works as written.") {
		t.Errorf("the comment: %s, want Works as written.", s)
	}

	// Nothing left the origin; no cookie, in either tab.
	off, n := reqs.offOrigin(b.srv.URL)
	if len(off) > 0 {
		sort.Strings(off)
		t.Errorf("%d of %d requests left the site's origin: %v", len(off), n, off)
	}
	if n < 6 {
		t.Errorf("only %d requests seen: the network listener missed the events' posts", n)
	}
	if c := eval[string](t, ctx, `document.cookie`); c != "" {
		t.Errorf("document.cookie %q after reading, searching and voting", c)
	}
	for _, tab := range []context.Context{ctx, noJS} {
		if c := cookies(t, tab, b.srv.URL+f.base+"/"); len(c) > 0 {
			t.Errorf("the browser holds cookies %v for the site", c)
		}
	}
}
