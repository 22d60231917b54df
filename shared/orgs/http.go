package orgs

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/users"
)

// Organization is the API shape of an organization.
type Organization struct {
	Object         string                      `json:"object" enum:"organization"`
	ID             string                      `json:"id"`
	Title          string                      `json:"title" minLength:"2" maxLength:"255"`
	CreatedAt      time.Time                   `json:"createdAt"`
	EmailDomains   []string                    `json:"emailDomains" nullable:"false"`
	Hostname       string                      `json:"hostname,omitempty" minLength:"3" maxLength:"32"`
	Type           string                      `json:"type" enum:"business,community"`
	UseCase        string                      `json:"useCase,omitempty" enum:"internalDocs,docsSite,audienceControlledSite,productDocs,teamKnowledgeBase,designSystem,openSourceDocs,notes,other"`
	CommunityType  string                      `json:"communityType,omitempty" enum:"nonProfit,openSource,education"`
	DefaultRole    *string                     `json:"defaultRole" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"Role of new members by default; null for guests"`
	DefaultContent *OrganizationDefaultContent `json:"defaultContent,omitempty"`
	SSO            bool                        `json:"sso"`
	AI             bool                        `json:"ai"`
	InviteLinks    bool                        `json:"inviteLinks"`
	Plan           string                      `json:"plan" enum:"free_2024,plus_2024,pro_2024,enterprise_2024,community_2024,free,plus,pro"`
	URLs           OrganizationURLs            `json:"urls"`
	Trial          OrganizationTrial           `json:"trial"`
	Permissions    access.OrgPermissions       `json:"permissions"`
}

// OrganizationDefaultContent points at the content shown by default.
type OrganizationDefaultContent struct {
	Type string `json:"type" enum:"site"`
	Site string `json:"site" minLength:"1" maxLength:"64" doc:"ID of the site"`
}

// OrganizationURLs are an organization's links.
type OrganizationURLs struct {
	Location string `json:"location" format:"uri"`
	App      string `json:"app" format:"uri"`
	Logo     string `json:"logo,omitempty" format:"uri"`
}

// OrganizationTrial is an organization's trial; Galley has no trials.
type OrganizationTrial struct {
	Status string `json:"status" enum:"notapplicable,none,active,ended,expired"`
}

// ViewOrganization renders an organization for its caller.
func ViewOrganization(ctx context.Context, o OrgForCaller) Organization {
	v := Organization{Object: "organization", ID: o.Org.ID, Title: o.Org.Title, CreatedAt: o.Org.CreatedAt,
		EmailDomains: o.Org.EmailDomains, Hostname: o.Org.Hostname, Type: o.Org.Type, UseCase: o.Org.UseCase,
		CommunityType: o.Org.CommunityType, DefaultRole: rolePtr(o.Org.DefaultRole), SSO: o.Org.SSO, AI: o.Org.AI,
		InviteLinks: o.Org.InviteLinks, Plan: o.Org.Plan,
		URLs: OrganizationURLs{Location: httpapi.APIURL(ctx) + "/v1/orgs/" + o.Org.ID, App: httpapi.AppURL(ctx) + "/o/" + o.Org.ID,
			Logo: o.Org.Logo},
		Trial:       OrganizationTrial{Status: "notapplicable"},
		Permissions: o.Permissions()}
	if v.EmailDomains == nil {
		v.EmailDomains = []string{}
	}
	if o.Org.DefaultContent != nil {
		v.DefaultContent = &OrganizationDefaultContent{Type: o.Org.DefaultContent.Type, Site: o.Org.DefaultContent.Site}
	}
	return v
}

// OrganizationMember is the API shape of a member.
type OrganizationMember struct {
	Object     string     `json:"object" enum:"member"`
	ID         string     `json:"id" doc:"The user's id"`
	Role       *string    `json:"role" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"null for guests"`
	User       users.User `json:"user"`
	Disabled   bool       `json:"disabled"`
	JoinedAt   time.Time  `json:"joinedAt"`
	LastSeenAt *time.Time `json:"lastSeenAt,omitempty"`
	SSO        bool       `json:"sso"`
	Spaces     int        `json:"spaces"`
	Teams      int        `json:"teams"`
}

