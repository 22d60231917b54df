package access

import "github.com/galleydocs/galley/shared/model"

// OrgOp is an operation on an organization or on what it owns.
type OrgOp string

// Operations checked against the organization role.
const (
	ViewOrg         OrgOp = "view organization"
	AdminOrg        OrgOp = "administer organization"
	ListMembers     OrgOp = "list members"
	ListTeams       OrgOp = "list teams"
	ManageTeams     OrgOp = "manage teams"
	ManageInvites   OrgOp = "manage invites"
	CreateContent   OrgOp = "create content"
	ReadContent     OrgOp = "read content"
	CommentContent  OrgOp = "comment on content"
	EditContent     OrgOp = "edit content"
	ReviewContent   OrgOp = "review content"
	MergeContent    OrgOp = "merge content"
	AdminContent    OrgOp = "administer content"
	CreateOpenAPI   OrgOp = "create OpenAPI specs"
	ViewBilling     OrgOp = "view billing"
	IngestConvos    OrgOp = "ingest conversations"
	ListIntegration OrgOp = "list integrations"
)

// minimum is the least role each operation needs. A guest ("") only views
// the organization itself; content shared with guests explicitly comes with
// the permission model of collections and spaces.
func minimum(op OrgOp) (model.Role, bool) {
	switch op {
	case ViewOrg:
		return model.RoleGuest, true
	case ListMembers, ListTeams, ReadContent:
		return model.RoleRead, true
	case CommentContent:
		return model.RoleComment, true
	case EditContent:
		return model.RoleEdit, true
	case ReviewContent, MergeContent:
		return model.RoleReview, true
	case CreateContent, CreateOpenAPI, ListIntegration:
		return model.RoleCreate, true
	case AdminOrg, ManageTeams, ManageInvites, AdminContent, ViewBilling, IngestConvos:
		return model.RoleAdmin, true
	}
	return "", false
}

// Allowed reports whether role may do op. Unknown operations are denied.
func Allowed(role model.Role, op OrgOp) bool {
	min, ok := minimum(op)
	if !ok {
		return false
	}
	if min == model.RoleGuest {
		return true
	}
	return role != model.RoleGuest && role.AtLeast(min)
}

// OrgPermissions is the `permissions` object of an organization.
type OrgPermissions struct {
	View                bool `json:"view"`
	Access              bool `json:"access"`
	Admin               bool `json:"admin"`
	OwnTeam             bool `json:"ownTeam"`
	CreateContent       bool `json:"createContent"`
	CreateOpenAPISpec   bool `json:"createOpenAPISpec"`
	IngestConversations bool `json:"ingestConversations"`
	ViewBilling         bool `json:"viewBilling"`
	ListMembers         bool `json:"listMembers"`
	ListTeams           bool `json:"listTeams"`
	ListIntegrations    bool `json:"listIntegrations"`
	ListInstallations   bool `json:"listInstallations"`
	// InstallIntegration is always false: Galley has no integrations to
	// install (GitBook's document requires the field).
	InstallIntegration bool `json:"installIntegration"`
}

// ForOrg computes an organization's permissions for a member's role.
func ForOrg(role model.Role, ownsTeam bool) OrgPermissions {
	return OrgPermissions{
		View:                Allowed(role, ViewOrg),
		Access:              Allowed(role, ViewOrg),
		Admin:               Allowed(role, AdminOrg),
		OwnTeam:             ownsTeam,
		CreateContent:       Allowed(role, CreateContent),
		CreateOpenAPISpec:   Allowed(role, CreateOpenAPI),
		IngestConversations: Allowed(role, IngestConvos),
		ViewBilling:         Allowed(role, ViewBilling),
		ListMembers:         Allowed(role, ListMembers),
		ListTeams:           Allowed(role, ListTeams),
		ListIntegrations:    Allowed(role, ListIntegration),
		ListInstallations:   Allowed(role, ListIntegration),
	}
}

// SpacePermissions is the `permissions` object of a space.
type SpacePermissions struct {
	View            bool `json:"view"`
	Access          bool `json:"access"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Edit            bool `json:"edit"`
	TriggerGitSync  bool `json:"triggerGitSync"`
	Comment         bool `json:"comment"`
	Merge           bool `json:"merge"`
	Review          bool `json:"review"`
	// InstallIntegration is always false: Galley has no integrations to
	// install (GitBook's document requires the field).
	InstallIntegration bool `json:"installIntegration"`
}

// ForSpace computes a space's permissions for an effective content role.
func ForSpace(role model.Role) SpacePermissions {
	read := Allowed(role, ReadContent)
	return SpacePermissions{
		View:            read,
		Access:          read,
		Admin:           Allowed(role, AdminContent),
		ViewInviteLinks: Allowed(role, AdminContent),
		Edit:            Allowed(role, EditContent),
		TriggerGitSync:  Allowed(role, EditContent),
		Comment:         Allowed(role, CommentContent),
		Merge:           Allowed(role, MergeContent),
		Review:          Allowed(role, ReviewContent),
	}
}

// TeamPermissions is the `permissions` object of a team.
type TeamPermissions struct {
	Admin bool `json:"admin"`
	View  bool `json:"view"`
}

// ForTeam computes a team's permissions for a member's role.
func ForTeam(role model.Role) TeamPermissions {
	return TeamPermissions{Admin: Allowed(role, ManageTeams), View: Allowed(role, ListTeams)}
}
