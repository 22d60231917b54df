// Package keys is Galley's single-table key design, written once: every
// entity's primary and index keys, and the access patterns they serve. The
// table in docs/storage.md is generated from Design and checked by a test.
package keys

import "strconv"

// Key is an item's primary key.
type Key struct{ PK, SK string }

// Index keys of one item in one index.
type IndexKey struct{ PK, SK string }

// Fixed sort keys and prefixes.
const (
	skUser       = "USER"
	skEmail      = "EMAIL"
	skToken      = "TOKEN"
	skOrg        = "ORG"
	skSpace      = "SPACE"
	MemberPrefix = "MEMBER#"
	TeamPrefix   = "TEAM#"
	InvitePrefix = "INVITE#"
	teamMemberSK = "TEAMMEMBER#"
	OrgPrefix    = "ORG#"
)

// InstanceSecret holds the key that signs page tokens.
func InstanceSecret() Key { return Key{"INSTANCE", "SECRET"} }

// InstanceAdmin marks that the instance administrator exists.
func InstanceAdmin() Key { return Key{"INSTANCE", "ADMIN"} }

// User is a user record.
func User(userID string) Key { return Key{"USER#" + userID, skUser} }

// Email reserves an address for one user (uniqueness).
func Email(email string) Key { return Key{"EMAIL#" + email, skEmail} }

// Token is an API token, by the hash of its secret.
func Token(hash string) Key { return Key{"TOKEN#" + hash, skToken} }

// UserInList places a user in the instance's list of users (GSI1), by id
// (ids sort by creation time).
func UserInList(userID string) IndexKey { return IndexKey{AllUsers(), userID} }

// AllUsers is the GSI1 partition listing every user.
func AllUsers() string { return "USERS" }

// TokenRef is a user's reference to one of their tokens, by the token's
// public id: it lists and revokes tokens without their secrets.
func TokenRef(userID, tokenID string) Key { return Key{"USER#" + userID, TokenRefPrefix + tokenID} }

// TokenRefPrefix is the sort-key prefix of a user's token references.
const TokenRefPrefix = "TOKENID#"

// Org is an organization record.
func Org(orgID string) Key { return Key{"ORG#" + orgID, skOrg} }

// OrgPartition is the partition holding an organization's members, teams and invites.
func OrgPartition(orgID string) string { return "ORG#" + orgID }

// Member is a user's membership of an organization.
func Member(orgID, userID string) Key { return Key{OrgPartition(orgID), MemberPrefix + userID} }

// MemberByUser places a membership in the user's list of organizations (GSI1).
func MemberByUser(orgID, userID string) IndexKey {
	return IndexKey{"USER#" + userID, OrgPrefix + orgID}
}

// UserOrgs is the GSI1 partition listing a user's memberships.
func UserOrgs(userID string) string { return "USER#" + userID }

// MemberByJoined places a membership in the organization's members by join
// time (GSI2). joinedAt is an RFC 3339 UTC timestamp with fixed width.
func MemberByJoined(orgID, joinedAt, userID string) IndexKey {
	return IndexKey{OrgMembers(orgID), joinedAt + "#" + userID}
}

// OrgMembers is the GSI2 partition of an organization's members by join time.
func OrgMembers(orgID string) string { return "ORG#" + orgID + "#MEMBERS" }

// EmailDomain lists an organization under one of its email domains.
func EmailDomain(domain, orgID string) Key { return Key{DomainPartition(domain), OrgPrefix + orgID} }

// OrgHostname reserves an organization's hostname (uniqueness: its sites
// are published under <hostname>.<SITES_DOMAIN>).
func OrgHostname(hostname string) Key { return Key{"HOSTNAME#" + hostname, "HOSTNAME"} }

// DomainPartition is the partition of the organizations of an email domain.
func DomainPartition(domain string) string { return "DOMAIN#" + domain }

// Team is a team record.
func Team(orgID, teamID string) Key { return Key{OrgPartition(orgID), TeamPrefix + teamID} }

