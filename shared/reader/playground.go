package reader

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/galleydocs/galley/shared/content"
	uiwords "github.com/galleydocs/galley/shared/reader/words"
)

// The API playground (docs/reader.md, "API playground"): under each
// OpenAPI operation a reader is shown, "Test it" holds request snippets
// (curl, JavaScript's fetch, Python's requests) made here for the spec's
// first server and examples, and a form that a page script
// (playgroundScript) shows, sends from the visitor's browser straight to
// the API (never through Galley) and keeps the snippets in step with. The
// script writes each snippet exactly as the functions below do (a browser
// test compares them).

// Placeholders stand for credentials in snippets: a snippet never holds
// what the visitor typed, so it can be copied or shown safely.
const (
	placeholderToken       = "YOUR_TOKEN"
	placeholderCredentials = "YOUR_CREDENTIALS"
	placeholderAPIKey      = "YOUR_API_KEY"
)

// maxConnectOrigins bounds the origins a page's playgrounds may call (its
// connect-src): the combinations of server variables' values.
const maxConnectOrigins = 20

// The playground's labels and messages are the page's words
// (shared/reader/words, Playground): the script's messages are its
// element's data-* attributes, so that the script stays a constant
// allowed by its hash.

// request is a request as the playground sends it.
type request struct {
	Method, URL string
	Headers     [][2]string
	Body        *string
}

