package reader

// The page template and the site's style sheet. Pages work without
// JavaScript: tabs are radio buttons, expandables and menus <details>; one
// script shows the code blocks' copy buttons, another makes the search
// box show results as you type, the third posts the page's insights
// events (insights.go; the feedback form is a plain form without it). All
// are allowed by their hashes (security.go): a page has no other script,
// no event handler attribute and no style attribute.

// copyScript shows the theme's menu (theme.go), the code blocks' copy buttons, labelled in the page's
// language (its element's data-copy and data-copied), and the page
// action copying the page's Markdown (fetched from its .md URL, on the
// page's origin: connect-src 'self'). It must hold no
// "{{": it is part of the page's template.
const copyScript = `(function(){var s=document.currentScript,copy=s.getAttribute("data-copy"),copied=s.getAttribute("data-copied");` + themeMenuScript + `document.querySelectorAll("button.copy-page").forEach(function(b){var label=b.textContent;b.hidden=false;b.onclick=function(){fetch(b.getAttribute("data-src"),{credentials:"same-origin"}).then(function(r){if(!r.ok)throw r.status;return r.text()}).then(function(t){return navigator.clipboard.writeText(t)}).then(function(){b.textContent=copied;setTimeout(function(){b.textContent=label},1500)}).catch(function(){})}});document.querySelectorAll("button.copy").forEach(function(b){b.textContent=copy;b.hidden=false;b.onclick=function(){var c=b.parentNode.querySelectorAll(".cl");var t=c.length?Array.prototype.map.call(c,function(l){return l.textContent}).join(""):b.parentNode.querySelector("pre").textContent;navigator.clipboard.writeText(t.replace(/\n$/,"")).then(function(){b.textContent=copied;setTimeout(function(){b.textContent=copy},1500)})}})})()`