// ViewMember renders a member.
func ViewMember(ctx context.Context, mu MemberWithUser) OrganizationMember {
	m := mu.Member
	return OrganizationMember{Object: "member", ID: m.UserID, Role: rolePtr(m.Role), User: users.View(ctx, mu.User),
		Disabled: m.Disabled, JoinedAt: m.JoinedAt, LastSeenAt: m.LastSeenAt, SSO: m.SSO, Spaces: m.Spaces, Teams: m.Teams}
}

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
func ViewTeam(t TeamForCaller) OrganizationTeam {
	return OrganizationTeam{Object: "team", ID: t.Team.ID, Title: t.Team.Title, Members: t.Team.Members,
		Spaces: t.Team.Spaces, CreatedAt: t.Team.CreatedAt, Permissions: t.Permissions()}
}

// InviteLinkToOrganization is the API shape of an invite link.
type InviteLinkToOrganization struct {
	Object    string  `json:"object" enum:"invite"`
	ID        string  `json:"id"`
	Role      *string `json:"role" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"Role given to who joins; null for guests"`
	Redundant bool    `json:"redundant" doc:"Always false: only admins read invite links"`
}

// ViewInvite renders an invite link.
func ViewInvite(inv model.Invite) InviteLinkToOrganization {
	return InviteLinkToOrganization{Object: "invite", ID: inv.ID, Role: rolePtr(inv.Role)}
}