// TeamMember puts a user in a team.
func TeamMember(orgID, teamID, userID string) Key {
	return Key{OrgPartition(orgID), TeamMembersPrefix(teamID) + userID}
}

// TeamMembersPrefix is the sort-key prefix of a team's members.
func TeamMembersPrefix(teamID string) string { return teamMemberSK + teamID + "#" }

// TeamMemberByUser places a team membership in the member's list of teams (GSI1).
func TeamMemberByUser(orgID, userID, teamID string) IndexKey {
	return IndexKey{MemberTeams(orgID, userID), TeamPrefix + teamID}
}

// MemberTeams is the GSI1 partition of a member's teams.
func MemberTeams(orgID, userID string) string { return "MEMBER#" + orgID + "#" + userID }

// Invite is an organization invite link.
func Invite(orgID, inviteID string) Key { return Key{OrgPartition(orgID), InvitePrefix + inviteID} }

// Collection is a collection record.
func Collection(collectionID string) Key { return Key{CollectionPartition(collectionID), "COLLECTION"} }

// CollectionPartition holds a collection's record, the entries of its
// children and its grants.
func CollectionPartition(collectionID string) string { return "COLLECTION#" + collectionID }

// CollectionInOrg places a collection in its organization's list in tree
// order (GSI1): path is the positions of its ancestors and its own.
func CollectionInOrg(orgID, path string) IndexKey { return IndexKey{OrgCollections(orgID), path} }

// OrgCollections is the GSI1 partition of an organization's collections.
func OrgCollections(orgID string) string { return "ORG#" + orgID + "#COLLECTIONS" }

// CollectionAmongSiblings places a collection among the collections of its
// parent ("" the top level), by position (GSI2).
func CollectionAmongSiblings(orgID, parentID, position string) IndexKey {
	return IndexKey{ChildCollections(orgID, parentID), position}
}

// ChildCollections is the GSI2 partition of the collections directly inside
// parentID ("" the top level of the organization).
func ChildCollections(orgID, parentID string) string {
	if parentID == "" {
		return "ORG#" + orgID + "#TOP#COLLECTIONS"
	}
	return CollectionPartition(parentID) + "#COLLECTIONS"
}

// ChildPrefix is the sort-key prefix of the entries of a parent's children.
const ChildPrefix = "CHILD#"

// ChildEntry is the entry of a space or collection at position in its
// parent ("" the top level): one per position, read consistently.
func ChildEntry(orgID, parentID, position string) Key {
	return Key{ChildrenPartition(orgID, parentID), ChildPrefix + position}
}

// ChildrenPartition is the partition of the entries of parentID's children
// ("" the top level of the organization).
func ChildrenPartition(orgID, parentID string) string {
	if parentID == "" {
		return "ORG#" + orgID + "#TOP"
	}
	return CollectionPartition(parentID)
}

// SpaceInCollection places a live space among the spaces of its collection,
// by position (GSI2).
func SpaceInCollection(collectionID, position string) IndexKey {
	return IndexKey{CollectionSpaces(collectionID), position}
}

// CollectionSpaces is the GSI2 partition of a collection's live spaces.
func CollectionSpaces(collectionID string) string {
	return CollectionPartition(collectionID) + "#SPACES"
}

// GrantPrefix is the sort-key prefix of a space's, collection's or site's grants.
const GrantPrefix = "GRANT#"

// ContentPartition is the partition of a space ("space"), a collection
// ("collection") or a site ("site").
func ContentPartition(kind, id string) string {
	switch kind {
	case "collection":
		return CollectionPartition(id)
	case "site":
		return SitePartition(id)
	}
	return "SPACE#" + id
}

// Grant gives a user or team ("user", "team") access to a space, a
// collection or a site.
func Grant(contentKind, contentID, principalKind, principalID string) Key {
	return Key{ContentPartition(contentKind, contentID), GrantPrefix + upper(principalKind) + "#" + principalID}
}

