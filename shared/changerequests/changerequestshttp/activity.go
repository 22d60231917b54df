package changerequestshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/users/usershttp"
)

type changesIn struct {
	ChangeRequestPath
	Limit int `query:"limit" default:"10" minimum:"1" maximum:"1000" doc:"At most this many changes"`
}

// ChangeRequestUserContributor is a contributor of a change request: a
// user who created it or changed its content (actionType edit).
type ChangeRequestUserContributor struct {
	usershttp.UserContributor
	ActionType string `json:"actionType" enum:"edit,comment" doc:"Always edit: commenters are listed by listCommentersInChangeRequest"`
}

func contributorView(ctx context.Context) func(changerequests.Contributor) ChangeRequestUserContributor {
	return func(c changerequests.Contributor) ChangeRequestUserContributor {
		return ChangeRequestUserContributor{ActionType: "edit",
			UserContributor: usershttp.UserContributor{User: usershttp.View(ctx, c.User), Count: c.Count, UpdatedAt: c.UpdatedAt}}
	}
}

type orgListIn struct {
	OrganizationID    string   `path:"organizationId" maxLength:"64"`
	Status            []string `query:"status,explode" enum:"draft,open,archived,merged" maxItems:"4" doc:"Only requests of these statuses (repeated; default open)"`
	Creator           string   `query:"creator" maxLength:"64" doc:"Only requests this user created"`
	Contributor       string   `query:"contributor" maxLength:"64" doc:"Only requests this user contributed to"`
	RequestedReviewer string   `query:"requestedReviewer" maxLength:"64" doc:"Only requests awaiting this user's review"`
	Site              string   `query:"site" maxLength:"64" doc:"Only requests of the spaces this site's site spaces show (an unknown site, or one the caller may not read, answers 400)"`
	Space             string   `query:"space" maxLength:"64" doc:"Only requests of this space"`
	Topic             string   `query:"topic" maxLength:"64" doc:"Galley's requests have no site topic: given, the list is empty"`
	StyleguideRun     string   `query:"styleguideRun" maxLength:"64" doc:"Galley's requests come from no style guide run: given, the list is empty"`
	Finding           string   `query:"finding" enum:"none,all" doc:"Galley has no triage: none and all list the same requests"`
	OrderBy           string   `query:"orderBy" enum:"updatedAt,createdAt" doc:"Newest first by this date (default updatedAt)"`
	httpapi.ListParams
}

// registerActivity adds a request's changes and contributors, and the
// organization's list of requests.
func registerActivity(api *httpapi.API, s *changerequests.Service) {
	const tag = "Change requests"
	base := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"
	httpapi.Register(api, httpapi.Op{ID: "getChangeRequestChanges", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/changes", Tag: tag,
		Summary: "List what a change request changes against the space revision it is based on"},
		func(ctx context.Context, in *changesIn) (*httpapi.Out[content.SemanticChanges], error) {
			return httpapi.Answer(same[content.SemanticChanges])(s.Changes(ctx, in.SpaceID, in.ChangeRequestID, in.Limit))
		})
	httpapi.Register(api, httpapi.Op{ID: "getContributorsByChangeRequestId", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/contributors", Tag: tag,
		Summary: "List a change request's contributors: its creator and the users who changed it"},
		func(ctx context.Context, in *ChangeRequestPath) (*httpapi.Out[httpapi.List[ChangeRequestUserContributor]], error) {
			cs, err := s.Contributors(ctx, in.SpaceID, in.ChangeRequestID)
			return httpapi.AnswerPage(contributorView(ctx))(paging.Page[changerequests.Contributor]{Items: cs}, err)
		})
	httpapi.Register(api, httpapi.Op{ID: "listChangeRequestsForOrganization", Needs: access.Role(access.ViewOrg), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/change-requests", Tag: tag,
		Summary: "List the change requests of the organization's spaces the caller may read (newest first)"},
		func(ctx context.Context, in *orgListIn) (*listOut, error) {
			f := changerequests.OrgFilter{Statuses: in.Status, Creator: in.Creator, Contributor: in.Contributor,
				RequestedReviewer: in.RequestedReviewer, Space: in.Space, Site: in.Site, OrderBy: in.OrderBy, None: in.Topic != "" || in.StyleguideRun != ""}
			p, sps, err := s.ListInOrg(ctx, in.OrganizationID, f, in.Request())
			if err != nil {
				return nil, err
			}
			by, err := s.Creators(ctx, p.Items)
			if err != nil {
				return nil, err
			}
			b := contenthttp.Bases(ctx)
			items := make([]content.ChangeRequest, 0, len(p.Items))
			for _, cr := range p.Items {
				items = append(items, content.ChangeRequestView(ctx, b, cr, sps[cr.SpaceID].Revision, by[cr.CreatedBy]))
			}
			return &listOut{Body: httpapi.ListPage(paging.Page[content.ChangeRequest]{Items: items, Next: p.Next}, same)}, nil
		})
}
