package keys

import (
	"fmt"
	"sort"
	"strings"
)

// Entity documents one kind of item.
type Entity struct {
	Name       string
	PK, SK     string
	GSI1, GSI2 string // "PK / SK" in that index, or ""
	Patterns   []Pattern
}

// Pattern documents one access pattern and the key condition serving it.
type Pattern struct {
	Name      string
	Index     string
	Condition string
}

// Design is the whole key design. Keep it in step with the functions above:
// keys_test.go checks every function against it.
func Design() []Entity {
	specs := []struct {
		Entity
		patterns []patternOf
	}{
		{Entity{Name: "Instance secret", PK: "INSTANCE", SK: "SECRET"}, []patternOf{get("Read the page-token signing key")}},
		{Entity{Name: "Instance admin marker", PK: "INSTANCE", SK: "ADMIN"}, []patternOf{putOnce("Bootstrap the administrator once")}},
		{Entity{Name: "User", PK: "USER#<userId>", SK: "USER", GSI1: "USERS / <userId>"}, []patternOf{get("Get a user"), gsi1("List the instance's users (creation order)")}},
		{Entity{Name: "Email reservation", PK: "EMAIL#<email>", SK: "EMAIL"}, []patternOf{get("Find a user by email; keep emails unique")}},
		{Entity{Name: "API token", PK: "TOKEN#<sha256(secret)>", SK: "TOKEN"}, []patternOf{fixed("Authenticate a request", "table", "PK = TOKEN#<hash> AND SK = TOKEN")}},
		{Entity{Name: "API token reference", PK: "USER#<userId>", SK: "TOKENID#<tokenId>"}, []patternOf{under("List a user's tokens (without secrets); revoke or rotate one", "TOKENID#")}},
		{Entity{Name: "Organization", PK: "ORG#<orgId>", SK: "ORG"}, []patternOf{get("Get an organization")}},
		{Entity{Name: "Member", PK: "ORG#<orgId>", SK: "MEMBER#<userId>", GSI1: "USER#<userId> / ORG#<orgId>", GSI2: "ORG#<orgId>#MEMBERS / <joinedAt>#<userId>"}, []patternOf{get("Get a caller's membership (every authorization)"), fixed("List the organizations of a user", "GSI1", "GSI1PK = USER#<userId> AND begins_with(GSI1SK, ORG#)"), gsi2("List members by join date"), under("All members (filters, sort by last seen)", "MEMBER#")}},
		{Entity{Name: "Email domain", PK: "DOMAIN#<domain>", SK: "ORG#<orgId>"}, []patternOf{partition("Organizations of an email domain")}},
		{Entity{Name: "Team", PK: "ORG#<orgId>", SK: "TEAM#<teamId>"}, []patternOf{get("Get a team"), under("List teams (creation order)", "TEAM#")}},
		{Entity{Name: "Team member", PK: "ORG#<orgId>", SK: "TEAMMEMBER#<teamId>#<userId>", GSI1: "MEMBER#<orgId>#<userId> / TEAM#<teamId>"}, []patternOf{under("Members of a team", "TEAMMEMBER#<teamId>#"), gsi1("Teams of a member")}},
		{Entity{Name: "Invite link", PK: "ORG#<orgId>", SK: "INVITE#<inviteId>"}, []patternOf{get("Get an invite link")}},
		{Entity{Name: "Collection", PK: "COLLECTION#<collectionId>", SK: "COLLECTION", GSI1: "ORG#<orgId>#COLLECTIONS / <path>", GSI2: "COLLECTION#<parentId>#COLLECTIONS / <position> (at the top level: ORG#<orgId>#TOP#COLLECTIONS / <position>)"}, []patternOf{get("Get a collection"), gsi1("List an organization's collections in tree order (nested)"), fixed("List the collections of a parent in order (top level: not nested)", "GSI2", "GSI2PK = ORG#<orgId>#TOP#COLLECTIONS")}},
		{Entity{Name: "Entry at the top level", PK: "ORG#<orgId>#TOP", SK: "CHILD#<position>"}, []patternOf{under("Neighbours of a position; keep positions unique among siblings", "CHILD#")}},
		{Entity{Name: "Entry in a collection", PK: "COLLECTION#<collectionId>", SK: "CHILD#<position>"}, []patternOf{under("Children of a collection in order, read consistently (moves, transfers)", "CHILD#")}},
		{Entity{Name: "Grant on a space", PK: "SPACE#<spaceId>", SK: "GRANT#<USER|TEAM>#<principalId>", GSI1: "ORG#<orgId>#GRANTS#<USER|TEAM>#<principalId> / SPACE#<spaceId>"}, []patternOf{under("Grants of a space", "GRANT#"), get("The caller's and their teams' grants on one space and the collections above it (one decision; one batch get)"), gsi1("Grants of a user or a team in an organization (decisions on lists of content)")}},
		{Entity{Name: "Grant on a collection", PK: "COLLECTION#<collectionId>", SK: "GRANT#<USER|TEAM>#<principalId>", GSI1: "ORG#<orgId>#GRANTS#<USER|TEAM>#<principalId> / COLLECTION#<collectionId>"}, []patternOf{under("Grants of a collection", "GRANT#"), get("The caller's and their teams' grants on a collection above content (one decision; one batch get)")}},
		{Entity{Name: "Grant on a site", PK: "SITE#<siteId>", SK: "GRANT#<USER|TEAM>#<principalId>", GSI1: "ORG#<orgId>#GRANTS#<USER|TEAM>#<principalId> / SITE#<siteId>"}, []patternOf{under("Grants of a site (deleted with the site's partition)", "GRANT#"), get("The caller's and their teams' grants on one site (one decision; one batch get)")}},
		{Entity{Name: "Custom field", PK: "ORG#<orgId>", SK: "CUSTOMFIELD#<name>"}, []patternOf{get("Get a custom field by name; keep names unique"), under("List an organization's custom fields (name order)", "CUSTOMFIELD#")}},
		{Entity{Name: "Custom field value", PK: "SPACE#<spaceId>", SK: "CUSTOMFIELDVALUE#<fieldId>", GSI1: "CUSTOMFIELD#<fieldId>#VALUES / SPACE#<spaceId>"}, []patternOf{under("A space's custom field values", "CUSTOMFIELDVALUE#"), gsi1("Every value of a field (removed with the field)")}},
		{Entity{Name: "SAML provider", PK: "ORG#<orgId>", SK: "SAML#<providerId>"}, []patternOf{get("Get a SAML provider (its settings, sign-in)"), under("List an organization's SAML providers (creation order); SSO login info", "SAML#")}},
		{Entity{Name: "OIDC provider", PK: "ORG#<orgId>", SK: "OIDC#<providerId>"}, []patternOf{get("Get an OpenID Connect provider (its settings, sign-in)"), under("List an organization's OpenID Connect providers (creation order); SSO login info", "OIDC#")}},
		{Entity{Name: "SCIM token", PK: "SCIMTOKEN#<sha256(secret)>", SK: "SCIMTOKEN"}, []patternOf{get("Authenticate a SCIM request (the hash of its bearer token)")}},
		{Entity{Name: "SCIM token reference", PK: "ORG#<orgId>", SK: "SCIMTOKEN#<tokenId>"}, []patternOf{get("Revoke a SCIM token"), under("List an organization's SCIM tokens (creation order)", "SCIMTOKEN#")}},
		{Entity{Name: "SCIM user", PK: "ORG#<orgId>", SK: "SCIMUSER#<userId>"}, []patternOf{get("What SCIM keeps of a member (externalId, name)"), under("Filter SCIM users by externalId", "SCIMUSER#")}},
		{Entity{Name: "SCIM userName", PK: "ORG#<orgId>", SK: "SCIMUSERNAME#<lowerUserName>"}, []patternOf{get("Claim a userName in an organization (unique; written only if absent)")}},
		{Entity{Name: "SCIM group", PK: "ORG#<orgId>", SK: "SCIMGROUP#<teamId>"}, []patternOf{get("What SCIM keeps of a team (externalId)"), under("Filter SCIM groups by externalId", "SCIMGROUP#")}},
		{Entity{Name: "Translation settings", PK: "ORG#<orgId>", SK: "TRANSLATION#<translationId>"}, []patternOf{get("Get translation settings"), under("List an organization's translation settings (creation order)", "TRANSLATION#")}},
		{Entity{Name: "Webhook endpoint", PK: "ORG#<orgId>", SK: "WEBHOOK#<webhookId>"}, []patternOf{get("Get a webhook endpoint (its sealed secret for signing)"), under("List an organization's webhook endpoints (creation order); the endpoints an event goes to", "WEBHOOK#")}},
		{Entity{Name: "Webhook delivery", PK: "WEBHOOK#<webhookId>", SK: "DELIVERY#<deliveryId>", GSI1: "ORG#<orgId>#WEBHOOKPENDING / <queuedAt>#<deliveryId> (not attempted yet only)"}, []patternOf{get("Get a delivery (each attempt claims and records it)"), fixed("List an endpoint's deliveries (newest first)", "table", "PK = WEBHOOK#<webhookId> AND begins_with(SK, DELIVERY#), descending"), gsi1("An organization's deliveries not attempted yet, oldest queued first (first attempts queued again past a deadline)")}},
		{Entity{Name: "SAML service-provider key", PK: "INSTANCE", SK: "SAMLSP"}, []patternOf{get("Read the SAML signing key, certificate and request-id secret (created once)")}},
		{Entity{Name: "Used SAML id", PK: "SAMLUSED#<orgId>", SK: "<expiresAt>#<REQUEST|ASSERTION|OIDCSTATE>#<messageId>"}, []patternOf{putOnce("Accept a SAML request id or assertion id, or an OpenID Connect state, once (replay)"), partition("Prune used ids past their expiry (oldest first)")}},
		{Entity{Name: "Audit event", PK: "ORG#<orgId>#AUDIT", SK: "EVENT#<eventId>", GSI1: "AUDIT#EXPIRES / <expiresAt>#<orgId>#<eventId>"}, []patternOf{get("Get an audit event"), fixed("List an organization's audit events (newest first; filters read in order)", "table", "PK = ORG#<orgId>#AUDIT AND begins_with(SK, EVENT#), descending"), gsi1("Sweep expired audit events, oldest first (local mode; DynamoDB's TTL in AWS)")}},
		{Entity{Name: "Idempotent request", PK: "IDEMPOTENCY#<requestHash>", SK: "IDEMPOTENCY", GSI1: "IDEMPOTENCY#EXPIRES / <expiresAt>#<requestHash>"}, []patternOf{putOnce("Claim an Idempotency-Key for a request (one runs; the others wait or replay)"), get("Replay the answer kept for a key"), gsi1("Sweep expired answers, oldest first (local mode; DynamoDB's TTL in AWS)")}},
		{Entity{Name: "Space", PK: "SPACE#<spaceId>", SK: "SPACE", GSI1: "ORG#<orgId>#SPACES / SPACE#<spaceId> (absent while deleted)", GSI2: "COLLECTION#<collectionId>#SPACES / <position> (live spaces in a collection only)"}, []patternOf{get("Get a space"), gsi1("List an organization's live spaces (creation order)"), gsi2("List the live spaces of a collection in order")}},
		{Entity{Name: "Revision", PK: "SPACE#<spaceId>", SK: "REVISION#<revisionId>"}, []patternOf{get("Get a revision")}},
		{Entity{Name: "Change request", PK: "SPACE#<spaceId>", SK: "CR#<changeRequestId>", GSI1: "SPACE#<spaceId>#CRS#<status> / <number>", GSI2: "ORG#<orgId>#CRS#UPDATED#<status> / <updatedAt>#<changeRequestId>"}, []patternOf{get("Get a change request"), gsi1("List a space's change requests of a status (newest first)"), gsi2("List an organization's change requests of a status by last update (newest first; each status's partition merged in one order)")}},
		{Entity{Name: "Change request number", PK: "SPACE#<spaceId>", SK: "CRNUM#<number>"}, []patternOf{get("Find a change request by number; keep numbers unique")}},
		{Entity{Name: "Change request contributor copy", PK: "SPACE#<spaceId>", SK: "CRBY#<userId>#<changeRequestId>", GSI1: "SPACE#<spaceId>#CRBY#<userId>#<status> / <number>", GSI2: "ORG#<orgId>#CRS#CREATED#<status> / <changeRequestId> (the creator's copy only)"}, []patternOf{gsi1("List a contributor's change requests of a status (newest first)"), gsi2("List an organization's change requests of a status by creation (newest first)")}},
		{Entity{Name: "Change request review", PK: "SPACE#<spaceId>", SK: "CRREVIEW#<changeRequestId>#<reviewId>"}, []patternOf{get("Get a review"), under("List a change request's reviews (submission order)", "CRREVIEW#<changeRequestId>#")}},
		{Entity{Name: "Review request", PK: "SPACE#<spaceId>", SK: "CRREQ#<changeRequestId>#<userId>"}, []patternOf{under("List a change request's pending review requests; one per user", "CRREQ#<changeRequestId>#")}},
		{Entity{Name: "Space comment", PK: "SPACE#<spaceId>#COMMENTS", SK: "COMMENT#<commentId>", GSI1: "SPACE#<spaceId>#COMMENTS#<status> / <commentId>", GSI2: "SPACE#<spaceId>#COMMENTS#PAGE#<pageId> / <commentId> (comments on a page only)"}, []patternOf{get("Get a comment of a space's content"), under("List a space's comments in posting order (either way)", "COMMENT#"), gsi1("List a space's open or resolved comments"), gsi2("List a space's comments on a page")}},
		{Entity{Name: "Space comment reply", PK: "SPACE#<spaceId>#COMMENTS", SK: "REPLY#<commentId>#<replyId>"}, []patternOf{under("Get, list (posting order) and delete a comment's replies", "REPLY#<commentId>#")}},
		{Entity{Name: "Change request comment", PK: "SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS", SK: "COMMENT#<commentId>", GSI1: "SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS#<status> / <commentId>", GSI2: "SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS#PAGE#<pageId> / <commentId> (comments on a page only)"}, []patternOf{get("Get a comment of a change request"), under("List a change request's comments in posting order (either way)", "COMMENT#"), gsi1("List a change request's open or resolved comments"), gsi2("List a change request's comments on a page")}},
		{Entity{Name: "Space commenter", PK: "SPACE#<spaceId>#COMMENTS", SK: "COMMENTER#<userId>"}, []patternOf{under("List the users who posted comments or replies on a space's content (by user id)", "COMMENTER#")}},
		{Entity{Name: "Change request comment reply", PK: "SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS", SK: "REPLY#<commentId>#<replyId>"}, []patternOf{under("Get, list (posting order) and delete a comment's replies", "REPLY#<commentId>#")}},
		{Entity{Name: "Change request commenter", PK: "SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS", SK: "COMMENTER#<userId>"}, []patternOf{under("List the users who posted comments or replies in a change request (by user id)", "COMMENTER#")}},
		{Entity{Name: "Site", PK: "SITE#<siteId>", SK: "SITE", GSI1: "ORG#<orgId>#SITES / SITE#<siteId>"}, []patternOf{get("Get a site with its whole structure (sections, groups, site spaces, share links)"), gsi1("List an organization's sites (creation order)")}},
		{Entity{Name: "Site adaptive schema", PK: "SITE#<siteId>", SK: "ADAPTIVE_SCHEMA"}, []patternOf{get("Get a site's adaptive schema")}},
		{Entity{Name: "Site publishing auth", PK: "SITE#<siteId>", SK: "PUBLISHING_AUTH"}, []patternOf{get("Get a site's visitor-auth private key and fallback URL (resolving a visitor-auth site's URL; getSitePublishingAuthById)")}},
		{Entity{Name: "Site customization", PK: "SITE#<siteId>", SK: "CUSTOMIZATION"}, []patternOf{get("Get a site's customization and its site spaces' overrides (with the site, in one batch, for the published view)")}},
		{Entity{Name: "Site redirect", PK: "SITE#<siteId>", SK: "REDIRECT#<state>#<kind>#<source>"}, []patternOf{fixed("Find the redirect of an exact source path", "table", "PK = SITE#<siteId> AND SK = REDIRECT#live#E#<source>"), under("Find the longest wildcard redirect matching a path", "REDIRECT#live#W#"), under("List a site's live or draft redirects (by source)", "REDIRECT#<state>#")}},
		{Entity{Name: "Site redirect id", PK: "SITE#<siteId>", SK: "REDIRECTID#<redirectId>"}, []patternOf{get("Find a redirect by id (update, delete)")}},
		{Entity{Name: "OpenAPI spec", PK: "ORG#<orgId>", SK: "OPENAPI#<slug>"}, []patternOf{get("Get a spec by slug; keep slugs unique"), under("List an organization's specs (slug order)", "OPENAPI#")}},
		{Entity{Name: "OpenAPI spec version", PK: "OPENAPI#<specId>", SK: "VERSION#<versionId>"}, []patternOf{get("Get a version"), fixed("List a spec's versions (newest first)", "table", "PK = OPENAPI#<specId> AND begins_with(SK, VERSION#), descending")}},
		{Entity{Name: "Git sync state", PK: "SPACE#<spaceId>", SK: "GITSYNC"}, []patternOf{get("Git info of a space; order imports and exports; skip repeated jobs")}},
		{Entity{Name: "Space polled by Git Sync", PK: "GITPOLL", SK: "SPACE#<spaceId>"}, []patternOf{partition("List the spaces whose Git Sync polls its branch (the poll job)")}},
		{Entity{Name: "Site Git sync state", PK: "SITE#<siteId>", SK: "GITSYNC"}, []patternOf{get("Site-wide Git Sync: docs.yaml's keys to a site's sections, site spaces and spaces; the last operation")}},
		{Entity{Name: "Site origin reservation", PK: "SITEORIGIN#<origin>", SK: "SITEORIGIN"}, []patternOf{putOnce("Keep proxy origins unique in the installation"), fixed("Find the site of a published URL (its host and each leading part of its path, in one batch)", "table", "BatchGet PK = SITEORIGIN#<origin>")}},
		{Entity{Name: "Insights counter", PK: "INSIGHTS#<siteId>", SK: "COUNT#<day>#<counterId>"}, []patternOf{get("Add a job's events to a counter (read, then write if unchanged)"), under("Aggregate a site's events over a range (a query per day, or per month when grouped by day)", "COUNT#<day>")}},
		{Entity{Name: "Insights month roll-up", PK: "INSIGHTS#<siteId>", SK: "MONTH#<month>#<counterId>"}, []patternOf{get("Add a job's events to a counter's month (same transaction as its days)"), under("Aggregate a site's events over a range not grouped by day (a query per month)", "MONTH#<month>")}},
		{Entity{Name: "Insights type total", PK: "INSIGHTS#<siteId>", SK: "TOTAL#<day>#<eventType>"}, []patternOf{get("Add a job's events to its day's totals by type (same transaction as its counters)"), under("Aggregate a site's events by type and time only (a query per month)", "TOTAL#<month>")}},
		{Entity{Name: "Insights day pack", PK: "INSIGHTS#<siteId>", SK: "PACK#<day>#<eventType>#<chunk>"}, []patternOf{under("Write a closed day's counters of one type in a few items; aggregate a day through them (a query per day, or per day and type)", "PACK#<day>#")}},
		{Entity{Name: "Insights marker days", PK: "INSIGHTS#<siteId>", SK: "DAYS"}, []patternOf{get("The days whose markers a site keeps (swept after a day)")}},
		{Entity{Name: "Insights marker", PK: "INSIGHTSDAY#<siteId>#<day>", SK: "MARK#<marker>"}, []patternOf{putOnce("Count a visitor or session once a day per counter; one vote per visitor, page and day; a job once"), partition("Sweep a past day's markers")}},
		{Entity{Name: "Insights salt", PK: "INSTANCE", SK: "INSIGHTSSALT#<day>"}, []patternOf{putOnce("Make the day's random salt of visitor hashes once; read it"), get("Delete it two days later")}},
		{Entity{Name: "Site basename reservation", PK: "SITEBASENAME#<orgId>#<basename>", SK: "SITEBASENAME"}, []patternOf{putOnce("Keep basenames unique in an organization")}},
	}
	out := make([]Entity, len(specs))
	for i, s := range specs {
		out[i] = s.Entity
		for _, p := range s.patterns {
			out[i].Patterns = append(out[i].Patterns, p(s.Entity))
		}
	}
	return out
}