// GrantByPrincipal places a grant in the list of its user's or team's grants (GSI1).
func GrantByPrincipal(orgID, principalKind, principalID, contentKind, contentID string) IndexKey {
	return IndexKey{PrincipalGrants(orgID, principalKind, principalID), upper(contentKind) + "#" + contentID}
}

// upper spells a kind ("user", "space", ...) as keys do.
func upper(kind string) string {
	b := []byte(kind)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// PrincipalGrants is the GSI1 partition of a user's or team's grants in an organization.
func PrincipalGrants(orgID, principalKind, principalID string) string {
	return "ORG#" + orgID + "#GRANTS#" + upper(principalKind) + "#" + principalID
}

// CustomFieldPrefix is the sort-key prefix of an organization's custom fields.
const CustomFieldPrefix = "CUSTOMFIELD#"

// CustomField is an organization's custom field definition, by name (unique).
func CustomField(orgID, name string) Key { return Key{OrgPartition(orgID), CustomFieldPrefix + name} }

// CustomFieldValuePrefix is the sort-key prefix of a space's custom field values.
const CustomFieldValuePrefix = "CUSTOMFIELDVALUE#"

// CustomFieldValues is the partition holding a space's custom field
// values (the space's own; read with CustomFieldValuePrefix).
func CustomFieldValues(spaceID string) string { return "SPACE#" + spaceID }

// CustomFieldValue is a space's value of a custom field, by the field's id.
func CustomFieldValue(spaceID, fieldID string) Key {
	return Key{CustomFieldValues(spaceID), CustomFieldValuePrefix + fieldID}
}

// CustomFieldValueByField places a value in its field's list of values (GSI1).
func CustomFieldValueByField(fieldID, spaceID string) IndexKey {
	return IndexKey{FieldValues(fieldID), "SPACE#" + spaceID}
}

// FieldValues is the GSI1 partition of a custom field's values.
func FieldValues(fieldID string) string { return CustomFieldPrefix + fieldID + "#VALUES" }

// SAMLProviderPrefix is the sort-key prefix of an organization's SAML providers.
const SAMLProviderPrefix = "SAML#"

// SAMLProvider is an organization's SAML identity provider.
func SAMLProvider(orgID, providerID string) Key {
	return Key{OrgPartition(orgID), SAMLProviderPrefix + providerID}
}

// OIDCProviderPrefix is the sort-key prefix of an organization's OpenID
// Connect providers.
const OIDCProviderPrefix = "OIDC#"

// OIDCProvider is an organization's OpenID Connect identity provider.
func OIDCProvider(orgID, providerID string) Key {
	return Key{OrgPartition(orgID), OIDCProviderPrefix + providerID}
}

// TranslationPrefix is the sort-key prefix of an organization's translation settings.
const TranslationPrefix = "TRANSLATION#"

// Translation is an organization's translation settings.
func Translation(orgID, translationID string) Key {
	return Key{OrgPartition(orgID), TranslationPrefix + translationID}
}

// WebhookPrefix is the sort-key prefix of an organization's webhook endpoints.
const WebhookPrefix = "WEBHOOK#"

// Webhook is an organization's webhook endpoint.
func Webhook(orgID, webhookID string) Key {
	return Key{OrgPartition(orgID), WebhookPrefix + webhookID}
}

// WebhookPartition is the partition of a webhook endpoint's deliveries.
func WebhookPartition(webhookID string) string { return WebhookPrefix + webhookID }

// WebhookDeliveryPrefix is the sort-key prefix of an endpoint's deliveries.
const WebhookDeliveryPrefix = "DELIVERY#"

// WebhookDelivery is one delivery of an event to a webhook endpoint.
func WebhookDelivery(webhookID, deliveryID string) Key {
	return Key{WebhookPartition(webhookID), WebhookDeliveryPrefix + deliveryID}
}

// WebhookPendingInOrg places a delivery not attempted yet in its
// organization's list of such deliveries, oldest queued first (GSI1):
// how a first attempt whose job was never queued is found again. queuedAt
// is written so that its order is the time's.
func WebhookPendingInOrg(orgID, queuedAt, deliveryID string) IndexKey {
	return IndexKey{OrgPendingDeliveries(orgID), queuedAt + "#" + deliveryID}
}

// OrgPendingDeliveries is the GSI1 partition of an organization's
// deliveries not attempted yet.
func OrgPendingDeliveries(orgID string) string { return "ORG#" + orgID + "#WEBHOOKPENDING" }

// SAMLServiceProvider holds the installation's SAML key pair and the secret
// of its request ids (created once, like the page-token key).
func SAMLServiceProvider() Key { return Key{"INSTANCE", "SAMLSP"} }

// SAMLUsedPartition is the partition of an organization's used SAML
// request and assertion ids, sorted by expiry.
func SAMLUsedPartition(orgID string) string { return "SAMLUSED#" + orgID }

// SAMLUsed marks a SAML request or assertion id (kind REQUEST or ASSERTION)
// as accepted once. expiresAt is a fixed-width UTC timestamp that the id
// itself determines, so that a second use meets the same key.
func SAMLUsed(orgID, expiresAt, kind, id string) Key {
	return Key{SAMLUsedPartition(orgID), expiresAt + "#" + kind + "#" + id}
}

// Space is a space record.
func Space(spaceID string) Key { return Key{"SPACE#" + spaceID, skSpace} }

// SpaceInOrg places a live (not deleted) space in its organization's list (GSI1).
func SpaceInOrg(orgID, spaceID string) IndexKey {
	return IndexKey{OrgSpaces(orgID), "SPACE#" + spaceID}
}

// OrgSpaces is the GSI1 partition of an organization's live spaces.
func OrgSpaces(orgID string) string { return "ORG#" + orgID + "#SPACES" }

// Revision is a revision of a space.
func Revision(spaceID, revisionID string) Key {
	return Key{"SPACE#" + spaceID, "REVISION#" + revisionID}
}

// ChangeRequest is a change request of a space.
func ChangeRequest(spaceID, changeRequestID string) Key {
	return Key{"SPACE#" + spaceID, "CR#" + changeRequestID}
}

// ChangeRequestNumber reserves a change request's number in its space
// (written with the request, "put if not exists") and finds it by number.
func ChangeRequestNumber(spaceID string, number int) Key {
	return Key{"SPACE#" + spaceID, "CRNUM#" + number10(number)}
}

// ChangeRequestByStatus places a change request in its space's list of
// requests of its status, by number (GSI1).
func ChangeRequestByStatus(spaceID, status string, number int) IndexKey {
	return IndexKey{SpaceChangeRequests(spaceID, status), number10(number)}
}

// SpaceChangeRequests is the GSI1 partition of a space's change requests of
// one status.
func SpaceChangeRequests(spaceID, status string) string {
	return "SPACE#" + spaceID + "#CRS#" + status
}

// ChangeRequestContributor is a copy of a change request kept for one of its
// contributors, so that a contributor's requests list without a join.
func ChangeRequestContributor(spaceID, userID, changeRequestID string) Key {
	return Key{"SPACE#" + spaceID, "CRBY#" + userID + "#" + changeRequestID}
}

// ContributorByStatus places a contributor's copy in the list of their
// requests of its status, by number (GSI1).
func ContributorByStatus(spaceID, userID, status string, number int) IndexKey {
	return IndexKey{ContributorChangeRequests(spaceID, userID, status), number10(number)}
}

// ContributorChangeRequests is the GSI1 partition of a contributor's change
// requests of one status in a space.
func ContributorChangeRequests(spaceID, userID, status string) string {
	return "SPACE#" + spaceID + "#CRBY#" + userID + "#" + status
}

// ChangeRequestInOrg places a change request in its organization's list
// of requests of its status, most recently updated last (GSI2). updatedAt
// is written so that its order is the time's (ChangeRequestTime).
func ChangeRequestInOrg(orgID, status, updatedAt, changeRequestID string) IndexKey {
	return IndexKey{OrgChangeRequests(orgID, status), updatedAt + "#" + changeRequestID}
}

// OrgChangeRequests is the GSI2 partition of an organization's change
// requests of one status, by last update.
func OrgChangeRequests(orgID, status string) string {
	return "ORG#" + orgID + "#CRS#UPDATED#" + status
}

// ChangeRequestCreatedInOrg places a change request (its creator's copy) in
// its organization's list of requests of its status, by creation: ids sort
// by creation time (GSI2).
func ChangeRequestCreatedInOrg(orgID, status, changeRequestID string) IndexKey {
	return IndexKey{OrgChangeRequestsByCreation(orgID, status), changeRequestID}
}

// OrgChangeRequestsByCreation is the GSI2 partition of an organization's
// change requests of one status, by creation.
func OrgChangeRequestsByCreation(orgID, status string) string {
	return "ORG#" + orgID + "#CRS#CREATED#" + status
}

// ChangeRequestReview is a review of a change request. Review ids sort by
// submission time.
func ChangeRequestReview(spaceID, changeRequestID, reviewID string) Key {
	return Key{"SPACE#" + spaceID, ReviewPrefix(changeRequestID) + reviewID}
}

// ReviewPrefix is the sort-key prefix of a change request's reviews.
func ReviewPrefix(changeRequestID string) string { return "CRREVIEW#" + changeRequestID + "#" }

// ReviewRequest is a pending request for a user's review of a change
// request.
func ReviewRequest(spaceID, changeRequestID, userID string) Key {
	return Key{"SPACE#" + spaceID, ReviewRequestPrefix(changeRequestID) + userID}
}

// ReviewRequestPrefix is the sort-key prefix of a change request's pending
// review requests.
func ReviewRequestPrefix(changeRequestID string) string { return "CRREQ#" + changeRequestID + "#" }

// number10 writes n with ten digits, so that numbers sort as strings.
func number10(n int) string {
	b := []byte("0000000000")
	for i := len(b) - 1; i >= 0 && n > 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b)
}

