package readerhttp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/testkit"
)

// insightsSite is the standard site with page feedback on, whose
// tracked events wait in the returned queue until drained.
func insightsSite(t testing.TB) (*fixture, *queuetest.Memory) {
	t.Helper()
	k := testkit.New(t)
	q := &queuetest.Memory{}
	k.Deps.Queue = q
	f := newFixtureOn(t, k)
	f.space, f.pages = f.newSpace(t, "Guide",
		page("intro", "", "# Introduction\n\nWelcome. Read [the setup](./setup.md) or [the web](https://example.com/x?y=1).\n"),
		page("setup", "", "# Setup\n\nInstall it.\n"))
	f.publish(t, "Acme Docs", map[string]any{"basename": "docs"})
	f.customize(t, map[string]map[string]any{"feedback": {"enabled": true}})
	return f, q
}

// drain runs the queued insights jobs as the worker would.
func (f *fixture) drain(t testing.TB, q *queuetest.Memory) {
	t.Helper()
	if err := q.Drain(f.Kit.Ctx, families.JobHandlers(f.Root)); err != nil {
		t.Fatal(err)
	}
}

// eventCounts aggregates the site's events of the last week by type.
func (f *fixture) eventCounts(t testing.TB, where ...any) map[string]float64 {
	t.Helper()
	body := map[string]any{"range": "last7Days", "groupBy": []any{map[string]any{"column": "eventType"}}}
	if len(where) > 0 {
		body["where"] = where
	}
	res := f.As(t, "admin").Expect(http.StatusOK, "POST", f.sitePth+"/insights/events/aggregate", body).Map(t)
	cols := map[string][]any{}
	for _, c := range res["columns"].([]any) {
		c := c.(map[string]any)
		cols[c["column"].(string)] = c["values"].([]any)
	}
	out := map[string]float64{}
	for i, typ := range cols["eventType"] {
		out[typ.(string)] = cols["eventsCount"][i].(float64)
	}
	return out
}

func TestPagesCarryInsightsScriptAndFeedbackForm(t *testing.T) {
	f, _ := insightsSite(t)
	html, _ := f.body(t, http.StatusOK, f.base+"/setup")
	endpoint := f.base + "/~gitbook/__evt"
	testkit.Contains(t, "page", html,
		`<form class="feedback" method="post" action="`+endpoint+`">`,
		`<input type="radio" id="feedback-good" name="rating" value="good" required>`, `value="ok"`, `value="bad"`,
		`<legend>Was this page helpful?</legend>`, `<textarea id="feedback-comment" name="comment" rows="2" maxlength="512"></textarea>`,
		`<input type="hidden" name="page" value="`+f.pages["setup"]+`">`, `<input type="hidden" name="space" value="`+f.space+`">`,
		`<input type="hidden" name="url" value="`+f.base+`/setup">`,
		`<p id="feedback-thanks" class="feedback-thanks" role="status" tabindex="-1">Thank you for your feedback.</p>`,
		`<script data-endpoint="`+endpoint+`"`, `data-page="`+f.pages["setup"]+`"`, `data-space="`+f.space+`"`)
	// Without the setting, the script counts and no form shows.
	plain := standardSite(t, nil)
	html, _ = plain.body(t, http.StatusOK, plain.base+"/blocks")
	testkit.Contains(t, "page without feedback", html, `<script data-endpoint="`+plain.base+`/~gitbook/__evt"`)
	testkit.Lacks(t, "page without feedback", html, `class="feedback"`, `id="feedback-thanks"`)
	// Error pages carry neither.
	nf, _ := plain.body(t, http.StatusNotFound, plain.base+"/nope")
	testkit.Lacks(t, "404", nf, "data-endpoint", `class="feedback"`)
}

