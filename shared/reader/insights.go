package reader

// Site insights on the reader's side (docs/insights.md, "The reader"):
// every page carries a small script posting its events (page views,
// searches and the results opened, clicks of links to other pages, page
// feedback) to <site>/~gitbook/__evt, GitBook's own path, on the site's
// origin: no third-party request, no cookie (the visitor is the insights
// service's salted hash of the address and user agent). Page feedback,
// when the site's `feedback` setting is on, is also a plain form posting
// to the same route, so that it works without JavaScript.

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/insights"
	"github.com/galleydocs/galley/shared/sites"
)

// EventsPath is where a site's pages post their events, under the site's
// root (GitBook's renderer posts to the same path).
const EventsPath = "~gitbook/__evt"

// FeedbackAnchor is the id of the thank-you note a feedback form's
// redirect leads to (shown by CSS :target without JavaScript).
const FeedbackAnchor = "feedback-thanks"

// Insights is what the reader asks of the insights family
// (insights.Service): record a batch of a site's events as its visitor.
type Insights interface {
	Track(ctx context.Context, orgID, siteID string, events []insights.Event, v insights.Visitor) error
}

// TrackRequest is a batch of events a visitor's page posts to its site's
// EventsPath.
type TrackRequest struct {
	// AppURL is the public URL; Origin a proxy origin's scheme and host
	// (as Request's).
	AppURL, Origin string
	// SitePath is the escaped path of the site's root (the URL's path
	// before EventsPath).
	SitePath string
	// What the visitor keeps (cookies) and the URL's unsigned claims, as
	// for a page: the events are recorded as the visitor the site
	// resolves for them.
	KeptShareKey, KeptVisitorToken, KeptPreview string
	Unsigned                                    map[string]string
	Events                                      []insights.Event
	Visitor                                     insights.Visitor
	// Return is the page a feedback form was on (its path): the answer
	// leads back there, to its thank-you note.
	Return string
}

// Track records a visitor's events on the site whose root is
// req.SitePath, as that visitor (the site token the sites family issues
// them), and answers where a form's post leads back to: req.Return's page
// at FeedbackAnchor when it is a page of the site, else the site's root.
// A member's preview records nothing. Errors: NotFound (no such published
// site for the visitor), Unauthorized (a visitor-auth site without a
// valid token), Invalid naming
// events[i].<field>.
func (s *Service) Track(ctx context.Context, req TrackRequest) (string, error) {
	base := req.AppURL
	if req.Origin != "" {
		base = req.Origin
	}
	vis := sites.Visitor{Token: req.KeptVisitorToken, Unsigned: req.Unsigned, Preview: req.KeptPreview}
	resolve := func(key string) (sites.Resolved, error) {
		raw := strings.TrimRight(base, "/") + strings.TrimRight(req.SitePath, "/") + "/"
		if key != "" {
			raw += "?shareKey=" + url.QueryEscape(key)
		}
		return s.sites.ResolveURL(ctx, raw, req.AppURL, vis)
	}
	res, err := resolve(req.KeptShareKey)
	if apperr.Is(err, apperr.Forbidden) && req.KeptShareKey != "" {
		res, err = resolve("")
	}
	if err != nil {
		return "", err
	}
	back := res.SiteBasePath
	if r := req.Return; strings.HasPrefix(r, res.SiteBasePath) && !strings.ContainsAny(r, "\\#\r\n") && !strings.Contains(r, "//") {
		back = r + "#" + FeedbackAnchor
	}
	if res.Preview != "" {
		// Members previewing a site are not its readers.
		return back, nil
	}
	caller, err := s.users.Authenticate(ctx, res.APIToken)
	if err != nil {
		return "", err
	}
	for i, e := range req.Events {
		if strings.HasPrefix(e.URL, "/") {
			// The feedback form names its page by path: the page's URL
			// (its webhook's url) is on the origin posted to.
			req.Events[i].URL = strings.TrimRight(base, "/") + e.URL
		}
	}
	site := res.View.Site
	if s.insights == nil {
		return "", errors.New("reader: no insights service")
	}
	return back, s.insights.Track(access.WithCaller(ctx, caller), site.OrgID, site.ID, req.Events, req.Visitor)
}

// insightsData is what a page's insights script and feedback form carry:
// where events go and where they happen.
type insightsData struct {
	Endpoint                            string
	Section, SiteSpace, Space, Revision string
	Page                                string
	// Return is the page's path (with the share key's query): where a
	// feedback form's post leads back.
	Return string
	// Feedback shows the feedback form (the `feedback` setting is on),
	// in the page's language (words, Feedback...).
	Feedback bool
}

// insightsOf is a page's insights data; nil on a member's preview (not
// counted) and on pages of no page.
func (st *site) insightsOf(p *navPage) *insightsData {
	if p == nil || st.res.Preview != "" {
		return nil
	}
	d := &insightsData{Endpoint: st.res.SiteBasePath + EventsPath + st.query, SiteSpace: st.res.SiteSpace.ID, Space: st.res.Space.ID,
		Revision: st.revision, Page: p.ID, Return: st.pageURL(p)}
	if st.res.Section != nil {
		d.Section = st.res.Section.ID
	}
	f, _ := st.custom["feedback"].(map[string]any)
	d.Feedback, _ = f["enabled"].(bool)
	return d
}

