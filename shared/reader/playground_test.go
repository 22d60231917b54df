package reader

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/content"
)

// petOperation is an operation with every kind of input the playground
// takes: two servers (one with variables), two alternatives of
// credentials, path, query, header and cookie parameters, and a body.
func petOperation() *content.OperationDetail {
	return &content.OperationDetail{
		Method: "POST", Path: "/pets/{petId}/toys",
		Servers: []content.OperationServer{
			{URL: "https://{region}.api.example.com/v1/", Description: "Production",
				Variables: []content.ServerVariable{{Name: "region", Default: "eu", Enum: []string{"eu", "us"}}}},
			{URL: "http://127.0.0.1:8080"},
		},
		Security: [][]content.SecurityScheme{
			{{Name: "bearerAuth", Type: "http", Scheme: "bearer"}, {Name: "appKey", Type: "apiKey", In: "query", Param: "app key"}},
			{{Name: "basic", Type: "http", Scheme: "basic"}},
			{},
		},
		Parameters: []content.OperationParameter{
			{Name: "petId", In: "path", Required: true, Example: "a/b c"},
			{Name: "limit", In: "query", Default: "10"},
			{Name: "filter", In: "query"},
			{Name: "X-Trace", In: "header", Example: "it's"},
			{Name: "session", In: "cookie"},
		},
		RequestBody: &content.OperationBody{ContentTypes: []string{"application/json", "application/xml"},
			Sample: "{\n  \"name\": \"Rex's \\\"ball\\\"\"\n}"},
	}
}

// The form: a labelled input for every field (path, query and header
// parameters, server variables, each scheme's credentials), prefilled
// with the spec's examples and defaults, hidden until the script shows it;
// cookies and secrets explained.
func TestPlaygroundForm(t *testing.T) {
	r := &renderer{ids: map[string]int{}, txt: wordsFor("en")}
	r.operation(petOperation())
	out := r.b.String()
	for _, want := range []string{
		`<details class="playground" data-method="POST" data-path="/pets/{petId}/toys" data-origins="https://eu.api.example.com https://us.api.example.com http://127.0.0.1:8080" data-cors="The request failed: the API at %s does not allow cross-origin requests from this site (CORS)`,
		`<summary>Test it</summary><div class="pg-form" hidden>`,
		`<option value="https://{region}.api.example.com/v1/" selected>https://{region}.api.example.com/v1/ (Production)</option><option value="http://127.0.0.1:8080">`,
		`<select id="pg1-s0-v0" class="pg-var" data-name="region"><option selected>eu</option><option>us</option></select>`,
		`<select id="pg1-alt" class="pg-alt"><option value="0">bearerAuth + appKey</option><option value="1">basic</option><option value="2">None</option></select>`,
		`<div class="pg-scheme" data-scheme="bearerAuth" data-kind="bearer" data-param="" data-alts="0">`,
		`<input id="pg1-a0" type="password" class="pg-secret" data-part="token" autocomplete="off">`,
		`<div class="pg-scheme" data-scheme="appKey" data-kind="query" data-param="app key" data-alts="0">`,
		`<div class="pg-scheme" data-scheme="basic" data-kind="basic" data-param="" data-alts="1" hidden>`,
		`<input id="pg1-p0" class="pg-param" data-in="path" data-name="petId" value="a/b c" aria-required="true" spellcheck="false">`,
		`<input id="pg1-p1" class="pg-param" data-in="query" data-name="limit" value="10" spellcheck="false">`,
		`<input id="pg1-p3" class="pg-param" data-in="header" data-name="X-Trace" value="it&#39;s" spellcheck="false">`,
		`The cookie <code>session</code> cannot be set by a page for another site`,
		`<select id="pg1-ct" class="pg-ct"><option>application/json</option><option>application/xml</option></select>`,
		`<textarea id="pg1-body" class="pg-body" rows="8" spellcheck="false">{
  &#34;name&#34;: &#34;Rex&#39;s \&#34;ball\&#34;&#34;
}</textarea>`,
		`<button type="button" class="pg-send">Send</button><p class="pg-status" role="status"></p>`,
		esc(wordsFor("en").Playground.Storage),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the playground lacks\n  %s\nin\n  %s", want, out)
		}
	}
	// Every input, select and text area has its label.
	ids := regexp.MustCompile(`<(?:input|select|textarea) (?:type="radio" name="[^"]+" )?id="([^"]+)"`).FindAllStringSubmatch(out, -1)
	if len(ids) < 10 {
		t.Fatalf("%d fields", len(ids))
	}
	for _, m := range ids {
		if !strings.Contains(out, `<label for="`+m[1]+`">`) {
			t.Errorf("no label for %s", m[1])
		}
	}
	if n := len(regexp.MustCompile(`<(?:input|select|textarea)[ >]`).FindAllString(out, -1)); n != len(ids) {
		t.Errorf("%d fields, %d with an id", n, len(ids))
	}
	// A form is never submitted to the site: there is none.
	if strings.Contains(out, "<form") {
		t.Error("the playground is a form")
	}
	// The page calls the servers' origins: each value of the region.
	if want := []string{"https://eu.api.example.com", "https://us.api.example.com", "http://127.0.0.1:8080"}; !slices.Equal(r.connect, want) {
		t.Errorf("connect %v, want %v", r.connect, want)
	}
	if !strings.Contains(r.css(), ".pg-form fieldset") {
		t.Error("the page's CSS lacks the playground's")
	}
}