func TestPostedEventsAndFeedbackAreCounted(t *testing.T) {
	f, q := insightsSite(t)
	evt := f.base + "/~gitbook/__evt"
	loc := map[string]any{"url": "https://app.test" + f.base + "/setup?shareKey=x", "page": f.pages["setup"], "space": f.space,
		"siteSpace": nil, "siteSection": nil, "revision": nil, "siteShareKey": nil}
	events := []any{
		map[string]any{"type": "page_view", "session": map[string]any{"sessionId": "tab1"}, "location": loc},
		map[string]any{"type": "search_type_query", "query": "Install", "resultsCount": 2, "session": map[string]any{"sessionId": "tab1"}, "location": loc},
		map[string]any{"type": "search_open_result", "query": "install", "result": map[string]any{"spaceId": f.space, "pageId": f.pages["setup"]},
			"session": map[string]any{"sessionId": "tab1"}, "location": loc},
		map[string]any{"type": "link_click", "link": map[string]any{"target": map[string]any{"kind": "url", "url": "https://example.com/x"}, "position": "content"},
			"session": map[string]any{"sessionId": "tab1"}, "location": loc},
	}
	post := func(want int, body string, headers ...string) *http.Response {
		t.Helper()
		res := f.send("POST", evt, strings.NewReader(body), headers...)
		if res.StatusCode != want {
			b, _ := io.ReadAll(res.Body)
			t.Fatalf("POST %s: %d, want %d: %s", evt, res.StatusCode, want, b)
		}
		return res
	}
	raw, _ := json.Marshal(map[string]any{"events": events})
	res := post(http.StatusNoContent, string(raw), "Content-Type", "application/json", "Origin", "https://app.test", "User-Agent", "A")
	if c := res.Header["Set-Cookie"]; len(c) > 0 {
		t.Errorf("posting events set a cookie: %v", c)
	}
	// The feedback form, as a browser without JavaScript posts it: back
	// to the page's thank-you note.
	form := url.Values{"rating": {"good"}, "comment": {"  Clear steps.  "}, "page": {f.pages["setup"]}, "space": {f.space},
		"siteSpace": {""}, "siteSection": {""}, "revision": {""}, "url": {f.base + "/setup"}}
	res = post(http.StatusSeeOther, form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "User-Agent", "B")
	if l := res.Header.Get("Location"); l != f.base+"/setup#feedback-thanks" {
		t.Errorf("the form's post leads to %q, want the page's thank-you note", l)
	}
	// A second vote of the same visitor on the page that day is not counted.
	form.Set("rating", "bad")
	form.Del("comment")
	post(http.StatusSeeOther, form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "User-Agent", "B")
	// A return URL off the site leads to the site's root, not there.
	form.Set("url", "//evil.example/x")
	if l := post(http.StatusSeeOther, form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "User-Agent", "C").Header.Get("Location"); l != f.base+"/" {
		t.Errorf("a return URL off the site leads to %q, want the site's root", l)
	}
	// Refused, counting nothing: another site's post, a form without a
	// rating, an unknown event type, a body that is neither JSON nor a
	// form; an unknown site.
	post(http.StatusForbidden, string(raw), "Content-Type", "application/json", "Origin", "https://evil.example")
	res = post(http.StatusBadRequest, url.Values{"page": {"p"}}.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	if b, _ := io.ReadAll(res.Body); !strings.Contains(string(b), "rating") {
		t.Errorf("a form without a rating: %s, want the field named", b)
	}
	res = post(http.StatusBadRequest, `{"events":[{"type":"nope","session":{},"location":{"url":"/"}}]}`, "Content-Type", "application/json")
	if b, _ := io.ReadAll(res.Body); !strings.Contains(string(b), "events[0].type") {
		t.Errorf("an unknown type: %s, want events[0].type named", b)
	}
	post(http.StatusBadRequest, "events", "Content-Type", "application/octet-stream")
	if r := f.send("POST", "/sites/"+f.Org.ID+"/nope/~gitbook/__evt", strings.NewReader(string(raw)), "Content-Type", "application/json"); r.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown site's events: %d, want 404", r.StatusCode)
	}
	// Do-Not-Track and Global Privacy Control: answered, nothing queued.
	before := len(q.Take())
	post(http.StatusNoContent, string(raw), "Content-Type", "application/json", "DNT", "1")
	post(http.StatusSeeOther, form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "Sec-GPC", "1")
	if n := len(q.Take()); n != 0 {
		t.Errorf("DNT and Sec-GPC posts queued %d jobs", n)
	}
	if before != 4 {
		t.Fatalf("%d jobs queued by the accepted posts, want 4", before)
	}
	// Taken jobs are gone: post again and count.
	post(http.StatusNoContent, string(raw), "Content-Type", "application/json", "User-Agent", "A")
	form.Set("url", f.base+"/setup")
	form.Set("rating", "good")
	form.Set("comment", "Clear steps.")
	post(http.StatusSeeOther, form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "User-Agent", "B")
	form.Set("rating", "bad")
	post(http.StatusSeeOther, form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "User-Agent", "B")
	f.drain(t, q)
	got := f.eventCounts(t)
	want := map[string]float64{"page_view": 1, "search_type_query": 1, "search_open_result": 1, "link_click": 1,
		"page_post_feedback": 1, "page_post_feedback_comment": 1}
	if len(got) != len(want) {
		t.Errorf("events by type %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v events, want %v (all: %v)", k, got[k], v, got)
		}
	}
	// The vote counted is the first, with its comment as written (trimmed).
	res2 := f.As(t, "admin").Expect(http.StatusOK, "POST", f.sitePth+"/insights/events/aggregate", map[string]any{"range": "last7Days",
		"groupBy": []any{map[string]any{"column": "eventPageFeedbackRating"}, map[string]any{"column": "eventPageFeedbackComment"}},
		"where":   []any{map[string]any{"column": "eventType", "values": []any{"page_post_feedback_comment"}}}}).Map(t)
	if s, _ := json.Marshal(res2["columns"]); !strings.Contains(string(s), `"good"`) || !strings.Contains(string(s), `"Clear steps."`) {
		t.Errorf("the comment counted: %s, want good with \"Clear steps.\"", s)
	}
}

