// Package audithttp is the audit family's HTTP layer: GitBook's three
// reads of an organization's audit log (listOrganizationAuditEvents,
// getOrganizationAuditEvent, listOrganizationAuditEventActions), on the
// service of package audit.
package audithttp

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/audit"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
)

// AuditEventURLs are an event's URLs.
type AuditEventURLs struct {
	Location string `json:"location" format:"uri" doc:"URL of the audit event in the API"`
}

// AuditEvent is the API shape of an event (GitBook's AuditEvent), with
// Galley's sourceAddress, userAgent.
type AuditEvent struct {
	Object        string         `json:"object" enum:"audit-event"`
	ID            string         `json:"id" format:"uuid"`
	OccurredAt    time.Time      `json:"occurredAt"`
	Action        string         `json:"action"`
	Actor         model.AuditRef `json:"actor"`
	Source        string         `json:"source" enum:"ui,api,integration,webhook,workflow,script,support" doc:"Always api: every change reaches Galley through its API"`
	Target        model.AuditRef `json:"target"`
	URLs          AuditEventURLs `json:"urls"`
	SourceAddress string         `json:"sourceAddress,omitempty" doc:"Galley: the client address of the request that made the change"`
	UserAgent     string         `json:"userAgent,omitempty" doc:"Galley: the User-Agent of the request that made the change"`
}

// AuditEventDetails is one event with its details (GitBook's
// AuditEventDetails).
type AuditEventDetails struct {
	AuditEvent
	ExecutionID   string         `json:"executionId,omitempty" doc:"The request id of the request that made the change"`
	SchemaVersion int            `json:"schemaVersion" minimum:"1"`
	Payload       map[string]any `json:"payload"`
}

// AuditEventAction is one action of the catalogue.
type AuditEventAction struct {
	Object string `json:"object" enum:"audit-event-action"`
	ID     string `json:"id"`
	Label  string `json:"label"`
}

// AuditEventActions answers listOrganizationAuditEventActions.
type AuditEventActions struct {
	Items []AuditEventAction `json:"items" nullable:"false"`
}

// View renders an event.
func View(ctx context.Context, e model.AuditEvent) AuditEvent {
	return AuditEvent{Object: "audit-event", ID: e.ID, OccurredAt: e.OccurredAt, Action: e.Action, Actor: e.Actor, Source: "api", Target: e.Target,
		URLs:          AuditEventURLs{Location: httpapi.APIURL(ctx) + "/v1/orgs/" + url.PathEscape(e.OrgID) + "/audit-events/" + url.PathEscape(e.ID)},
		SourceAddress: e.Address, UserAgent: e.UserAgent}
}

// ViewDetails renders an event with its details.
func ViewDetails(ctx context.Context, e model.AuditEvent) AuditEventDetails {
	p := e.Payload
	if p == nil {
		p = map[string]any{}
	}
	return AuditEventDetails{AuditEvent: View(ctx, e), ExecutionID: e.RequestID, SchemaVersion: 1, Payload: p}
}

// OrgPath is the path of the organization whose log is read.
type OrgPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
}

type listIn struct {
	OrgPath
	Page   string `query:"page" doc:"Token of the page to read, from the previous page's next.page"`
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"20" doc:"Number of events to return (default 20)"`
	From   string `query:"from" maxLength:"64" doc:"Events at or after this time (RFC 3339)"`
	To     string `query:"to" maxLength:"64" doc:"Events at or before this time (RFC 3339)"`
	Action string `query:"action" maxLength:"128" doc:"Only this action"`
	Actor  string `query:"actor" maxLength:"64" doc:"Only events of this actor id"`
	Target string `query:"target" maxLength:"64" doc:"Only events on this target id"`
}

func parseTime(field, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, apperr.Field(field, "must be an RFC 3339 date-time")
	}
	return t, nil
}

// Register adds the audit family's operations.
func Register(api *httpapi.API, s *audit.Service) {
	const tag = "Organization audit log"
	needs := access.Role(access.AdminOrg)
	httpapi.Register(api, httpapi.Op{ID: "listOrganizationAuditEvents", Needs: needs, Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/audit-events", Tag: tag,
		Summary: "List the organization's audit events, newest first"},
		func(ctx context.Context, in *listIn) (*httpapi.Out[httpapi.List[AuditEvent]], error) {
			from, err := parseTime("from", in.From)
			if err != nil {
				return nil, err
			}
			to, err := parseTime("to", in.To)
			if err != nil {
				return nil, err
			}
			f := audit.Filter{From: from, To: to, Action: in.Action, Actor: in.Actor, Target: in.Target}
			limit := in.Limit
			if limit == 0 {
				limit = 20
			}
			p, err := s.List(ctx, in.OrganizationID, f, httpapi.ListParams{Page: in.Page, Limit: limit}.Request())
			return httpapi.AnswerPage(func(e model.AuditEvent) AuditEvent { return View(ctx, e) })(p, err)
		})
	httpapi.Register(api, httpapi.Op{ID: "getOrganizationAuditEvent", Needs: needs, Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/audit-events/{auditEventId}", Tag: tag,
		Summary: "Get an audit event with its details"},
		func(ctx context.Context, in *struct {
			OrgPath
			AuditEventID string `path:"auditEventId" maxLength:"64"`
		}) (*httpapi.Out[AuditEventDetails], error) {
			e, err := s.Get(ctx, in.OrganizationID, in.AuditEventID)
			return httpapi.Answer(func(e model.AuditEvent) AuditEventDetails { return ViewDetails(ctx, e) })(e, err)
		})
	httpapi.Register(api, httpapi.Op{ID: "listOrganizationAuditEventActions", Needs: needs, Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/audit-event-actions", Tag: tag,
		Summary: "List the actions the audit log records"},
		func(ctx context.Context, in *OrgPath) (*httpapi.Out[AuditEventActions], error) {
			as, err := s.ListActions(ctx, in.OrganizationID)
			if err != nil {
				return nil, err
			}
			out := AuditEventActions{Items: make([]AuditEventAction, len(as))}
			for i, a := range as {
				out.Items[i] = AuditEventAction{Object: "audit-event-action", ID: a.ID, Label: a.Label}
			}
			return &httpapi.Out[AuditEventActions]{Body: out}, nil
		})
}