// insightsCSS styles the feedback form and its thank-you note (shown by
// :target after the form's redirect, or by the script).
const insightsCSS = `.feedback-box{margin-top:32px;padding:12px 16px;border:1px solid var(--line);border-radius:var(--radius)}` +
	`.feedback fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center}.feedback legend{float:left;font-weight:600;margin-right:8px}` +
	`.feedback label{cursor:pointer}.feedback textarea{display:block;width:100%;margin:4px 0 8px;font:inherit;padding:6px 8px;border:1px solid var(--muted);border-radius:var(--small-radius);background:var(--bg);color:var(--fg)}` +
	`.feedback-comment{display:block;margin-top:10px;font-size:14px;color:var(--muted)}` +
	`.feedback button{font:inherit;padding:3px 14px;border:1px solid var(--primary);border-radius:var(--button-radius);background:var(--primary-text);color:var(--bg);cursor:pointer}` +
	`.feedback-thanks{display:none;margin:0;font-weight:600}.feedback-thanks:target,.feedback-thanks.shown{display:block}` +
	`.feedback-thanks:target+.feedback,.feedback-thanks.shown+.feedback{display:none}`

// insightsScript posts the page's events to the site's EventsPath (its
// data-* attributes say where and on which page): a page view on load,
// the searches of the header's box (the query shown once the visitor
// pauses, with its number of results) and the results opened, clicks of
// links leading off the page, and the feedback form's vote. Events are
// batched (sent 1.5 s after the last, at once before the page goes away,
// with keepalive) without timestamps: the server's clock dates them (a
// visitor's clock may be wrong, and they are counted by day). Nothing is
// sent when the browser asks not to be
// tracked (Do-Not-Track, Global Privacy Control). The session is a random
// id kept in sessionStorage (per tab), not a cookie. It must hold no
// "{{": it is part of the page's template.
const insightsScript = `(function(){var me=document.currentScript,d=me&&me.dataset;if(!d||!window.fetch||!window.JSON)return;
var off=navigator.doNotTrack==="1"||navigator.globalPrivacyControl===true,q=[],timer,sid="",pend=null,ptimer;
try{sid=sessionStorage.getItem("galley-session")||"";if(!sid){sid=Math.random().toString(36).slice(2)+Date.now().toString(36);sessionStorage.setItem("galley-session",sid)}}catch(e){}
function loc(){return{url:location.origin+location.pathname,siteSection:d.section||null,siteSpace:d.siteSpace||null,siteShareKey:null,space:d.space||null,revision:d.revision||null,page:d.page||null}}
function send(){clearTimeout(timer);if(!q.length)return;var b=JSON.stringify({events:q});q=[];
fetch(d.endpoint,{method:"POST",headers:{"Content-Type":"application/json"},body:b,keepalive:true,credentials:"same-origin"}).catch(function(){})}
function track(e,now){if(off)return;e.session=sid?{sessionId:sid}:{};e.location=loc();q.push(e);
if(now||q.length>=20)send();else{clearTimeout(timer);timer=setTimeout(send,1500)}}
function commit(){clearTimeout(ptimer);if(pend){track({type:"search_type_query",query:pend.query,resultsCount:pend.results});pend=null}}
track({type:"page_view"});
addEventListener("pagehide",function(){commit();send()});
document.addEventListener("visibilitychange",function(){if(document.visibilityState==="hidden"){commit();send()}});
var f=document.querySelector("form.search");
if(f){f.addEventListener("galley-search",function(e){clearTimeout(ptimer);pend=e.detail;ptimer=setTimeout(commit,1500)});
f.addEventListener("galley-open",function(e){var x=e.detail;commit();track({type:"search_open_result",query:x.query,result:x.page?{spaceId:x.space,pageId:x.page}:{recordId:x.href.slice(0,128)}},true)})}
document.addEventListener("click",function(e){var a=e.target&&e.target.closest&&e.target.closest("a[href]"),u;if(!a)return;try{u=new URL(a.href,location.href)}catch(x){return}
if((u.protocol!=="http:"&&u.protocol!=="https:")||(u.origin===location.origin&&u.pathname===location.pathname))return;
var pos=a.closest(".site-header")?"header":a.closest(".site-footer")?"footer":a.closest(".sidebar")?"sidebar":"content";
track({type:"link_click",link:{target:{kind:"url",url:u.origin+u.pathname},position:pos}})},true);
var fb=document.querySelector("form.feedback"),th=document.getElementById("feedback-thanks");
if(fb&&th)fb.addEventListener("submit",function(e){var r=fb.querySelector("input[name=rating]:checked"),c=fb.querySelector("textarea");if(!r)return;e.preventDefault();
var t=c?c.value.trim():"";track({type:"page_post_feedback",feedback:{rating:r.value}});if(t)track({type:"page_post_feedback_comment",feedback:{rating:r.value,comment:t}});send();
th.className+=" shown";th.focus()})})()`
