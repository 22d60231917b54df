package readerhttp_test

import (
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// The site's search page and the content's labels speak the site space's
// language as the pages do: an Arabic space right to left, a Japanese
// locale (CJK) left to right; English words are gone from both.
func TestSearchPageAndLabelsInTheSitesLanguage(t *testing.T) {
	f := standardSite(t, nil)
	en, _ := f.body(t, http.StatusOK, f.base+"/~search?q=zzzzqx")
	testkit.Contains(t, "English search page", en, `<html lang="en">`, "<h1>Search</h1>", `aria-label="Search Acme Docs"`, "No page matches “zzzzqx”.")

	f.As(t, "admin").Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, map[string]any{"language": "ar"})
	ar, _ := f.body(t, http.StatusOK, f.base+"/~search?q=zzzzqx")
	testkit.Contains(t, "Arabic search page", ar, `<html lang="ar" dir="rtl">`, "<h1>بحث</h1>", `aria-label="ابحث في Acme Docs"`,
		`<button type="submit">بحث</button>`, "لا توجد صفحة تطابق «zzzzqx».")
	testkit.Lacks(t, "Arabic search page", ar, ">Search<", "No page matches")
	found, _ := f.body(t, http.StatusOK, f.base+"/~search?q=child")
	testkit.Contains(t, "Arabic results", found, `<html lang="ar" dir="rtl">`, ">Child page</a>")
	blocks, _ := f.body(t, http.StatusOK, f.base+"/blocks")
	testkit.Contains(t, "Arabic labels", blocks, `<span class="hint-label">تحذير</span>`, `aria-label="رابط إلى هذا القسم"`, `<button type="button" class="copy" hidden>نسخ</button>`)
	testkit.Lacks(t, "Arabic labels", blocks, ">Warning<", "Link to this section")

	f.As(t, "admin").Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.space, `{"language":null}`)
	f.customize(t, map[string]map[string]any{"internationalization": {"locale": "ja"}})
	ja, _ := f.body(t, http.StatusOK, f.base+"/~search?q=zzzzqx")
	testkit.Contains(t, "Japanese search page", ja, `<html lang="ja">`, "<title>zzzzqx – 検索 – Acme Docs</title>", "<h1>検索</h1>", "「zzzzqx」に一致するページはありません。")
	testkit.Lacks(t, "Japanese search page", ja, `dir="rtl"`, ">Search<")
	blocks, _ = f.body(t, http.StatusOK, f.base+"/blocks")
	testkit.Contains(t, "Japanese labels", blocks, `<span class="hint-label">警告</span>`, `aria-label="このセクションへのリンク"`)
	// The results as you type are the same in every language (their
	// words are the page's script's).
	js, res := f.body(t, http.StatusOK, f.base+"/~search?q=child&format=json")
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("results as you type: %s", ct)
	}
	testkit.Contains(t, "results as you type", js, `"title":"Child page"`)
}
