package reader

// Results as you type under the header's search box: a progressive
// enhancement of the plain search form (which leads to <site>/~search and
// works without JavaScript). The script asks the search page for its JSON
// (format=json, same cookies and share key: the visitor's view), debounced,
// the latest query winning (earlier requests are aborted and their answers
// dropped), and shows the results grouped by site space then page, as
// the ARIA combobox pattern: the input is a combobox controlling a listbox
// of options in groups; ArrowDown/ArrowUp move the active option
// (aria-activedescendant), Enter opens it (or, with none active, submits
// the form to the results page), Escape closes the list. Options are not
// links (no interactive content inside options); a click opens them too.
// The form hears a "galley-search" event with each answer shown ({query,
// results}: its number of pages) and a "galley-open" event with each
// result opened ({query, href, page, space}): the insights script
// (insights.go) counts them.

const searchCSS = `form.search{position:relative}` +
	`.search-pop{position:absolute;top:calc(100% + 4px);inset-inline-start:0;z-index:10;width:min(28rem,calc(100vw - 32px));max-height:70vh;overflow:auto;` +
	`background:var(--bg);border:1px solid var(--line);border-radius:var(--radius);padding:6px;box-shadow:0 6px 24px rgba(0,0,0,.18)}` +
	`.search-group-title{padding:6px 10px 2px;font-size:12px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}` +
	`.search-option{padding:5px 10px;border-radius:6px;cursor:pointer}.search-option[aria-selected=true]{background:var(--soft);box-shadow:inset 3px 0 var(--primary-text)}` +
	`.search-option:hover{background:var(--soft)}.search-title{display:block;font-weight:600}` +
	`.search-sub{display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden;font-size:13px;color:var(--muted)}` +
	`.search-section{padding-inline-start:24px}.search-section .search-title{font-weight:400}.search-status{margin:4px 10px;color:var(--muted)}`

// searchScript's words are its element's (data-results, data-count,
// data-none: in the page's language). It must hold no "{{": it is part of
// the page's template.
const searchScript = `(function(){var sc=document.currentScript,f=document.querySelector("form.search"),q=f&&f.querySelector("input[name=q]");if(!q||!window.fetch||!window.URLSearchParams)return;
function el(t,c,s){var e=document.createElement(t);if(c)e.className=c;if(s)e.textContent=s;return e}
var pop=el("div","search-pop"),st=el("p","search-status"),lb=el("div","search-list"),opts=[],cur=-1,seq=0,timer,ctl;
st.setAttribute("role","status");lb.id="search-results";lb.setAttribute("role","listbox");lb.setAttribute("aria-label",sc.getAttribute("data-results")||"Search results");
pop.hidden=true;pop.appendChild(st);pop.appendChild(lb);f.appendChild(pop);
q.setAttribute("role","combobox");q.setAttribute("aria-autocomplete","list");q.setAttribute("aria-expanded","false");q.setAttribute("aria-controls",lb.id);q.setAttribute("autocomplete","off");
function pick(i){if(opts[cur])opts[cur].removeAttribute("aria-selected");cur=i;if(!opts[i]){cur=-1;q.removeAttribute("aria-activedescendant");return}opts[i].setAttribute("aria-selected","true");q.setAttribute("aria-activedescendant",opts[i].id);opts[i].scrollIntoView({block:"nearest"})}
function show(on){pop.hidden=!on;q.setAttribute("aria-expanded",on&&opts.length?"true":"false");if(!on)pick(-1)}
function open(o){if(o.opened)return;o.opened=true;var v=q.value.trim();f.dispatchEvent(new CustomEvent("galley-open",{detail:{query:v,href:o.getAttribute("data-href"),page:o.getAttribute("data-page"),space:o.getAttribute("data-space")}}));location.href=o.getAttribute("data-href")}
function opt(p,href,title,sub,cls){var o=el("div","search-option"+(cls||""));o.id="search-option-"+opts.length;o.setAttribute("role","option");o.setAttribute("data-href",href);if(p.id){o.setAttribute("data-page",p.id);o.setAttribute("data-space",p.spaceId||"")}
o.appendChild(el("span","search-title",title));if(sub)o.appendChild(el("span","search-sub",sub));o.onmousedown=function(e){e.preventDefault()};o.onclick=function(){open(o)};opts.push(o);return o}
function render(d){var pages=0;lb.textContent="";opts=[];cur=-1;q.removeAttribute("aria-activedescendant");
(d.groups||[]).forEach(function(g,i){var gr=el("div"),h=el("div","search-group-title",g.title);gr.setAttribute("role","group");h.id="search-group-"+i;h.setAttribute("role","presentation");gr.setAttribute("aria-labelledby",h.id);gr.appendChild(h);
(g.pages||[]).forEach(function(p){var secs=p.sections||[],sub=(p.ancestors||[]).join(" › ");secs.forEach(function(s){if(!s.heading&&!sub)sub=s.excerpt});gr.appendChild(opt(p,p.url,p.title,sub||p.description));pages++;
secs.forEach(function(s){if(s.heading)gr.appendChild(opt(p,s.url,s.heading,s.excerpt," search-section"))})});lb.appendChild(gr)});
lb.hidden=!opts.length;st.textContent=opts.length?(sc.getAttribute("data-count")||"%d").replace("%d",opts.length):sc.getAttribute("data-none");st.className="search-status"+(opts.length?" visually-hidden":"");show(true);
f.dispatchEvent(new CustomEvent("galley-search",{detail:{query:q.value.trim(),results:pages}}))}
function ask(){var v=q.value.trim();if(ctl)ctl.abort();ctl=null;var n=++seq;if(!v){show(false);return}
var p=new URLSearchParams(new FormData(f));p.set("format","json");if(window.AbortController)ctl=new AbortController();
fetch(f.action+"?"+p,{headers:{Accept:"application/json"},credentials:"same-origin",signal:ctl&&ctl.signal}).then(function(r){return r.ok?r.json():null}).then(function(d){if(d&&n===seq&&document.activeElement===q)render(d)}).catch(function(){})}
function go(e){if(!pop.hidden&&opts[cur]){e.preventDefault();open(opts[cur])}}
f.addEventListener("submit",go);
q.addEventListener("input",function(){clearTimeout(timer);timer=setTimeout(ask,150)});
q.addEventListener("focus",function(){if(q.value.trim()&&lb.childNodes.length)show(true)});
q.addEventListener("blur",function(){show(false)});
q.addEventListener("keydown",function(e){var n=opts.length;
if(e.key==="ArrowDown"||e.key==="ArrowUp"){if(!n)return;e.preventDefault();if(pop.hidden){show(true)}pick(e.key==="ArrowDown"?(cur+1)%n:(cur<=0?n:cur)-1)}
else if(e.key==="Enter")go(e)
else if(e.key==="Escape"){if(!pop.hidden){e.preventDefault();show(false)}}})})()`
