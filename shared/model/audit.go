package model

import "time"

// AuditChange is what a family says of one administrative change it
// makes: the audit family (package audit) adds who made it, when and from
// where, and records it (docs/audit.md).
type AuditChange struct {
	OrgID string
	// Action is a name of the audit family's catalogue (audit.Actions):
	// GitBook's where it has one, Galley's otherwise.
	Action string
	Target AuditRef
	// Actor, when set, is who made the change in a request that has no
	// caller (a sign-in: the person signing in); the request's caller
	// otherwise.
	Actor *AuditRef
	// Payload holds the change's details shown by getOrganizationAuditEvent
	// (ids, roles, titles; never secrets).
	Payload map[string]any
}

// AuditRef names an actor or a target of an audit event: its kind, its
// stable id and, when known without another read, a label.
type AuditRef struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Label string `json:"label,omitempty"`
}

// AuditEvent is a recorded change of an organization (owner: audit).
type AuditEvent struct {
	ID         string    `json:"id"`
	OrgID      string    `json:"orgId"`
	OccurredAt time.Time `json:"occurredAt"`
	Action     string    `json:"action"`
	Actor      AuditRef  `json:"actor"`
	Target     AuditRef  `json:"target"`
	// Address and UserAgent are the request's client address and
	// User-Agent header ("" when the change was not a request's).
	Address   string         `json:"address,omitempty"`
	UserAgent string         `json:"userAgent,omitempty"`
	RequestID string         `json:"requestId,omitempty"`
	Payload   map[string]any `json:"payload,omitempty"`
	ExpiresAt time.Time      `json:"expiresAt"`
}

// The audit actions Galley records (package audit's catalogue). GitBook's ids where its audit log has the
// same change (its documentation's list of actions); Galley's own, in the
// same form, otherwise. docs/audit.md lists which change records which.
const (
	AuditOrgCreated        = "organization.created"
	AuditOrgSettings       = "organization.settings.updated" // GitBook's
	AuditMemberAdded       = "organization.member.added"
	AuditMembersInvited    = "organization.member.invited"
	AuditMemberRole        = "organization.member.role-updated"
	AuditMemberRemoved     = "organization.member.removed"
	AuditMemberSSO         = "organization.member.sso-updated"
	AuditTeamCreated       = "organization.team.created" // GitBook's
	AuditTeamUpdated       = "organization.team.updated"
	AuditTeamDeleted       = "organization.team.deleted"        // GitBook's
	AuditTeamMemberAdded   = "organization.team.member-added"   // GitBook's
	AuditTeamMemberRemoved = "organization.team.member-removed" // GitBook's
	AuditTeamMemberUpdated = "organization.team.member-updated" // GitBook's
	AuditTeamMembersSet    = "organization.team.members-updated"
	AuditInviteCreated     = "organization.link-invite.created" // GitBook's
	AuditInviteUpdated     = "organization.link-invite.updated" // GitBook's
	AuditInviteDeleted     = "organization.link-invite.deleted" // GitBook's
	AuditSpaceGranted      = "space.permission.invited"
	AuditSpaceGrantUpdated = "space.permission.updated"
	AuditSpaceGrantRemoved = "space.permission.removed"
	AuditCollGranted       = "collection.permission.invited"
	AuditCollGrantUpdated  = "collection.permission.updated"
	AuditCollGrantRemoved  = "collection.permission.removed"
	AuditSiteGranted       = "site.permission.invited"
	AuditSiteGrantUpdated  = "site.permission.updated"
	AuditSiteGrantRemoved  = "site.permission.removed"
	AuditSitePublished     = "site.published"
	AuditSiteUnpublished   = "site.unpublished"
	AuditSiteVisibility    = "site.visibility-updated"
	AuditShareLinkCreated  = "site.share-link.created"
	AuditShareLinkUpdated  = "site.share-link.updated"
	AuditShareLinkDeleted  = "site.share-link.deleted"
	AuditSAMLCreated       = "organization.saml-provider.created"
	AuditSAMLUpdated       = "organization.saml-provider.updated"
	AuditSAMLDeleted       = "organization.saml-provider.deleted"
	AuditOIDCCreated       = "organization.oidc-provider.created"
	AuditOIDCUpdated       = "organization.oidc-provider.updated"
	AuditOIDCDeleted       = "organization.oidc-provider.deleted"
	AuditSignedIn          = "organization.member.signed-in"
	AuditSignInFailed      = "organization.member.sign-in-failed"
	AuditGitSyncUpdated    = "space.git-sync.updated"
	AuditMemberDisabled    = "organization.member.disabled"
	AuditMemberEnabled     = "organization.member.enabled"
	AuditSCIMTokenCreated  = "organization.scim-token.created"
	AuditSCIMTokenRevoked  = "organization.scim-token.revoked"
)
