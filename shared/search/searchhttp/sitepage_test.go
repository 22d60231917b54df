package searchhttp

import (
	"bytes"
	"html/template"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/reader/words"
	"github.com/galleydocs/galley/shared/search"
)

// withLang is d in language lang.
func (d sitePageData) withLang(lang string) sitePageData {
	d.Lang = lang
	return d
}

// sitePageTemplate is the search page as an html/template (as it was
// written until the page was written out: sitePage), with the words of
// its language (W, Lang, RTL: templateData). The page answers as it does,
// byte for byte.
const sitePageTemplate = `<!doctype html>
<html lang="{{.Lang}}"{{if .RTL}} dir="rtl"{{end}}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{if .Query}}{{.Query}} – {{end}}{{.W.Search}} – {{.SiteTitle}}</title>
{{- if .NoIndex}}
<meta name="robots" content="noindex">{{end}}
<style>body{margin:0 auto;max-width:760px;padding:24px 16px;font:16px/1.6 system-ui,sans-serif;color:#1d1d1f;background:#fff}
a{color:#1a56c4}h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}form{display:flex;gap:8px}
input[type=search]{flex:1;font:inherit;padding:6px 10px;border:1px solid #8a8f98;border-radius:6px}
button{font:inherit;padding:6px 14px;border:1px solid #1a56c4;background:#1a56c4;color:#fff;border-radius:6px}
ol{padding-inline-start:1.2rem}li{margin:12px 0}.crumbs,.excerpt{color:#5f6368;font-size:.9rem}.sections{list-style:none;padding-inline-start:0}
@media (prefers-color-scheme:dark){body{background:#111318;color:#e8eaed}a{color:#8ab4f8}.crumbs,.excerpt{color:#b3b8bf}input[type=search]{background:#1d2026;color:#e8eaed}}</style>
</head>
<body>
<header><a href="{{.Home}}">{{.SiteTitle}}</a></header>
<main>
<h1>{{.W.Search}}</h1>
<form role="search" method="get"><input type="search" name="q" value="{{.Query}}" aria-label="{{printf .W.SearchPage.BoxLabel .SiteTitle}}" required>{{with .ShareKey}}<input type="hidden" name="shareKey" value="{{.}}">{{end}}<button type="submit">{{.W.Search}}</button></form>
{{- if .Query}}
{{- if .Groups}}
{{- range .Groups}}
<h2>{{.Title}}</h2>
<ol>
{{- range .Pages}}
<li><a href="{{.URL}}">{{.Title}}</a>{{with .Ancestors}}<div class="crumbs">{{range $i, $a := .}}{{if $i}} › {{end}}{{$a}}{{end}}</div>{{end}}
{{- with .Description}}<div class="excerpt">{{.}}</div>{{end}}
{{- with .Sections}}<ul class="sections">{{range .}}<li>{{if .Heading}}<a href="{{.URL}}">{{.Heading}}</a>{{end}}{{with .Excerpt}}<div class="excerpt">{{.}}</div>{{end}}</li>{{end}}</ul>{{end}}</li>
{{- end}}
</ol>
{{- end}}
{{- else}}
<p>{{printf .W.SearchPage.NoMatch .Query}}</p>
{{- end}}
{{- end}}
</main>
</body>
</html>
`

// templateData is what the template shows: the page's data and the words
// of its language.
type templateData struct {
	sitePageData
	Lang string
	RTL  bool
	W    words.Words
}

