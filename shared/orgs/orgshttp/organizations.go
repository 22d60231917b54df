package orgshttp

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/mergerules"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
)

// Organization is an organization in the API (orgs.Organization), and its
// parts.
type (
	Organization               = orgs.Organization
	OrganizationDefaultContent = orgs.OrganizationDefaultContent
	OrganizationURLs           = orgs.OrganizationURLs
	OrganizationTrial          = orgs.OrganizationTrial
)

// ViewOrganization renders an organization for its caller, with links
// under the request's bases.
func ViewOrganization(ctx context.Context, o orgs.OrgForCaller) Organization {
	return orgs.ViewOrganization(httpapi.APIURL(ctx), httpapi.AppURL(ctx), o)
}

// OrganizationsOfDomain answers GET /v1/email-domains/{emailDomain}/orgs.
type OrganizationsOfDomain struct {
	Organizations []Organization `json:"organizations" nullable:"false"`
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

// DefaultContentInput is defaultContent in PATCH of an organization. Its
// schema is written inline, so that the field may be declared nullable
// (null removes it).
type DefaultContentInput OrganizationDefaultContent

// Schema implements huma.SchemaProvider.
func (DefaultContentInput) Schema(r huma.Registry) *huma.Schema {
	type plain DefaultContentInput
	return httpapi.InlineSchema[plain](r)
}

// UpdateOrganizationBody is the body of PATCH /v1/orgs/{organizationId}.
// An omitted field is unchanged; null clears defaultRole (guests),
// defaultContent and logo (declared nullable), and is refused for the
// other fields (httpapi, nulls.go).
type UpdateOrganizationBody struct {
	Title          *string               `json:"title,omitempty" minLength:"2" maxLength:"255"`
	EmailDomains   []string              `json:"emailDomains,omitempty" nullable:"false" maxItems:"40" doc:"Replaces the domains; [] removes them"`
	Hostname       *string               `json:"hostname,omitempty" minLength:"3" maxLength:"32"`
	DefaultRole    *string               `json:"defaultRole,omitempty" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"null: new members are guests"`
	DefaultContent *DefaultContentInput  `json:"defaultContent,omitempty" nullable:"true" doc:"null removes it"`
	Logo           *string               `json:"logo,omitempty" format:"uri" maxLength:"2048" nullable:"true" doc:"null removes it"`
	SSO            *bool                 `json:"sso,omitempty"`
	AI             *bool                 `json:"ai,omitempty"`
	InviteLinks    *bool                 `json:"inviteLinks,omitempty"`
	MergeRules     *mergerules.OrgConfig `json:"mergeRules,omitempty" doc:"What change requests of spaces that inherit need before they are merged"`
	Nulls          httpapi.Nulls         `json:"-"`
}

// patch turns the body into the service's change (null is refused, by the
// API's schema, in the fields that cannot be removed).
func (b UpdateOrganizationBody) patch() orgs.OrganizationPatch {
	p := orgs.OrganizationPatch{Title: b.Title, Hostname: b.Hostname, SSO: b.SSO, AI: b.AI, InviteLinks: b.InviteLinks, Logo: b.Logo}
	if b.EmailDomains != nil {
		p.EmailDomains = &b.EmailDomains
	}
	if b.MergeRules != nil {
		r := mergerules.ToModel(b.MergeRules.Type, b.MergeRules.Rules)
		p.MergeRules = &r
	}
	if b.DefaultRole != nil || b.Nulls.Has("defaultRole") {
		r := roleOf(b.DefaultRole)
		p.DefaultRole = &r
	}
	if b.Nulls.Has("defaultContent") {
		p.ClearDefaultContent = true
	} else if b.DefaultContent != nil {
		p.DefaultContent = &model.SitePointer{Type: b.DefaultContent.Type, Site: string(b.DefaultContent.Site)}
	}
	if b.Nulls.Has("logo") {
		empty := ""
		p.Logo = &empty
	}
	return p
}

func registerOrganizations(api *httpapi.API, s *orgs.Service) {
	const tag = "Organizations"
	httpapi.Register(api, httpapi.Op{ID: "createOrganization", Needs: access.SignedIn, Method: http.MethodPost, Path: "/v1/orgs", Tag: tag,
		Status: http.StatusCreated, Summary: "Create an organization (the caller becomes its admin)"},
		func(ctx context.Context, in *struct{ Body CreateOrganizationBody }) (*httpapi.Out[Organization], error) {
			b := in.Body
			return httpapi.Answer(httpapi.In(ctx, ViewOrganization))(s.CreateOrganization(ctx, orgs.NewOrganization{Title: b.Title, Type: b.Type,
				UseCase: b.UseCase, CommunityType: b.CommunityType, EmailDomains: b.EmailDomains, Hostname: b.Hostname}))
		})
	httpapi.Register(api, httpapi.Op{ID: "listOrganizationsForAuthenticatedUser", Needs: access.SignedIn, Method: http.MethodGet, Path: "/v1/orgs", Tag: tag,
		Summary: "List the organizations of the authenticated user"},
		func(ctx context.Context, in *struct{ httpapi.ListParams }) (*httpapi.Out[httpapi.List[Organization]], error) {
			return httpapi.AnswerPage(httpapi.In(ctx, ViewOrganization))(s.ListOrganizations(ctx, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "getOrganizationById", Needs: access.Role(access.ViewOrg), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}", Tag: tag,
		Summary: "Get an organization"},
		func(ctx context.Context, in *OrgPath) (*httpapi.Out[Organization], error) {
			return httpapi.Answer(httpapi.In(ctx, ViewOrganization))(s.GetOrganization(ctx, in.OrganizationID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateOrganizationById", Needs: access.Role(access.AdminOrg), Method: http.MethodPatch, Path: "/v1/orgs/{organizationId}", Tag: tag,
		Summary: "Update an organization"},
		func(ctx context.Context, in *struct {
			OrgPath
			Body UpdateOrganizationBody
		}) (*httpapi.Out[Organization], error) {
			return httpapi.Answer(httpapi.In(ctx, ViewOrganization))(s.UpdateOrganization(ctx, in.OrganizationID, in.Body.patch()))
		})
	httpapi.Register(api, httpapi.Op{ID: "getOrganizationsForEmailDomain", Needs: access.SignedIn, Method: http.MethodGet, Path: "/v1/email-domains/{emailDomain}/orgs", Tag: tag,
		Summary: "List the organizations of an email domain"},
		func(ctx context.Context, in *struct {
			EmailDomain string `path:"emailDomain" maxLength:"253"`
		}) (*httpapi.Out[OrganizationsOfDomain], error) {
			found, err := s.OrganizationsByEmailDomain(ctx, in.EmailDomain)
			if err != nil {
				return nil, err
			}
			res := OrganizationsOfDomain{Organizations: make([]Organization, 0, len(found))}
			for _, o := range found {
				res.Organizations = append(res.Organizations, ViewOrganization(ctx, o))
			}
			return &httpapi.Out[OrganizationsOfDomain]{Body: res}, nil
		})
}
