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
	return []Entity{
		{Name: "Instance secret", PK: "INSTANCE", SK: "SECRET", Patterns: []Pattern{{"Read the page-token signing key", "table", "PK = INSTANCE AND SK = SECRET"}}},
		{Name: "Instance admin marker", PK: "INSTANCE", SK: "ADMIN", Patterns: []Pattern{{"Bootstrap the administrator once", "table", "put if not exists"}}},
		{Name: "User", PK: "USER#<userId>", SK: "USER", GSI1: "USERS / <userId>", Patterns: []Pattern{
			{"Get a user", "table", "PK = USER#<userId> AND SK = USER"},
			{"List the instance's users (creation order)", "GSI1", "GSI1PK = USERS"},
		}},
		{Name: "Email reservation", PK: "EMAIL#<email>", SK: "EMAIL", Patterns: []Pattern{{"Find a user by email; keep emails unique", "table", "PK = EMAIL#<email> AND SK = EMAIL"}}},
		{Name: "API token", PK: "TOKEN#<sha256(secret)>", SK: "TOKEN", Patterns: []Pattern{{"Authenticate a request", "table", "PK = TOKEN#<hash> AND SK = TOKEN"}}},
		{Name: "API token reference", PK: "USER#<userId>", SK: "TOKENID#<tokenId>", Patterns: []Pattern{
			{"List a user's tokens (without secrets); revoke or rotate one", "table", "PK = USER#<userId> AND begins_with(SK, TOKENID#)"},
		}},
		{Name: "Organization", PK: "ORG#<orgId>", SK: "ORG", Patterns: []Pattern{{"Get an organization", "table", "PK = ORG#<orgId> AND SK = ORG"}}},
		{Name: "Member", PK: "ORG#<orgId>", SK: "MEMBER#<userId>", GSI1: "USER#<userId> / ORG#<orgId>", GSI2: "ORG#<orgId>#MEMBERS / <joinedAt>#<userId>", Patterns: []Pattern{
			{"Get a caller's membership (every authorization)", "table", "PK = ORG#<orgId> AND SK = MEMBER#<userId>"},
			{"List the organizations of a user", "GSI1", "GSI1PK = USER#<userId> AND begins_with(GSI1SK, ORG#)"},
			{"List members by join date", "GSI2", "GSI2PK = ORG#<orgId>#MEMBERS"},
			{"All members (filters, sort by last seen)", "table", "PK = ORG#<orgId> AND begins_with(SK, MEMBER#)"},
		}},
		{Name: "Email domain", PK: "DOMAIN#<domain>", SK: "ORG#<orgId>", Patterns: []Pattern{{"Organizations of an email domain", "table", "PK = DOMAIN#<domain>"}}},
		{Name: "Team", PK: "ORG#<orgId>", SK: "TEAM#<teamId>", Patterns: []Pattern{
			{"Get a team", "table", "PK = ORG#<orgId> AND SK = TEAM#<teamId>"},
			{"List teams (creation order)", "table", "PK = ORG#<orgId> AND begins_with(SK, TEAM#)"},
		}},
		{Name: "Team member", PK: "ORG#<orgId>", SK: "TEAMMEMBER#<teamId>#<userId>", GSI1: "MEMBER#<orgId>#<userId> / TEAM#<teamId>", Patterns: []Pattern{
			{"Members of a team", "table", "PK = ORG#<orgId> AND begins_with(SK, TEAMMEMBER#<teamId>#)"},
			{"Teams of a member", "GSI1", "GSI1PK = MEMBER#<orgId>#<userId>"},
		}},
		{Name: "Invite link", PK: "ORG#<orgId>", SK: "INVITE#<inviteId>", Patterns: []Pattern{{"Get an invite link", "table", "PK = ORG#<orgId> AND SK = INVITE#<inviteId>"}}},
		{Name: "Collection", PK: "COLLECTION#<collectionId>", SK: "COLLECTION", GSI1: "ORG#<orgId>#COLLECTIONS / <path>",
			GSI2: "COLLECTION#<parentId>#COLLECTIONS / <position> (at the top level: ORG#<orgId>#TOP#COLLECTIONS / <position>)", Patterns: []Pattern{
				{"Get a collection", "table", "PK = COLLECTION#<collectionId> AND SK = COLLECTION"},
				{"List an organization's collections in tree order (nested)", "GSI1", "GSI1PK = ORG#<orgId>#COLLECTIONS"},
				{"List the collections of a parent in order (top level: not nested)", "GSI2", "GSI2PK = ORG#<orgId>#TOP#COLLECTIONS"},
			}},
		{Name: "Entry at the top level", PK: "ORG#<orgId>#TOP", SK: "CHILD#<position>", Patterns: []Pattern{
			{"Neighbours of a position; keep positions unique among siblings", "table", "PK = ORG#<orgId>#TOP AND begins_with(SK, CHILD#)"},
		}},
		{Name: "Entry in a collection", PK: "COLLECTION#<collectionId>", SK: "CHILD#<position>", Patterns: []Pattern{
			{"Children of a collection in order, read consistently (moves, transfers)", "table", "PK = COLLECTION#<collectionId> AND begins_with(SK, CHILD#)"},
		}},
		{Name: "Grant on a space", PK: "SPACE#<spaceId>", SK: "GRANT#<USER|TEAM>#<principalId>", GSI1: "ORG#<orgId>#GRANTS#<USER|TEAM>#<principalId> / SPACE#<spaceId>", Patterns: []Pattern{
			{"Grants of a space", "table", "PK = SPACE#<spaceId> AND begins_with(SK, GRANT#)"},
			{"The caller's and their teams' grants on one space and the collections above it (one decision; one batch get)", "table", "PK = SPACE#<spaceId> AND SK = GRANT#<USER|TEAM>#<principalId>"},
			{"Grants of a user or a team in an organization (decisions on lists of content)", "GSI1", "GSI1PK = ORG#<orgId>#GRANTS#<USER|TEAM>#<principalId>"},
		}},
		{Name: "Grant on a collection", PK: "COLLECTION#<collectionId>", SK: "GRANT#<USER|TEAM>#<principalId>", GSI1: "ORG#<orgId>#GRANTS#<USER|TEAM>#<principalId> / COLLECTION#<collectionId>", Patterns: []Pattern{
			{"Grants of a collection", "table", "PK = COLLECTION#<collectionId> AND begins_with(SK, GRANT#)"},
			{"The caller's and their teams' grants on a collection above content (one decision; one batch get)", "table", "PK = COLLECTION#<collectionId> AND SK = GRANT#<USER|TEAM>#<principalId>"},
		}},
		{Name: "Custom field", PK: "ORG#<orgId>", SK: "CUSTOMFIELD#<name>", Patterns: []Pattern{
			{"Get a custom field by name; keep names unique", "table", "PK = ORG#<orgId> AND SK = CUSTOMFIELD#<name>"},
			{"List an organization's custom fields (name order)", "table", "PK = ORG#<orgId> AND begins_with(SK, CUSTOMFIELD#)"},
		}},
		{Name: "Custom field value", PK: "SPACE#<spaceId>", SK: "CUSTOMFIELDVALUE#<fieldId>", GSI1: "CUSTOMFIELD#<fieldId>#VALUES / SPACE#<spaceId>", Patterns: []Pattern{
			{"A space's custom field values", "table", "PK = SPACE#<spaceId> AND begins_with(SK, CUSTOMFIELDVALUE#)"},
			{"Every value of a field (removed with the field)", "GSI1", "GSI1PK = CUSTOMFIELD#<fieldId>#VALUES"},
		}},
		{Name: "SAML provider", PK: "ORG#<orgId>", SK: "SAML#<providerId>", Patterns: []Pattern{
			{"Get a SAML provider (its settings, sign-in)", "table", "PK = ORG#<orgId> AND SK = SAML#<providerId>"},
			{"List an organization's SAML providers (creation order); SSO login info", "table", "PK = ORG#<orgId> AND begins_with(SK, SAML#)"},
		}},
		{Name: "Translation settings", PK: "ORG#<orgId>", SK: "TRANSLATION#<translationId>", Patterns: []Pattern{
			{"Get translation settings", "table", "PK = ORG#<orgId> AND SK = TRANSLATION#<translationId>"},
			{"List an organization's translation settings (creation order)", "table", "PK = ORG#<orgId> AND begins_with(SK, TRANSLATION#)"},
		}},
		{Name: "SAML service-provider key", PK: "INSTANCE", SK: "SAMLSP", Patterns: []Pattern{
			{"Read the SAML signing key, certificate and request-id secret (created once)", "table", "PK = INSTANCE AND SK = SAMLSP"},
		}},
		{Name: "Used SAML id", PK: "SAMLUSED#<orgId>", SK: "<expiresAt>#<REQUEST|ASSERTION>#<messageId>", Patterns: []Pattern{
			{"Accept a SAML request id or assertion id once (replay)", "table", "put if not exists"},
			{"Prune used ids past their expiry (oldest first)", "table", "PK = SAMLUSED#<orgId>"},
		}},
		{Name: "Space", PK: "SPACE#<spaceId>", SK: "SPACE", GSI1: "ORG#<orgId>#SPACES / SPACE#<spaceId> (absent while deleted)",
			GSI2: "COLLECTION#<collectionId>#SPACES / <position> (live spaces in a collection only)", Patterns: []Pattern{
				{"Get a space", "table", "PK = SPACE#<spaceId> AND SK = SPACE"},
				{"List an organization's live spaces (creation order)", "GSI1", "GSI1PK = ORG#<orgId>#SPACES"},
				{"List the live spaces of a collection in order", "GSI2", "GSI2PK = COLLECTION#<collectionId>#SPACES"},
			}},
		{Name: "Revision", PK: "SPACE#<spaceId>", SK: "REVISION#<revisionId>", Patterns: []Pattern{{"Get a revision", "table", "PK = SPACE#<spaceId> AND SK = REVISION#<revisionId>"}}},
		{Name: "Change request", PK: "SPACE#<spaceId>", SK: "CR#<changeRequestId>", GSI1: "SPACE#<spaceId>#CRS#<status> / <number>", Patterns: []Pattern{
			{"Get a change request", "table", "PK = SPACE#<spaceId> AND SK = CR#<changeRequestId>"},
			{"List a space's change requests of a status (newest first)", "GSI1", "GSI1PK = SPACE#<spaceId>#CRS#<status>"},
		}},
		{Name: "Change request number", PK: "SPACE#<spaceId>", SK: "CRNUM#<number>", Patterns: []Pattern{
			{"Find a change request by number; keep numbers unique", "table", "PK = SPACE#<spaceId> AND SK = CRNUM#<number>"},
		}},
		{Name: "Change request contributor copy", PK: "SPACE#<spaceId>", SK: "CRBY#<userId>#<changeRequestId>", GSI1: "SPACE#<spaceId>#CRBY#<userId>#<status> / <number>", Patterns: []Pattern{
			{"List a contributor's change requests of a status (newest first)", "GSI1", "GSI1PK = SPACE#<spaceId>#CRBY#<userId>#<status>"},
		}},
		{Name: "Change request review", PK: "SPACE#<spaceId>", SK: "CRREVIEW#<changeRequestId>#<reviewId>", Patterns: []Pattern{
			{"Get a review", "table", "PK = SPACE#<spaceId> AND SK = CRREVIEW#<changeRequestId>#<reviewId>"},
			{"List a change request's reviews (submission order)", "table", "PK = SPACE#<spaceId> AND begins_with(SK, CRREVIEW#<changeRequestId>#)"},
		}},
		{Name: "Review request", PK: "SPACE#<spaceId>", SK: "CRREQ#<changeRequestId>#<userId>", Patterns: []Pattern{
			{"List a change request's pending review requests; one per user", "table", "PK = SPACE#<spaceId> AND begins_with(SK, CRREQ#<changeRequestId>#)"},
		}},
		{Name: "Space comment", PK: "SPACE#<spaceId>#COMMENTS", SK: "COMMENT#<commentId>", GSI1: "SPACE#<spaceId>#COMMENTS#<status> / <commentId>",
			GSI2: "SPACE#<spaceId>#COMMENTS#PAGE#<pageId> / <commentId> (comments on a page only)", Patterns: []Pattern{
				{"Get a comment of a space's content", "table", "PK = SPACE#<spaceId>#COMMENTS AND SK = COMMENT#<commentId>"},
				{"List a space's comments in posting order (either way)", "table", "PK = SPACE#<spaceId>#COMMENTS AND begins_with(SK, COMMENT#)"},
				{"List a space's open or resolved comments", "GSI1", "GSI1PK = SPACE#<spaceId>#COMMENTS#<status>"},
				{"List a space's comments on a page", "GSI2", "GSI2PK = SPACE#<spaceId>#COMMENTS#PAGE#<pageId>"},
			}},
		{Name: "Space comment reply", PK: "SPACE#<spaceId>#COMMENTS", SK: "REPLY#<commentId>#<replyId>", Patterns: []Pattern{
			{"Get, list (posting order) and delete a comment's replies", "table", "PK = SPACE#<spaceId>#COMMENTS AND begins_with(SK, REPLY#<commentId>#)"},
		}},
		{Name: "Change request comment", PK: "SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS", SK: "COMMENT#<commentId>",
			GSI1: "SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS#<status> / <commentId>",
			GSI2: "SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS#PAGE#<pageId> / <commentId> (comments on a page only)", Patterns: []Pattern{
				{"Get a comment of a change request", "table", "PK = SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS AND SK = COMMENT#<commentId>"},
				{"List a change request's comments in posting order (either way)", "table", "PK = SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS AND begins_with(SK, COMMENT#)"},
				{"List a change request's open or resolved comments", "GSI1", "GSI1PK = SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS#<status>"},
				{"List a change request's comments on a page", "GSI2", "GSI2PK = SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS#PAGE#<pageId>"},
			}},
		{Name: "Change request comment reply", PK: "SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS", SK: "REPLY#<commentId>#<replyId>", Patterns: []Pattern{
			{"Get, list (posting order) and delete a comment's replies", "table", "PK = SPACE#<spaceId>#CR#<changeRequestId>#COMMENTS AND begins_with(SK, REPLY#<commentId>#)"},
		}},
		{Name: "Site", PK: "SITE#<siteId>", SK: "SITE", GSI1: "ORG#<orgId>#SITES / SITE#<siteId>", Patterns: []Pattern{
			{"Get a site with its whole structure (sections, groups, site spaces, share links)", "table", "PK = SITE#<siteId> AND SK = SITE"},
			{"List an organization's sites (creation order)", "GSI1", "GSI1PK = ORG#<orgId>#SITES"},
		}},
		{Name: "Site adaptive schema", PK: "SITE#<siteId>", SK: "ADAPTIVE_SCHEMA", Patterns: []Pattern{{"Get a site's adaptive schema", "table", "PK = SITE#<siteId> AND SK = ADAPTIVE_SCHEMA"}}},
		{Name: "Site publishing auth", PK: "SITE#<siteId>", SK: "PUBLISHING_AUTH", Patterns: []Pattern{{"Get a site's visitor-auth private key and fallback URL (resolving a visitor-auth site's URL; getSitePublishingAuthById)", "table", "PK = SITE#<siteId> AND SK = PUBLISHING_AUTH"}}},
		{Name: "Site customization", PK: "SITE#<siteId>", SK: "CUSTOMIZATION", Patterns: []Pattern{{"Get a site's customization and its site spaces' overrides (with the site, in one batch, for the published view)", "table", "PK = SITE#<siteId> AND SK = CUSTOMIZATION"}}},
		{Name: "Site redirect", PK: "SITE#<siteId>", SK: "REDIRECT#<state>#<kind>#<source>", Patterns: []Pattern{
			{"Find the redirect of an exact source path", "table", "PK = SITE#<siteId> AND SK = REDIRECT#live#E#<source>"},
			{"Find the longest wildcard redirect matching a path", "table", "PK = SITE#<siteId> AND begins_with(SK, REDIRECT#live#W#)"},
			{"List a site's live or draft redirects (by source)", "table", "PK = SITE#<siteId> AND begins_with(SK, REDIRECT#<state>#)"},
		}},
		{Name: "Site redirect id", PK: "SITE#<siteId>", SK: "REDIRECTID#<redirectId>", Patterns: []Pattern{{"Find a redirect by id (update, delete)", "table", "PK = SITE#<siteId> AND SK = REDIRECTID#<redirectId>"}}},
		{Name: "OpenAPI spec", PK: "ORG#<orgId>", SK: "OPENAPI#<slug>", Patterns: []Pattern{
			{"Get a spec by slug; keep slugs unique", "table", "PK = ORG#<orgId> AND SK = OPENAPI#<slug>"},
			{"List an organization's specs (slug order)", "table", "PK = ORG#<orgId> AND begins_with(SK, OPENAPI#)"},
		}},
		{Name: "OpenAPI spec version", PK: "OPENAPI#<specId>", SK: "VERSION#<versionId>", Patterns: []Pattern{
			{"Get a version", "table", "PK = OPENAPI#<specId> AND SK = VERSION#<versionId>"},
			{"List a spec's versions (newest first)", "table", "PK = OPENAPI#<specId> AND begins_with(SK, VERSION#), descending"},
		}},
		{Name: "Git sync state", PK: "SPACE#<spaceId>", SK: "GITSYNC", Patterns: []Pattern{
			{"Git info of a space; order imports and exports; skip repeated jobs", "table", "PK = SPACE#<spaceId> AND SK = GITSYNC"},
		}},
		{Name: "Site origin reservation", PK: "SITEORIGIN#<origin>", SK: "SITEORIGIN", Patterns: []Pattern{
			{"Keep proxy origins unique in the installation", "table", "put if not exists"},
			{"Find the site of a published URL (its host and each leading part of its path, in one batch)", "table", "BatchGet PK = SITEORIGIN#<origin>"},
		}},
		{Name: "Site basename reservation", PK: "SITEBASENAME#<orgId>#<basename>", SK: "SITEBASENAME", Patterns: []Pattern{{"Keep basenames unique in an organization", "table", "put if not exists"}}},
	}
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