// MemberContentPermission is a space a member may access.
type MemberContentPermission struct {
	Permission string       `json:"permission" enum:"admin,create,review,edit,comment,read"`
	Space      spaces.Space `json:"space"`
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

// OrganizationsOfDomain answers GET /v1/email-domains/{emailDomain}/orgs.
type OrganizationsOfDomain struct {
	Organizations []Organization `json:"organizations" nullable:"false"`
}

// OrganizationPingResult answers POST /v1/orgs/{organizationId}/ping. Galley issues no
// visitor claims, so it is always {}.
type OrganizationPingResult struct {
	ServiceVisitorClaims string `json:"serviceVisitorClaims,omitempty" doc:"Not issued by Galley"`
}

// OrganizationJoinResult answers POST /v1/orgs/{organizationId}/invites/{inviteId}: {}.
type OrganizationJoinResult struct{}

// InvitedUsers answers POST /v1/orgs/{organizationId}/invites.
type InvitedUsers struct {
	Users   []string `json:"users" nullable:"false" doc:"IDs of the users added to the organization"`
	Invited int      `json:"invited" doc:"Number of users added"`
}

func rolePtr(r model.Role) *string {
	if r == model.RoleGuest {
		return nil
	}
	s := string(r)
	return &s
}

func roleOf(p *string) model.Role {
	if p == nil {
		return model.RoleGuest
	}
	return model.Role(*p)
}

// CreateOrganizationBody is the body of POST /v1/orgs.
type CreateOrganizationBody struct {
	Title         string   `json:"title" minLength:"2" maxLength:"255"`
	Type          string   `json:"type,omitempty" enum:"business,community" doc:"Default business"`
	UseCase       string   `json:"useCase,omitempty" enum:"internalDocs,docsSite,audienceControlledSite,productDocs,teamKnowledgeBase,designSystem,openSourceDocs,notes,other"`
	CommunityType string   `json:"communityType,omitempty" enum:"nonProfit,openSource,education"`
	EmailDomains  []string `json:"emailDomains,omitempty" maxItems:"40" nullable:"false"`
	Hostname      string   `json:"hostname,omitempty" minLength:"3" maxLength:"32"`
}

// UpdateOrganizationBody is the body of PATCH /v1/orgs/{organizationId}.
// An omitted field is unchanged; null clears defaultRole (guests),
// defaultContent and logo, and is refused for the other fields.
type UpdateOrganizationBody struct {
	Title          *string                     `json:"title,omitempty" minLength:"2" maxLength:"255"`
	EmailDomains   []string                    `json:"emailDomains,omitempty" maxItems:"40" doc:"Replaces the domains; [] removes them"`
	Hostname       *string                     `json:"hostname,omitempty" minLength:"3" maxLength:"32"`
	DefaultRole    *string                     `json:"defaultRole,omitempty" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"null: new members are guests"`
	DefaultContent *OrganizationDefaultContent `json:"defaultContent,omitempty" doc:"null removes it"`
	Logo           *string                     `json:"logo,omitempty" format:"uri" maxLength:"2048" nullable:"true" doc:"null removes it"`
	SSO            *bool                       `json:"sso,omitempty"`
	AI             *bool                       `json:"ai,omitempty"`
	InviteLinks    *bool                       `json:"inviteLinks,omitempty"`
	Nulls          httpapi.Nulls               `json:"-"`
}

// UnmarshalJSON records which fields were sent as null.
func (b *UpdateOrganizationBody) UnmarshalJSON(data []byte) error {
	type plain UpdateOrganizationBody
	nulls, err := httpapi.DecodePatch(data, (*plain)(b))
	b.Nulls = nulls
	return err
}

var _ json.Unmarshaler = (*UpdateOrganizationBody)(nil)

// patch turns the body into the service's change, refusing null where a
// field cannot be removed.
func (b UpdateOrganizationBody) patch() (OrganizationPatch, error) {
	for _, f := range []string{"title", "emailDomains", "hostname", "sso", "ai", "inviteLinks"} {
		if b.Nulls.Has(f) {
			return OrganizationPatch{}, apperr.Field(f, "may not be null")
		}
	}
	p := OrganizationPatch{Title: b.Title, Hostname: b.Hostname, SSO: b.SSO, AI: b.AI, InviteLinks: b.InviteLinks, Logo: b.Logo}
	if b.EmailDomains != nil {
		p.EmailDomains = &b.EmailDomains
	}
	if b.DefaultRole != nil || b.Nulls.Has("defaultRole") {
		r := roleOf(b.DefaultRole)
		p.DefaultRole = &r
	}
	if b.Nulls.Has("defaultContent") {
		p.ClearDefaultContent = true
	} else if b.DefaultContent != nil {
		p.DefaultContent = &model.SitePointer{Type: b.DefaultContent.Type, Site: b.DefaultContent.Site}
	}
	if b.Nulls.Has("logo") {
		empty := ""
		p.Logo = &empty
	}
	return p, nil
}

// InviteEmail is one address of POST /v1/orgs/{organizationId}/invites:
// either a string, or {email, role} giving that address its own role.
type InviteEmail struct {
	Email string
	// HasRole tells the object form, whose role (nil: guest) overrides the
	// invitation's.
	HasRole bool
	Role    *string
}

// Schema documents and validates both forms.
func (InviteEmail) Schema(r huma.Registry) *huma.Schema {
	maxLen := 320
	return &huma.Schema{OneOf: []*huma.Schema{
		{Type: huma.TypeString, MaxLength: &maxLen, Description: "Email address of a user, invited with the invitation's role"},
		{Type: huma.TypeObject, Required: []string{"email", "role"}, AdditionalProperties: false, Properties: map[string]*huma.Schema{
			"email": {Type: huma.TypeString, MaxLength: &maxLen},
			"role":  {Type: huma.TypeString, Nullable: true, Enum: []any{"admin", "create", "review", "edit", "comment", "read"}, Description: "null for a guest"},
		}},
	}}
}

// UnmarshalJSON reads either form.
func (e *InviteEmail) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		*e = InviteEmail{}
		return json.Unmarshal(data, &e.Email)
	}
	var o struct {
		Email string  `json:"email"`
		Role  *string `json:"role"`
	}
	if err := json.Unmarshal(data, &o); err != nil {
		return err
	}
	*e = InviteEmail{Email: o.Email, HasRole: true, Role: o.Role}
	return nil
}

// InviteUsersBody is the body of POST /v1/orgs/{organizationId}/invites.
type InviteUsersBody struct {
	Emails []InviteEmail `json:"emails" minItems:"1" maxItems:"100" nullable:"false"`
	Role   *string       `json:"role,omitempty" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"Role of addresses without their own; null for guests; default the organization's defaultRole"`
	SSO    bool          `json:"sso,omitempty" doc:"Add the users as SSO members"`
	Nulls  httpapi.Nulls `json:"-"`
}

