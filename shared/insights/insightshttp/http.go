// Package insightshttp is the insights family's HTTP layer: GitBook's
// site insights operations (trackEventsInSiteById, aggregateSiteEvents,
// listSiteVisitorSegments) on the service of package insights.
package insightshttp

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/awslabs/aws-lambda-go-api-proxy/core"
	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/insights"
)

// EventSession is an event's session (GitBook's SiteInsightsEventSession).
// Cookies are accepted and not read.
type EventSession struct {
	VisitorID         string            `json:"visitorId,omitempty" maxLength:"128" doc:"Not kept: the visitor is a hash of the address and user agent with the day's salt"`
	SessionID         string            `json:"sessionId,omitempty" maxLength:"128" doc:"Kept as a hash with the day's salt"`
	Cookies           map[string]string `json:"cookies,omitempty" doc:"Accepted and not read"`
	IP                string            `json:"ip,omitempty" maxLength:"64" doc:"The visitor's address (default: the request's); hashed, never kept"`
	UserAgent         string            `json:"userAgent,omitempty" maxLength:"1024"`
	Language          *string           `json:"language,omitempty" nullable:"true" maxLength:"64"`
	Referrer          *string           `json:"referrer,omitempty" nullable:"true" maxLength:"2048"`
	VisitorAuthToken  *string           `json:"visitorAuthToken,omitempty" nullable:"true" maxLength:"8192" doc:"Deprecated by GitBook; not read"`
	VisitorAuthClaims map[string]any    `json:"visitorAuthClaims,omitempty" doc:"The visitor's claims: the segment"`
}

// EventLocation is where an event happened (SiteInsightsEventLocation).
type EventLocation struct {
	URL            string  `json:"url" maxLength:"2048"`
	DisplayContext string  `json:"displayContext,omitempty" enum:"site,server,embed,mcp"`
	SiteSection    *string `json:"siteSection,omitempty" nullable:"true" maxLength:"64"`
	SiteSpace      *string `json:"siteSpace,omitempty" nullable:"true" maxLength:"64"`
	SiteShareKey   *string `json:"siteShareKey,omitempty" nullable:"true" maxLength:"128"`
	Space          *string `json:"space,omitempty" nullable:"true" maxLength:"64"`
	Revision       *string `json:"revision,omitempty" nullable:"true" maxLength:"64"`
	Page           *string `json:"page,omitempty" nullable:"true" maxLength:"64"`
}

// SearchResult is the result a search_open_result opened.
type SearchResult struct {
	SpaceID  string `json:"spaceId,omitempty" maxLength:"64"`
	PageID   string `json:"pageId,omitempty" maxLength:"64"`
	RecordID string `json:"recordId,omitempty" maxLength:"128"`
}

// Feedback is a page feedback's rating and comment.
type Feedback struct {
	Rating  string `json:"rating" enum:"bad,ok,good"`
	Comment string `json:"comment,omitempty" maxLength:"512"`
}

// Link is a clicked link (SiteInsightsEventLinkClick's link).
type Link struct {
	Target   map[string]any `json:"target" doc:"A ContentRef: kind and its value"`
	Position string         `json:"position" enum:"announcement,header,footer,sidebar,content"`
}

// Event is one event (GitBook's SiteInsightsEvent: its fields for every
// type; the ones of other types are accepted and not read).
type Event struct {
	Type         string        `json:"type" enum:"page_view,page_markdown_request,search_open,search_type_query,search_open_result,page_post_feedback,page_post_feedback_comment,agent_feedback,ask_question,ask_view,ask_rate_response,link_click,api_client_open,api_client_request,ad_click,ad_display,trademark_click,llms_request,mcp_request,rss_request"`
	Session      EventSession  `json:"session"`
	Location     EventLocation `json:"location"`
	Timestamp    *time.Time    `json:"timestamp,omitempty" doc:"Within 5 minutes of now; default now"`
	Query        string        `json:"query,omitempty" maxLength:"2048"`
	ResultsCount *int          `json:"resultsCount,omitempty" minimum:"0" doc:"Galley's: the number of results a search_type_query had (0 counts it among the queries without results)"`
	Result       *SearchResult `json:"result,omitempty"`
	Feedback     *Feedback     `json:"feedback,omitempty"`
	Link         *Link         `json:"link,omitempty"`
	// Fields of other types, accepted and not read.
	Operation      map[string]any `json:"operation,omitempty"`
	Placement      string         `json:"placement,omitempty" maxLength:"64"`
	Ad             map[string]any `json:"ad,omitempty"`
	LLMSVariant    string         `json:"llmsVariant,omitempty" maxLength:"64"`
	MarkdownSource string         `json:"markdownSource,omitempty" maxLength:"64"`
	Goal           string         `json:"goal,omitempty" maxLength:"2048"`
	Rating         *int           `json:"rating,omitempty"`
	ResponseID     string         `json:"responseId,omitempty" maxLength:"128"`
}

// TrackEventsBody is the body of trackEventsInSiteById.
type TrackEventsBody struct {
	Events []Event `json:"events" maxItems:"48"`
}