// Site is a docs site record, holding its whole structure.
func Site(siteID string) Key { return Key{SitePartition(siteID), "SITE"} }

// SitePartition is the partition of a site's items.
func SitePartition(siteID string) string { return "SITE#" + siteID }

// SiteInOrg places a site in its organization's list (GSI1).
func SiteInOrg(orgID, siteID string) IndexKey {
	return IndexKey{OrgSites(orgID), "SITE#" + siteID}
}

// OrgSites is the GSI1 partition of an organization's sites.
func OrgSites(orgID string) string { return "ORG#" + orgID + "#SITES" }

// SiteAdaptiveSchema is a site's adaptive content schema.
func SiteAdaptiveSchema(siteID string) Key { return Key{SitePartition(siteID), "ADAPTIVE_SCHEMA"} }

// SitePublishingAuth is a site's publishing auth: the private key that
// signs its visitor tokens, and its fallback URL.
func SitePublishingAuth(siteID string) Key { return Key{SitePartition(siteID), "PUBLISHING_AUTH"} }

// SiteCustomization is a site's customization settings with the overrides
// of its site spaces (one item: the published view reads it with the site).
func SiteCustomization(siteID string) Key { return Key{SitePartition(siteID), "CUSTOMIZATION"} }

// SiteRedirectPrefix begins the sort keys of a site's redirects of one state
// ("live" or "draft") and kind ("E" an exact source, "W" a wildcard).
func SiteRedirectPrefix(state, kind string) string { return "REDIRECT#" + state + "#" + kind + "#" }