// The snippets: the first server with its defaults, the examples
// (escaped for the URL and for each language), the first alternative's
// credentials as placeholders, the body and its type.
func TestPlaygroundSnippets(t *testing.T) {
	req := initialRequest(petOperation())
	if want := "https://eu.api.example.com/v1/pets/a%2Fb%20c/toys?limit=10&app%20key=YOUR_API_KEY"; req.URL != want {
		t.Errorf("URL %s, want %s", req.URL, want)
	}
	curl := `curl --request POST \
  --url 'https://eu.api.example.com/v1/pets/a%2Fb%20c/toys?limit=10&app%20key=YOUR_API_KEY' \
  --header 'X-Trace: it'\''s' \
  --header 'Authorization: Bearer YOUR_TOKEN' \
  --header 'Content-Type: application/json' \
  --data '{
  "name": "Rex'\''s \"ball\""
}'`
	fetch := `const response = await fetch("https://eu.api.example.com/v1/pets/a%2Fb%20c/toys?limit=10&app%20key=YOUR_API_KEY", {
  method: "POST",
  headers: {
    "X-Trace": "it's",
    "Authorization": "Bearer YOUR_TOKEN",
    "Content-Type": "application/json"
  },
  body: "{\n  \"name\": \"Rex's \\\"ball\\\"\"\n}"
});
console.log(response.status, await response.text());`
	python := `import requests

response = requests.request(
    "POST",
    "https://eu.api.example.com/v1/pets/a%2Fb%20c/toys?limit=10&app%20key=YOUR_API_KEY",
    headers={
        "X-Trace": "it's",
        "Authorization": "Bearer YOUR_TOKEN",
        "Content-Type": "application/json",
    },
    data="{\n  \"name\": \"Rex's \\\"ball\\\"\"\n}".encode(),
)
print(response.status_code, response.text)`
	for name, c := range map[string][2]string{"curl": {curlSnippet(req), curl}, "fetch": {fetchSnippet(req), fetch}, "python": {pythonSnippet(req), python}} {
		if c[0] != c[1] {
			t.Errorf("%s:\n%s\nwant\n%s", name, c[0], c[1])
		}
	}
	// The rendered tabs hold them, escaped.
	r := &renderer{ids: map[string]int{}, txt: wordsFor("en")}
	r.operation(petOperation())
	if !strings.Contains(r.b.String(), `<code class="pg-snippet" data-lang="curl">`+html.EscapeString(curl)+`</code>`) {
		t.Error("the page lacks the curl snippet")
	}

	// A GET takes no body; no security and no parameters: the bare URL.
	get := &content.OperationDetail{Method: "GET", Path: "/health", Servers: []content.OperationServer{{URL: "https://api.example.com"}},
		RequestBody: &content.OperationBody{ContentTypes: []string{"application/json"}, Sample: "{}"}}
	if got, want := curlSnippet(initialRequest(get)), "curl --request GET \\\n  --url 'https://api.example.com/health'"; got != want {
		t.Errorf("GET: %q, want %q", got, want)
	}
	if got := fetchSnippet(initialRequest(get)); got != "const response = await fetch(\"https://api.example.com/health\", {\n  method: \"GET\"\n});\nconsole.log(response.status, await response.text());" {
		t.Errorf("GET fetch: %q", got)
	}
}