// Column is an aggregation's column (SiteInsightsQueryEventsColumn).
type Column struct {
	Column    string `json:"column" maxLength:"64"`
	Interval  string `json:"interval,omitempty" enum:"hour,day,week,month"`
	Precision *int   `json:"precision,omitempty" minimum:"0" maximum:"15"`
}

// Filter is an aggregation's filter (SiteInsightsQueryEventsFilter).
type Filter struct {
	Column   string `json:"column" maxLength:"64"`
	Operator string `json:"operator,omitempty" enum:"in,notIn,greaterThan,greaterThanOrEqual,lessThan,lessThanOrEqual"`
	Claim    string `json:"claim,omitempty" maxLength:"128"`
	Values   []any  `json:"values" maxItems:"100"`
}

// Order orders an aggregation's rows.
type Order struct {
	By        Column `json:"by"`
	Direction string `json:"direction" enum:"asc,desc"`
}

// AggregateBody is the body of aggregateSiteEvents
// (SiteInsightsQueryEventsAggregation).
type AggregateBody struct {
	Select  []Column `json:"select,omitempty" maxItems:"8"`
	Where   []Filter `json:"where,omitempty" maxItems:"16"`
	GroupBy []Column `json:"groupBy,omitempty" maxItems:"4"`
	Order   *Order   `json:"order,omitempty"`
	Range   any      `json:"range" doc:"A preset (lastYear, last3Months, last30Days, last7Days, last24Hours) or {from, to}"`
	Limit   int      `json:"limit,omitempty" minimum:"1" maximum:"1000" default:"1000"`
}

// ColumnValues is one column of an aggregation's answer.
type ColumnValues struct {
	Column string `json:"column"`
	Values []any  `json:"values"`
}

// AggregateResult is aggregateSiteEvents' answer
// (SiteInsightsQueryEventsAggregationResult).
type AggregateResult struct {
	Columns []ColumnValues `json:"columns"`
}

// VisitorSegment is a segment of visitors (SiteInsightsVisitorSegment).
type VisitorSegment struct {
	Title    string         `json:"title"`
	Claims   map[string]any `json:"claims"`
	Events   int64          `json:"events"`
	Visitors int64          `json:"visitors"`
	Sessions int64          `json:"sessions"`
}

// trackIn is a track request: the body and what the request says of the
// visitor (address, user agent, Do-Not-Track, Global Privacy Control).
type trackIn struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	SiteID         string `path:"siteId" maxLength:"64"`
	UserAgent      string `header:"User-Agent" maxLength:"1024"`
	DNT            string `header:"DNT" maxLength:"8"`
	GPC            string `header:"Sec-GPC" maxLength:"8"`
	Body           TrackEventsBody
	addr           string
}

// Resolve reads the client's address: API Gateway's source IP, else the
// connection's.
func (in *trackIn) Resolve(ctx huma.Context) []error {
	in.addr = ClientAddr(ctx.Context(), ctx.RemoteAddr())
	return nil
}

// ClientAddr is API Gateway's source IP of the request of ctx, else the
// host of remote (a connection's address).
func ClientAddr(ctx context.Context, remote string) string {
	if rc, ok := core.GetAPIGatewayV2ContextFromContext(ctx); ok && rc.HTTP.SourceIP != "" {
		return rc.HTTP.SourceIP
	}
	if host, _, err := net.SplitHostPort(remote); err == nil {
		return host
	}
	return remote
}

// NoTrack tells whether a request's DNT and Sec-GPC headers ask not to be
// tracked.
func NoTrack(dnt, gpc string) bool { return dnt == "1" || gpc == "1" }

// Events turns the API's events into the service's.
func Events(in []Event) []insights.Event {
	out := make([]insights.Event, 0, len(in))
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	for _, e := range in {
		ev := insights.Event{Type: e.Type, URL: e.Location.URL, SiteSection: str(e.Location.SiteSection), SiteSpace: str(e.Location.SiteSpace),
			Space: str(e.Location.Space), Revision: str(e.Location.Revision), Page: str(e.Location.Page), SessionID: e.Session.SessionID,
			Claims: e.Session.VisitorAuthClaims, Query: e.Query, ResultsCount: e.ResultsCount}
		if e.Timestamp != nil {
			ev.Time = *e.Timestamp
		}
		if e.Result != nil {
			ev.ResultSpace, ev.ResultPage = e.Result.SpaceID, e.Result.PageID
			if ev.ResultPage == "" {
				ev.ResultPage = e.Result.RecordID
			}
		}
		if e.Feedback != nil {
			ev.Rating, ev.Comment = e.Feedback.Rating, e.Feedback.Comment
		}
		if e.Link != nil {
			kind, _ := e.Link.Target["kind"].(string)
			value, _ := e.Link.Target[kind].(string)
			ev.LinkKind, ev.LinkValue, ev.LinkPosition = kind, value, e.Link.Position
		}
		out = append(out, ev)
	}
	return out
}

