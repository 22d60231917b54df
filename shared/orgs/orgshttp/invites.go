package orgshttp

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
)

// InviteLinkToOrganization is the API shape of an invite link.
type InviteLinkToOrganization struct {
	Object    string  `json:"object" enum:"invite"`
	ID        string  `json:"id"`
	Role      *string `json:"role" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"Role given to who joins; null for guests"`
	Redundant bool    `json:"redundant" doc:"Always false: only admins read invite links"`
}

// ViewInvite renders an invite link.
func ViewInvite(inv model.Invite) InviteLinkToOrganization {
	return InviteLinkToOrganization{Object: "invite", ID: inv.ID, Role: orgs.RoleView(inv.Role)}
}

// OrganizationJoinResult answers POST /v1/orgs/{organizationId}/invites/{inviteId}: {}.
type OrganizationJoinResult struct{}

// InvitedUsers answers POST /v1/orgs/{organizationId}/invites.
type InvitedUsers struct {
	Users   []string `json:"users" nullable:"false" doc:"IDs of the users added to the organization"`
	Invited int      `json:"invited" doc:"Number of users added"`
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
	address := httpapi.IDSchema(r, 320)
	address.Description = "Email address of a user, invited with the invitation's role"
	return &huma.Schema{OneOf: []*huma.Schema{
		address,
		{Type: huma.TypeObject, Required: []string{"email", "role"}, AdditionalProperties: false, Properties: map[string]*huma.Schema{
			"email": httpapi.IDSchema(r, 320),
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

// InvitePath is the path of an invite's operations.
type InvitePath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	InviteID       string `path:"inviteId" maxLength:"64"`
}

func registerInvites(api *httpapi.API, s *orgs.Service) {
	const tag = "Organization invites"
	httpapi.Register(api, httpapi.Op{ID: "inviteUsersToOrganization", Needs: access.Role(access.ManageInvites), Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/invites", Tag: tag,
		Summary: "Add existing users to an organization by email"},
		func(ctx context.Context, in *struct {
			OrgPath
			Body InviteUsersBody
		}) (*httpapi.Out[InvitedUsers], error) {
			b := in.Body
			var role *model.Role
			if b.Role != nil || b.Nulls.Has("role") {
				r := roleOf(b.Role)
				role = &r
			}
			emails := make([]orgs.EmailInvite, len(b.Emails))
			for i, e := range b.Emails {
				emails[i] = orgs.EmailInvite{Email: e.Email}
				if e.HasRole {
					r := roleOf(e.Role)
					emails[i].Role = &r
				}
			}
			added, err := s.InviteUsers(ctx, in.OrganizationID, emails, role, b.SSO)
			if err != nil {
				return nil, err
			}
			return &httpapi.Out[InvitedUsers]{Body: InvitedUsers{Users: added, Invited: len(added)}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "createOrganizationInvite", Needs: access.Role(access.ManageInvites), Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/link-invites", Tag: tag,
		Status: http.StatusCreated, Summary: "Create an invite link"},
		func(ctx context.Context, in *struct {
			OrgPath
			Body OrganizationRoleBody
		}) (*httpapi.Out[InviteLinkToOrganization], error) {
			return httpapi.Answer(ViewInvite)(s.CreateInviteLink(ctx, in.OrganizationID, roleOf(in.Body.Role)))
		})
	httpapi.Register(api, httpapi.Op{ID: "listOrganizationInviteLinks", Needs: access.Role(access.ManageInvites), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/link-invites", Tag: tag,
		Summary: "List the organization's invite links (in the order of their ids, which are random)"},
		func(ctx context.Context, in *OrgListIn) (*httpapi.Out[httpapi.List[InviteLinkToOrganization]], error) {
			return httpapi.AnswerPage(ViewInvite)(s.ListInviteLinks(ctx, in.OrganizationID, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "joinOrganization", Needs: access.SignedIn, Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/join", Tag: tag,
		Status: http.StatusNoContent, Summary: "Join an organization at one of whose email domains your email address is, with its default role (404 for anyone else)"},
		func(ctx context.Context, in *OrgPath) (*struct{}, error) {
			return nil, s.JoinByEmailDomain(ctx, in.OrganizationID)
		})
	httpapi.Register(api, httpapi.Op{ID: "getOrganizationInviteLink", Needs: access.Role(access.ManageInvites), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/link-invites/{inviteId}", Tag: tag,
		Summary: "Get an invite link"},
		func(ctx context.Context, in *InvitePath) (*httpapi.Out[InviteLinkToOrganization], error) {
			return httpapi.Answer(ViewInvite)(s.GetInviteLink(ctx, in.OrganizationID, in.InviteID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateOrganizationInviteById", Needs: access.Role(access.ManageInvites), Method: http.MethodPatch, Path: "/v1/orgs/{organizationId}/link-invites/{inviteId}", Tag: tag,
		Summary: "Change the role of an invite link"},
		func(ctx context.Context, in *struct {
			InvitePath
			Body OrganizationRoleBody
		}) (*httpapi.Out[InviteLinkToOrganization], error) {
			return httpapi.Answer(ViewInvite)(s.UpdateInviteLink(ctx, in.OrganizationID, in.InviteID, roleOf(in.Body.Role)))
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteOrganizationInviteById", Needs: access.Role(access.ManageInvites), Method: http.MethodDelete, Path: "/v1/orgs/{organizationId}/link-invites/{inviteId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Delete an invite link (205; 204 when there was none)", Also: httpapi.NothingToRemove("invite")},
		func(ctx context.Context, in *InvitePath) (*httpapi.RemovedOut, error) {
			return httpapi.Removed(s.DeleteInviteLink(ctx, in.OrganizationID, in.InviteID))
		})
	httpapi.Register(api, httpapi.Op{ID: "joinOrganizationWithInvite", Needs: access.SignedIn, Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/invites/{inviteId}", Tag: tag,
		Summary: "Join an organization with an invite link"},
		func(ctx context.Context, in *InvitePath) (*httpapi.Out[OrganizationJoinResult], error) {
			if err := s.JoinWithInvite(ctx, in.OrganizationID, in.InviteID); err != nil {
				return nil, err
			}
			return &httpapi.Out[OrganizationJoinResult]{}, nil
		})
}