// An operation without a server has no playground; one whose servers name
// hosts a policy cannot hold adds no origin.
func TestPlaygroundServers(t *testing.T) {
	r := &renderer{ids: map[string]int{}, txt: wordsFor("en")}
	r.operation(&content.OperationDetail{Method: "GET", Path: "/x"})
	if strings.Contains(r.b.String(), "playground") || r.css() != "" {
		t.Errorf("a playground without a server: %s", r.b.String())
	}
	for u, want := range map[string]string{
		"https://API.example.com:8443/v1": "https://api.example.com:8443",
		"http://127.0.0.1:9/":             "http://127.0.0.1:9",
		"https://[::1]/":                  "",
		"ftp://example.com":               "",
		"https://a.example.com;/x":        "",
		"https://{tenant}.example.com":    "",
	} {
		if got := originOf(u); got != want {
			t.Errorf("originOf(%s) = %q, want %q", u, got, want)
		}
	}
	if got := serverOrigins(content.OperationServer{URL: "https://{a}.example.com:{port}", Variables: []content.ServerVariable{
		{Name: "a", Default: "x"}, {Name: "port", Default: "443", Enum: []string{"443", "8443"}}}}); !slices.Equal(got, []string{"https://x.example.com:443", "https://x.example.com:8443"}) {
		t.Errorf("origins %v", got)
	}
	if got := encodeURIComponent("a-_.!~*'() /?&=é"); got != "a-_.!~*'()%20%2F%3F%26%3D%C3%A9" {
		t.Errorf("encodeURIComponent: %s", got)
	}
	if got := jsQuote("a\"\\\b\f\n\r\t\x01é\u2028"); got != `"a\"\\\b\f\n\r\t\u0001é`+"\u2028"+`"` {
		t.Errorf("jsQuote: %s", got)
	}
}

// The script is written into the page's template as is: it must hold no
// template action.
func TestPlaygroundScriptIsTemplateText(t *testing.T) {
	if strings.Contains(playgroundScript, "{{") || strings.Contains(playgroundScript, "`") {
		t.Error("the playground's script holds {{ or a backtick")
	}
}

// The playground speaks the page's language: its labels, its notes and
// the script's messages (its element's data-* attributes) come from the
// words of the page's language; the content's labels around it too.
func TestPlaygroundInThePagesLanguage(t *testing.T) {
	for lang, want := range map[string][]string{
		"ja": {`<summary>試してみる</summary>`, `<legend>サーバー</legend>`, `>サーバー URL</label>`, `<legend>認証</legend>`, `>Bearer トークン（bearerAuth）</label>`,
			`>クエリの API キー <code>app key</code>（appKey）</label>`, `<option value="2">なし</option>`, `<legend>パラメーター</legend>`, `<span class="required">必須</span>`,
			`Cookie <code>session</code> は別のサイトのページからは設定できないため、送信されません。`, `<button type="button" class="pg-send">送信</button>`,
			`data-sending="送信中"`, `data-headers="レスポンスヘッダー"`, `data-cors="リクエストに失敗しました。%s の API`, `<caption>パラメーター</caption>`, `<th scope="col">名前</th>`},
		"ar": {`<summary>جرّبه</summary>`, `<legend>المصادقة</legend>`, `>اسم المستخدم (basic)</label>`, `<button type="button" class="pg-send">إرسال</button>`,
			`data-body="نص الاستجابة"`, `data-invalid="الطلب غير صالح: "`, `<strong>نص الطلب</strong>`},
	} {
		r := &renderer{ids: map[string]int{}, txt: wordsFor(lang)}
		r.operation(petOperation())
		out := r.b.String()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the playground lacks %s", lang, w)
			}
		}
		for _, en := range []string{"Test it", "Server URL", "Authentication", ">Send<", "Response headers", "Parameters", "The cookie"} {
			if strings.Contains(out, en) {
				t.Errorf("%s: the playground still says %q", lang, en)
			}
		}
	}
}