// patternOf is an access pattern whose key condition follows from its
// entity's keys, so that the two cannot disagree.
type patternOf func(Entity) Pattern

// get reads one item by its whole key.
func get(name string) patternOf {
	return func(e Entity) Pattern { return Pattern{name, "table", "PK = " + e.PK + " AND SK = " + e.SK} }
}

// under queries the entity's partition for the sort keys beginning with
// prefix.
func under(name, prefix string) patternOf {
	return func(e Entity) Pattern {
		return Pattern{name, "table", "PK = " + e.PK + " AND begins_with(SK, " + prefix + ")"}
	}
}

// partition queries the entity's whole partition.
func partition(name string) patternOf {
	return func(e Entity) Pattern { return Pattern{name, "table", "PK = " + e.PK} }
}

// putOnce writes the item only if it does not exist.
func putOnce(name string) patternOf {
	return func(Entity) Pattern { return Pattern{name, "table", "put if not exists"} }
}

// gsi1 and gsi2 query the entity's partition of that index.
func gsi1(name string) patternOf {
	return func(e Entity) Pattern { return Pattern{name, "GSI1", "GSI1PK = " + indexPK(e.GSI1)} }
}

func gsi2(name string) patternOf {
	return func(e Entity) Pattern { return Pattern{name, "GSI2", "GSI2PK = " + indexPK(e.GSI2)} }
}