const pageTemplate = `<!doctype html>
<html lang="{{.Lang}}"{{if eq .Dir "rtl"}} dir="rtl"{{end}}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
{{- if .NoIndex}}
<meta name="robots" content="noindex">{{end}}
{{- with .Description}}
<meta name="description" content="{{.}}">{{end}}
{{- with .Canonical}}
<link rel="canonical" href="{{.}}">{{end}}
{{- with .Markdown}}
<link rel="alternate" type="text/markdown" href="{{.}}">{{end}}
<meta property="og:type" content="article">
<meta property="og:site_name" content="{{.SiteTitle}}">
<meta property="og:title" content="{{if .PageTitle}}{{.PageTitle}}{{else}}{{.SiteTitle}}{{end}}">
{{- with .Description}}
<meta property="og:description" content="{{.}}">{{end}}
{{- with .Canonical}}
<meta property="og:url" content="{{.}}">{{end}}
{{- with .OGImage}}
<meta property="og:image" content="{{.}}">
<meta name="twitter:card" content="summary_large_image">{{end}}
{{- with .Favicon}}
<link rel="icon" href="{{.}}">{{end}}
<style>{{css .CSS}}{{css .Vars}}{{css .PageCSS}}</style>
{{- if .ThemeDefault}}
<style id="theme-dark" media="(prefers-color-scheme: dark)">{{css .DarkCSS}}</style>
<script data-default="{{.ThemeDefault}}">` + themeScript + `</script>{{end}}
</head>
<body{{with .BodyClass}} class="{{.}}"{{end}}>
<a class="skip" href="#content">{{.W.SkipToContent}}</a>
{{- with .Announcement}}
<aside class="announcement announcement-{{.Style}}" aria-label="{{$.W.Announcement}}"><p>{{.Message}}{{with .Link}} <a href="{{.Href}}"{{if .NewTab}} target="_blank" rel="noopener"{{end}}>{{.Title}}</a>{{end}}</p></aside>{{end}}
<header class="site-header">
<a class="brand" href="{{.Home}}">{{if .Logo}}<img class="logo{{if .LogoDark}} logo-light{{end}}" src="{{.Logo}}" alt="">{{with .LogoDark}}<img class="logo logo-dark" src="{{.}}" alt="">{{end}}{{end}}<span>{{.SiteTitle}}</span></a>
{{- if .Top}}
<nav class="sections" aria-label="{{.W.Sections}}"><ul>
{{- range .Top}}{{if .Section}}<li><a href="{{.Section.Href}}"{{if .Section.Current}} aria-current="true"{{end}}{{if .Section.NewTab}} target="_blank" rel="noopener"{{end}}>{{.Section.Title}}</a></li>
{{- else}}<li><details class="menu"><summary{{if .Group.Current}} class="current"{{end}}>{{.Group.Title}}</summary><ul>
{{- range .Group.Sections}}<li><a href="{{.Href}}"{{if .Current}} aria-current="true"{{end}}{{if .NewTab}} target="_blank" rel="noopener"{{end}}>{{.Title}}</a></li>{{end}}</ul></details></li>{{end}}
{{- end}}</ul></nav>{{end}}
{{- if .HeaderLinks}}
<nav class="header-links" aria-label="{{.SiteTitle}}"><ul>
{{- range .HeaderLinks}}<li>{{if .Links}}<details class="menu"><summary class="hl-{{.Style}}">{{.Title}}</summary><ul>{{if .Href}}<li>{{template "link" .}}</li>{{end}}{{range .Links}}<li>{{template "link" .}}</li>{{end}}</ul></details>{{else}}{{template "link" .}}{{end}}</li>{{end}}</ul></nav>{{end}}
{{- with .Search}}
<form class="search" role="search" action="{{.}}" method="get"><input type="search" name="q" aria-label="{{$.W.SearchLabel}}" placeholder="{{$.W.Search}}">{{with $.ShareKey}}<input type="hidden" name="shareKey" value="{{.}}">{{end}}</form>{{end}}
{{- if .ThemeDefault}}
<select class="theme-choice" aria-label="{{.W.Theme}}" hidden><option value="system">{{.W.System}}</option><option value="light">{{.W.Light}}</option><option value="dark">{{.W.Dark}}</option></select>{{end}}
{{- if .Variants}}
<details class="menu variants"><summary aria-label="Variant: {{.Variant}}">{{.Variant}}</summary><ul>
{{- range .Variants}}<li><a href="{{.Href}}"{{if .Current}} aria-current="true"{{end}}>{{.Title}}</a></li>{{end}}</ul></details>{{end}}
</header>
<div class="layout{{.LayoutClass}}">
{{- if .Sidebar}}
<details class="nav-toggle"><summary aria-controls="pages">{{.W.Menu}}</summary></details>
<nav class="sidebar" id="pages" aria-label="{{.W.Pages}}">{{.Sidebar}}</nav>{{end}}
<main id="content">
{{- if gt (len .Crumbs) 1}}
<nav class="breadcrumbs" aria-label="{{.W.Breadcrumb}}"><ol>{{range .Crumbs}}<li>{{if .Href}}<a href="{{.Href}}">{{.Title}}</a>{{else}}<span{{if .Current}} aria-current="page"{{end}}>{{.Title}}</span>{{end}}</li>{{end}}</ol></nav>{{end}}
<article>
{{- with .Cover}}
<img class="cover{{if $.CoverFull}} cover-full{{end}}" src="{{.}}" alt="">{{end}}
<h1{{if .HideTitle}} class="visually-hidden"{{end}}>{{with .Emoji}}<span class="emoji" aria-hidden="true">{{.}}</span> {{end}}{{.PageTitle}}</h1>
{{- with .PageDescription}}
<p class="description">{{.}}</p>{{end}}
{{- with .Actions}}
<nav class="page-actions" aria-label="{{$.W.PageActions}}"><ul>
{{- with .Markdown}}<li><button type="button" class="copy-page" data-src="{{.}}" hidden>{{$.W.CopyPage}}</button></li><li><a href="{{.}}" type="text/markdown">{{$.W.ViewMarkdown}}</a></li>{{end}}
{{- range .Assistants}}<li><a href="{{.Href}}" target="_blank" rel="noopener noreferrer">{{.Title}}</a></li>{{end}}</ul></nav>{{end}}
{{.Body}}
</article>
{{- with .Edit}}
<p class="edit-link"><a href="{{.Href}}"{{if .NewTab}} target="_blank"{{end}} rel="noopener">{{.Title}}</a></p>{{end}}
{{- with .Insights}}{{if .Feedback}}
<section class="feedback-box">
<p id="feedback-thanks" class="feedback-thanks" role="status" tabindex="-1">{{$.W.Feedback.Thanks}}</p>
<form class="feedback" method="post" action="{{.Endpoint}}">
<fieldset><legend>{{$.W.Feedback.Question}}</legend>
<span><input type="radio" id="feedback-good" name="rating" value="good" required> <label for="feedback-good">{{$.W.Feedback.Good}}</label></span>
<span><input type="radio" id="feedback-ok" name="rating" value="ok"> <label for="feedback-ok">{{$.W.Feedback.OK}}</label></span>
<span><input type="radio" id="feedback-bad" name="rating" value="bad"> <label for="feedback-bad">{{$.W.Feedback.Bad}}</label></span></fieldset>
<label class="feedback-comment" for="feedback-comment">{{$.W.Feedback.Comment}}</label><textarea id="feedback-comment" name="comment" rows="2" maxlength="512"></textarea>
<input type="hidden" name="page" value="{{.Page}}"><input type="hidden" name="space" value="{{.Space}}"><input type="hidden" name="siteSpace" value="{{.SiteSpace}}"><input type="hidden" name="siteSection" value="{{.Section}}"><input type="hidden" name="revision" value="{{.Revision}}"><input type="hidden" name="url" value="{{.Return}}">
<button type="submit">{{$.W.Feedback.Send}}</button>
</form></section>{{end}}{{end}}
{{- if or .Prev .Next}}
<nav class="pagination" aria-label="{{.W.Pagination}}">
{{- with .Prev}}<a class="prev" rel="prev" href="{{.Href}}"><small>{{$.W.Previous}}</small><span>{{.Title}}</span></a>{{end}}
{{- with .Next}}<a class="next" rel="next" href="{{.Href}}"><small>{{$.W.Next}}</small><span>{{.Title}}</span></a>{{end}}
</nav>{{end}}
</main>
{{- if .Outline}}
<aside class="outline" aria-labelledby="outline-title"><h2 id="outline-title">{{.W.OnThisPage}}</h2><ul>
{{- range .Outline}}<li class="level-{{.Level}}"><a href="#{{.ID}}">{{.Text}}</a></li>{{end}}</ul></aside>{{end}}
</div>
<footer class="site-footer">
{{- if .FooterGroups}}<div class="footer-groups">{{range .FooterGroups}}<nav aria-label="{{.Title}}"><h2>{{.Title}}</h2><ul>{{range .Links}}<li>{{template "link" .}}</li>{{end}}</ul></nav>{{end}}</div>{{end}}
<div class="footer-end">{{if .FooterLogo}}<img class="footer-logo{{if .FooterLogoDark}} logo-light{{end}}" src="{{.FooterLogo}}" alt="">{{with .FooterLogoDark}}<img class="footer-logo logo-dark" src="{{.}}" alt="">{{end}}{{end}}<span>{{.SiteTitle}}</span>{{with .Markdown}} · <a href="{{.}}">Markdown</a>{{end}}{{with .Copyright}}<p class="copyright">{{.}}</p>{{end}}</div></footer>
<script data-copy="{{.W.Copy}}" data-copied="{{.W.Copied}}">` + copyScript + `</script>
{{- if .Search}}
<script data-results="{{.W.Results}}" data-count="{{.W.ResultCount}}" data-none="{{.W.NoResults}}">` + searchScript + `</script>{{end}}
{{- with .Mermaid}}
<script data-src="{{.}}" data-theme="{{$.Theme}}">` + mermaidScript + `</script>{{end}}
{{- if .Playground}}
<script>` + playgroundScript + `</script>{{end}}
{{- with .Insights}}
<script data-endpoint="{{.Endpoint}}" data-section="{{.Section}}" data-site-space="{{.SiteSpace}}" data-space="{{.Space}}" data-revision="{{.Revision}}" data-page="{{.Page}}">` + insightsScript + `</script>{{end}}
</body>
</html>
{{define "link"}}<a class="hl-{{.Style}}" href="{{.Href}}"{{if .NewTab}} target="_blank" rel="noopener"{{end}}>{{.Title}}</a>{{end}}
{{define "tree"}}<ul>{{range .}}{{template "item" .}}{{end}}</ul>{{end}}
{{- define "item"}}{{template "entry" .}}{{if .Children}}{{template "tree" .Children}}{{end}}</li>{{end}}
{{- define "entry"}}<li{{if .Group}} class="group"{{end}}>{{if .Group}}<span class="group-title">{{.Title}}</span>{{else}}<a href="{{.Href}}"{{if .Current}} aria-current="page"{{end}}>{{with .Emoji}}<span class="emoji" aria-hidden="true">{{.}}</span> {{end}}{{.Title}}</a>{{end}}{{end}}`

