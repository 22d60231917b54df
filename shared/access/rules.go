package access

import (
	"strings"

	"github.com/galleydocs/galley/shared/model"
)

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

// Permission is what an operation needs of its caller, as its route
// declares it (httpapi.Op.Needs) and the API's document states it
// (x-galley-permission): one of the constants below, or Role(op), the
// least role an OrgOp needs, possibly OrSelf. The declaration states the
// check the operation's service makes; it decides nothing itself (the
// services ask the Authorizer), and shared/app/local's
// TestDeclaredPermissionsAreEnforced holds both to agree.
type Permission string

// Permissions that are not a role.
const (
	// Anyone: no token needed.
	Anyone Permission = "anyone"
	// SignedLink: no token needed; the link is signed (a download
	// link the API answered, checked and expiring).
	SignedLink Permission = "anyone with a signed link"
	// SignedIn: any user's token.
	SignedIn Permission = "any signed-in user"
	// Themself: any user, acting on their own account with a token not
	// issued by an organization's sign-in (their API tokens).
	Themself Permission = "the caller themself"
	// InstanceAdmin: the instance administrator (RequireInstanceAdmin).
	InstanceAdmin Permission = "the instance administrator"
	// SCIMToken: no user's token; a SCIM bearer token of the organization
	// the path names, which the SCIM service checks (docs/scim.md).
	SCIMToken Permission = "the organization's SCIM token"
)

// Endings of a permission that others have too: orSelf, the user the
// operation names (its {userId}) on themself (RequireOrg's OrSelf option;
// the instance administrator's operations on a user's tokens); orAuthor,
// the author of the comment or reply the operation names, while they may
// still comment.
const (
	orSelf   = ", or the user themself"
	orAuthor = ", or its author while they may comment"
)

// Role is the permission of an operation whose service asks op: the
// caller's organization role, or on a space or a collection their level
// on it (which starts from that role), must allow op.
func Role(op OrgOp) Permission { return Permission(op) }

// OrSelf is p, or the user the operation is about, themself.
func (p Permission) OrSelf() Permission { return p + orSelf }

// OrAuthor is p, or the author of what the operation names.
func (p Permission) OrAuthor() Permission { return p + orAuthor }

// Base is p without its OrSelf or OrAuthor, and whether it had one.
func (p Permission) Base() (Permission, bool) {
	for _, end := range []string{orSelf, orAuthor} {
		if s, ok := strings.CutSuffix(string(p), end); ok {
			return Permission(s), true
		}
	}
	return p, false
}

// Op returns the operation of a permission made by Role; ok is false for
// the others.
func (p Permission) Op() (op OrgOp, ok bool) {
	b, _ := p.Base()
	if _, known := minimum(OrgOp(b)); !known {
		return "", false
	}
	return OrgOp(b), true
}

// Least is the least organization role of a permission made by Role.
func (p Permission) Least() (model.Role, bool) {
	op, ok := p.Op()
	if !ok {
		return "", false
	}
	return minimum(op)
}

// Valid reports whether p is one of the permissions above.
func (p Permission) Valid() bool {
	b, more := p.Base()
	switch b {
	case Anyone, SignedLink, SignedIn, Themself, SCIMToken:
		return !more
	case InstanceAdmin:
		return !strings.HasSuffix(string(p), orAuthor)
	}
	_, ok := p.Op()
	return ok
}

// Public reports whether p needs no user's token (a SCIM operation takes
// its organization's SCIM token, checked by its service, not by the API's
// authentication).
func (p Permission) Public() bool { return p == Anyone || p == SignedLink || p == SCIMToken }
