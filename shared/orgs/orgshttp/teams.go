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
	registerTeamMembers(api, s)
}

// OrganizationTeamMember is a member of a team: their membership of the
// organization and their role in the team.
type OrganizationTeamMember struct {
	Organization OrganizationMember    `json:"organization"`
	Team         TeamMemberRole        `json:"team"`
	Permissions  TeamMemberPermissions `json:"permissions"`
}

// TeamMemberPermissions are the caller's permissions on a team member:
// whoever lists them may view them.
type TeamMemberPermissions struct {
	View bool `json:"view"`
}

// TeamMemberPath is the path of a team member's operations.
type TeamMemberPath struct {
	TeamPath
	UserID string `path:"userId" maxLength:"64"`
}

func registerTeamMembers(api *httpapi.API, s *orgs.Service) {
	const tag = "Teams"
	httpapi.Register(api, httpapi.Op{ID: "listTeamMembersInOrganizationById", Needs: access.Role(access.ListTeams), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/teams/{teamId}/members", Tag: tag,
		Summary: "List the members of a team"},
		func(ctx context.Context, in *struct {
			TeamPath
			httpapi.ListParams
		}) (*httpapi.Out[httpapi.List[OrganizationTeamMember]], error) {
			return httpapi.AnswerPage(func(m orgs.TeamMemberOf) OrganizationTeamMember {
				return OrganizationTeamMember{Organization: ViewMember(ctx, m.MemberWithUser), Team: TeamMemberRole{Role: m.Role}, Permissions: TeamMemberPermissions{View: true}}
			})(s.ListTeamMembers(ctx, in.OrganizationID, in.TeamID, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateMembersInOrganizationTeam", Needs: access.Role(access.ManageTeams), Method: http.MethodPut, Path: "/v1/orgs/{organizationId}/teams/{teamId}/members", Tag: tag,
		Status: http.StatusNoContent, Summary: "Add, remove and set the roles of a team's members"},
		func(ctx context.Context, in *struct {
			TeamPath
			Body struct {
				Add         []string                  `json:"add,omitempty" nullable:"false" maxItems:"1000" doc:"Users to add as members, by id or email"`
				Remove      []string                  `json:"remove,omitempty" nullable:"false" maxItems:"1000" doc:"Users to remove, by id or email (removing wins over adding)"`
				Memberships map[string]TeamMemberRole `json:"memberships,omitempty" nullable:"false" doc:"Users (by id or email) to add or keep with a role"`
			}
		}) (*struct{}, error) {
			roles := make(map[string]string, len(in.Body.Memberships))
			for k, v := range in.Body.Memberships {
				roles[k] = v.Role
			}
			return nil, s.UpdateTeamMembers(ctx, in.OrganizationID, in.TeamID, orgs.TeamChange{Add: in.Body.Add, Remove: in.Body.Remove, Memberships: roles})
		})
	httpapi.Register(api, httpapi.Op{ID: "addMemberToOrganizationTeamById", Needs: access.Role(access.ManageTeams), Method: http.MethodPut, Path: "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", Tag: tag,
		Status: http.StatusNoContent, Summary: "Add a member to a team, or set their role in it"},
		func(ctx context.Context, in *struct {
			TeamMemberPath
			Body *struct {
				Role string `json:"role,omitempty" enum:"owner,member"`
			}
		}) (*struct{}, error) {
			role := ""
			if in.Body != nil {
				role = in.Body.Role
			}
			return nil, s.AddTeamMember(ctx, in.OrganizationID, in.TeamID, in.UserID, role)
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteMemberFromOrganizationTeamById", Needs: access.Role(access.ManageTeams), Method: http.MethodDelete, Path: "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Remove a member from a team (205; 204 when they were not in it)", Also: httpapi.NothingToRemove("team member")},
		func(ctx context.Context, in *TeamMemberPath) (*httpapi.RemovedOut, error) {
			return httpapi.Removed(s.RemoveTeamMember(ctx, in.OrganizationID, in.TeamID, in.UserID))
		})
}