// Through a proxy origin, the pages post to the origin's own events path,
// which the proxy forwards to /~proxy/...: counted, and refused from the
// public URL's origin.
func TestProxiedPagesPostTheirEvents(t *testing.T) {
	f := standardSite(t, map[string]any{"proxy": "example.com/docs"})
	res := f.get(t, "/~proxy/docs/blocks", "X-Forwarded-Host", "example.com")
	b, _ := io.ReadAll(res.Body)
	testkit.Contains(t, "proxied page", string(b), `<script data-endpoint="/docs/~gitbook/__evt"`)
	body := `{"events":[{"type":"page_view","session":{},"location":{"url":"https://example.com/docs/blocks"}}]}`
	post := func(path, origin string) int {
		return f.send("POST", path, strings.NewReader(body), "Content-Type", "application/json", "X-Forwarded-Host", "example.com", "Origin", origin).StatusCode
	}
	if c := post("/~proxy/docs/~gitbook/__evt", "https://example.com"); c != http.StatusNoContent {
		t.Errorf("a proxied page's events: %d, want 204", c)
	}
	if c := post("/~proxy/docs/~gitbook/__evt", "https://app.test"); c != http.StatusForbidden {
		t.Errorf("events posted from the public URL's origin to the proxy origin: %d, want 403", c)
	}
	if c := post("/~proxy/docs/blocks", "https://example.com"); c != http.StatusBadRequest {
		t.Errorf("a post to a proxied page: %d, want 400", c)
	}
	if got := f.eventCounts(t); got["page_view"] != 1 || len(got) != 1 {
		t.Errorf("events by type %v, want one page view", got)
	}
}

// The search page (a search without JavaScript, the search function)
// records its search as the header's box does: search_type_query with
// the number of pages found (0: among the queries without results), as
// the visitor's salted hash (neither the address nor the user agent in
// the job), no cookie set; not its results as you type (the page's script
// counts those), nor a request asking not to be tracked.
func TestSearchPageSearchesAreCounted(t *testing.T) {
	f, q := insightsSite(t)
	get := func(path string, headers ...string) *http.Response {
		t.Helper()
		res := f.send("GET", path, nil, headers...)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", path, res.StatusCode)
		}
		if c := res.Header["Set-Cookie"]; len(c) > 0 {
			t.Errorf("GET %s set a cookie: %v", path, c)
		}
		return res
	}
	get(f.base+"/~search?q=Install", "User-Agent", "Agent-A")
	get(f.base+"/~search?q=kumquat", "User-Agent", "Agent-A")
	get(f.base + "/~search") // no query: no search
	get(f.base+"/~search?q=Install&format=json", "User-Agent", "Agent-A")
	get(f.base+"/~search?q=Install", "DNT", "1")
	get(f.base+"/~search?q=Install", "Sec-GPC", "1")
	jobs := q.Take()
	if len(jobs) != 2 {
		t.Fatalf("%d jobs queued, want 2 (the two page searches)", len(jobs))
	}
	for _, j := range jobs {
		testkit.Lacks(t, "job", string(j.Payload), "192.0.2.1", "Agent-A")
		testkit.Contains(t, "job", string(j.Payload), `"type":"search_type_query"`, `"urlPath":"`+f.base+`/~search"`)
	}
	for _, j := range jobs {
		if err := q.Enqueue(f.Kit.Ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	f.drain(t, q)
	if got := f.eventCounts(t); len(got) != 1 || got["search_type_query"] != 2 {
		t.Errorf("events by type %v, want search_type_query 2", got)
	}
	res := f.As(t, "admin").Expect(http.StatusOK, "POST", f.sitePth+"/insights/events/aggregate", map[string]any{"range": "last7Days",
		"groupBy": []any{map[string]any{"column": "eventSearchQuery"}},
		"where":   []any{map[string]any{"column": "eventSearchResultsCount", "values": []any{0}}}}).Map(t)
	if s, _ := json.Marshal(res["columns"]); !strings.Contains(string(s), `["kumquat"]`) {
		t.Errorf("the queries without results: %s, want kumquat only", s)
	}
}

// The feedback form speaks the page's language, from the interface's
// strings (Arabic and Hebrew included; a region's variant, zh-tw, reads
// as its language; others English).
func TestFeedbackFormSpeaksThePagesLanguage(t *testing.T) {
	f, _ := insightsSite(t)
	for _, c := range []struct{ lang, want string }{
		{"ar", "هل كانت هذه الصفحة مفيدة؟"}, {"he", "האם הדף הזה עזר לך?"}, {"fr", "Cette page vous a-t-elle aidé ?"}, {"zh-tw", "这个页面有帮助吗？"}, {"nl", "Was this page helpful?"},
	} {
		f.As(t, "admin").Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, map[string]any{"language": c.lang})
		html, _ := f.body(t, http.StatusOK, f.base+"/setup")
		testkit.Contains(t, c.lang, html, "<legend>"+c.want+"</legend>")
	}
}
