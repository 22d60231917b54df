package orgshttp

import (
	"context"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
	"github.com/galleydocs/galley/shared/users/usershttp"
)

// OrganizationMember is the API shape of a member.
type OrganizationMember struct {
	Object     string         `json:"object" enum:"member"`
	ID         string         `json:"id" doc:"The user's id"`
	Role       *string        `json:"role" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"null for guests"`
	User       usershttp.User `json:"user"`
	Disabled   bool           `json:"disabled"`
	JoinedAt   time.Time      `json:"joinedAt"`
	LastSeenAt *time.Time     `json:"lastSeenAt,omitempty"`
	SSO        bool           `json:"sso"`
	Spaces     int            `json:"spaces"`
	Teams      int            `json:"teams"`
	Sites      int            `json:"sites" doc:"Sites shared with the member directly: always 0, Galley gives access to sites through the organization role"`
}

// ViewMember renders a member.
func ViewMember(ctx context.Context, mu orgs.MemberWithUser) OrganizationMember {
	m := mu.Member
	return OrganizationMember{Object: "member", ID: m.UserID, Role: orgs.RoleView(m.Role), User: usershttp.View(ctx, mu.User),
		Disabled: m.Disabled, JoinedAt: m.JoinedAt, LastSeenAt: m.LastSeenAt, SSO: m.SSO, Spaces: m.Spaces, Teams: m.Teams}
}

// MemberContentPermission is a space a member may access.
type MemberContentPermission struct {
	Permission string           `json:"permission" enum:"admin,create,review,edit,comment,read"`
	Space      spaceshttp.Space `json:"space"`
}

// OrganizationMemberTeam is a team of a member, with the member's role in it.
type OrganizationMemberTeam struct {
	Team   OrganizationTeam `json:"team"`
	Member TeamMemberRole   `json:"member"`
}

// TeamMemberRole is a member's role in a team.
type TeamMemberRole struct {
	Role string `json:"role" enum:"owner,member"`
}

// OrganizationPingResult answers POST /v1/orgs/{organizationId}/ping. Galley issues no
// visitor claims, so it is always {}.
type OrganizationPingResult struct {
	ServiceVisitorClaims string `json:"serviceVisitorClaims,omitempty" doc:"Not issued by Galley"`
}

// MemberPath is the path of a member's operations.
type MemberPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	UserID         string `path:"userId" maxLength:"64"`
}

func registerMembers(api *httpapi.API, s *orgs.Service) {
	const tag = "Organization members"
	httpapi.Register(api, httpapi.Op{ID: "listMembersInOrganizationById", Needs: access.Role(access.ListMembers), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/members", Tag: tag,
		Summary: "List the members of an organization"},
		func(ctx context.Context, in *struct {
			OrgPath
			httpapi.ListParams
			Order  string `query:"order" enum:"asc,desc" default:"desc"`
			Role   string `query:"role" enum:"admin,create,review,edit,comment,read,guest" doc:"Only members of this role (guest: without a role)"`
			Search string `query:"search" maxLength:"256" doc:"Only members whose display name or email contains this, ignoring case"`
			Sort   string `query:"sort" enum:"joinedAt,lastSeenAt" default:"joinedAt" doc:"lastSeenAt lists only members seen at least once"`
		}) (*httpapi.Out[httpapi.List[OrganizationMember]], error) {
			return httpapi.AnswerPage(httpapi.In(ctx, ViewMember))(s.ListMembers(ctx, in.OrganizationID,
				orgs.MemberFilter{Role: in.Role, Search: in.Search, Sort: in.Sort, Order: in.Order}, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "getMemberInOrganizationById", Needs: access.Role(access.ListMembers).OrSelf(), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/members/{userId}", Tag: tag,
		Summary: "Get a member"},
		func(ctx context.Context, in *MemberPath) (*httpapi.Out[OrganizationMember], error) {
			return httpapi.Answer(httpapi.In(ctx, ViewMember))(s.GetMember(ctx, in.OrganizationID, in.UserID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateMemberInOrganizationById", Needs: access.Role(access.AdminOrg), Method: http.MethodPatch, Path: "/v1/orgs/{organizationId}/members/{userId}", Tag: tag,
		Summary: "Change a member's role"},
		func(ctx context.Context, in *struct {
			MemberPath
			Body OrganizationRoleBody
		}) (*httpapi.Out[OrganizationMember], error) {
			return httpapi.Answer(httpapi.In(ctx, ViewMember))(s.UpdateMemberRole(ctx, in.OrganizationID, in.UserID, roleOf(in.Body.Role)))
		})
	httpapi.Register(api, httpapi.Op{ID: "removeMemberFromOrganizationById", Needs: access.Role(access.AdminOrg).OrSelf(), Method: http.MethodDelete, Path: "/v1/orgs/{organizationId}/members/{userId}", Tag: tag,
		Status: http.StatusNoContent, Summary: "Remove a member (or leave the organization)"},
		func(ctx context.Context, in *MemberPath) (*struct{}, error) {
			return nil, s.RemoveMember(ctx, in.OrganizationID, in.UserID)
		})
	httpapi.Register(api, httpapi.Op{ID: "updateOrganizationMemberLastSeenAt", Needs: access.Role(access.ViewOrg), Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/ping", Tag: tag,
		Summary: "Record that the caller is active in the organization"},
		func(ctx context.Context, in *OrgPath) (*httpapi.Out[OrganizationPingResult], error) {
			if err := s.Ping(ctx, in.OrganizationID); err != nil {
				return nil, err
			}
			return &httpapi.Out[OrganizationPingResult]{}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "setUserAsSSOMemberForOrganization", Needs: access.Role(access.AdminOrg), Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/members/{userId}/sso", Tag: tag,
		Summary: "Make a member an SSO member"},
		func(ctx context.Context, in *MemberPath) (*httpapi.Out[OrganizationMember], error) {
			return httpapi.Answer(httpapi.In(ctx, ViewMember))(s.SetMemberSSO(ctx, in.OrganizationID, in.UserID))
		})
	httpapi.Register(api, httpapi.Op{ID: "listSpacesForOrganizationMember", Needs: access.Role(access.ListMembers).OrSelf(), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/members/{userId}/spaces", Tag: tag,
		Summary: "List the spaces a member can access"},
		func(ctx context.Context, in *struct {
			MemberPath
			httpapi.ListParams
			Order string `query:"order" enum:"asc,desc" default:"desc"`
		}) (*httpapi.Out[httpapi.List[MemberContentPermission]], error) {
			return httpapi.AnswerPage(func(g orgs.SpaceGrant) MemberContentPermission {
				return MemberContentPermission{Permission: string(g.Permission), Space: spaceshttp.View(ctx, g.Space, g.CallerLevel)}
			})(s.MemberSpaces(ctx, in.OrganizationID, in.UserID, in.Order, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "listTeamsForOrganizationMember", Needs: access.Role(access.ListTeams).OrSelf(), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/members/{userId}/teams", Tag: tag,
		Summary: "List the teams of a member"},
		func(ctx context.Context, in *struct {
			MemberPath
			httpapi.ListParams
			Title string `query:"title" maxLength:"64" doc:"Only teams whose title contains this, ignoring case"`
		}) (*httpapi.Out[httpapi.List[OrganizationMemberTeam]], error) {
			return httpapi.AnswerPage(func(t orgs.TeamOfMember) OrganizationMemberTeam {
				return OrganizationMemberTeam{Team: ViewTeam(t.Team), Member: TeamMemberRole{Role: t.Role}}
			})(s.MemberTeams(ctx, in.OrganizationID, in.UserID, in.Title, in.Request()))
		})
}