// playground writes an operation's "Test it": the snippets of its first
// server's request with the spec's examples, and the form (hidden until
// the page script shows it). Nothing without a server.
func (r *renderer) playground(od *content.OperationDetail) {
	if len(od.Servers) == 0 {
		return
	}
	r.playgrounds++
	var origins []string
	for _, s := range od.Servers {
		origins = append(origins, r.addConnect(serverOrigins(s)...)...)
	}
	id := "pg" + strconv.Itoa(r.playgrounds)
	w := r.txt.Playground
	r.w(`<details class="playground" data-method="`, esc(od.Method), `" data-path="`, esc(od.Path), `" data-origins="`, esc(strings.Join(origins, " ")),
		`" data-cors="`, esc(w.CORS), `" data-elsewhere="`, esc(w.Elsewhere), `" data-invalid="`, esc(w.Invalid), `" data-sending="`, esc(w.Sending),
		`" data-headers="`, esc(w.ResponseHeaders), `" data-body="`, esc(w.ResponseBody), `">`,
		`<summary>`, esc(w.TestIt), `</summary><div class="pg-form" hidden>`)

	// Server and its variables.
	r.w(`<fieldset><legend>`, esc(w.Server), `</legend><div class="pg-field"><label for="`, id, `-server">`, esc(w.ServerURL), `</label><select id="`, id, `-server" class="pg-server">`)
	for i, s := range od.Servers {
		sel := ""
		if i == 0 {
			sel = " selected"
		}
		label := s.URL
		if s.Description != "" {
			label += " (" + s.Description + ")"
		}
		r.w(`<option value="`, esc(s.URL), `"`, sel, `>`, esc(label), `</option>`)
	}
	r.w(`</select></div>`)
	for i, s := range od.Servers {
		if len(s.Variables) == 0 {
			continue
		}
		hidden := ""
		if i > 0 {
			hidden = " hidden"
		}
		r.w(`<div class="pg-vars" data-server="`, strconv.Itoa(i), `"`, hidden, `>`)
		for j, v := range s.Variables {
			vid := id + "-s" + strconv.Itoa(i) + "-v" + strconv.Itoa(j)
			r.w(`<div class="pg-field"><label for="`, vid, `"><code>`, esc(v.Name), `</code>`)
			if v.Description != "" {
				r.w(` `, esc(v.Description))
			}
			r.w(`</label>`)
			if len(v.Enum) > 0 {
				r.w(`<select id="`, vid, `" class="pg-var" data-name="`, esc(v.Name), `">`)
				for _, e := range v.Enum {
					sel := ""
					if e == v.Default {
						sel = " selected"
					}
					r.w(`<option`, sel, `>`, esc(e), `</option>`)
				}
				r.w(`</select>`)
			} else {
				r.w(`<input id="`, vid, `" class="pg-var" data-name="`, esc(v.Name), `" value="`, esc(v.Default), `" spellcheck="false">`)
			}
			r.w(`</div>`)
		}
		r.w(`</div>`)
	}
	r.w(`</fieldset>`)

	// Credentials: the inputs of every scheme, those of the alternative
	// chosen shown.
	if schemes, alts := securityInputs(od.Security); len(schemes) > 0 {
		r.w(`<fieldset class="pg-auth"><legend>`, esc(w.Authentication), `</legend>`)
		if len(od.Security) > 1 {
			r.w(`<label for="`, id, `-alt">`, esc(w.Credentials), `</label><select id="`, id, `-alt" class="pg-alt">`)
			for i, alt := range od.Security {
				r.w(`<option value="`, strconv.Itoa(i), `">`, esc(altLabel(alt, w.None)), `</option>`)
			}
			r.w(`</select>`)
		}
		for k, s := range schemes {
			sid := id + "-a" + strconv.Itoa(k)
			hidden := ""
			if !slices.Contains(alts[k], 0) {
				hidden = " hidden"
			}
			r.w(`<div class="pg-scheme" data-scheme="`, esc(s.Name), `" data-kind="`, schemeKind(s), `" data-param="`, esc(s.Param),
				`" data-alts="`, joinInts(alts[k]), `"`, hidden, `>`)
			switch schemeKind(s) {
			case "basic":
				r.w(`<div class="pg-field"><label for="`, sid, `-user">`, esc(fmt.Sprintf(w.Username, s.Name)), `</label><input id="`, sid, `-user" class="pg-secret" data-part="user" autocomplete="off" spellcheck="false"></div>`,
					`<div class="pg-field"><label for="`, sid, `-pass">`, esc(fmt.Sprintf(w.Password, s.Name)), `</label><input id="`, sid, `-pass" type="password" class="pg-secret" data-part="pass" autocomplete="off"></div>`)
			case "bearer":
				r.w(`<div class="pg-field"><label for="`, sid, `">`, esc(fmt.Sprintf(w.Token, s.Name)), `</label><input id="`, sid, `" type="password" class="pg-secret" data-part="token" autocomplete="off"></div>`)
			case "header", "query":
				label := w.KeyHeader
				if schemeKind(s) == "query" {
					label = w.KeyQuery
				}
				// The parameter's name as code within the sentence.
				label = fmt.Sprintf(esc(label), "<code>"+esc(s.Param)+"</code>", esc(s.Name))
				r.w(`<div class="pg-field"><label for="`, sid, `">`, label, `</label><input id="`, sid,
					`" type="password" class="pg-secret" data-part="key" autocomplete="off"></div>`)
			default:
				r.w(`<p class="pg-note">`, esc(s.Name), `: `, esc(unsupportedScheme(s, w)), `</p>`)
			}
			r.w(`</div>`)
		}
		r.w(`<p class="pg-note">`, esc(w.Storage), `</p></fieldset>`)
	}

	// Parameters.
	var params, cookies []content.OperationParameter
	for _, p := range od.Parameters {
		switch p.In {
		case "path", "query", "header":
			params = append(params, p)
		case "cookie":
			cookies = append(cookies, p)
		}
	}
	if len(params)+len(cookies) > 0 {
		r.w(`<fieldset><legend>`, esc(w.Parameters), `</legend>`)
		for i, p := range params {
			pid := id + "-p" + strconv.Itoa(i)
			req := ""
			r.w(`<div class="pg-field"><label for="`, pid, `"><code>`, esc(p.Name), `</code> `, esc(p.In))
			if p.Required {
				r.w(` <span class="required">`, esc(r.txt.Content.Required), `</span>`)
				req = ` aria-required="true"`
			}
			r.w(`</label><input id="`, pid, `" class="pg-param" data-in="`, p.In, `" data-name="`, esc(p.Name), `" value="`, esc(paramValue(p)), `"`, req, ` spellcheck="false"></div>`)
		}
		for _, p := range cookies {
			r.w(`<p class="pg-note">`, fmt.Sprintf(esc(w.Cookie), "<code>"+esc(p.Name)+"</code>"), `</p>`)
		}
		r.w(`</fieldset>`)
	}

	// Body.
	if hasBody(od) {
		b := od.RequestBody
		r.w(`<fieldset><legend>`, esc(w.Body), `</legend><div class="pg-field"><label for="`, id, `-ct">`, esc(w.ContentType), `</label><select id="`, id, `-ct" class="pg-ct">`)
		for _, t := range b.ContentTypes {
			r.w(`<option>`, esc(t), `</option>`)
		}
		r.w(`</select></div><div class="pg-field"><label for="`, id, `-body">`, esc(w.Body), `</label><textarea id="`, id, `-body" class="pg-body" rows="8" spellcheck="false">`,
			esc(b.Sample), `</textarea></div></fieldset>`)
	}
	r.w(`<button type="button" class="pg-send">`, esc(w.Send), `</button><p class="pg-status" role="status"></p><div class="pg-result" hidden></div></div>`)

	// The snippets, as tabs (shown without JavaScript too).
	req := initialRequest(od)
	r.tabs++
	name := "tabs-" + strconv.Itoa(r.tabs)
	r.w(`<div class="tabs pg-snippets">`)
	for i, sn := range []struct{ lang, title, text string }{
		{"curl", "curl", curlSnippet(req)}, {"fetch", "JavaScript", fetchSnippet(req)}, {"python", "Python", pythonSnippet(req)},
	} {
		tid := name + "-" + strconv.Itoa(i)
		checked := ""
		if i == 0 {
			checked = " checked"
		}
		r.w(`<input type="radio" name="`, name, `" id="`, tid, `"`, checked, `><label for="`, tid, `">`, sn.title, `</label><div class="tab-panel">`,
			`<figure class="code"><button type="button" class="copy" hidden>`, esc(r.txt.Copy), `</button><pre tabindex="0"><code class="pg-snippet" data-lang="`, sn.lang, `">`,
			esc(sn.text), `</code></pre></figure></div>`)
	}
	r.w(`</div></details>`)
}