// UnmarshalJSON records which fields were sent as null.
func (b *InviteUsersBody) UnmarshalJSON(data []byte) error {
	type plain InviteUsersBody
	nulls, err := httpapi.DecodePatch(data, (*plain)(b))
	b.Nulls = nulls
	return err
}

// OrganizationRoleBody is a body holding only a nullable role (null for guests).
type OrganizationRoleBody struct {
	Role *string `json:"role" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"null for guests"`
}

type out[T any] struct {
	Body T
}

// OrgPath is the path of an organization's operations.
type OrgPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
}

// MemberPath is the path of a member's operations.
type MemberPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	UserID         string `path:"userId" maxLength:"64"`
}

// TeamPath is the path of a team's operations.
type TeamPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	TeamID         string `path:"teamId" maxLength:"64"`
}

// InvitePath is the path of an invite's operations.
type InvitePath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	InviteID       string `path:"inviteId" maxLength:"64"`
}

// list renders a page of items.
func list[T, V any](items []T, next *httpapi.NextPage, view func(T) V) *out[httpapi.List[V]] {
	return &out[httpapi.List[V]]{Body: httpapi.ListOf(items, next, view)}
}

// Routes adds the orgs family's operations, on the service built from d.
func Routes(api *httpapi.API, d *deps.Deps) { Register(api, New(d, users.New(d))) }

// Register adds the organizations family's operations.
func Register(api *httpapi.API, s *Service) {
	registerOrganizations(api, s)
	registerMembers(api, s)
	registerTeams(api, s)
	registerInvites(api, s)
}

func registerOrganizations(api *httpapi.API, s *Service) {
	const tag = "Organizations"
	orgOut := func(ctx context.Context, o OrgForCaller, err error) (*out[Organization], error) {
		if err != nil {
			return nil, err
		}
		return &out[Organization]{Body: ViewOrganization(ctx, o)}, nil
	}
	httpapi.Register(api, httpapi.Op{ID: "createOrganization", Method: http.MethodPost, Path: "/v1/orgs", Tag: tag,
		Status: http.StatusCreated, Summary: "Create an organization (the caller becomes its admin)"},
		func(ctx context.Context, in *struct{ Body CreateOrganizationBody }) (*out[Organization], error) {
			b := in.Body
			o, err := s.CreateOrganization(ctx, NewOrganization{Title: b.Title, Type: b.Type, UseCase: b.UseCase,
				CommunityType: b.CommunityType, EmailDomains: b.EmailDomains, Hostname: b.Hostname})
			return orgOut(ctx, o, err)
		})
	httpapi.Register(api, httpapi.Op{ID: "listOrganizationsForAuthenticatedUser", Method: http.MethodGet, Path: "/v1/orgs", Tag: tag,
		Summary: "List the organizations of the authenticated user"},
		func(ctx context.Context, in *struct{ httpapi.ListParams }) (*out[httpapi.List[Organization]], error) {
			found, next, err := s.ListOrganizations(ctx, in.ListParams)
			if err != nil {
				return nil, err
			}
			return list(found, next, func(o OrgForCaller) Organization { return ViewOrganization(ctx, o) }), nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getOrganizationById", Method: http.MethodGet, Path: "/v1/orgs/{organizationId}", Tag: tag,
		Summary: "Get an organization"},
		func(ctx context.Context, in *OrgPath) (*out[Organization], error) {
			o, err := s.GetOrganization(ctx, in.OrganizationID)
			return orgOut(ctx, o, err)
		})
	httpapi.Register(api, httpapi.Op{ID: "updateOrganizationById", Method: http.MethodPatch, Path: "/v1/orgs/{organizationId}", Tag: tag,
		Summary: "Update an organization"},
		func(ctx context.Context, in *struct {
			OrgPath
			Body UpdateOrganizationBody
		}) (*out[Organization], error) {
			p, err := in.Body.patch()
			if err != nil {
				return nil, err
			}
			o, err := s.UpdateOrganization(ctx, in.OrganizationID, p)
			return orgOut(ctx, o, err)
		})
	httpapi.Register(api, httpapi.Op{ID: "getOrganizationsForEmailDomain", Method: http.MethodGet, Path: "/v1/email-domains/{emailDomain}/orgs", Tag: tag,
		Summary: "List the organizations of an email domain"},
		func(ctx context.Context, in *struct {
			EmailDomain string `path:"emailDomain" maxLength:"253"`
		}) (*out[OrganizationsOfDomain], error) {
			found, err := s.OrganizationsByEmailDomain(ctx, in.EmailDomain)
			if err != nil {
				return nil, err
			}
			res := OrganizationsOfDomain{Organizations: make([]Organization, 0, len(found))}
			for _, o := range found {
				res.Organizations = append(res.Organizations, ViewOrganization(ctx, o))
			}
			return &out[OrganizationsOfDomain]{Body: res}, nil
		})
}