// aggregation reads the body's range and columns.
func aggregation(b AggregateBody, now time.Time) (insights.Aggregation, error) {
	q := insights.Aggregation{Where: make([]insights.Filter, 0, len(b.Where)), Limit: b.Limit}
	switch r := b.Range.(type) {
	case string:
		d, ok := insights.Presets[r]
		if !ok {
			return q, apperr.Field("range", "one of lastYear, last3Months, last30Days, last7Days, last24Hours, or {from, to}")
		}
		q.From, q.To = now.Add(-d), now.Add(time.Nanosecond)
	case map[string]any:
		from, ferr := parseTime(r["from"])
		to, terr := parseTime(r["to"])
		if ferr != nil {
			return q, apperr.Field("range.from", "a date-time")
		}
		if terr != nil {
			return q, apperr.Field("range.to", "a date-time")
		}
		q.From, q.To = from, to
	default:
		return q, apperr.Field("range", "a preset or {from, to}")
	}
	for _, c := range b.Select {
		q.Select = append(q.Select, insights.Column{Name: c.Column, Interval: c.Interval})
	}
	for _, c := range b.GroupBy {
		q.GroupBy = append(q.GroupBy, insights.Column{Name: c.Column, Interval: c.Interval})
	}
	for _, f := range b.Where {
		q.Where = append(q.Where, insights.Filter{Column: f.Column, Operator: f.Operator, Values: f.Values})
	}
	if len(q.Select) == 0 {
		q.Select = []insights.Column{{Name: "eventsCount"}}
	}
	if b.Order != nil {
		q.OrderBy, q.Desc = b.Order.By.Column, b.Order.Direction == "desc"
	}
	return q, nil
}

func parseTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("not a string")
	}
	return time.Parse(time.RFC3339, s)
}

// columns is a result in GitBook's columnar shape.
func columns(r insights.Result) AggregateResult {
	out := AggregateResult{Columns: make([]ColumnValues, len(r.Columns))}
	for i, name := range r.Columns {
		out.Columns[i] = ColumnValues{Column: name, Values: make([]any, 0, len(r.Rows))}
		for _, row := range r.Rows {
			out.Columns[i].Values = append(out.Columns[i].Values, row[i])
		}
	}
	return out
}

// Register adds the insights operations.
func Register(api *httpapi.API, s *insights.Service, now func() time.Time) {
	const tag = "Site insights"
	httpapi.Register(api, httpapi.Op{ID: "trackEventsInSiteById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodPost,
		Path: "/v1/orgs/{organizationId}/sites/{siteId}/insights/events", Tag: tag, Status: http.StatusNoContent,
		Summary: "Track events of a published site (its reader posts them with the visitor's site token; DNT or Sec-GPC: nothing is recorded)"},
		func(ctx context.Context, in *trackIn) (*struct{}, error) {
			addr := in.addr
			if len(in.Body.Events) > 0 && in.Body.Events[0].Session.IP != "" {
				addr = in.Body.Events[0].Session.IP
			}
			ua := in.UserAgent
			if len(in.Body.Events) > 0 && in.Body.Events[0].Session.UserAgent != "" {
				ua = in.Body.Events[0].Session.UserAgent
			}
			return nil, s.Track(ctx, in.OrganizationID, in.SiteID, Events(in.Body.Events),
				insights.Visitor{Addr: addr, UserAgent: ua, NoTrack: NoTrack(in.DNT, in.GPC)})
		})
	httpapi.Register(api, httpapi.Op{ID: "aggregateSiteEvents", Needs: access.Role(access.EditContent), Method: http.MethodPost,
		Path: "/v1/orgs/{organizationId}/sites/{siteId}/insights/events/aggregate", Tag: tag,
		Summary: "Aggregate a site's events from its daily counters, filtered and grouped over a range"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			SiteID         string `path:"siteId" maxLength:"64"`
			Body           AggregateBody
		}) (*httpapi.Out[AggregateResult], error) {
			q, err := aggregation(in.Body, now())
			if err != nil {
				return nil, err
			}
			r, err := s.Aggregate(ctx, in.OrganizationID, in.SiteID, q)
			if err != nil {
				return nil, err
			}
			return &httpapi.Out[AggregateResult]{Body: columns(r)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "listSiteVisitorSegments", Needs: access.Role(access.EditContent), Method: http.MethodGet,
		Path: "/v1/orgs/{organizationId}/sites/{siteId}/insights/visitor-segments", Tag: tag,
		Summary: "List a site's visitor segments (visitors with the same claims) of the last 30 days"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			SiteID         string `path:"siteId" maxLength:"64"`
		}) (*httpapi.Out[httpapi.List[VisitorSegment]], error) {
			segs, err := s.Segments(ctx, in.OrganizationID, in.SiteID)
			if err != nil {
				return nil, err
			}
			list := httpapi.ListOf(segs, nil, func(g insights.Segment) VisitorSegment {
				return VisitorSegment{Title: g.Title, Claims: g.Claims, Events: g.Events, Visitors: g.Visitors, Sessions: g.Sessions}
			})
			return &httpapi.Out[httpapi.List[VisitorSegment]]{Body: list}, nil
		})
}