// SiteRedirect is a redirect of a site, keyed by its source so that the
// renderer's lookup of a path is one read.
func SiteRedirect(siteID, state, kind, source string) Key {
	return Key{SitePartition(siteID), SiteRedirectPrefix(state, kind) + source}
}

// SiteRedirectID points from a redirect's id to its source.
func SiteRedirectID(siteID, redirectID string) Key {
	return Key{SitePartition(siteID), "REDIRECTID#" + redirectID}
}

// SiteOrigin reserves a site's proxy origin (host and path) or hostname
// across the installation, and finds the site a published URL names.
func SiteOrigin(origin string) Key { return Key{"SITEORIGIN#" + origin, "SITEORIGIN"} }

// SiteBasename reserves a basename for one site of an organization
// (uniqueness: two sites with one basename would share a published URL).
func SiteBasename(orgID, basename string) Key {
	return Key{"SITEBASENAME#" + orgID + "#" + basename, "SITEBASENAME"}
}

// CommentPrefix begins the sort keys of a thread partition's comments.
const CommentPrefix = "COMMENT#"

// CommentThread is the partition of the comments (and their replies) made
// on a space's content (changeRequestID "") or in one of its change requests.
func CommentThread(spaceID, changeRequestID string) string {
	if changeRequestID == "" {
		return "SPACE#" + spaceID + "#COMMENTS"
	}
	return "SPACE#" + spaceID + "#CR#" + changeRequestID + "#COMMENTS"
}