func registerMembers(api *httpapi.API, s *Service) {
	const tag = "Organization members"
	memberOut := func(ctx context.Context, mu MemberWithUser, err error) (*out[OrganizationMember], error) {
		if err != nil {
			return nil, err
		}
		return &out[OrganizationMember]{Body: ViewMember(ctx, mu)}, nil
	}
	httpapi.Register(api, httpapi.Op{ID: "listMembersInOrganizationById", Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/members", Tag: tag,
		Summary: "List the members of an organization"},
		func(ctx context.Context, in *struct {
			OrgPath
			httpapi.ListParams
			Order  string `query:"order" enum:"asc,desc" default:"desc"`
			Role   string `query:"role" enum:"admin,create,review,edit,comment,read,guest" doc:"Only members of this role (guest: without a role)"`
			Search string `query:"search" maxLength:"256" doc:"Only members whose display name or email contains this, ignoring case"`
			Sort   string `query:"sort" enum:"joinedAt,lastSeenAt" default:"joinedAt" doc:"lastSeenAt lists only members seen at least once"`
		}) (*out[httpapi.List[OrganizationMember]], error) {
			ms, next, err := s.ListMembers(ctx, in.OrganizationID, MemberFilter{Role: in.Role, Search: in.Search, Sort: in.Sort, Order: in.Order}, in.ListParams)
			if err != nil {
				return nil, err
			}
			return list(ms, next, func(mu MemberWithUser) OrganizationMember { return ViewMember(ctx, mu) }), nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getMemberInOrganizationById", Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/members/{userId}", Tag: tag,
		Summary: "Get a member"},
		func(ctx context.Context, in *MemberPath) (*out[OrganizationMember], error) {
			mu, err := s.GetMember(ctx, in.OrganizationID, in.UserID)
			return memberOut(ctx, mu, err)
		})
	httpapi.Register(api, httpapi.Op{ID: "updateMemberInOrganizationById", Method: http.MethodPatch, Path: "/v1/orgs/{organizationId}/members/{userId}", Tag: tag,
		Summary: "Change a member's role"},
		func(ctx context.Context, in *struct {
			MemberPath
			Body OrganizationRoleBody
		}) (*out[OrganizationMember], error) {
			mu, err := s.UpdateMemberRole(ctx, in.OrganizationID, in.UserID, roleOf(in.Body.Role))
			return memberOut(ctx, mu, err)
		})
	httpapi.Register(api, httpapi.Op{ID: "removeMemberFromOrganizationById", Method: http.MethodDelete, Path: "/v1/orgs/{organizationId}/members/{userId}", Tag: tag,
		Status: http.StatusNoContent, Summary: "Remove a member (or leave the organization)"},
		func(ctx context.Context, in *MemberPath) (*struct{}, error) {
			return nil, s.RemoveMember(ctx, in.OrganizationID, in.UserID)
		})
	httpapi.Register(api, httpapi.Op{ID: "updateOrganizationMemberLastSeenAt", Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/ping", Tag: tag,
		Summary: "Record that the caller is active in the organization"},
		func(ctx context.Context, in *OrgPath) (*out[OrganizationPingResult], error) {
			if err := s.Ping(ctx, in.OrganizationID); err != nil {
				return nil, err
			}
			return &out[OrganizationPingResult]{}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "setUserAsSSOMemberForOrganization", Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/members/{userId}/sso", Tag: tag,
		Summary: "Make a member an SSO member"},
		func(ctx context.Context, in *MemberPath) (*out[OrganizationMember], error) {
			mu, err := s.SetMemberSSO(ctx, in.OrganizationID, in.UserID)
			return memberOut(ctx, mu, err)
		})
	httpapi.Register(api, httpapi.Op{ID: "listSpacesForOrganizationMember", Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/members/{userId}/spaces", Tag: tag,
		Summary: "List the spaces a member can access"},
		func(ctx context.Context, in *struct {
			MemberPath
			httpapi.ListParams
			Order string `query:"order" enum:"asc,desc" default:"desc"`
		}) (*out[httpapi.List[MemberContentPermission]], error) {
			gs, next, err := s.MemberSpaces(ctx, in.OrganizationID, in.UserID, in.Order, in.ListParams)
			if err != nil {
				return nil, err
			}
			return list(gs, next, func(g SpaceGrant) MemberContentPermission {
				return MemberContentPermission{Permission: string(g.Permission), Space: spaces.View(ctx, g.Space, g.CallerLevel)}
			}), nil
		})
	httpapi.Register(api, httpapi.Op{ID: "listTeamsForOrganizationMember", Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/members/{userId}/teams", Tag: tag,
		Summary: "List the teams of a member"},
		func(ctx context.Context, in *struct {
			MemberPath
			httpapi.ListParams
			Title string `query:"title" maxLength:"64" doc:"Only teams whose title contains this, ignoring case"`
		}) (*out[httpapi.List[OrganizationMemberTeam]], error) {
			ts, next, err := s.MemberTeams(ctx, in.OrganizationID, in.UserID, in.Title, in.ListParams)
			if err != nil {
				return nil, err
			}
			return list(ts, next, func(t TeamOfMember) OrganizationMemberTeam {
				return OrganizationMemberTeam{Team: ViewTeam(t.Team), Member: TeamMemberRole{Role: t.Role}}
			}), nil
		})
}