const baseCSS = `:root{color-scheme:light dark;--bg:` + lightBg + `;--fg:#1d1d1f;--muted:#5f6368;--line:#e3e5e8;--soft:` + lightSoft + `;--radius:8px;--small-radius:6px;--button-radius:8px;` +
	`--info:#2b6cb0;--warning:#8a5a00;--danger:#c0262d;--success:#137a3f}` +
	`*{box-sizing:border-box}.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}` +
	`.api .required,.api .deprecated{font-size:.75rem;color:var(--danger);text-transform:uppercase}.api-params caption{text-align:start;font-weight:600;padding:4px 0}` +
	`.api-section{margin:.75rem 0 .25rem}.api-responses{margin:0;padding-inline-start:1.2rem}` +
	`.api-fields .depth-1{padding-inline-start:26px}.api-fields .depth-2{padding-inline-start:42px}.api-fields .depth-3{padding-inline-start:58px}.api-more,.api-param-example{font-size:14px;color:var(--muted)}` +
	`.api-example pre{max-height:24rem;overflow:auto}.api-example{margin:.5rem 0 1rem}` +
	`form.search input{font:inherit;font-size:.9rem;padding:4px 10px;border:1px solid var(--muted);border-radius:var(--radius);background:var(--bg);color:var(--fg);width:10rem}` +
	`.embed-player iframe{display:block;width:100%;aspect-ratio:16/9;border:0;border-radius:var(--radius) var(--radius) 0 0}` +
	`img.cover{display:block;width:100%;height:12rem;object-fit:cover;border-radius:var(--radius);margin:0 0 1.5rem}img.cover-full{height:18rem}` +
	`body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}` +
	`a{color:var(--primary-text)}a:focus-visible,summary:focus-visible,label:focus-visible{outline:2px solid var(--primary-text);outline-offset:2px}` +
	`.skip{position:absolute;inset-inline-start:-999px}.skip:focus{inset-inline-start:8px;top:8px;background:var(--bg);padding:4px 8px;z-index:9}` +
	`.site-header{display:flex;flex-wrap:wrap;align-items:center;gap:16px;padding:12px 24px;border-bottom:1px solid var(--line)}` +
	`.brand{display:flex;align-items:center;gap:8px;font-weight:600;color:var(--fg);text-decoration:none}.logo{height:28px;width:auto}.logo-dark{display:none}` +
	`.sections ul,.menu ul,.header-links ul,.sidebar ul,.outline ul,.breadcrumbs ol{list-style:none;margin:0;padding:0}` +
	`.sections>ul{display:flex;flex-wrap:wrap;gap:4px 16px}.sections a{color:var(--muted);text-decoration:none}.sections a[aria-current]{color:var(--primary-text);font-weight:600}` +
	`.menu{position:relative}.menu summary{cursor:pointer;color:var(--muted)}.menu ul{position:absolute;z-index:5;background:var(--bg);border:1px solid var(--line);border-radius:var(--radius);padding:6px 10px;min-width:160px}` +
	`.variants{margin-inline-start:auto}.layout{display:grid;grid-template-columns:260px minmax(0,1fr) 220px;gap:32px;max-width:1400px;margin:0 auto;padding:0 24px}` +
	`.sidebar{padding:24px 0;font-size:15px}.sidebar ul ul{padding-inline-start:14px}.sidebar a{display:block;padding:3px 8px;border-radius:var(--small-radius);color:var(--fg);text-decoration:none}` +
	`.sidebar a:hover{background:var(--soft)}.sidebar a[aria-current]{color:var(--primary-text);background:var(--soft);font-weight:600}` +
	`.group-title{display:block;margin-top:16px;padding:3px 8px;font-size:12px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}` +
	`.nav-toggle{display:none}main{min-width:0;padding:24px 0 48px}` +
	`.breadcrumbs ol{display:flex;flex-wrap:wrap;gap:6px;font-size:14px;color:var(--muted)}.breadcrumbs li+li::before{content:"›";margin-inline-end:6px}` +
	`h1{font-size:2.1em;line-height:1.2;margin:.4em 0}.description{font-size:1.15em;color:var(--muted)}` +
	`h2,h3,h4,h5,h6{line-height:1.3;margin:1.6em 0 .5em}.anchor{opacity:0;text-decoration:none;margin-inline-start:4px}h2:hover .anchor,h3:hover .anchor,h4:hover .anchor,.anchor:focus{opacity:1}` +
	`code{font:0.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);padding:.1em .3em;border-radius:4px}` +
	`blockquote{margin:1em 0;padding:.2em 1em;border-inline-start:3px solid var(--line);color:var(--muted)}` +
	`img{max-width:100%;height:auto}figure{margin:1.2em 0}figcaption{font-size:14px;color:var(--muted);text-align:center}` +
	`.code{position:relative;border:1px solid var(--line);border-radius:var(--radius);overflow:hidden}.code-title{text-align:start;padding:6px 12px;border-bottom:1px solid var(--line);font:13px ui-monospace,monospace;color:var(--muted)}` +
	`.code pre{margin:0;padding:12px 14px;overflow-x:auto;font-size:14px;line-height:1.5}.code pre code{background:none;padding:0}.code.wrap pre{white-space:pre-wrap}` +
	`.copy{position:absolute;inset-inline-end:8px;bottom:8px;font-size:12px;padding:2px 8px;border:1px solid var(--line);border-radius:var(--small-radius);background:var(--bg);color:var(--fg);cursor:pointer}` +
	`.hint{margin:1em 0;padding:10px 14px;border-radius:var(--radius);border-inline-start:4px solid var(--info);background:var(--soft)}.hint>p{margin:.3em 0}` +
	`.hint-label{display:block;font-size:13px;font-weight:700;color:var(--info)}.hint-warning{border-color:var(--warning)}.hint-warning .hint-label{color:var(--warning)}` +
	`.hint-danger{border-color:var(--danger)}.hint-danger .hint-label{color:var(--danger)}.hint-success{border-color:var(--success)}.hint-success .hint-label{color:var(--success)}` +
	`.tabs{display:flex;flex-wrap:wrap;margin:1em 0;border:1px solid var(--line);border-radius:var(--radius)}` +
	`.tabs>input{position:absolute;opacity:0;width:1px;height:1px}.tabs>label{padding:8px 14px;cursor:pointer;color:var(--muted);border-bottom:2px solid transparent}` +
	`.tabs>input:checked+label{color:var(--fg);border-bottom-color:var(--primary);font-weight:600}.tabs>input:focus-visible+label{outline:2px solid var(--primary-text)}` +
	`.tab-panel{order:1;display:none;width:100%;padding:4px 14px;border-top:1px solid var(--line)}.tabs>input:checked+label+.tab-panel{display:block}` +
	`details.expandable{margin:1em 0;border:1px solid var(--line);border-radius:var(--radius);padding:8px 14px}details.expandable>summary{cursor:pointer;font-weight:600}` +
	`.table{overflow-x:auto;margin:1em 0}table{border-collapse:collapse;width:100%}th,td{border:1px solid var(--line);padding:6px 10px;vertical-align:top}th{background:var(--soft);text-align:start}td>p{margin:0}` +
	`.card{display:block;margin:1em 0;padding:12px 16px;border:1px solid var(--line);border-radius:var(--radius);text-decoration:none;color:var(--fg)}` +
	`.card a{text-decoration:none;color:inherit;display:block}.card-title{display:block;font-weight:600}.card-url{display:block;font-size:13px;color:var(--muted);overflow-wrap:anywhere}` +
	`.caption{font-size:14px;color:var(--muted)}.file .card-title::before{content:"⤓ "}` +
	`.math{margin:1em 0;text-align:center}.stepper{counter-reset:step;list-style:none;padding-inline-start:0}.step{counter-increment:step;position:relative;padding-inline-start:44px;margin:1em 0}` +
	`.step::before{content:counter(step);position:absolute;inset-inline-start:0;top:0;width:28px;height:28px;border-radius:50%;background:var(--primary-text);color:var(--bg);text-align:center;line-height:28px;font-size:14px}` +
	`.diagram{overflow-x:auto;text-align:center}.diagram svg{max-width:100%;height:auto}.columns{display:flex;gap:24px}.column{flex:1 1 0;min-width:0}.align-center{text-align:center}.align-right{text-align:right}` +
	`.api-head{font-family:ui-monospace,monospace}.method{display:inline-block;padding:0 6px;border-radius:4px;font-size:13px;font-weight:700;background:var(--soft)}` +
	`.method-get{color:var(--success)}.method-post{color:var(--info)}.method-put,.method-patch{color:var(--warning)}.method-delete{color:var(--danger)}.api-spec{font-size:13px;color:var(--muted)}` +
	`.tasks{list-style:none;padding-inline-start:4px}.tasks>li{display:flex;gap:8px;align-items:baseline}.tasks>li>p{margin:.2em 0}.edit-link{margin:32px 0 0;font-size:14px}.pagination{display:flex;justify-content:space-between;gap:16px;margin-top:48px}` +
	`.pagination a{flex:1;padding:12px 16px;border:1px solid var(--line);border-radius:var(--radius);text-decoration:none}.pagination .next{text-align:end}` +
	`.pagination small{display:block;color:var(--muted)}.outline{padding:24px 0;font-size:14px}.outline h2{font-size:13px;margin:0 0 8px;color:var(--muted);text-transform:uppercase}` +
	`.outline a{color:var(--muted);text-decoration:none}.outline .level-2{padding-inline-start:12px}.outline .level-3{padding-inline-start:24px}` +
	`.site-footer{border-top:1px solid var(--line);padding:16px 24px;color:var(--muted);font-size:14px}` +
	`.header-links>ul,.footer-groups{display:flex;flex-wrap:wrap;align-items:center;gap:6px 14px}.header-links a{text-decoration:none}.hl-link{color:var(--muted)}` +
	`.header-links .hl-button-primary,.header-links .hl-button-secondary{display:inline-block;padding:3px 12px;border-radius:var(--button-radius);border:1px solid var(--primary)}` +
	`.header-links .hl-button-primary{background:var(--primary-text);color:var(--bg)}.header-links .hl-button-secondary{color:var(--primary-text)}` +
	`.footer-groups{align-items:flex-start;gap:16px 48px;margin-bottom:16px}.site-footer h2{font-size:13px;margin:0 0 6px;text-transform:uppercase}` +
	`.site-footer nav ul{list-style:none;margin:0;padding:0}.site-footer nav a{color:var(--fg)}.footer-logo{height:24px;width:auto;vertical-align:middle;margin-inline-end:8px}.copyright{margin:6px 0 0}` +
	`.announcement{padding:8px 24px;border-bottom:1px solid var(--line);background:var(--soft);border-inline-start:4px solid var(--info)}.announcement p{margin:0}` +
	`.announcement-warning{border-inline-start-color:var(--warning)}.announcement-danger{border-inline-start-color:var(--danger)}.announcement-success{border-inline-start-color:var(--success)}` +
	`.page-actions ul{display:flex;flex-wrap:wrap;gap:6px 16px;list-style:none;margin:0 0 1em;padding:0;font-size:14px}` +
	`.page-actions button{font:inherit;padding:0;border:0;background:none;color:var(--primary-text);cursor:pointer;text-decoration:underline}` +
	`.code,.api-head,.api-example{direction:ltr}[dir=rtl] .breadcrumbs li+li::before{content:"‹"}` +
	`[dir=rtl] .search-option[aria-selected=true]{box-shadow:inset -3px 0 var(--primary-text)}` +
	`@media (max-width:1100px){.layout{grid-template-columns:240px minmax(0,1fr)}.outline{display:none}}` +
	`@media (max-width:760px){.layout{display:block;padding:0 16px}.nav-toggle{display:block;margin-top:12px}.nav-toggle>summary{cursor:pointer;font-weight:600}` +
	`.sidebar{display:none;padding:8px 0}.nav-toggle[open]+.sidebar{display:block}.columns{flex-direction:column}.site-header{padding:12px 16px}}`

// darkVars are the colours of the dark theme.
const darkVars = `:root{--bg:` + darkBg + `;--fg:#e6e7e9;--muted:#a0a4aa;--line:#2c2e33;--soft:` + darkSoft + `;--info:#79a8ff;--warning:#f0b54a;--danger:#ff7b72;--success:#4fd18b}` +
	`.logo-light{display:none}.logo-dark{display:inline}`
