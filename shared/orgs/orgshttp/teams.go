package orgshttp

import (
	"context"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/orgs"
)

// OrganizationTeam is the API shape of a team.
type OrganizationTeam struct {
	Object      string                 `json:"object" enum:"team"`
	ID          string                 `json:"id"`
	Title       string                 `json:"title" minLength:"1" maxLength:"64"`
	Members     int                    `json:"members"`
	Spaces      int                    `json:"spaces"`
	CreatedAt   time.Time              `json:"createdAt"`
	Permissions access.TeamPermissions `json:"permissions"`
}

// ViewTeam renders a team for its caller.
func ViewTeam(t orgs.TeamForCaller) OrganizationTeam {
	return OrganizationTeam{Object: "team", ID: t.Team.ID, Title: t.Team.Title, Members: t.Team.Members,
		Spaces: t.Team.Spaces, CreatedAt: t.Team.CreatedAt, Permissions: t.Permissions()}
}

// TeamPath is the path of a team's operations.
type TeamPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	TeamID         string `path:"teamId" maxLength:"64"`
}

func registerTeams(api *httpapi.API, s *orgs.Service) {
	const tag = "Teams"
	httpapi.Register(api, httpapi.Op{ID: "listTeamsInOrganizationById", Needs: access.Role(access.ListTeams), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/teams", Tag: tag,
		Summary: "List the teams of an organization"},
		func(ctx context.Context, in *struct {
			OrgPath
			httpapi.ListParams
			Owner string `query:"owner" maxLength:"64" doc:"A member id: only the teams they can manage"`
			Title string `query:"title" maxLength:"64" doc:"Only teams whose title contains this, ignoring case"`
		}) (*httpapi.Out[httpapi.List[OrganizationTeam]], error) {
			return httpapi.AnswerPage(ViewTeam)(s.ListTeams(ctx, in.OrganizationID, in.Owner, in.Title, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "createOrganizationTeam", Needs: access.Role(access.ManageTeams), Method: http.MethodPut, Path: "/v1/orgs/{organizationId}/teams", Tag: tag,
		Status: http.StatusCreated, Summary: "Create a team"},
		func(ctx context.Context, in *struct {
			OrgPath
			Body struct {
				Title   string   `json:"title" minLength:"1" maxLength:"64"`
				Members []ids.ID `json:"members,omitempty" nullable:"false" maxItems:"1000" doc:"IDs of organization members to put in the team"`
			}
		}) (*httpapi.Out[OrganizationTeam], error) {
			return httpapi.Answer(ViewTeam)(s.CreateTeam(ctx, in.OrganizationID, in.Body.Title, ids.Strings(in.Body.Members)))
		})
	httpapi.Register(api, httpapi.Op{ID: "getTeamInOrganizationById", Needs: access.Role(access.ListTeams), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/teams/{teamId}", Tag: tag,
		Summary: "Get a team"},
		func(ctx context.Context, in *TeamPath) (*httpapi.Out[OrganizationTeam], error) {
			return httpapi.Answer(ViewTeam)(s.GetTeam(ctx, in.OrganizationID, in.TeamID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateTeamInOrganizationById", Needs: access.Role(access.ManageTeams), Method: http.MethodPatch, Path: "/v1/orgs/{organizationId}/teams/{teamId}", Tag: tag,
		Summary: "Rename a team"},
		func(ctx context.Context, in *struct {
			TeamPath
			Body struct {
				Title string `json:"title" minLength:"1" maxLength:"64"`
			}
		}) (*httpapi.Out[OrganizationTeam], error) {
			return httpapi.Answer(ViewTeam)(s.RenameTeam(ctx, in.OrganizationID, in.TeamID, in.Body.Title))
		})
	httpapi.Register(api, httpapi.Op{ID: "removeTeamFromOrganizationById", Needs: access.Role(access.ManageTeams), Method: http.MethodDelete, Path: "/v1/orgs/{organizationId}/teams/{teamId}", Tag: tag,
		Status: http.StatusNoContent, Summary: "Delete a team"},
		func(ctx context.Context, in *TeamPath) (*struct{}, error) {
			return nil, s.DeleteTeam(ctx, in.OrganizationID, in.TeamID)
		})
}