// addConnect adds origins the page's playgrounds call (its connect-src)
// and returns those it holds.
func (r *renderer) addConnect(origins ...string) []string {
	var out []string
	for _, o := range origins {
		if !slices.Contains(r.connect, o) {
			if len(r.connect) >= maxConnectOrigins {
				continue
			}
			r.connect = append(r.connect, o)
		}
		out = append(out, o)
	}
	return out
}

// hasBody: the operation takes a body and its method may carry one (a
// browser sends none with GET or HEAD).
func hasBody(od *content.OperationDetail) bool {
	return od.RequestBody != nil && len(od.RequestBody.ContentTypes) > 0 && od.Method != "GET" && od.Method != "HEAD"
}

// paramValue is what a parameter's input starts with: its example, else
// its default.
func paramValue(p content.OperationParameter) string {
	if p.Example != "" {
		return p.Example
	}
	return p.Default
}

// schemeKind is how the playground sends a scheme's credentials: basic,
// bearer (http bearer, OAuth 2 and OpenID Connect access tokens), header
// or query (API keys); "" for what a page cannot send.
func schemeKind(s content.SecurityScheme) string {
	switch {
	case s.Type == "http" && s.Scheme == "basic":
		return "basic"
	case s.Type == "http" && s.Scheme == "bearer", s.Type == "oauth2", s.Type == "openIdConnect":
		return "bearer"
	case s.Type == "apiKey" && (s.In == "header" || s.In == "query") && s.Param != "":
		return s.In
	}
	return ""
}

// unsupportedScheme says why a scheme's credentials are not asked for.
func unsupportedScheme(s content.SecurityScheme, w uiwords.Playground) string {
	switch {
	case s.Type == "apiKey" && s.In == "cookie":
		return w.NoCookieKey
	case s.Type == "mutualTLS":
		return w.NoTLS
	}
	return fmt.Sprintf(w.NoKind, strings.TrimSpace(s.Type+" "+s.Scheme))
}