// Comment is a comment of a thread (see CommentThread).
func Comment(thread, commentID string) Key { return Key{thread, CommentPrefix + commentID} }

// CommentByStatus places a comment among its thread's comments of its
// status, in posting order (GSI1).
func CommentByStatus(thread, status, commentID string) IndexKey {
	return IndexKey{CommentsOfStatus(thread, status), commentID}
}

// CommentsOfStatus is the GSI1 partition of a thread's comments of one status.
func CommentsOfStatus(thread, status string) string { return thread + "#" + status }

// CommentByPage places a comment targeting a page among its thread's
// comments on that page, in posting order (GSI2).
func CommentByPage(thread, pageID, commentID string) IndexKey {
	return IndexKey{CommentsOnPage(thread, pageID), commentID}
}

// CommentsOnPage is the GSI2 partition of a thread's comments on one page.
func CommentsOnPage(thread, pageID string) string { return thread + "#PAGE#" + pageID }

// CommenterPrefix begins the sort keys of a thread partition's commenters.
const CommenterPrefix = "COMMENTER#"

// Commenter records that a user posted a comment or a reply in a thread
// (see CommentThread).
func Commenter(thread, userID string) Key { return Key{thread, CommenterPrefix + userID} }

// CommentReply is a reply to a comment, in the comment's thread partition.
func CommentReply(thread, commentID, replyID string) Key {
	return Key{thread, ReplyPrefix(commentID) + replyID}
}

// ReplyPrefix begins the sort keys of a comment's replies (posting order).
func ReplyPrefix(commentID string) string { return "REPLY#" + commentID + "#" }

// OpenAPISpecPrefix begins the sort keys of an organization's OpenAPI specs.
const OpenAPISpecPrefix = "OPENAPI#"

// OpenAPISpec is an organization's OpenAPI spec, by slug (unique in the
// organization; lists come in slug order).
func OpenAPISpec(orgID, slug string) Key { return Key{OrgPartition(orgID), OpenAPISpecPrefix + slug} }

// OpenAPIVersionPrefix begins the sort keys of a spec's versions.
const OpenAPIVersionPrefix = "VERSION#"

// OpenAPIVersions is the partition of a spec's versions (by the spec's id,
// so that a spec made again under a deleted one's slug starts afresh).
func OpenAPIVersions(specID string) string { return "OPENAPI#" + specID }

// OpenAPIVersion is a version of an OpenAPI spec; ids sort by creation.
func OpenAPIVersion(specID, versionID string) Key {
	return Key{OpenAPIVersions(specID), OpenAPIVersionPrefix + versionID}
}

