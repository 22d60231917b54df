package audit

import "github.com/galleydocs/galley/shared/model"

// Action is one entry of the catalogue of actions: its stable id (the
// `action` of events) and its label.
type Action struct {
	ID, Label string
}

// Actions is the catalogue, in the order listAuditEventActions answers it.
func Actions() []Action {
	return []Action{
		{model.AuditOrgCreated, "Created organization"},
		{model.AuditOrgSettings, "Updated organization settings"},
		{model.AuditMemberAdded, "Added organization member"},
		{model.AuditMembersInvited, "Added users to the organization by email"},
		{model.AuditMemberRole, "Updated organization member role"},
		{model.AuditMemberRemoved, "Removed organization member"},
		{model.AuditMemberSSO, "Made organization member an SSO member"},
		{model.AuditTeamCreated, "Created organization team"},
		{model.AuditTeamUpdated, "Updated organization team"},
		{model.AuditTeamDeleted, "Deleted organization team"},
		{model.AuditTeamMemberAdded, "Added organization team member"},
		{model.AuditTeamMemberRemoved, "Removed organization team member"},
		{model.AuditTeamMemberUpdated, "Updated organization team member"},
		{model.AuditTeamMembersSet, "Updated organization team members"},
		{model.AuditInviteCreated, "Created organization invite link"},
		{model.AuditInviteUpdated, "Updated organization invite link"},
		{model.AuditInviteDeleted, "Deleted organization invite link"},
		{model.AuditSpaceGranted, "Gave users or teams a role on a space"},
		{model.AuditSpaceGrantUpdated, "Updated a permission on a space"},
		{model.AuditSpaceGrantRemoved, "Removed a permission on a space"},
		{model.AuditCollGranted, "Gave users or teams a role on a collection"},
		{model.AuditCollGrantUpdated, "Updated a permission on a collection"},
		{model.AuditCollGrantRemoved, "Removed a permission on a collection"},
		{model.AuditSiteGranted, "Gave users or teams a role on a site"},
		{model.AuditSiteGrantUpdated, "Updated a permission on a site"},
		{model.AuditSiteGrantRemoved, "Removed a permission on a site"},
		{model.AuditSitePublished, "Published a site"},
		{model.AuditSiteUnpublished, "Unpublished a site"},
		{model.AuditSiteVisibility, "Changed a site's visibility"},
		{model.AuditShareLinkCreated, "Created a site share link"},
		{model.AuditShareLinkUpdated, "Updated a site share link"},
		{model.AuditShareLinkDeleted, "Deleted a site share link"},
		{model.AuditSAMLCreated, "Created a SAML provider"},
		{model.AuditSAMLUpdated, "Updated a SAML provider"},
		{model.AuditSAMLDeleted, "Deleted a SAML provider"},
		{model.AuditOIDCCreated, "Created an OpenID Connect provider"},
		{model.AuditOIDCUpdated, "Updated an OpenID Connect provider"},
		{model.AuditOIDCDeleted, "Deleted an OpenID Connect provider"},
		{model.AuditSignedIn, "Signed in with SSO"},
		{model.AuditSignInFailed, "Failed to sign in with SSO"},
		{model.AuditGitSyncUpdated, "Updated a space's Git Sync settings"},
		{model.AuditMemberDisabled, "Deactivated organization member (SCIM)"},
		{model.AuditMemberEnabled, "Reactivated organization member (SCIM)"},
		{model.AuditSCIMTokenCreated, "Created a SCIM token"},
		{model.AuditSCIMTokenRevoked, "Revoked a SCIM token"},
	}
}