// securityInputs lists the schemes of the alternatives once each, with
// the alternatives each is part of.
func securityInputs(alts [][]content.SecurityScheme) ([]content.SecurityScheme, [][]int) {
	var schemes []content.SecurityScheme
	var in [][]int
	for i, alt := range alts {
		for _, s := range alt {
			k := -1
			for j, x := range schemes {
				if x.Name == s.Name {
					k = j
				}
			}
			if k < 0 {
				schemes, in, k = append(schemes, s), append(in, nil), len(schemes)
			}
			in[k] = append(in[k], i)
		}
	}
	return schemes, in
}

// altLabel names an alternative of credentials.
func altLabel(alt []content.SecurityScheme, none string) string {
	if len(alt) == 0 {
		return none
	}
	names := make([]string, len(alt))
	for i, s := range alt {
		names[i] = s.Name
	}
	return strings.Join(names, " + ")
}

// initialRequest is the request of the form as rendered: the first
// server with its variables' defaults, the parameters' examples, the
// first alternative's credentials as placeholders, the body's sample.
func initialRequest(od *content.OperationDetail) request {
	s := od.Servers[0]
	base := s.URL
	for _, v := range s.Variables {
		base = strings.ReplaceAll(base, "{"+v.Name+"}", v.Default)
	}
	base = strings.TrimRight(base, "/")
	p := od.Path
	var query []string
	var headers [][2]string
	for _, x := range od.Parameters {
		v := paramValue(x)
		switch x.In {
		case "path":
			p = strings.ReplaceAll(p, "{"+x.Name+"}", encodeURIComponent(v))
		case "query":
			if v != "" {
				query = append(query, encodeURIComponent(x.Name)+"="+encodeURIComponent(v))
			}
		case "header":
			if v != "" {
				headers = append(headers, [2]string{x.Name, v})
			}
		}
	}
	if len(od.Security) > 0 {
		for _, sc := range od.Security[0] {
			switch schemeKind(sc) {
			case "basic":
				headers = append(headers, [2]string{"Authorization", "Basic " + placeholderCredentials})
			case "bearer":
				headers = append(headers, [2]string{"Authorization", "Bearer " + placeholderToken})
			case "header":
				headers = append(headers, [2]string{sc.Param, placeholderAPIKey})
			case "query":
				query = append(query, encodeURIComponent(sc.Param)+"="+placeholderAPIKey)
			}
		}
	}
	req := request{Method: od.Method, URL: base + p, Headers: headers}
	if len(query) > 0 {
		req.URL += "?" + strings.Join(query, "&")
	}
	if hasBody(od) && od.RequestBody.Sample != "" {
		body := od.RequestBody.Sample
		req.Body = &body
		req.Headers = append(req.Headers, [2]string{"Content-Type", od.RequestBody.ContentTypes[0]})
	}
	return req
}

// curlSnippet is the request as a curl command.
func curlSnippet(r request) string {
	var b strings.Builder
	b.WriteString("curl --request " + r.Method + " \\\n  --url " + shellQuote(r.URL))
	for _, h := range r.Headers {
		b.WriteString(" \\\n  --header " + shellQuote(h[0]+": "+h[1]))
	}
	if r.Body != nil {
		b.WriteString(" \\\n  --data " + shellQuote(*r.Body))
	}
	return b.String()
}

// quotedForm is how a language whose strings jsQuote writes writes a
// request: its start (from the method and URL), its headers' block (each
// "name": "value" indented, separated by ",\n"), its body (quoted, between
// bodyOpen and bodyClose) and its end.
type quotedForm struct {
	start                             func(method, url string) string
	headersOpen, indent, headersClose string
	bodyOpen, bodyClose, end          string
}

func (f quotedForm) write(r request) string {
	var b strings.Builder
	b.WriteString(f.start(jsQuote(r.Method), jsQuote(r.URL)))
	if len(r.Headers) > 0 {
		b.WriteString(f.headersOpen)
		for i, h := range r.Headers {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(f.indent + jsQuote(h[0]) + ": " + jsQuote(h[1]))
		}
		b.WriteString(f.headersClose)
	}
	if r.Body != nil {
		b.WriteString(f.bodyOpen + jsQuote(*r.Body) + f.bodyClose)
	}
	b.WriteString(f.end)
	return b.String()
}