// GitSync is a space's Git Sync state: provider details, the order of its
// imports and exports, the last operation.
func GitSync(spaceID string) Key { return Key{"SPACE#" + spaceID, "GITSYNC"} }

// SiteGitSync is a site's Git Sync state (site-wide Git Sync): the
// repository, docs.yaml's keys and the ids they stand for, the last
// operation.
func SiteGitSync(siteID string) Key { return Key{"SITE#" + siteID, "GITSYNC"} }

// GitPollSpaces is the partition listing the spaces whose Git Sync polls
// its branch (the poll fallback reads it whole).
func GitPollSpaces() string { return "GITPOLL" }

// GitPolled lists a space whose Git Sync polls its branch.
func GitPolled(spaceID string) Key { return Key{GitPollSpaces(), "SPACE#" + spaceID} }

// InsightsPartition is the partition of a site's insights counters.
func InsightsPartition(siteID string) string { return "INSIGHTS#" + siteID }

// InsightsCounterPrefix begins the sort keys of a site's counters of a day
// or month ("2026-11" or "2026-11-28"; "" for every counter).
func InsightsCounterPrefix(period string) string { return "COUNT#" + period }

// InsightsCounter is one counter of a site's events of a day: its events,
// visitors and sessions for one combination of event type, site section,
// site space, page and the event's own facts (counterID hashes them).
func InsightsCounter(siteID, day, counterID string) Key {
	return Key{InsightsPartition(siteID), InsightsCounterPrefix(day) + "#" + counterID}
}

// InsightsMonthPrefix begins the sort keys of a site's monthly roll-ups
// of a month ("2026-11").
func InsightsMonthPrefix(month string) string { return "MONTH#" + month }

// InsightsMonthCounter is a counter's roll-up over a month: the sum of
// the counter's days of that month (the same facts but the day; counterID
// hashes them with the month).
func InsightsMonthCounter(siteID, month, counterID string) Key {
	return Key{InsightsPartition(siteID), InsightsMonthPrefix(month) + "#" + counterID}
}

// InsightsTotalPrefix begins the sort keys of a site's totals by event
// type of a day or month ("2026-11-28" or "2026-11").
func InsightsTotalPrefix(period string) string { return "TOTAL#" + period }

// InsightsTotal is a site's total of a day's events of one type: the sum
// of the day's counters of that type.
func InsightsTotal(siteID, day, eventType string) Key {
	return Key{InsightsPartition(siteID), InsightsTotalPrefix(day) + "#" + eventType}
}

// InsightsPackPrefix begins the sort keys of a site's day packs of a
// day (yyyy-mm-dd), or of one type of a day (yyyy-mm-dd#<eventType>#).
func InsightsPackPrefix(period string) string { return "PACK#" + period }

// InsightsPack is one chunk of a day's pack of one event type: the day's
// counters of that type in a few items, written once the day is closed.
func InsightsPack(siteID, day, eventType string, chunk int) Key {
	return Key{InsightsPartition(siteID), InsightsPackPrefix(day) + "#" + eventType + "#" + strconv.Itoa(chunk)}
}

// InsightsDays lists the days whose markers a site keeps (the sweep's
// list).
func InsightsDays(siteID string) Key { return Key{InsightsPartition(siteID), "DAYS"} }

// InsightsDayPartition is the partition of a site's markers of a day.
func InsightsDayPartition(siteID, day string) string { return "INSIGHTSDAY#" + siteID + "#" + day }

// InsightsMarker records, for a day, that something was counted once: a
// visitor or session for a counter, a visitor's vote on a page, a job.
func InsightsMarker(siteID, day, marker string) Key {
	return Key{InsightsDayPartition(siteID, day), "MARK#" + marker}
}

// InsightsSalt is a day's random salt of visitor hashes. It is in the
// INSTANCE partition, where the reader function may put items.
func InsightsSalt(day string) Key { return Key{"INSTANCE", "INSIGHTSSALT#" + day} }

