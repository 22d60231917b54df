package readerhttp_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// Every block type of the document model renders as its element.
func TestEveryBlockRenders(t *testing.T) {
	f := standardSite(t, nil)
	html, _ := f.body(t, http.StatusOK, f.base+"/blocks")
	article := between(html, "<article>", "</article>")
	intro := f.base + "/"
	cases := []struct {
		block    string
		snippets []string
	}{
		{"marks", []string{"<strong>bold</strong>", "<em>italic</em>", "<code>code</code>", "<s>gone</s>"}},
		{"links", []string{`<a href="https://example.com">link</a>`, `<a href="` + intro + `">page link</a>`, `<a href="#install">anchor</a>`}},
		{"headings with anchors", []string{`<h3 id="install">Install <a class="anchor" href="#install"`, `<h4 id="sub-heading">Sub heading`}},
		{"lists", []string{"<ul><li><p>one</p></li><li><p>two</p><ul><li><p>nested</p></li></ul></li></ul>", "<ol><li><p>first</p></li>",
			`<ul class="tasks"><li><input type="checkbox" disabled checked aria-label="done"> <p>done</p></li><li><input type="checkbox" disabled aria-label="to do">`}},
		{"quote and divider", []string{"<blockquote><p>A quote</p></blockquote>", "<hr>"}},
		{"code", []string{`<figure class="code" data-lang="go"><figcaption class="code-title">main.go</figcaption><button type="button" class="copy" hidden>Copy</button><pre class="chroma">`,
			`<span class="ln">1</span><span class="cl"><span class="kn">package</span>`, `<span class="nf">main</span>`}},
		{"hint", []string{`<div class="hint hint-warning" role="note"><span class="hint-label">Warning</span><p>Careful</p></div>`}},
		{"tabs", []string{`<div class="tabs"><input type="radio" name="tabs-1" id="tabs-1-0" checked><label for="tabs-1-0">Ruby</label><div class="tab-panel"><figure class="code" data-lang="ruby">`,
			`<input type="radio" name="tabs-1" id="tabs-1-1"><label for="tabs-1-1">Python</label><div class="tab-panel"><p>print(1)</p></div>`}},
		{"expandable", []string{`<details class="expandable"><summary>More</summary><p>Hidden text</p></details>`}},
		{"table", []string{`<div class="table"><table><thead><tr><th scope="col">Title 1</th><th scope="col" class="align-center">Title 2</th></tr></thead>`,
			`<tbody><tr><td><p><strong>a</strong></p></td><td class="align-center"><p>b</p></td></tr></tbody>`}},
		{"figure", []string{`<div class="images"><figure class="image"><img src="https://x.test/a.png" alt="An A" loading="lazy"><figcaption>The <strong>caption</strong></figcaption></figure></div>`}},
		{"embed", []string{`<div class="card embed embed-player"><iframe src="https://www.youtube-nocookie.com/embed/1" title="YouTube video" loading="lazy"`,
			`<a href="https://www.youtube.com/watch?v=1" rel="noopener"><span class="card-url">`, `<div class="caption">Study music</div>`}},
		{"content-ref", []string{`<a class="card content-ref" href="` + f.base + `/blocks/child-page"><span class="card-title">Child page</span></a>`}},
		{"file", []string{`<div class="card file"><a href="https://x.test/manual.pdf" download><span class="card-title">manual.pdf</span></a><div class="caption">The manual</div>`}},
		{"math", []string{`<div class="math"><code class="math">f(x) = x^2</code></div>`, `Area <code class="math">\pi r^2</code> of a circle`}},
		{"stepper", []string{`<ol class="stepper"><li class="step"><h4 id="step-one">Step one`, `<li class="step"><p>Done.</p></li></ol>`}},
		{"columns", []string{`<div class="columns"><div class="column w-50"><p>Left</p></div><div class="column"><p>Right</p></div></div>`}},
		{"swagger", []string{`<div class="card api"><div class="api-head"><span class="method method-get">GET</span> <code class="api-path">/v1/x</code></div><div class="card-title">Get x</div>`, "<p>Returns x</p>"}},
		{"openapi-operation", []string{`<span class="method method-put">PUT</span> <code class="api-path">/pet</code>`, "OpenAPI specification: petstore"}},
		{"drawing", []string{`<figure class="drawing"><img src=".gitbook/assets/file.drawing.svg"`}},
	}
	for _, c := range cases {
		t.Run(c.block, func(t *testing.T) { testkit.Contains(t, c.block, article, c.snippets...) })
	}
	// The style sheet colours the highlighter's classes, light and dark,
	// and sizes the page's columns: the page has no style attribute (its
	// Content-Security-Policy allows none).
	// (The dark rules are an element of their own, the visitor choosing
	// the theme: theme.go.)
	style := between(html, "<style>", "</style>")
	testkit.Contains(t, "style", style, ".chroma .kn", ".column.w-50{flex-basis:50%}")
	testkit.Contains(t, "dark style", between(html, `<style id="theme-dark" media="(prefers-color-scheme: dark)">`, "</style>"), ".chroma .kn")
	testkit.Lacks(t, "page", html, " style=")
	if strings.Contains(article, "{%") {
		t.Errorf("a block was left as text: %s", article)
	}
}
