package keys

// Ownership: every record has one owner, the family package (a directory
// under shared/) whose typed store reads and writes it — its keys, items,
// index keys and invariants. Other families ask the owner (a function it
// exports) or take part in a transaction through an operation it exports
// (spaces.Apply with a named edit, for instance; records_test.go fails
// when another package assigns a field of a record). ownership_test.go parses shared/** and
// fails when a package calls a constructor of this package that another
// family owns, outside the short list of Exceptions; docs/storage.md shows
// both tables (generated from here).

// Owners maps every exported constructor, partition and prefix of this
// package to its owner package. "" marks a partition several families
// share (each reads only its own sort-key prefix in it).
func Owners() map[string]string {
	owners := map[string]string{
		"OrgPartition": "", // ORG#<orgId>: members, teams, invites, custom fields, SAML and OIDC providers, translations, specs, webhooks, SCIM
	}
	for owner, names := range map[string][]string{
		"secret": {"InstanceSecret"},
		"users":  {"InstanceAdmin", "User", "Email", "Token", "UserInList", "AllUsers", "TokenRef", "TokenRefPrefix"},
		"orgs": {"Org", "Member", "MemberByUser", "UserOrgs", "MemberByJoined", "OrgMembers", "EmailDomain", "DomainPartition", "OrgHostname",
			"Team", "TeamMember", "TeamMembersPrefix", "TeamMemberByUser", "MemberTeams", "Invite",
			"MemberPrefix", "TeamPrefix", "InvitePrefix", "OrgPrefix"},
		"tree": {"Collection", "CollectionPartition", "CollectionInOrg", "OrgCollections", "CollectionAmongSiblings",
			"ChildCollections", "ChildPrefix", "ChildEntry", "ChildrenPartition"},
		"spaces":       {"Space", "SpaceInOrg", "OrgSpaces", "SpaceInCollection", "CollectionSpaces"},
		"access":       {"GrantPrefix", "ContentPartition", "Grant", "GrantByPrincipal", "PrincipalGrants"},
		"customfields": {"CustomFieldPrefix", "CustomField", "CustomFieldValuePrefix", "CustomFieldValues", "CustomFieldValue", "CustomFieldValueByField", "FieldValues"},
		"sso":          {"SAMLProviderPrefix", "SAMLProvider", "OIDCProviderPrefix", "OIDCProvider", "SAMLServiceProvider", "SAMLUsedPartition", "SAMLUsed"},
		"translations": {"TranslationPrefix", "Translation"},
		"scim":         {"SCIMTokenPrefix", "SCIMToken", "SCIMTokenRef", "SCIMUserPrefix", "SCIMUser", "SCIMUserNamePrefix", "SCIMUserName", "SCIMGroupPrefix", "SCIMGroup"},
		"webhooks":     {"WebhookPrefix", "Webhook", "WebhookPartition", "WebhookDeliveryPrefix", "WebhookDelivery", "WebhookPendingInOrg", "OrgPendingDeliveries"},
		"audit":        {"AuditEventPrefix", "AuditPartition", "AuditEvent", "AuditExpiries", "AuditEventByExpiry"},
		"idempotency":  {"IdempotentRequest", "IdempotencyExpiries", "IdempotentRequestByExpiry"},
		"content":      {"Revision"},
		"changerequests": {"ChangeRequest", "ChangeRequestNumber", "ChangeRequestByStatus", "SpaceChangeRequests", "ChangeRequestContributor", "ContributorByStatus", "ContributorChangeRequests",
			"ChangeRequestReview", "ReviewPrefix", "ReviewRequest", "ReviewRequestPrefix", "ChangeRequestInOrg", "OrgChangeRequests", "ChangeRequestCreatedInOrg", "OrgChangeRequestsByCreation"},
		"comments":         {"CommentPrefix", "CommentThread", "Comment", "CommentByStatus", "CommentsOfStatus", "CommentByPage", "CommentsOnPage", "CommentReply", "ReplyPrefix", "CommenterPrefix", "Commenter"},
		"sites":            {"Site", "SitePartition", "SiteInOrg", "OrgSites", "SiteAdaptiveSchema", "SiteBasename", "SiteCustomization", "SitePublishingAuth", "SiteRedirectPrefix", "SiteRedirect", "SiteRedirectID", "SiteOrigin"},
		"openapispecs":     {"OpenAPISpecPrefix", "OpenAPISpec", "OpenAPIVersionPrefix", "OpenAPIVersions", "OpenAPIVersion"},
		"gitsync/gitstate": {"GitPollSpaces", "GitPolled", "GitSync", "SiteGitSync"},
		"insights":         {"InsightsPartition", "InsightsCounterPrefix", "InsightsCounter", "InsightsMonthPrefix", "InsightsMonthCounter", "InsightsTotalPrefix", "InsightsTotal", "InsightsPackPrefix", "InsightsPack", "InsightsDays", "InsightsDayPartition", "InsightsMarker", "InsightsSalt"},
	} {
		for _, n := range names {
			owners[n] = owner
		}
	}
	return owners
}

