package orgs

import (
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/mergerules"
	"github.com/galleydocs/galley/shared/model"
)

// The API's shape of an organization: the orgs family renders it for every
// family that shows one, over base URLs given to it, so that none of them
// needs the HTTP layer.

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
	MergeRules     mergerules.OrgConfig        `json:"mergeRules"`
}

// OrganizationDefaultContent points at the content shown by default.
type OrganizationDefaultContent struct {
	Type string `json:"type" enum:"site"`
	Site ids.ID `json:"site" minLength:"1" doc:"ID of the site"`
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
	Count  int    `json:"count" minimum:"0" doc:"Trials consumed: always 0"`
}

// ViewOrganization renders an organization for its caller, with links
// under apiBase and appBase.
func ViewOrganization(apiBase, appBase string, o OrgForCaller) Organization {
	v := Organization{Object: "organization", ID: o.Org.ID, Title: o.Org.Title, CreatedAt: o.Org.CreatedAt,
		EmailDomains: o.Org.EmailDomains, Hostname: o.Org.Hostname, Type: o.Org.Type, UseCase: o.Org.UseCase,
		CommunityType: o.Org.CommunityType, DefaultRole: RoleView(o.Org.DefaultRole), SSO: o.Org.SSO, AI: o.Org.AI,
		InviteLinks: o.Org.InviteLinks, Plan: o.Org.Plan,
		URLs: OrganizationURLs{Location: apiBase + "/v1/orgs/" + o.Org.ID, App: appBase + "/o/" + o.Org.ID,
			Logo: o.Org.Logo},
		Trial:       OrganizationTrial{Status: "notapplicable"},
		Permissions: o.Permissions(), MergeRules: mergerules.OrgView(o.Org.MergeRules)}
	if v.EmailDomains == nil {
		v.EmailDomains = []string{}
	}
	if o.Org.DefaultContent != nil {
		v.DefaultContent = &OrganizationDefaultContent{Type: o.Org.DefaultContent.Type, Site: ids.ID(o.Org.DefaultContent.Site)}
	}
	return v
}

// RoleView is a role in the API: null for a guest (no role).
func RoleView(r model.Role) *string {
	if r == model.RoleGuest {
		return nil
	}
	s := string(r)
	return &s
}
