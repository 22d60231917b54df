// Package orgshttp is the organizations family's HTTP layer: its
// operations, request bodies and response shapes (organizations, members,
// teams, invites), on the service of package orgs (which knows no HTTP).
// Other families' handlers show organizations and teams through its views
// (ViewOrganization, ViewTeam).
//
// It is one file per resource it serves (organizations.go, members.go,
// teams.go, invites.go), each with its API shapes and its register
// function; this file has Routes and what they share.
package orgshttp

import (
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
)

// Register adds the organizations family's operations.
func Register(api *httpapi.API, s *orgs.Service) {
	registerOrganizations(api, s)
	registerMembers(api, s)
	registerTeams(api, s)
	registerInvites(api, s)
}

func roleOf(p *string) model.Role {
	if p == nil {
		return model.RoleGuest
	}
	return model.Role(*p)
}

// OrganizationRoleBody is a body holding only a nullable role (null for guests).
type OrganizationRoleBody struct {
	Role *string `json:"role" enum:"admin,create,review,edit,comment,read" nullable:"true" doc:"null for guests"`
}

// OrgPath is the path of an organization's operations.
type OrgPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
}

// OrgListIn is the input of a list of an organization's records.
type OrgListIn struct {
	OrgPath
	httpapi.ListParams
}