// AuditEventPrefix is the sort-key prefix of an organization's audit
// events in their partition.
const AuditEventPrefix = "EVENT#"

// AuditPartition is the partition of an organization's audit events, by
// event id (a UUIDv7: in order of occurrence, to the millisecond).
func AuditPartition(orgID string) string { return "ORG#" + orgID + "#AUDIT" }

// AuditEvent is one audit event of an organization.
func AuditEvent(orgID, eventID string) Key {
	return Key{AuditPartition(orgID), AuditEventPrefix + eventID}
}

// AuditExpiries is the GSI1 partition of every audit event, by expiry:
// local mode's sweep reads it oldest first (in AWS, DynamoDB's TTL removes
// expired events).
const AuditExpiries = "AUDIT#EXPIRES"

// AuditEventByExpiry places an audit event in the expiry index (GSI1).
func AuditEventByExpiry(expiresAt, orgID, eventID string) IndexKey {
	return IndexKey{AuditExpiries, expiresAt + "#" + orgID + "#" + eventID}
}

// IdempotentRequest is the answer kept for a request sent with an
// Idempotency-Key header: one item per hash of the caller's token, the
// operation and the key (a hash, so that keys of any characters spread
// over partitions and no token is stored).
func IdempotentRequest(hash string) Key { return Key{"IDEMPOTENCY#" + hash, "IDEMPOTENCY"} }

// IdempotencyExpiries is the GSI1 partition of every kept answer, by
// expiry: local mode's sweep reads it oldest first (in AWS, DynamoDB's TTL
// removes expired answers).
const IdempotencyExpiries = "IDEMPOTENCY#EXPIRES"

// IdempotentRequestByExpiry places a kept answer in the expiry index (GSI1).
func IdempotentRequestByExpiry(expiresAt, hash string) IndexKey {
	return IndexKey{IdempotencyExpiries, expiresAt + "#" + hash}
}

// SCIMTokenPrefix is the sort-key prefix of an organization's SCIM tokens
// (their references, by id), and the partition prefix of a SCIM token by
// its hash.
const SCIMTokenPrefix = "SCIMTOKEN#"

// SCIMToken is a SCIM token by the hash of its secret (authentication).
func SCIMToken(hash string) Key { return Key{SCIMTokenPrefix + hash, "SCIMTOKEN"} }

// SCIMTokenRef is an organization's SCIM token by id (list, revoke).
func SCIMTokenRef(orgID, tokenID string) Key {
	return Key{OrgPartition(orgID), SCIMTokenPrefix + tokenID}
}

// SCIMUserPrefix is the sort-key prefix of what SCIM provisioning keeps of
// an organization's members (externalId, name parts).
const SCIMUserPrefix = "SCIMUSER#"

// SCIMUser is what SCIM keeps of a member.
func SCIMUser(orgID, userID string) Key { return Key{OrgPartition(orgID), SCIMUserPrefix + userID} }

// SCIMUserNamePrefix is the sort-key prefix of the userNames SCIM has
// given an organization's members, one item per userName (lower-cased):
// written in the same transaction as the member's SCIM record, only if
// absent, it keeps userNames unique under concurrent requests.
const SCIMUserNamePrefix = "SCIMUSERNAME#"

// SCIMUserName is the claim of a userName in an organization; lower is
// the userName lower-cased (userNames compare ignoring case).
func SCIMUserName(orgID, lower string) Key {
	return Key{OrgPartition(orgID), SCIMUserNamePrefix + lower}
}

// SCIMGroupPrefix is the sort-key prefix of what SCIM provisioning keeps
// of an organization's teams (externalId).
const SCIMGroupPrefix = "SCIMGROUP#"

// SCIMGroup is what SCIM keeps of a team.
func SCIMGroup(orgID, teamID string) Key { return Key{OrgPartition(orgID), SCIMGroupPrefix + teamID} }
