package readerhttp

import (
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/insights"
	"github.com/galleydocs/galley/shared/insights/insightshttp"
	"github.com/galleydocs/galley/shared/reader"
)

// eventsMaxBytes bounds a post of events (48 events of GitBook's shape fit
// well within it).
const eventsMaxBytes = 64 << 10

// eventsIn is a post to a site's <site>/~gitbook/__evt: GitBook's
// {events: [SiteInsightsEvent]} as JSON (the pages' script), or the
// feedback form's fields (application/x-www-form-urlencoded).
type eventsIn struct {
	ShareKey     string `query:"shareKey" maxLength:"128"`
	OrgID        string `query:"o" maxLength:"64" doc:"GitBook's renderer names the organization; accepted, the URL's site is the one counted"`
	SiteID       string `query:"s" maxLength:"64" doc:"GitBook's renderer names the site; accepted, as o"`
	KeptShareKey string `cookie:"galley_share" maxLength:"128"`
	VisitorToken string `cookie:"galley_visitor" maxLength:"8192"`
	KeptPreview  string `cookie:"galley_preview" maxLength:"8192"`
	ContentType  string `header:"Content-Type" maxLength:"256"`
	Origin       string `header:"Origin" maxLength:"2048"`
	FetchSite    string `header:"Sec-Fetch-Site" maxLength:"32"`
	UserAgent    string `header:"User-Agent" maxLength:"1024"`
	DNT          string `header:"DNT" maxLength:"8"`
	GPC          string `header:"Sec-GPC" maxLength:"8"`
	RawBody      []byte `doc:"{events: [...]} as JSON (GitBook's SiteInsightsEvent), or the feedback form's fields"`
	sitePath     string
	origin       string
	unsigned     map[string]string
	addr         string
	host         string // the host posted to (the proxy origin's, forwarded)
}

// Resolve reads the site's root path (the URL's path before the events
// path), the client's address and the URL's unsigned claims.
func (in *eventsIn) Resolve(ctx huma.Context) []error {
	page := pageIn{}
	if errs := page.Resolve(ctx); len(errs) > 0 {
		return errs
	}
	root, ok := strings.CutSuffix(page.path, "/"+reader.EventsPath)
	if !ok {
		return []error{&huma.ErrorDetail{Location: "path", Message: "events are posted to <site>/" + reader.EventsPath}}
	}
	in.sitePath, in.origin, in.unsigned = root, page.origin, page.unsigned
	in.addr = insightshttp.ClientAddr(ctx.Context(), ctx.RemoteAddr())
	in.host = ctx.Host()
	if page.origin != "" {
		in.host = strings.TrimPrefix(page.origin, "https://")
	}
	return nil
}

// crossSite tells a browser's post from another site's page: its
// Sec-Fetch-Site says so, or its Origin is not the host it posts to.
// (Other clients send neither and are not refused: the events are a
// visitor's own.)
func (in *eventsIn) crossSite() bool {
	if in.FetchSite != "" && in.FetchSite != "same-origin" && in.FetchSite != "none" {
		return true
	}
	if in.Origin == "" {
		return false
	}
	u, err := url.Parse(in.Origin)
	return err != nil || !strings.EqualFold(u.Host, in.host)
}

// eventsOut is the answer: 204 to the script, a redirect back to the page
// to the form.
type eventsOut struct {
	Status       int
	Location     string `header:"Location"`
	CacheControl string `header:"Cache-Control"`
}

// registerEvents adds the route the pages post their insights events to.
func registerEvents(api *httpapi.API, s *reader.Service) {
	handle := func(ctx context.Context, in *eventsIn) (*eventsOut, error) {
		if in.crossSite() {
			return nil, apperr.Forbiddenf("events are posted by the site's own pages, not from %s", in.Origin)
		}
		req := reader.TrackRequest{AppURL: httpapi.AppURL(ctx), Origin: in.origin, SitePath: in.sitePath,
			KeptShareKey: in.ShareKey, KeptVisitorToken: in.VisitorToken, KeptPreview: in.KeptPreview, Unsigned: in.unsigned,
			Visitor: insights.Visitor{Addr: in.addr, UserAgent: in.UserAgent, NoTrack: insightshttp.NoTrack(in.DNT, in.GPC)}}
		if req.KeptShareKey == "" {
			req.KeptShareKey = in.KeptShareKey
		}
		mt, _, _ := mime.ParseMediaType(in.ContentType)
		form := mt == "application/x-www-form-urlencoded"
		switch {
		case form:
			f, err := url.ParseQuery(string(in.RawBody))
			if err != nil {
				return nil, apperr.Field("body", "a form's fields")
			}
			if req.Events, err = feedbackEvents(f); err != nil {
				return nil, err
			}
			req.Return = f.Get("url")
		case mt == "application/json" || mt == "text/plain":
			// text/plain: navigator.sendBeacon's type for a string body.
			var b insightshttp.TrackEventsBody
			if err := json.Unmarshal(in.RawBody, &b); err != nil {
				return nil, apperr.Field("body", "{events: [...]} as JSON")
			}
			req.Events = insightshttp.Events(b.Events)
			if len(b.Events) > 0 && b.Events[0].Session.UserAgent != "" {
				req.Visitor.UserAgent = b.Events[0].Session.UserAgent
			}
		default:
			return nil, apperr.Field("Content-Type", "application/json, or a form (application/x-www-form-urlencoded)")
		}
		back, err := s.Track(ctx, req)
		if err != nil {
			return nil, err
		}
		if form {
			// See Other: the browser gets the page again, at its thank-you
			// note.
			return &eventsOut{Status: http.StatusSeeOther, Location: back, CacheControl: "no-store"}, nil
		}
		return &eventsOut{Status: http.StatusNoContent, CacheControl: "no-store"}, nil
	}
	for _, p := range []struct{ id, path string }{
		{"trackSiteEventsById", "/sites/{orgId}/" + reader.EventsPath},
		{"trackSiteEvents", "/sites/{orgId}/{basename}/" + reader.EventsPath},
		{"trackProxiedSiteEvents", proxyPrefix + "{path...}"},
	} {
		httpapi.Register(api, httpapi.Op{ID: p.id, Needs: access.Anyone, Method: http.MethodPost, Path: p.path, Tag: "Reader", Hidden: true,
			Status: http.StatusNoContent, MaxBodyBytes: eventsMaxBytes, Also: map[int]string{http.StatusSeeOther: "The feedback form's post: back to its page"},
			Summary: "A published site's pages post their insights events here, as the visitor (docs/insights.md, \"The reader\")"}, handle)
	}
}

// feedbackEvents are the events of the feedback form's post: the vote,
// and the comment when there is one (GitBook's page_post_feedback and
// page_post_feedback_comment).
func feedbackEvents(f url.Values) ([]insights.Event, error) {
	rating := f.Get("rating")
	if rating == "" {
		return nil, apperr.Field("rating", "choose a rating: one of %s", strings.Join(insights.Ratings, ", "))
	}
	if len(f.Get("url")) > 4096 {
		return nil, apperr.Field("url", "at most 4096 characters")
	}
	base := insights.Event{Type: insights.PagePostFeedback, URL: f.Get("url"), Page: f.Get("page"), Space: f.Get("space"),
		SiteSpace: f.Get("siteSpace"), SiteSection: f.Get("siteSection"), Revision: f.Get("revision"), Rating: rating}
	out := []insights.Event{base}
	if c := strings.TrimSpace(f.Get("comment")); c != "" {
		comment := base
		comment.Type, comment.Comment = insights.PagePostFeedbackComment, c
		out = append(out, comment)
	}
	return out, nil
}