func TestSitePageAnswersAsItsTemplate(t *testing.T) {
	tmpl := template.Must(template.New("search").Parse(sitePageTemplate))
	hostile := `<script>alert("x")</script> & 'quotes' + a+b` + "\x00 é ›"
	page := func(title, url string, sections ...search.SiteResultSection) search.SiteResultPage {
		return search.SiteResultPage{Title: title, URL: url, Sections: sections}
	}
	full := search.SiteResults{SiteTitle: "Docs " + hostile, Home: "https://docs.example.com/?shareKey=a&b=c", Query: hostile, NoIndex: true,
		Groups: []search.SiteResultGroup{
			{Title: "Guides › " + hostile, Pages: []search.SiteResultPage{
				{Title: "Install", URL: "https://docs.example.com/install", Description: hostile, Ancestors: []string{"Start", hostile, "Last"},
					Sections: []search.SiteResultSection{
						{Heading: "On Linux", URL: "https://docs.example.com/install#on-linux", Excerpt: "run <code>"},
						{Excerpt: "no heading"},
						{Heading: "Odd URL", URL: "/sites/o/b/a page?q=\"x\"&r='y'#é%2Fz%zz(1)"},
					}},
				page("javascript:", "javascript:alert(1)"),
				page("JavaScript with case", "JaVaScRiPt:alert(1)"),
				page("data:", "data:text/html,<b>x</b>"),
				page("mailto", "mailto:someone@example.com"),
				page("relative with colon", "/a:b/c"),
				page("no sections", "https://docs.example.com/"),
			}},
			{Title: "API", Pages: []search.SiteResultPage{page("", "", search.SiteResultSection{Heading: "h", URL: "vbscript:x"})}},
		}}
	for _, c := range []struct {
		name string
		data sitePageData
	}{
		{"no query", sitePageData{SiteResults: search.SiteResults{SiteTitle: "Docs", Home: "https://docs.example.com/"}}},
		{"no query, results ignored", sitePageData{SiteResults: search.SiteResults{SiteTitle: "Docs", Groups: full.Groups}}},
		{"nothing found", sitePageData{SiteResults: search.SiteResults{SiteTitle: "Docs", Home: "/sites/o/b/", Query: "zebras"}, ShareKey: "key&\"<"}},
		{"hostile results", sitePageData{SiteResults: full, ShareKey: hostile}},
		{"empty", sitePageData{}},
		{"Arabic, nothing found", sitePageData{SiteResults: search.SiteResults{SiteTitle: "الوثائق", Home: "/sites/o/b/", Query: "حمار وحشي", Lang: "ar"}}},
		{"Hebrew region, results", sitePageData{SiteResults: search.SiteResults{SiteTitle: "Docs", Home: "/", Query: "x", Groups: full.Groups, Lang: "he-IL"}}},
		{"Japanese, nothing found", sitePageData{SiteResults: search.SiteResults{SiteTitle: "ドキュメント", Home: "/", Query: "認証", Lang: "ja"}}},
		{"Chinese, results", sitePageData{SiteResults: full, ShareKey: "k"}.withLang("zh")},
		{"unknown language reads English", sitePageData{SiteResults: search.SiteResults{SiteTitle: "Docs", Query: "q", Lang: "nl"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want bytes.Buffer
			lang := c.data.Lang
			if lang == "" {
				lang = "en"
			}
			if err := tmpl.Execute(&want, templateData{c.data, lang, words.Direction(lang) == "rtl", words.For(lang)}); err != nil {
				t.Fatal(err)
			}
			got := sitePage(c.data)
			if string(got) != want.String() {
				t.Errorf("page differs from its template's\n got: %s\nwant: %s", got, want.String())
			}
			if c.data.Query != "" && strings.Contains(string(got), "<script>") {
				t.Error("the page holds an unescaped script element")
			}
		})
	}
	// The words are the language's.
	for lang, want := range map[string][]string{
		"ar": {`<html lang="ar" dir="rtl">`, "<h1>بحث</h1>", `aria-label="ابحث في Docs"`, "<p>لا توجد صفحة تطابق «q».</p>"},
		"ja": {`<html lang="ja">`, "<title>q – 検索 – Docs</title>", `<button type="submit">検索</button>`, "<p>「q」に一致するページはありません。</p>"},
	} {
		got := string(sitePage(sitePageData{SiteResults: search.SiteResults{SiteTitle: "Docs", Query: "q", Lang: lang}}))
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the page lacks %s in\n%s", lang, w, got)
			}
		}
		if strings.Contains(got, "Search") || strings.Contains(got, "No page matches") {
			t.Errorf("%s: English left in\n%s", lang, got)
		}
	}
	if got := sitePageStyle; !strings.Contains(sitePageTemplate, "<style>"+got+"</style>") {
		t.Error("sitePageStyle is not the template's style element")
	}
}