func registerTeams(api *httpapi.API, s *Service) {
	const tag = "Teams"
	teamOut := func(t TeamForCaller, err error) (*out[OrganizationTeam], error) {
		if err != nil {
			return nil, err
		}
		return &out[OrganizationTeam]{Body: ViewTeam(t)}, nil
	}
	httpapi.Register(api, httpapi.Op{ID: "listTeamsInOrganizationById", Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/teams", Tag: tag,
		Summary: "List the teams of an organization"},
		func(ctx context.Context, in *struct {
			OrgPath
			httpapi.ListParams
			Owner string `query:"owner" maxLength:"64" doc:"A member id: only the teams they can manage"`
			Title string `query:"title" maxLength:"64" doc:"Only teams whose title contains this, ignoring case"`
		}) (*out[httpapi.List[OrganizationTeam]], error) {
			ts, next, err := s.ListTeams(ctx, in.OrganizationID, in.Owner, in.Title, in.ListParams)
			if err != nil {
				return nil, err
			}
			return list(ts, next, ViewTeam), nil
		})
	httpapi.Register(api, httpapi.Op{ID: "createOrganizationTeam", Method: http.MethodPut, Path: "/v1/orgs/{organizationId}/teams", Tag: tag,
		Status: http.StatusCreated, Summary: "Create a team"},
		func(ctx context.Context, in *struct {
			OrgPath
			Body struct {
				Title   string   `json:"title" minLength:"1" maxLength:"64"`
				Members []string `json:"members,omitempty" maxItems:"1000" doc:"IDs of organization members to put in the team"`
			}
		}) (*out[OrganizationTeam], error) {
			return teamOut(s.CreateTeam(ctx, in.OrganizationID, in.Body.Title, in.Body.Members))
		})
	httpapi.Register(api, httpapi.Op{ID: "getTeamInOrganizationById", Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/teams/{teamId}", Tag: tag,
		Summary: "Get a team"},
		func(ctx context.Context, in *TeamPath) (*out[OrganizationTeam], error) {
			return teamOut(s.GetTeam(ctx, in.OrganizationID, in.TeamID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateTeamInOrganizationById", Method: http.MethodPatch, Path: "/v1/orgs/{organizationId}/teams/{teamId}", Tag: tag,
		Summary: "Rename a team"},
		func(ctx context.Context, in *struct {
			TeamPath
			Body struct {
				Title string `json:"title" minLength:"1" maxLength:"64"`
			}
		}) (*out[OrganizationTeam], error) {
			return teamOut(s.RenameTeam(ctx, in.OrganizationID, in.TeamID, in.Body.Title))
		})
	httpapi.Register(api, httpapi.Op{ID: "removeTeamFromOrganizationById", Method: http.MethodDelete, Path: "/v1/orgs/{organizationId}/teams/{teamId}", Tag: tag,
		Status: http.StatusNoContent, Summary: "Delete a team"},
		func(ctx context.Context, in *TeamPath) (*struct{}, error) {
			return nil, s.DeleteTeam(ctx, in.OrganizationID, in.TeamID)
		})
}

func registerInvites(api *httpapi.API, s *Service) {
	const tag = "Organization invites"
	inviteOut := func(inv model.Invite, err error) (*out[InviteLinkToOrganization], error) {
		if err != nil {
			return nil, err
		}
		return &out[InviteLinkToOrganization]{Body: ViewInvite(inv)}, nil
	}
	httpapi.Register(api, httpapi.Op{ID: "inviteUsersToOrganization", Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/invites", Tag: tag,
		Summary: "Add existing users to an organization by email"},
		func(ctx context.Context, in *struct {
			OrgPath
			Body InviteUsersBody
		}) (*out[InvitedUsers], error) {
			b := in.Body
			var role *model.Role
			if b.Role != nil || b.Nulls.Has("role") {
				r := roleOf(b.Role)
				role = &r
			}
			emails := make([]EmailInvite, len(b.Emails))
			for i, e := range b.Emails {
				emails[i] = EmailInvite{Email: e.Email}
				if e.HasRole {
					r := roleOf(e.Role)
					emails[i].Role = &r
				}
			}
			added, err := s.InviteUsers(ctx, in.OrganizationID, emails, role, b.SSO)
			if err != nil {
				return nil, err
			}
			return &out[InvitedUsers]{Body: InvitedUsers{Users: added, Invited: len(added)}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "createOrganizationInvite", Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/link-invites", Tag: tag,
		Status: http.StatusCreated, Summary: "Create an invite link"},
		func(ctx context.Context, in *struct {
			OrgPath
			Body OrganizationRoleBody
		}) (*out[InviteLinkToOrganization], error) {
			return inviteOut(s.CreateInviteLink(ctx, in.OrganizationID, roleOf(in.Body.Role)))
		})
	httpapi.Register(api, httpapi.Op{ID: "getOrganizationInviteLink", Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/link-invites/{inviteId}", Tag: tag,
		Summary: "Get an invite link"},
		func(ctx context.Context, in *InvitePath) (*out[InviteLinkToOrganization], error) {
			return inviteOut(s.GetInviteLink(ctx, in.OrganizationID, in.InviteID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateOrganizationInviteById", Method: http.MethodPatch, Path: "/v1/orgs/{organizationId}/link-invites/{inviteId}", Tag: tag,
		Summary: "Change the role of an invite link"},
		func(ctx context.Context, in *struct {
			InvitePath
			Body OrganizationRoleBody
		}) (*out[InviteLinkToOrganization], error) {
			return inviteOut(s.UpdateInviteLink(ctx, in.OrganizationID, in.InviteID, roleOf(in.Body.Role)))
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteOrganizationInviteById", Method: http.MethodDelete, Path: "/v1/orgs/{organizationId}/link-invites/{inviteId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Delete an invite link"},
		func(ctx context.Context, in *InvitePath) (*struct{}, error) {
			return nil, s.DeleteInviteLink(ctx, in.OrganizationID, in.InviteID)
		})
	httpapi.Register(api, httpapi.Op{ID: "joinOrganizationWithInvite", Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/invites/{inviteId}", Tag: tag,
		Summary: "Join an organization with an invite link"},
		func(ctx context.Context, in *InvitePath) (*out[OrganizationJoinResult], error) {
			if err := s.JoinWithInvite(ctx, in.OrganizationID, in.InviteID); err != nil {
				return nil, err
			}
			return &out[OrganizationJoinResult]{}, nil
		})
}