// fetchForm and pythonForm write JavaScript's fetch and Python's requests.
var (
	fetchForm = quotedForm{start: func(m, u string) string { return "const response = await fetch(" + u + ", {\n  method: " + m },
		headersOpen: ",\n  headers: {\n", indent: "    ", headersClose: "\n  }", bodyOpen: ",\n  body: ",
		end: "\n});\nconsole.log(response.status, await response.text());"}
	pythonForm = quotedForm{start: func(m, u string) string {
		return "import requests\n\nresponse = requests.request(\n    " + m + ",\n    " + u
	},
		headersOpen: ",\n    headers={\n", indent: "        ", headersClose: ",\n    }", bodyOpen: ",\n    data=", bodyClose: ".encode()",
		end: ",\n)\nprint(response.status_code, response.text)"}
)

// fetchSnippet is the request as JavaScript's fetch.
func fetchSnippet(r request) string { return fetchForm.write(r) }

// pythonSnippet is the request with Python's requests.
func pythonSnippet(r request) string { return pythonForm.write(r) }

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// jsQuote writes s as JavaScript's JSON.stringify does (which is also a
// Python string literal): quotes, backslashes and control characters
// escaped, everything else as is.
func jsQuote(s string) string {
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range []byte(s) {
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00` + string(hex[c>>4]) + string(hex[c&15]))
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// encodeURIComponent escapes s as JavaScript's encodeURIComponent does.
func encodeURIComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for _, c := range []byte(s) {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteString("%" + string(hex[c>>4]) + string(hex[c&15]))
		}
	}
	return b.String()
}

// serverOrigins are the origins a server's URL template names: one per
// combination of its variables' values (the listed ones, else the
// default), at most maxConnectOrigins; an origin a policy cannot name
// safely is left out.
func serverOrigins(s content.OperationServer) []string {
	urls := []string{s.URL}
	for _, v := range s.Variables {
		values := v.Enum
		if len(values) == 0 {
			values = []string{v.Default}
		}
		var next []string
		for _, u := range urls {
			for _, val := range values {
				if len(next) < maxConnectOrigins {
					next = append(next, strings.ReplaceAll(u, "{"+v.Name+"}", val))
				}
			}
		}
		urls = next
	}
	var out []string
	for _, u := range urls {
		if o := originOf(u); o != "" && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// originOf is an http(s) URL's origin as a CSP source, "" when it has
// none or its host is not a plain name or IPv4 address (a CSP source
// cannot name IPv6 hosts; other characters could add sources).
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || !utf8.ValidString(u.Host) {
		return ""
	}
	host := strings.ToLower(u.Host)
	if strings.Trim(host, "abcdefghijklmnopqrstuvwxyz0123456789.-:") != "" {
		return ""
	}
	return u.Scheme + "://" + host
}

func joinInts(l []int) string {
	s := make([]string, len(l))
	for i, n := range l {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, " ")
}

// playgroundCSS is the playgrounds' rules, written into the style element
// of a page that has one.
const playgroundCSS = `.playground{margin:.75rem 0 0}.playground>summary{cursor:pointer;font-weight:600;color:var(--primary-text)}` +
	`.pg-form fieldset{border:1px solid var(--line);border-radius:var(--radius);margin:.75rem 0;padding:6px 14px 10px}.pg-form legend{font-weight:600;padding:0 4px}` +
	`.pg-field{display:flex;flex-direction:column;gap:2px;margin:6px 0}.pg-form label{font-size:14px}` +
	`.pg-form input,.pg-form select,.pg-form textarea{font:14px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;padding:4px 8px;border:1px solid var(--muted);border-radius:var(--small-radius);background:var(--bg);color:var(--fg);max-width:100%}` +
	`.pg-form textarea{width:100%;resize:vertical}.pg-form :focus-visible{outline:2px solid var(--primary-text);outline-offset:2px}` +
	`.pg-send{font:inherit;font-weight:600;padding:4px 18px;border:1px solid var(--primary);border-radius:var(--button-radius);background:var(--primary-text);color:var(--bg);cursor:pointer}` +
	`.pg-note{font-size:14px;color:var(--muted);margin:6px 0}.pg-status{font-family:ui-monospace,monospace;margin:.5rem 0}.pg-error{color:var(--danger);font-family:inherit}` +
	`.pg-result pre{max-height:24rem;overflow:auto}.pg-result .code{margin:.5rem 0}.pg-snippets .code{border:0;border-radius:0}`

// playgroundScript shows the playgrounds' forms, keeps their snippets in
// step with them (written as curlSnippet, fetchSnippet and pythonSnippet
// write them, credentials as placeholders), keeps credentials in the
// tab's session storage by the API's origin and scheme, and sends the
// request with fetch, without cookies, straight to the API; it shows the
// answer's status, the headers CORS lets it read and the body, or the
// page's message (data-cors) when the browser gives none. It must hold no
// "{{": it is part of the page's template.
const playgroundScript = `(function(){var store;try{store=window.sessionStorage}catch(e){}
function enc(s){return encodeURIComponent(s)}function q(s){return JSON.stringify(s)}function sh(s){return "'"+s.split("'").join("'\\''")+"'"}
function origin(u){try{return new URL(u).origin}catch(e){return ""}}
function b64(s){var b=new TextEncoder().encode(s),t="";for(var i=0;i<b.length;i++)t+=String.fromCharCode(b[i]);return btoa(t)}
var make={curl:function(r){var s="curl --request "+r.method+" \\\n  --url "+sh(r.url);r.headers.forEach(function(h){s+=" \\\n  --header "+sh(h[0]+": "+h[1])});if(r.body!==null)s+=" \\\n  --data "+sh(r.body);return s},
fetch:function(r){var s="const response = await fetch("+q(r.url)+", {\n  method: "+q(r.method);if(r.headers.length)s+=",\n  headers: {\n"+r.headers.map(function(h){return "    "+q(h[0])+": "+q(h[1])}).join(",\n")+"\n  }";if(r.body!==null)s+=",\n  body: "+q(r.body);return s+"\n});\nconsole.log(response.status, await response.text());"},
python:function(r){var s="import requests\n\nresponse = requests.request(\n    "+q(r.method)+",\n    "+q(r.url);if(r.headers.length)s+=",\n    headers={\n"+r.headers.map(function(h){return "        "+q(h[0])+": "+q(h[1])+",\n"}).join("")+"    }";if(r.body!==null)s+=",\n    data="+q(r.body)+".encode()";return s+",\n)\nprint(response.status_code, response.text)"}};
document.querySelectorAll("details.playground").forEach(function(pg){var form=pg.querySelector(".pg-form"),method=pg.getAttribute("data-method"),path=pg.getAttribute("data-path"),srv=form.querySelector(".pg-server"),alt=form.querySelector(".pg-alt"),send=form.querySelector(".pg-send"),status=form.querySelector(".pg-status"),out=form.querySelector(".pg-result"),busy=false;
function within(s,a){return (" "+s.getAttribute("data-alts")+" ").indexOf(" "+a+" ")>=0}
function base(){var u=srv.value;form.querySelectorAll(".pg-vars").forEach(function(g){if(g.getAttribute("data-server")===String(srv.selectedIndex))g.querySelectorAll(".pg-var").forEach(function(v){u=u.split("{"+v.getAttribute("data-name")+"}").join(v.value)})});return u.replace(/\/+$/,"")}
function key(s,i){return "galley.playground "+origin(base())+" "+s.getAttribute("data-scheme")+" "+i.getAttribute("data-part")}
function part(s,p){var i=s.querySelector('[data-part="'+p+'"]');return i?i.value:""}
function build(real){var p=path,qs=[],hs=[],body=null,a=alt?alt.value:"0";
form.querySelectorAll(".pg-param").forEach(function(i){var n=i.getAttribute("data-name"),w=i.getAttribute("data-in"),v=i.value;if(w==="path")p=p.split("{"+n+"}").join(enc(v));else if(v!==""){if(w==="query")qs.push(enc(n)+"="+enc(v));else hs.push([n,v])}});
form.querySelectorAll(".pg-scheme").forEach(function(s){if(!within(s,a))return;var k=s.getAttribute("data-kind"),n=s.getAttribute("data-param"),v;
if(k==="basic"){v=real?(part(s,"user")||part(s,"pass")?b64(part(s,"user")+":"+part(s,"pass")):""):"YOUR_CREDENTIALS";if(v)hs.push(["Authorization","Basic "+v])}
else if(k==="bearer"){v=real?part(s,"token"):"YOUR_TOKEN";if(v)hs.push(["Authorization","Bearer "+v])}
else if(k==="header"){v=real?part(s,"key"):"YOUR_API_KEY";if(v)hs.push([n,v])}
else if(k==="query"){v=real?enc(part(s,"key")):"YOUR_API_KEY";if(v)qs.push(enc(n)+"="+v)}});
var b=form.querySelector(".pg-body");if(b&&b.value!==""){body=b.value;hs.push(["Content-Type",form.querySelector(".pg-ct").value])}
return {method:method,url:base()+p+(qs.length?"?"+qs.join("&"):""),headers:hs,body:body}}
function update(){var a=alt?alt.value:"0";form.querySelectorAll(".pg-vars").forEach(function(g){g.hidden=g.getAttribute("data-server")!==String(srv.selectedIndex)});
form.querySelectorAll(".pg-scheme").forEach(function(s){s.hidden=!within(s,a)});var r=build(false);pg.querySelectorAll("code.pg-snippet").forEach(function(c){c.textContent=make[c.getAttribute("data-lang")](r)})}
function load(){form.querySelectorAll(".pg-scheme").forEach(function(s){s.querySelectorAll(".pg-secret").forEach(function(i){var v=null;try{v=store&&store.getItem(key(s,i))}catch(e){}i.value=v||""})})}
function fail(m){status.className="pg-status pg-error";status.textContent=m}
function show(res,t){status.textContent=res.status+(res.statusText?" "+res.statusText:"");var hs=[];res.headers.forEach(function(v,k){hs.push(k+": "+v)});
if(/json/i.test(res.headers.get("content-type")||"")){try{t=JSON.stringify(JSON.parse(t),null,2)}catch(e){}}if(t.length>100000)t=t.slice(0,100000)+"\n…";
[[pg.getAttribute("data-headers"),hs.join("\n")],[pg.getAttribute("data-body"),t]].forEach(function(x){var f=document.createElement("figure"),c=document.createElement("figcaption"),p=document.createElement("pre");f.className="code";c.className="code-title";c.textContent=x[0];p.tabIndex=0;p.textContent=x[1];f.appendChild(c);f.appendChild(p);out.appendChild(f)});out.hidden=false}
form.addEventListener("input",function(e){var i=e.target;if(i.classList.contains("pg-secret")){try{if(store)store.setItem(key(i.closest(".pg-scheme"),i),i.value)}catch(x){}}else update()});
form.addEventListener("change",function(e){if(e.target===srv||e.target.classList.contains("pg-var"))load();update()});
send.addEventListener("click",function(){if(busy)return;var r=build(true),init={method:method,headers:r.headers,credentials:"omit",cache:"no-store"},req;if(r.body!==null)init.body=r.body;
status.className="pg-status";out.hidden=true;out.textContent="";var allowed=pg.getAttribute("data-origins").split(" ");
if(allowed.indexOf(origin(r.url))<0){fail(pg.getAttribute("data-elsewhere").replace("%s",allowed.join(", ")));return}try{req=new Request(r.url,init)}catch(e){fail(pg.getAttribute("data-invalid")+e.message);return}
busy=true;send.setAttribute("aria-busy","true");status.textContent=pg.getAttribute("data-sending")+" "+method+" "+r.url+"…";function done(){busy=false;send.removeAttribute("aria-busy")}
fetch(req).then(function(res){return res.text().then(function(t){show(res,t)})},function(){fail(pg.getAttribute("data-cors").replace("%s",origin(r.url)))}).then(done,done)});
form.hidden=false;load();update()})})()`