// EntityOwners maps every entity of Design to its owner package.
func EntityOwners() map[string]string {
	return map[string]string{
		"Instance secret": "secret", "Instance admin marker": "users", "User": "users", "Email reservation": "users", "API token": "users", "API token reference": "users",
		"Organization": "orgs", "Member": "orgs", "Email domain": "orgs", "Team": "orgs", "Team member": "orgs", "Invite link": "orgs",
		"Collection": "tree", "Entry at the top level": "tree", "Entry in a collection": "tree",
		"Grant on a space": "access", "Grant on a collection": "access", "Grant on a site": "access",
		"Custom field": "customfields", "Custom field value": "customfields",
		"SAML provider": "sso", "OIDC provider": "sso", "SAML service-provider key": "sso", "Used SAML id": "sso",
		"Translation settings": "translations", "SCIM token": "scim", "SCIM token reference": "scim", "SCIM user": "scim", "SCIM userName": "scim", "SCIM group": "scim", "Audit event": "audit", "Idempotent request": "idempotency",
		"Webhook endpoint": "webhooks", "Webhook delivery": "webhooks",
		"Space": "spaces", "Revision": "content",
		"Change request": "changerequests", "Change request number": "changerequests", "Change request contributor copy": "changerequests",
		"Change request review": "changerequests", "Review request": "changerequests",
		"Space commenter": "comments", "Change request commenter": "comments", "Space comment": "comments", "Space comment reply": "comments", "Change request comment": "comments", "Change request comment reply": "comments",
		"Site": "sites", "Site adaptive schema": "sites", "Site basename reservation": "sites",
		"Site customization": "sites", "Site origin reservation": "sites", "Site publishing auth": "sites", "Site redirect": "sites", "Site redirect id": "sites",
		"OpenAPI spec": "openapispecs", "OpenAPI spec version": "openapispecs",
		"Git sync state": "gitsync/gitstate", "Site Git sync state": "gitsync/gitstate", "Space polled by Git Sync": "gitsync/gitstate",
		"Insights counter": "insights", "Insights month roll-up": "insights", "Insights type total": "insights", "Insights day pack": "insights", "Insights marker days": "insights", "Insights marker": "insights", "Insights salt": "insights",
	}
}

// Exception lets a package that is not the owner use some constructors.
type Exception struct {
	Package string   // directory under shared/
	Names   []string // constructors of this package; nil: every one
	Why     string
}

// Exceptions is the short list of packages that may use other families'
// keys, and why.
func Exceptions() []Exception {
	return []Exception{
		{"access", []string{"Org", "Member", "Team", "MemberTeams", "Space", "Collection", "Site", "UserOrgs", "OrgPrefix"},
			"the one authorization module reads the caller's membership, teams and the content's place on every decision (and checks that a site exists when granting on it) (and the caller's memberships to judge whether they may see a user), and moves the space-grant counters of members and teams with the grants it owns; the families it would ask import it"},
		{"spaces", []string{"Org", "Revision"},
			"a new space is written in one transaction with a check that its organization exists and with its first revision; orgs and content import spaces, so spaces cannot call them"},
		{"tree", []string{"Space"}, "placing an item next to a sibling space reads where that space is; spaces imports tree"},
		{"content", []string{"ChangeRequest", "ChangeRequestNumber"}, "reading a change request's content resolves the request (by id or number) and its revision, the reading right being content's to check; changerequests imports content"},
		{"testkit", nil, "test fixtures seed records directly (no production path); member items come from orgs.MemberItem"},
	}
}