// fixed is a pattern whose condition does not follow from the keys alone.
func fixed(name, index, condition string) patternOf {
	return func(Entity) Pattern { return Pattern{name, index, condition} }
}

// indexPK is the partition part of an index's "PK / SK".
func indexPK(gsi string) string {
	pk, _, _ := strings.Cut(gsi, " / ")
	return pk
}

// Markdown renders the design as the tables of docs/storage.md.
func Markdown() string {
	var b strings.Builder
	owners := EntityOwners()
	b.WriteString("| Entity | PK | SK | GSI1 (PK / SK) | GSI2 (PK / SK) | Owner |\n|---|---|---|---|---|---|\n")
	for _, e := range Design() {
		fmt.Fprintf(&b, "| %s | `%s` | `%s` | %s | %s | `%s` |\n", e.Name, e.PK, e.SK, code(e.GSI1), code(e.GSI2), owners[e.Name])
	}
	b.WriteString("\n| Access pattern | Entity | Index | Key condition |\n|---|---|---|---|\n")
	for _, e := range Design() {
		for _, p := range e.Patterns {
			fmt.Fprintf(&b, "| %s | %s | %s | `%s` |\n", p.Name, e.Name, p.Index, p.Condition)
		}
	}
	byOwner := map[string][]string{}
	for name, owner := range Owners() {
		if owner == "" {
			owner = "(shared partition)"
		}
		byOwner[owner] = append(byOwner[owner], "`"+name+"`")
	}
	var ownerNames []string
	for o := range byOwner {
		ownerNames = append(ownerNames, o)
	}
	sort.Strings(ownerNames)
	b.WriteString("\n| Owner (shared/…) | Constructors of package keys only it calls |\n|---|---|\n")
	for _, o := range ownerNames {
		sort.Strings(byOwner[o])
		fmt.Fprintf(&b, "| `%s` | %s |\n", o, strings.Join(byOwner[o], ", "))
	}
	b.WriteString("\n| Exception: package | May use | Why |\n|---|---|---|\n")
	for _, e := range Exceptions() {
		names := "every constructor"
		if e.Names != nil {
			names = "`" + strings.Join(e.Names, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", e.Package, names, e.Why)
	}
	return b.String()
}

func code(s string) string {
	if s == "" {
		return "—"
	}
	return "`" + s + "`"
}
